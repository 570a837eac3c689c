/*
 * regroup.h - the allocations counted again under another key than their
 * call site: by origin key (call site, stack) and by slab cache. Each is an
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

/* Count a slab event under the size class of its bytes_alloc. */
void count_by_size_class(struct account *by_class, struct strtab *class_names,
			 const struct kmem_event *ev);

enum event_key { KEY_COMM, KEY_PID, KEY_GFP };

/*
 * Count a slab event under a field of its own: the task's name ("(no
 * task)" when the log gives none), the task as "comm-pid", or the
 * gfp_flags string ("(no gfp_flags)"); names interned in key_names. A free
 * is applied as it is: it credits the key its allocation was counted under
 * (never filtered by task: what a task allocated is freed by anyone).
 */
void count_by_task_or_gfp(struct account *by_key, struct strtab *key_names,
			  const struct trace_strings *s, const struct kmem_event *ev,
			  enum event_key key);

/* Count a slab event under its cache, names interned in cache_names. */
void count_by_cache(struct account *by_cache, struct strtab *cache_names,
		    const struct trace_strings *s, const struct kmem_event *ev);

#endif
