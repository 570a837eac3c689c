/*
 * reclaim.h - slab caches whose growth is the page cache's and the
 * dcache's, given back under memory pressure (SLAB_RECLAIM_ACCOUNT:
 * buffer_head, radix_tree_node, dentry, the inode caches...), and, per
 * call site, how many of its allocations came from one: the leak suspects
 * rate a row that mostly fills such caches as reclaimable, never as a
 * leak. The caches are those the log's header lists (record reads them
 * from /sys/kernel/slab), or else data/reclaimable.txt, built in (a dated
 * list).
 *
 * Not here: the suspects' judgement (suspects.h).
 */
#ifndef TA_RECLAIM_H
#define TA_RECLAIM_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "strtab.h"

/*
 * Whether a slab cache of that name is one the kernel reclaims: by the
 * log's own list when it has one (log_list: the names record read from
 * /sys/kernel/slab/NAME/reclaim_account and wrote in the log's header,
 * separated by spaces), else by the built-in list.
 */
bool cache_is_reclaimable(const char *name, const char *log_list);

/*
 * Slab allocations counted by (call site, cache) while the log is read;
 * which caches are reclaimable is decided once its header is known.
 */
struct reclaim_pair {
	uint64_t key;			/* call site << 32 | cache; 0: empty */
	uint64_t count;
};

struct reclaim_counts {
	struct reclaim_pair *pairs;	/* open addressing */
	uint32_t npairs, pairs_cap;
	uint64_t *by_site;		/* by call-site id: allocations from reclaimable caches */
	uint32_t nsites;
};

void reclaim_counts_init(struct reclaim_counts *c);
void reclaim_counts_release(struct reclaim_counts *c);

/* Count ev (a slab allocation naming its cache and call site) under its pair. */
void reclaim_counts_apply(struct reclaim_counts *c, const struct kmem_event *ev);

/* Fill by_site from the pairs: the caches named reclaimable by log_list or the built-in list. */
void reclaim_counts_decide(struct reclaim_counts *c, const struct strtab *caches,
			   const char *log_list);

static inline uint64_t reclaim_count_of(const struct reclaim_counts *c, uint32_t site)
{
	return c && site < c->nsites ? c->by_site[site] : 0;
}

#endif
