/*
 * ptrmap.c - open addressing with linear probing and backward-shift
 * deletion (Knuth's Algorithm R), so that lookups never wade through
 * tombstones however many frees a long log has. Grows at 50% load.
 */
#include <string.h>

#include "error.h"
#include "ptrmap.h"

#define INITIAL_CAPACITY 4096

/* Hashed %p values are 32-bit and raw pointers share high bits: mix all. */
static inline size_t home_of(const struct ptrmap *m, uint64_t ptr)
{
	uint64_t h = ptr * 0x9E3779B97F4A7C15ull;

	return (size_t)(h ^ (h >> 29)) & m->mask;
}

void ptrmap_init(struct ptrmap *m)
{
	m->slots = xcalloc(INITIAL_CAPACITY, sizeof(*m->slots));
	m->mask = INITIAL_CAPACITY - 1;
	m->count = 0;
}

void ptrmap_release(struct ptrmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

struct live_alloc *ptrmap_find(const struct ptrmap *m, uint64_t ptr)
{
	size_t i = home_of(m, ptr);

	while (m->slots[i].ptr) {
		if (m->slots[i].ptr == ptr)
			return &m->slots[i];
		i = (i + 1) & m->mask;
	}
	return NULL;
}

static void grow(struct ptrmap *m)
{
	struct live_alloc *old = m->slots;
	size_t old_cap = m->mask + 1, i;

	m->slots = xcalloc(old_cap * 2, sizeof(*m->slots));
	m->mask = old_cap * 2 - 1;
	for (i = 0; i < old_cap; i++) {
		if (!old[i].ptr)
			continue;
		size_t j = home_of(m, old[i].ptr);

		while (m->slots[j].ptr)
			j = (j + 1) & m->mask;
		m->slots[j] = old[i];
	}
	free(old);
}

struct live_alloc *ptrmap_insert(struct ptrmap *m, uint64_t ptr, int *existed)
{
	size_t i;

	if ((m->count + 1) * 2 > m->mask + 1)
		grow(m);
	i = home_of(m, ptr);
	while (m->slots[i].ptr) {
		if (m->slots[i].ptr == ptr) {
			*existed = 1;
			return &m->slots[i];
		}
		i = (i + 1) & m->mask;
	}
	memset(&m->slots[i], 0, sizeof(m->slots[i]));
	m->slots[i].ptr = ptr;
	m->count++;
	*existed = 0;
	return &m->slots[i];
}

void ptrmap_remove(struct ptrmap *m, struct live_alloc *slot)
{
	size_t hole = (size_t)(slot - m->slots);
	size_t i = hole;

	for (;;) {
		i = (i + 1) & m->mask;
		if (!m->slots[i].ptr)
			break;
		size_t home = home_of(m, m->slots[i].ptr);

		/* Move entry i into the hole unless its home lies in (hole, i]. */
		if (((i - home) & m->mask) >= ((i - hole) & m->mask)) {
			m->slots[hole] = m->slots[i];
			hole = i;
		}
	}
	m->slots[hole].ptr = 0;
	m->count--;
}
