/*
 * pagemap.c - the live pages, 12 bytes a bucket (pagemap.h): linear
 * probing and backward-shift deletion over a bigmem table that doubles at
 * 75% full. Not here: what the pages' ids mean.
 */
#include <string.h>

#include "bigmem.h"
#include "pagemap.h"

#define INITIAL_BUCKETS 4096
#define ORDER_BITS 6
#define ORDER_MASK ((1u << ORDER_BITS) - 1)
#define LOW56 ((1ull << 56) - 1)

_Static_assert(PAGEMAP_ORDER_MAX == ORDER_MASK, "an order fits its bits");

/*
 * A key as the table holds it, in 57 bits: below 2^56 as it is (a pfn, a
 * hashed or 32-bit pointer), a kernel address (top byte 0xff) as its low
 * 56 bits and bit 56 set. false: neither, kept beside.
 */
static bool packable(uint64_t key, uint64_t *packed)
{
	if (key >> 56 == 0)
		*packed = key;
	else if (key >> 56 == 0xff)
		*packed = (key & LOW56) | (1ull << 56);
	else
		return false;
	return true;
}

static uint64_t unpacked(uint64_t packed)
{
	return packed >> 56 ? (packed & LOW56) | (0xffull << 56) : packed;
}

static inline uint64_t slot_word(const struct page_slot *s)
{
	return (uint64_t)s->hi << 32 | s->lo;
}

static inline void set_slot(struct page_slot *s, uint64_t word, uint32_t id)
{
	s->lo = (uint32_t)word;
	s->hi = (uint32_t)(word >> 32);
	s->id = id;
}

static inline size_t home_of(const struct pagemap *m, uint64_t packed)
{
	return ptrmap_hash(packed) & m->mask;
}

static bool overfull(size_t entries, size_t buckets)
{
	return entries * 4 > buckets * 3;
}

void pagemap_init(struct pagemap *m)
{
	memset(m, 0, sizeof(*m));
	m->slots = bigmem_alloc(INITIAL_BUCKETS * sizeof(*m->slots));
	m->mask = INITIAL_BUCKETS - 1;
	ptrmap_init(&m->odd);
}

void pagemap_release(struct pagemap *m)
{
	if (m->slots)
		bigmem_free(m->slots, (m->mask + 1) * sizeof(*m->slots));
	ptrmap_release(&m->odd);
	memset(m, 0, sizeof(*m));
}

size_t pagemap_count(const struct pagemap *m)
{
	return m->used + m->odd.count;
}

/* The table anew with buckets buckets (a power of two), every entry moved. */
static void resize(struct pagemap *m, size_t buckets)
{
	struct page_slot *old = m->slots;
	size_t old_buckets = m->mask + 1, i;

	m->slots = bigmem_alloc(buckets * sizeof(*m->slots));
	m->mask = buckets - 1;
	for (i = 0; i < old_buckets; i++) {
		uint64_t w = slot_word(&old[i]);
		size_t j;

		if (!w)
			continue;
		j = home_of(m, w >> ORDER_BITS);
		while (slot_word(&m->slots[j]))
			j = (j + 1) & m->mask;
		m->slots[j] = old[i];
	}
	bigmem_free(old, old_buckets * sizeof(*old));
}

void pagemap_expect(struct pagemap *m, size_t pages)
{
	size_t buckets = m->mask + 1;

	if (pages > PTRMAP_EXPECT_MAX)
		pages = PTRMAP_EXPECT_MAX;
	while (overfull(pages, buckets))
		buckets *= 2;
	if (buckets > m->mask + 1)
		resize(m, buckets);
}

/* The bucket holding packed, or the empty one where it would go. */
static size_t bucket_of(const struct pagemap *m, uint64_t packed)
{
	size_t i = home_of(m, packed);
	uint64_t w;

	while ((w = slot_word(&m->slots[i])) != 0 && w >> ORDER_BITS != packed)
		i = (i + 1) & m->mask;
	return i;
}

static void tell(struct live_page *was, uint64_t key, uint32_t order, uint32_t id)
{
	if (was) {
		was->key = key;
		was->order = order;
		was->id = id;
	}
}

static uint32_t clamped(int order)
{
	return order < 0 ? 0 : order > PAGEMAP_ORDER_MAX ? PAGEMAP_ORDER_MAX : (uint32_t)order;
}

static bool put_beside(struct pagemap *m, uint64_t key, int order, uint32_t id,
		       struct live_page *was)
{
	int existed;
	struct live_alloc *r = ptrmap_insert(&m->odd, key, &existed);

	if (existed)
		tell(was, key, r->bytes_alloc, r->call_site);
	r->bytes_alloc = clamped(order);
	r->call_site = id;
	return existed;
}

bool pagemap_put(struct pagemap *m, uint64_t key, int order, uint32_t id, struct live_page *was)
{
	uint64_t packed, w;
	size_t i;

	if (!key)
		return false;
	if (!packable(key, &packed))
		return put_beside(m, key, order, id, was);
	i = bucket_of(m, packed);
	w = slot_word(&m->slots[i]);
	if (w) {
		tell(was, key, (uint32_t)(w & ORDER_MASK), m->slots[i].id);
	} else if (overfull(m->used + 1, m->mask + 1)) {
		resize(m, (m->mask + 1) * 2);
		i = bucket_of(m, packed);
	}
	set_slot(&m->slots[i], packed << ORDER_BITS | clamped(order), id);
	m->used += !w;
	return w != 0;
}

/* Empty bucket hole, shifting back the entries after it that may move (Knuth's Algorithm R). */
static void empty_bucket(struct pagemap *m, size_t hole)
{
	size_t i = hole;

	for (;;) {
		uint64_t w;
		size_t home;

		i = (i + 1) & m->mask;
		w = slot_word(&m->slots[i]);
		if (!w)
			break;
		home = home_of(m, w >> ORDER_BITS);
		if (((i - home) & m->mask) >= ((i - hole) & m->mask)) {	/* home not in (hole, i] */
			m->slots[hole] = m->slots[i];
			hole = i;
		}
	}
	set_slot(&m->slots[hole], 0, 0);
}

bool pagemap_take(struct pagemap *m, uint64_t key, struct live_page *was)
{
	uint64_t packed, w;
	size_t i;

	if (!key)
		return false;
	if (!packable(key, &packed)) {
		struct live_alloc *r = ptrmap_find(&m->odd, key);

		if (!r)
			return false;
		tell(was, key, r->bytes_alloc, r->call_site);
		ptrmap_remove(&m->odd, r);
		return true;
	}
	i = bucket_of(m, packed);
	w = slot_word(&m->slots[i]);
	if (!w)
		return false;
	tell(was, key, (uint32_t)(w & ORDER_MASK), m->slots[i].id);
	empty_bucket(m, i);
	m->used--;
	return true;
}

bool pagemap_next(const struct pagemap *m, size_t *cursor, struct live_page *out)
{
	size_t buckets = m->mask + 1;

	while (*cursor < buckets) {
		const struct page_slot *s = &m->slots[(*cursor)++];
		uint64_t w = slot_word(s);

		if (w) {
			tell(out, unpacked(w >> ORDER_BITS), (uint32_t)(w & ORDER_MASK), s->id);
			return true;
		}
	}
	while (*cursor - buckets < m->odd.nrecs) {
		const struct live_alloc *r = &m->odd.recs[*cursor - buckets];

		++*cursor;
		if (r->ptr) {
			tell(out, r->ptr, r->bytes_alloc, r->call_site);
			return true;
		}
	}
	return false;
}

void pagemap_set_ids(struct pagemap *m, uint32_t id)
{
	size_t i;

	for (i = 0; i <= m->mask; i++)
		if (slot_word(&m->slots[i]))
			m->slots[i].id = id;
	for (i = 0; i < m->odd.nrecs; i++)
		if (m->odd.recs[i].ptr)
			m->odd.recs[i].call_site = id;
}
