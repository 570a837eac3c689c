/*
 * pagemap.h - the live pages: each page (by pfn, or by its struct page
 * pointer when the log prints no pfn) with its order and a 32-bit id its
 * owner gives it (an origin key, a row, or nothing).
 *
 * One open-addressing table (linear probing, backward-shift deletion, no
 * tombstones) of 12-byte buckets holding the entry itself: the key and
 * the order packed in 64 bits, the id in 32. It grows at 75% full, so a
 * live page costs 16 to 32 bytes, where a ptrmap record and its index
 * (ptrmap.h) cost 56 to 80: a traced machine holds many more pages than
 * slab objects, and only their order and owner are ever asked of them.
 * A key the packed form cannot hold (no kernel prints one: a pfn is under
 * 2^52, a page pointer a kernel address) is kept in a ptrmap beside it,
 * so every key is kept and none is refused. Key 0 is never a page.
 * Not here: what the id means, what is counted of the pages.
 */
#ifndef TA_PAGEMAP_H
#define TA_PAGEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptrmap.h"

/* A bucket: the packed key (its order in the low 6 bits) in lo/hi, then the id. 0: empty. */
struct page_slot {
	uint32_t lo, hi, id;
};

struct pagemap {
	struct page_slot *slots;
	size_t mask;		/* buckets - 1; a power of two */
	size_t used;		/* entries in slots */
	struct ptrmap odd;	/* keys slots cannot hold: order in bytes_alloc, id in call_site */
};

/* A live page as asked and told: its key, order (0..63) and id. */
struct live_page {
	uint64_t key;
	uint32_t id;
	uint32_t order;
};

#define PAGEMAP_ORDER_MAX 63	/* larger orders are kept as this one (pages_of(63) counts one page) */

void pagemap_init(struct pagemap *m);
void pagemap_release(struct pagemap *m);

/* Live pages in m. */
size_t pagemap_count(const struct pagemap *m);

/* Size the table for about `pages` live pages before they come (at most PTRMAP_EXPECT_MAX's worth). */
void pagemap_expect(struct pagemap *m, size_t pages);

/*
 * key (not 0) is live with order and id: true when it was live already,
 * its former order and id then in *was (when not NULL).
 */
bool pagemap_put(struct pagemap *m, uint64_t key, int order, uint32_t id, struct live_page *was);

/* key is live no longer: true, and its order and id in *was (when not NULL); false when it was not live. */
bool pagemap_take(struct pagemap *m, uint64_t key, struct live_page *was);

/*
 * The live pages one by one, in an order of the table's making (the same
 * for the same events): start *cursor at 0; false after the last.
 */
bool pagemap_next(const struct pagemap *m, size_t *cursor, struct live_page *out);

/* Every live page's id made id (a run that keeps no owners). */
void pagemap_set_ids(struct pagemap *m, uint32_t id);

#endif
