/*
 * regroup.h - the allocations counted again under another key than their
 * call site: by origin key (call site, stack), by slab cache, size class,
 * task or GFP flags. Each is an
 * account of its own (account.h, the same matching rules), so that a free
 * finds its allocation's key through that account's live table, as it
 * does for call sites. The analysis and top both count this way.
 *
 * Not here: naming rows by origin (origins.h), output.
 */
#ifndef TA_REGROUP_H
#define TA_REGROUP_H

#include <stddef.h>

#include "account.h"
#include "event.h"
#include "origins.h"
#include "strtab.h"
#include "taskcgroups.h"

/* Count a slab event under its origin key (a free: under its allocation's). */
void count_by_origin(struct account *by_key, struct origin_keys *keys,
		     const struct kmem_event *ev);

/*
 * The slab cache an allocation came from, into out: the event's name=, or,
 * for kmalloc (whose events name no cache), the kmalloc cache of its size
 * class as the kernel spells it in /proc/slabinfo ("kmalloc-192",
 * "kmalloc-1k", "kmalloc-cg-64" when accounted=true, "kmalloc-?-1k" when
 * the event says nothing of accounting, "kmalloc-large" past 8 KiB); a
 * kmem_cache_alloc without name= (6.1 and older print none) by its object
 * size, "(unnamed, 576 bytes)".
 */
size_t slab_cache_name(const struct trace_strings *s, const struct kmem_event *ev, char *out,
		       size_t cap);

/*
 * The kmalloc size class that holds bytes bytes: "kmalloc-8", "kmalloc-96",
 * ..., "kmalloc-1k" ... "kmalloc-8k", "kmalloc-large" past 8 KiB (the
 * kernel's own names of its kmalloc caches).
 */
const char *kmalloc_size_class(uint32_t bytes);

/* Its index among the classes, 0 ("kmalloc-8") to KMALLOC_CLASSES - 1 ("kmalloc-large"). */
#define KMALLOC_CLASSES 14
unsigned kmalloc_size_class_index(uint32_t bytes);

/* The name slab_cache_name gives a kmalloc event (which names no cache), into out. */
size_t kmalloc_cache_name(const struct kmem_event *ev, char *out, size_t cap);

/* What an allocation is counted under, besides its call site and origin. */
enum event_key {
	KEY_CACHE,		/* slab_cache_name */
	KEY_SIZE_CLASS,		/* kmalloc_size_class of bytes_alloc, whatever the event */
	KEY_COMM,		/* the task's name ("(no task)" when the log gives none) */
	KEY_PID,		/* the task as "comm-pid" */
	KEY_GFP,		/* the gfp_flags string ("(no gfp_flags)") */
	KEY_MODULE,		/* the call site's module (callsite_module), with syms */
	KEY_CGROUP,		/* the task's cgroup (taskcgroups.h), "(unknown cgroup)" */
};

/* What names some keys: a module's address, a task's cgroup. */
struct event_key_context {
	const struct symbol_table *syms;	/* KEY_MODULE (or NULL) */
	const struct task_cgroups *tasks;	/* KEY_CGROUP */
	uint64_t *via;		/* KEY_CGROUP: allocations by how their cgroup was found, or NULL */
};

/*
 * The name of an event's key, into out: its cache, size class, task,
 * gfp_flags, call site's module or cgroup (ctx: what names the last two).
 * Returns the length.
 */
size_t event_key_name(const struct trace_strings *s, const struct kmem_event *ev,
		      enum event_key key, const struct event_key_context *ctx, char *out,
		      size_t cap);

/*
 * Count a slab event under the key of that name, names interned in
 * key_names. A free is applied as it is: it credits the key its allocation
 * was counted under (never filtered by task: what a task allocated is freed
 * by anyone); ctx: what names a module or a cgroup.
 */
void count_by_event_key(struct account *by_key, struct strtab *key_names,
			const struct trace_strings *s, const struct kmem_event *ev,
			enum event_key key, const struct event_key_context *ctx);

#endif
