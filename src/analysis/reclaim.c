/*
 * reclaim.c - reclaimable slab caches (reclaim.h): the built-in list of
 * data/reclaimable.txt, matched by name or glob, and the allocations from
 * them counted per call site. No other report reads the counts.
 */
#include <fnmatch.h>
#include <string.h>

#include "error.h"
#include "reclaim.h"

/* data/reclaimable.txt, made into C strings at build time */
static const char *const reclaimable[] = {
#include "reclaimable.inc"
};

bool cache_is_reclaimable(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(reclaimable) / sizeof(reclaimable[0]); i++)
		if (strpbrk(reclaimable[i], "*?[") ? fnmatch(reclaimable[i], name, 0) == 0
						     : strcmp(reclaimable[i], name) == 0)
			return true;
	return false;
}

void reclaim_counts_init(struct reclaim_counts *c)
{
	memset(c, 0, sizeof(*c));
}

void reclaim_counts_release(struct reclaim_counts *c)
{
	free(c->cache_state);
	free(c->by_site);
	memset(c, 0, sizeof(*c));
}

/* Grow a zeroed array of n elements of size to hold index i; its new length. */
static uint32_t grow_to(void **array, uint32_t n, uint32_t i, size_t size)
{
	uint32_t m = n ? n : 64;

	while (m <= i)
		m *= 2;
	*array = xrealloc(*array, (size_t)m * size);
	memset((char *)*array + (size_t)n * size, 0, (size_t)(m - n) * size);
	return m;
}

static bool reclaimable_cache(struct reclaim_counts *c, const struct strtab *caches, uint32_t id)
{
	if (id >= c->ncaches)
		c->ncaches = grow_to((void **)&c->cache_state, c->ncaches, id, 1);
	if (!c->cache_state[id])
		c->cache_state[id] = cache_is_reclaimable(strtab_get(caches, id)) ? 2 : 1;
	return c->cache_state[id] == 2;
}

void reclaim_counts_apply(struct reclaim_counts *c, const struct strtab *caches,
			  const struct kmem_event *ev)
{
	if (!kmem_is_slab_alloc(ev->kind) || ev->cache == STR_NONE || ev->call_site == STR_NONE ||
	    !ev->ptr || !reclaimable_cache(c, caches, ev->cache))
		return;
	if (ev->call_site >= c->nsites)
		c->nsites = grow_to((void **)&c->by_site, c->nsites, ev->call_site, sizeof(uint64_t));
	c->by_site[ev->call_site]++;
}
