/*
 * regroup.c - allocations counted under their origin key or their slab
 * cache (regroup.h). An allocation event is re-keyed and applied to the
 * account of that key; a free is applied as it is, and the account's live
 * table credits the key its allocation was counted under.
 *
 * Not here: which stacks events have (text_stacks.c), what frames mean.
 */
#include <stdio.h>
#include <string.h>

#include "callsite.h"
#include "regroup.h"

void count_by_origin(struct account *by_key, struct origin_keys *keys,
		     const struct kmem_event *ev)
{
	struct kmem_event keyed;

	if (!kmem_is_slab_alloc(ev->kind)) {
		account_apply(by_key, ev);
		return;
	}
	keyed = *ev;
	keyed.call_site = origin_key(keys, ev->call_site, ev->stack);
	account_apply(by_key, &keyed);
}

size_t slab_cache_name(const struct trace_strings *s, const struct kmem_event *ev, char *out,
		       size_t cap)
{
	int n;

	if (!cap)
		return 0;
	if (ev->cache != STR_NONE) {
		size_t len = strtab_length(&s->caches, ev->cache);

		if (len >= cap)
			len = cap - 1;
		memcpy(out, strtab_get(&s->caches, ev->cache), len);
		out[len] = '\0';
		return len;
	}
	if (!kmem_is_malloc_family(ev->kind)) {
		n = snprintf(out, cap, "(unnamed, %u bytes)", ev->bytes_alloc);
		return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
	}
	return kmalloc_cache_name(ev, out, cap);
}

size_t kmalloc_cache_name(const struct kmem_event *ev, char *out, size_t cap)
{
	/* the kernel's spelling of its kmalloc caches, as --group-by size-class's */
	const char *class = kmalloc_size_class(ev->bytes_alloc);
	int n;

	if (!cap)
		return 0;
	if (strcmp(class, "kmalloc-large") == 0)
		n = snprintf(out, cap, "%s", class);
	else	/* "kmalloc-1k", "kmalloc-cg-1k"; "kmalloc-?-1k": accounted= unknown */
		n = snprintf(out, cap, "kmalloc-%s%s",
			     ev->accounted == ACCOUNTED_TRUE ? "cg-" :
			     ev->accounted == ACCOUNTED_ABSENT ? "?-" : "",
			     class + sizeof("kmalloc-") - 1);
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

/* The kmalloc classes, as the kernel names its caches. */
static const struct {
	uint32_t bytes;
	const char *name;
} size_classes[] = {
	{ 8, "kmalloc-8" }, { 16, "kmalloc-16" }, { 32, "kmalloc-32" }, { 64, "kmalloc-64" },
	{ 96, "kmalloc-96" }, { 128, "kmalloc-128" }, { 192, "kmalloc-192" },
	{ 256, "kmalloc-256" }, { 512, "kmalloc-512" }, { 1024, "kmalloc-1k" },
	{ 2048, "kmalloc-2k" }, { 4096, "kmalloc-4k" }, { 8192, "kmalloc-8k" },
};

unsigned kmalloc_size_class_index(uint32_t bytes)
{
	unsigned i;

	for (i = 0; i < sizeof(size_classes) / sizeof(size_classes[0]); i++)
		if (bytes <= size_classes[i].bytes)
			return i;
	return KMALLOC_CLASSES - 1;
}

_Static_assert(sizeof(size_classes) / sizeof(size_classes[0]) == KMALLOC_CLASSES - 1,
	       "KMALLOC_CLASSES counts the classes and kmalloc-large");

const char *kmalloc_size_class(uint32_t bytes)
{
	unsigned i = kmalloc_size_class_index(bytes);

	return i < KMALLOC_CLASSES - 1 ? size_classes[i].name : "kmalloc-large";
}

size_t event_key_name(const struct trace_strings *s, const struct kmem_event *ev,
			     enum event_key key, const struct event_key_context *ctx, char *out,
			     size_t cap)
{
	const struct symbol_table *syms = ctx->syms;
	const struct strtab *t = key == KEY_GFP ? &s->gfps : &s->comms;
	uint32_t id = key == KEY_GFP ? ev->gfp : ev->comm;
	const char *text = id != STR_NONE ? strtab_get(t, id) : NULL;
	int n;

	switch (key) {
	case KEY_CACHE:
		return slab_cache_name(s, ev, out, cap);
	case KEY_MODULE:
		if (ev->call_site == STR_NONE)
			return (size_t)snprintf(out, cap, "(no call site)");
		return callsite_module(strtab_get(&s->call_sites, ev->call_site),
				       strtab_length(&s->call_sites, ev->call_site), syms, out, cap);
	case KEY_SIZE_CLASS:
		n = snprintf(out, cap, "%s", kmalloc_size_class(ev->bytes_alloc));
		break;
	case KEY_PID:
		n = ev->pid >= 0 ? snprintf(out, cap, "%s-%d", text ? text : "", ev->pid)
				 : snprintf(out, cap, "%s", text ? text : "(no task)");
		break;
	case KEY_CGROUP: {
		enum cgroup_via via = CGROUP_VIA_NONE;
		const char *path = ev->pid >= 0 ? task_cgroup_of(ctx->tasks, ev->pid, ev->ts_ns,
								 &via) : NULL;

		if (ctx->via)
			ctx->via[via]++;
		n = snprintf(out, cap, "%s", path ? path : ev->pid >= 0 ? "(unknown cgroup)"
									: "(no task)");
		break;
	}
	default:
		n = snprintf(out, cap, "%s", text ? text : key == KEY_GFP ? "(no gfp_flags)"
								: "(no task)");
		break;
	}
	return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

void count_by_event_key(struct account *by_key, struct strtab *key_names,
			const struct trace_strings *s, const struct kmem_event *ev,
			enum event_key key, const struct event_key_context *ctx)
{
	struct kmem_event keyed;
	char name[512];
	size_t n;

	if (!kmem_is_slab_alloc(ev->kind)) {
		account_apply(by_key, ev);	/* credits the key of its allocation */
		return;
	}
	keyed = *ev;
	n = event_key_name(s, ev, key, ctx, name, sizeof(name));
	keyed.call_site = strtab_intern(key_names, name, n);
	account_apply(by_key, &keyed);
}
