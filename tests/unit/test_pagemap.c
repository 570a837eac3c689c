/*
 * test_pagemap.c - the live-page table against a plain reference: a long
 * random sequence of puts and takes over pfns, page pointers and keys
 * the packed form cannot hold must leave exactly the reference's
 * contents, orders and ids; and its buckets stay within 32 bytes a page.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pagemap.h"

#define KEYS 30000

/* xorshift: a deterministic sequence, the same on every machine */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void put_take_and_tell(void **state)
{
	struct pagemap m;
	struct live_page was;

	(void)state;
	pagemap_init(&m);
	assert_false(pagemap_take(&m, 0x1000, &was));
	assert_false(pagemap_put(&m, 0x1000, 3, 7, &was));
	assert_true(pagemap_put(&m, 0x1000, 0, 9, &was));	/* allocated again */
	assert_int_equal(was.order, 3);
	assert_int_equal(was.id, 7);
	assert_int_equal(pagemap_count(&m), 1);
	assert_true(pagemap_take(&m, 0x1000, &was));
	assert_int_equal(was.key, 0x1000);
	assert_int_equal(was.order, 0);
	assert_int_equal(was.id, 9);
	assert_false(pagemap_take(&m, 0x1000, &was));
	assert_false(pagemap_put(&m, 0, 1, 1, &was));	/* 0 is never a page */
	assert_int_equal(pagemap_count(&m), 0);
	assert_false(pagemap_put(&m, 0x2000, 99, 1, NULL));	/* an order past 63 is kept as 63 */
	assert_true(pagemap_take(&m, 0x2000, &was));
	assert_int_equal(was.order, PAGEMAP_ORDER_MAX);
	pagemap_release(&m);
}

/* A key of each kind: a pfn, a page pointer, one the packed form cannot hold. */
static uint64_t key_of(size_t i, uint64_t r)
{
	switch (i % 3) {
	case 0:
		return 0x100000 + i * 17;			/* pfn */
	case 1:
		return 0xffffea0000000000ull + i * 64;		/* struct page pointer */
	default:
		return 0x8000000000000000ull | (r & 0xff) << 40 | i;	/* kept beside */
	}
}

/* The i key_of made key from. */
static size_t index_of(uint64_t key)
{
	if (key >= 0xffffea0000000000ull)
		return (size_t)((key - 0xffffea0000000000ull) / 64);
	if (key >> 63)
		return (size_t)(key & 0xffffffffffull);
	return (size_t)((key - 0x100000) / 17);
}

static void random_sequence_matches_reference(void **state)
{
	static uint64_t keys[KEYS];
	static uint32_t id[KEYS], order[KEYS];
	static unsigned char live[KEYS], seen[KEYS];
	struct pagemap m;
	struct live_page was, p;
	uint64_t s = 88172645463325252ull;
	size_t i, n_live = 0, cursor = 0, iterated = 0;
	int step;

	(void)state;
	for (i = 0; i < KEYS; i++)
		keys[i] = key_of(i, next_random(&s));
	pagemap_init(&m);
	for (step = 0; step < 600000; step++) {
		i = next_random(&s) % KEYS;
		if (!live[i] || next_random(&s) % 3 == 0) {
			uint32_t o = (uint32_t)(next_random(&s) % 12);

			assert_int_equal(pagemap_put(&m, keys[i], (int)o, (uint32_t)step, &was),
					 live[i]);
			if (live[i]) {
				assert_int_equal(was.order, order[i]);
				assert_int_equal(was.id, id[i]);
			} else {
				n_live++;
			}
			live[i] = 1;
			id[i] = (uint32_t)step;
			order[i] = o;
		} else {
			assert_true(pagemap_take(&m, keys[i], &was));
			assert_int_equal(was.key, keys[i]);
			assert_int_equal(was.id, id[i]);
			assert_int_equal(was.order, order[i]);
			live[i] = 0;
			n_live--;
		}
	}
	assert_int_equal(pagemap_count(&m), n_live);
	while (pagemap_next(&m, &cursor, &p)) {	/* each live page once, as it was put */
		i = index_of(p.key);
		assert_true(i < KEYS);
		assert_true(keys[i] == p.key);
		assert_true(live[i]);
		assert_false(seen[i]);
		seen[i] = 1;
		assert_int_equal(p.id, id[i]);
		assert_int_equal(p.order, order[i]);
		iterated++;
	}
	assert_int_equal(iterated, n_live);
	for (i = 0; i < KEYS; i++)
		assert_int_equal(pagemap_take(&m, keys[i], NULL), live[i]);
	assert_int_equal(pagemap_count(&m), 0);
	pagemap_release(&m);
}

/*
 * The table's bytes against its pages: at most 32 a live page once it
 * holds more than its first buckets' worth, at any count (16 to 32 as it
 * fills and doubles); ids set at once.
 */
static void a_live_page_costs_at_most_32_bytes(void **state)
{
	struct pagemap m;
	struct live_page p;
	size_t i, cursor = 0;

	(void)state;
	pagemap_init(&m);
	for (i = 1; i <= 1000000; i++) {
		pagemap_put(&m, 0x40000 + i, 0, (uint32_t)i, NULL);
		if (i > 4096 * 3 / 4)
			assert_true((m.mask + 1) * sizeof(*m.slots) <= 32 * pagemap_count(&m));
	}
	assert_int_equal(sizeof(struct page_slot), 12);
	pagemap_set_ids(&m, 5);
	while (pagemap_next(&m, &cursor, &p))
		assert_int_equal(p.id, 5);
	pagemap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(put_take_and_tell),
		cmocka_unit_test(random_sequence_matches_reference),
		cmocka_unit_test(a_live_page_costs_at_most_32_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
