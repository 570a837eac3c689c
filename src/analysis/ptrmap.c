/*
 * ptrmap.c - a hash index (linear probing, backward-shift deletion after
 * Knuth's Algorithm R) over a dense, reused array of records. The index
 * grows at 75% load; the records never move when it does. Both arrays are
 * bigmem mappings (2 MiB pages asked for: lookups land anywhere). Not
 * here: what a record means.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bigmem.h"
#include "error.h"
#include "ptrmap.h"

#define INITIAL_BUCKETS 4096
#define INITIAL_RECORDS 1024

static inline uint32_t bucket_hash(uint64_t entry)
{
	return (uint32_t)(entry >> 32);
}

static inline size_t bucket_record(uint64_t entry)
{
	return (size_t)(uint32_t)entry - 1;
}

void ptrmap_init(struct ptrmap *m)
{
	memset(m, 0, sizeof(*m));
	m->index = bigmem_alloc(INITIAL_BUCKETS * sizeof(*m->index));
	m->mask = INITIAL_BUCKETS - 1;
}

void ptrmap_release(struct ptrmap *m)
{
	bigmem_free(m->index, (m->mask + 1) * sizeof(*m->index));
	if (!m->borrowed)
		bigmem_free(m->recs, m->recs_cap * sizeof(*m->recs));
	memset(m, 0, sizeof(*m));
}

/* The index's load limit: objects over 75% of the buckets mean more buckets. */
static bool overfull(size_t objects, size_t buckets)
{
	return objects * 4 > buckets * 3;
}

/* Restored records given an index, on the first lookup or change (ptrmap_restore). */
static void index_records(struct ptrmap *m)
{
	size_t buckets = INITIAL_BUCKETS, i;

	m->unindexed = false;
	while (overfull(m->count, buckets))
		buckets *= 2;
	bigmem_free(m->index, (m->mask + 1) * sizeof(*m->index));
	m->index = bigmem_alloc(buckets * sizeof(*m->index));
	m->mask = buckets - 1;
	for (i = 0; i < m->nrecs; i++) {
		size_t b;

		if (!m->recs[i].ptr)
			continue;
		b = ptrmap_hash(m->recs[i].ptr) & m->mask;
		while (m->index[b])	/* a pointer saved live twice (a damaged DB) is indexed twice */
			b = (b + 1) & m->mask;
		m->index[b] = (uint64_t)ptrmap_hash(m->recs[i].ptr) << 32 | (uint64_t)(i + 1);
	}
}

struct live_alloc *ptrmap_find(const struct ptrmap *m, uint64_t ptr)
{
	uint32_t h = ptrmap_hash(ptr);
	size_t i;
	uint64_t e;

	if (m->unindexed)	/* the index is a cache of the records: made on first use */
		index_records((struct ptrmap *)m);
	i = h & m->mask;

	while ((e = m->index[i]) != 0) {
		if (bucket_hash(e) == h && m->recs[bucket_record(e)].ptr == ptr)
			return &m->recs[bucket_record(e)];
		i = (i + 1) & m->mask;
	}
	return NULL;
}

/* The index anew with the given number of buckets (a power of two), every entry rehashed. */
static void resize_index(struct ptrmap *m, size_t buckets)
{
	uint64_t *old = m->index;
	size_t old_buckets = m->mask + 1, i;

	m->index = bigmem_alloc(buckets * sizeof(*m->index));
	m->mask = buckets - 1;
	for (i = 0; i < old_buckets; i++) {
		if (!old[i])
			continue;
		size_t j = bucket_hash(old[i]) & m->mask;

		while (m->index[j])
			j = (j + 1) & m->mask;
		m->index[j] = old[i];
	}
	bigmem_free(old, old_buckets * sizeof(*old));
}

void ptrmap_expect(struct ptrmap *m, size_t live)
{
	size_t buckets = m->mask + 1;

	if (live > PTRMAP_EXPECT_MAX)
		live = PTRMAP_EXPECT_MAX;
	while (overfull(live, buckets))
		buckets *= 2;
	if (buckets > m->mask + 1)	/* one step, not each doubling on the way */
		resize_index(m, buckets);
}

/* Records borrowed from a file (ptrmap_restore) copied, to be changed. */
static void own_records(struct ptrmap *m)
{
	struct live_alloc *recs = bigmem_alloc((m->recs_cap ? m->recs_cap : 1) * sizeof(*recs));

	memcpy(recs, m->recs, m->nrecs * sizeof(*recs));
	m->recs = recs;
	m->recs_cap = m->recs_cap ? m->recs_cap : 1;
	m->borrowed = false;
}

/* A record to fill: a freed one, or a new one at the end. */
static size_t take_record(struct ptrmap *m)
{
	size_t r;

	if (m->borrowed)
		own_records(m);
	if (m->free_head) {
		r = m->free_head - 1;
		m->free_head = (size_t)m->recs[r].line;
		if (m->free_head)	/* the next one taken: freed long ago, so out of the caches */
			__builtin_prefetch(&m->recs[m->free_head - 1].line, 1);
		return r;
	}
	if (m->nrecs == m->recs_cap) {
		size_t cap = m->recs_cap ? m->recs_cap + m->recs_cap / 2 : INITIAL_RECORDS;

		if (cap > UINT32_MAX - 1)
			cap = UINT32_MAX - 1;
		if (m->nrecs == cap) {
			fputs("trace_analyze: error: over 4 billion live objects\n", stderr);
			exit(1);
		}
		m->recs = bigmem_grow(m->recs, m->recs_cap * sizeof(*m->recs), cap * sizeof(*m->recs));
		m->recs_cap = cap;
	}
	return m->nrecs++;
}

struct live_alloc *ptrmap_insert(struct ptrmap *m, uint64_t ptr, int *existed)
{
	uint32_t h = ptrmap_hash(ptr);
	size_t i, r;
	uint64_t e;

	if (m->unindexed)
		index_records(m);
	if (overfull(m->count + 1, m->mask + 1))
		resize_index(m, (m->mask + 1) * 2);
	i = h & m->mask;
	while ((e = m->index[i]) != 0) {
		if (bucket_hash(e) == h && m->recs[bucket_record(e)].ptr == ptr) {
			*existed = 1;
			return &m->recs[bucket_record(e)];
		}
		i = (i + 1) & m->mask;
	}
	r = take_record(m);
	m->index[i] = (uint64_t)h << 32 | (uint64_t)(r + 1);
	memset(&m->recs[r], 0, sizeof(m->recs[r]));
	m->recs[r].ptr = ptr;
	m->count++;
	*existed = 0;
	return &m->recs[r];
}

void ptrmap_remove(struct ptrmap *m, struct live_alloc *slot)
{
	size_t r = (size_t)(slot - m->recs), hole, i;

	if (m->unindexed)
		index_records(m);
	if (m->borrowed) {
		own_records(m);
		slot = &m->recs[r];
	}
	hole = ptrmap_hash(slot->ptr) & m->mask;

	while (bucket_record(m->index[hole]) != r)	/* its bucket: it is in the index */
		hole = (hole + 1) & m->mask;
	for (i = hole;;) {
		i = (i + 1) & m->mask;
		if (!m->index[i])
			break;
		size_t home = bucket_hash(m->index[i]) & m->mask;

		/* Move entry i into the hole unless its home lies in (hole, i]. */
		if (((i - home) & m->mask) >= ((i - hole) & m->mask)) {
			m->index[hole] = m->index[i];
			hole = i;
		}
	}
	m->index[hole] = 0;
	slot->ptr = 0;
	slot->line = m->free_head;
	m->free_head = r + 1;
	m->count--;
}

void ptrmap_set_row(struct ptrmap_rows *r, const struct live_alloc *l, uint32_t row)
{
	uint32_t at = (uint32_t)(l - r->of->recs);

	r->row = xgrow_zeroed(r->row, &r->n, at, sizeof(*r->row));
	r->row[at] = row;
}

void ptrmap_rows_release(struct ptrmap_rows *r)
{
	free(r->row);
	memset(r, 0, sizeof(*r));
}

int ptrmap_restore(struct ptrmap *m, const struct live_alloc *recs, size_t nrecs, bool borrow)
{
	size_t i;

	if (m->count || m->nrecs || nrecs > UINT32_MAX - 1)
		return -1;
	if (borrow && nrecs) {	/* read where they are: no copy, no page to clear */
		m->recs = (struct live_alloc *)recs;
		m->borrowed = true;
		m->recs_cap = nrecs;
	} else {
		m->recs = bigmem_grow(m->recs, m->recs_cap * sizeof(*m->recs),
				      (nrecs ? nrecs : 1) * sizeof(*m->recs));
		m->recs_cap = nrecs ? nrecs : 1;
		memcpy(m->recs, recs, nrecs * sizeof(*recs));
	}
	m->nrecs = nrecs;
	for (i = 0; i < nrecs; i++)
		m->count += recs[i].ptr != 0;
	m->free_head = 0;	/* the freed records, first to last */
	for (i = nrecs; i-- > 0;)
		if (!m->recs[i].ptr) {
			if (m->borrowed)
				own_records(m);
			m->recs[i].line = m->free_head;
			m->free_head = i + 1;
		}
	m->unindexed = m->count != 0;	/* a report walks the records; a lookup indexes them */
	return 0;
}
