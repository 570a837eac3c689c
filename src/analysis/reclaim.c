/*
 * reclaim.c - reclaimable slab caches (reclaim.h): the built-in list of
 * data/reclaimable.txt, matched by name or glob, or the log's own list;
 * and the allocations from them counted per call site. No other report
 * reads the counts.
 */
#include <fnmatch.h>
#include <string.h>

#include "error.h"
#include "reclaim.h"

/* data/reclaimable.txt, made into C strings at build time */
static const char *const reclaimable[] = {
#include "reclaimable.inc"
};

static bool builtin_reclaimable(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(reclaimable) / sizeof(reclaimable[0]); i++)
		if (strpbrk(reclaimable[i], "*?[") ? fnmatch(reclaimable[i], name, 0) == 0
						     : strcmp(reclaimable[i], name) == 0)
			return true;
	return false;
}

/* Whether name is one of the space-separated words of list. */
static bool listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n ? n : 1;
	}
	return false;
}

bool cache_is_reclaimable(const char *name, const char *log_list)
{
	return log_list && *log_list ? listed(log_list, name) : builtin_reclaimable(name);
}

void reclaim_counts_init(struct reclaim_counts *c)
{
	memset(c, 0, sizeof(*c));
}

void reclaim_counts_release(struct reclaim_counts *c)
{
	free(c->pairs);
	free(c->by_site);
	memset(c, 0, sizeof(*c));
}

static uint32_t pair_slot(const struct reclaim_counts *c, uint64_t key)
{
	uint32_t mask = c->pairs_cap - 1, i = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & mask;

	while (c->pairs[i].key && c->pairs[i].key != key)
		i = (i + 1) & mask;
	return i;
}

static void grow_pairs(struct reclaim_counts *c)
{
	struct reclaim_pair *old = c->pairs;
	uint32_t i, n = c->pairs_cap;

	c->pairs_cap = n ? n * 2 : 256;
	c->pairs = xcalloc(c->pairs_cap, sizeof(*c->pairs));
	for (i = 0; i < n; i++)
		if (old[i].key)
			c->pairs[pair_slot(c, old[i].key)] = old[i];
	free(old);
}

void reclaim_counts_apply(struct reclaim_counts *c, const struct kmem_event *ev)
{
	uint64_t key;
	uint32_t i;

	if (!kmem_is_slab_alloc(ev->kind) || ev->cache == STR_NONE || ev->call_site == STR_NONE ||
	    !ev->ptr)
		return;
	key = ((uint64_t)ev->call_site << 32 | ev->cache) + 1;	/* 0 marks an empty slot */
	if (2 * (c->npairs + 1) > c->pairs_cap)
		grow_pairs(c);
	i = pair_slot(c, key);
	if (!c->pairs[i].key) {
		c->pairs[i].key = key;
		c->npairs++;
	}
	c->pairs[i].count++;
}

void reclaim_counts_decide(struct reclaim_counts *c, const struct strtab *caches,
			   const char *log_list)
{
	uint8_t *state = NULL;	/* by cache id: 0 unknown, 1 no, 2 reclaimable */
	uint32_t i, nstate = 0, max_site = 0;

	for (i = 0; i < c->pairs_cap; i++)
		if (c->pairs[i].key && (uint32_t)((c->pairs[i].key - 1) >> 32) >= max_site)
			max_site = (uint32_t)((c->pairs[i].key - 1) >> 32) + 1;
	free(c->by_site);
	c->nsites = max_site;
	c->by_site = xcalloc(max_site ? max_site : 1, sizeof(*c->by_site));
	nstate = caches->count;
	state = xcalloc(nstate ? nstate : 1, 1);
	for (i = 0; i < c->pairs_cap; i++) {
		uint64_t key = c->pairs[i].key - 1;
		uint32_t site = (uint32_t)(key >> 32), cache = (uint32_t)key;

		if (!c->pairs[i].key || cache >= nstate)
			continue;
		if (!state[cache])
			state[cache] = cache_is_reclaimable(strtab_get(caches, cache), log_list) ? 2 : 1;
		if (state[cache] == 2)
			c->by_site[site] += c->pairs[i].count;
	}
	free(state);
}
