/*
 * ptrmap.h - the live allocations: a hash index keyed by object pointer
 * over a dense array of records.
 *
 * The index is open addressing with linear probing and backward-shift
 * deletion (no tombstones), 8 bytes a bucket: 32 bits of the pointer's
 * hash and the record's number, so that a probe compares hashes in one
 * cache line and touches a record only on a match. Records live in one
 * array that only grows (freed ones are reused), so growing the index
 * never copies them and memory follows the peak number of live objects:
 * about 48 bytes each, never the log's length.
 * Pointer 0 is reserved as the free-record mark: callers never insert
 * NULL (a NULL allocation is a failed one). Knows nothing of call sites.
 */
#ifndef TA_PTRMAP_H
#define TA_PTRMAP_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct live_alloc {
	uint64_t ptr;		/* key; 0 = a free record */
	uint64_t ts_ns;		/* when it was allocated */
	uint64_t line;		/* line of the allocation */
	uint32_t call_site;	/* call-site id */
	uint32_t bytes_req;
	uint32_t bytes_alloc;
	int16_t cpu;
	uint16_t kind;		/* enum kmem_kind of the allocation */
};

struct ptrmap {
	uint64_t *index;	/* per bucket: hash << 32 | (record + 1); 0 = empty */
	size_t mask;		/* buckets - 1; a power of two */
	struct live_alloc *recs;	/* records; ptr 0: free, ->line links the free ones */
	size_t nrecs, recs_cap;
	size_t free_head;	/* a free record + 1, or 0 */
	size_t count;		/* live records */
	bool borrowed;		/* recs are another's (a file's map): copied before a change */
	bool unindexed;		/* restored: the index is made on the first lookup or change */
};

/* Hashed %p values are 32-bit and raw pointers share high bits: mix all, keep the top. */
static inline uint32_t ptrmap_hash(uint64_t ptr)
{
	return (uint32_t)(((ptr ^ (ptr >> 33)) * 0x9E3779B97F4A7C15ull) >> 32);
}

void ptrmap_init(struct ptrmap *m);
void ptrmap_release(struct ptrmap *m);

/*
 * Size the index for about `live` objects at once (at most PTRMAP_EXPECT_MAX)
 * before they come: each doubling on the way rehashes every live object
 * with a cache miss apiece and touches the pages of both arrays. A guess
 * too small only means the usual growth; too large, an emptier index.
 */
#define PTRMAP_EXPECT_MAX (1u << 20)
void ptrmap_expect(struct ptrmap *m, size_t live);

/*
 * m (initialised, empty) made of saved records, in their order (those
 * with ptr 0 as freed ones); -1 if there are too many. Its index is made
 * when first needed (a report only walks the records). With borrow, m
 * reads them where they are (they must outlive it) until it changes.
 */
int ptrmap_restore(struct ptrmap *m, const struct live_alloc *recs, size_t nrecs, bool borrow);

/* The record for ptr, or NULL. */
struct live_alloc *ptrmap_find(const struct ptrmap *m, uint64_t ptr);

/*
 * The slot for ptr: an existing record (*existed = 1) or a new one with
 * only ->ptr set (*existed = 0). The pointer is valid until the next insert.
 */
struct live_alloc *ptrmap_insert(struct ptrmap *m, uint64_t ptr, int *existed);

/*
 * Hints, for a lookup of ptr a little later: bring its bucket into the
 * cache (far ahead), then the record the bucket names (nearer), looking
 * as far along the probe as most lookups go (PTRMAP_PREFETCH_PROBES). Change
 * nothing, and are right or wrong only for speed.
 */
static inline void ptrmap_prefetch_bucket(const struct ptrmap *m, uint64_t ptr)
{
	__builtin_prefetch(&m->index[ptrmap_hash(ptr) & m->mask]);
}

#define PTRMAP_PREFETCH_PROBES 4	/* buckets looked at: a hit is 2.5 in on average at 75% */

static inline void ptrmap_prefetch_record(const struct ptrmap *m, uint64_t ptr)
{
	uint32_t h = ptrmap_hash(ptr);
	size_t i = h & m->mask;
	int probe;

	for (probe = 0; probe < PTRMAP_PREFETCH_PROBES; probe++, i = (i + 1) & m->mask) {
		uint64_t e = m->index[i];

		if (!e)
			return;	/* not live: an allocation's new record comes from the free list */
		if ((uint32_t)(e >> 32) == h) {
			__builtin_prefetch(&m->recs[(uint32_t)e - 1]);
			return;
		}
	}
}

/* Remove the record at slot (as returned by find/insert). */
void ptrmap_remove(struct ptrmap *m, struct live_alloc *slot);

/* Iterate: for (i = 0; i < m->nrecs; i++) if (m->recs[i].ptr) ... */

/*
 * Another table's view of a ptrmap it shares (of: NULL when it shares
 * none): a row (a 32-bit id of its own) per record, by record number,
 * which the owner's growth never moves.
 */
struct ptrmap_rows {
	const struct ptrmap *of;
	uint32_t *row;
	uint32_t n;
};

/* The row of l, a live record of r->of, set by ptrmap_set_row when it was allocated. */
static inline uint32_t ptrmap_row(const struct ptrmap_rows *r, const struct live_alloc *l)
{
	return r->row[l - r->of->recs];
}

void ptrmap_set_row(struct ptrmap_rows *r, const struct live_alloc *l, uint32_t row);
void ptrmap_rows_release(struct ptrmap_rows *r);

#endif
