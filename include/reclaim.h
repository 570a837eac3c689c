/*
 * reclaim.h - slab caches whose growth is the page cache's and the
 * dcache's, given back under memory pressure (SLAB_RECLAIM_ACCOUNT:
 * buffer_head, radix_tree_node, dentry, the inode caches...), and, per
 * call site, how many of its allocations came from one: the leak suspects
 * rate a row that mostly fills such caches as reclaimable, never as a
 * leak. The caches are data/reclaimable.txt, built in (a dated list).
 *
 * Not here: the suspects' judgement (suspects.h).
 */
#ifndef TA_RECLAIM_H
#define TA_RECLAIM_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "strtab.h"

/* Whether a slab cache of that name is one the kernel reclaims. */
bool cache_is_reclaimable(const char *name);

struct reclaim_counts {
	uint8_t *cache_state;		/* by cache id: 0 unknown, 1 no, 2 reclaimable */
	uint32_t ncaches;
	uint64_t *by_site;		/* by call-site id: allocations from reclaimable caches */
	uint32_t nsites;
};

void reclaim_counts_init(struct reclaim_counts *c);
void reclaim_counts_release(struct reclaim_counts *c);

/* Count ev (a slab allocation naming its cache) under its call site when the cache is reclaimable. */
void reclaim_counts_apply(struct reclaim_counts *c, const struct strtab *caches,
			  const struct kmem_event *ev);

static inline uint64_t reclaim_count_of(const struct reclaim_counts *c, uint32_t site)
{
	return c && site < c->nsites ? c->by_site[site] : 0;
}

#endif
