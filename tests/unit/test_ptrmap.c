/*
 * test_ptrmap.c - the live-pointer table against a plain reference: a long
 * random sequence of inserts and removes (with colliding keys and growth)
 * must leave exactly the reference's contents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ptrmap.h"

#define KEYS 20000

/* xorshift: a deterministic sequence, the same on every machine */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void insert_find_remove(void **state)
{
	struct ptrmap m;
	struct live_alloc *slot;
	int existed;

	(void)state;
	ptrmap_init(&m);
	assert_null(ptrmap_find(&m, 0x1000));
	slot = ptrmap_insert(&m, 0x1000, &existed);
	assert_int_equal(existed, 0);
	slot->bytes_alloc = 64;
	slot = ptrmap_insert(&m, 0x1000, &existed);
	assert_int_equal(existed, 1);
	assert_int_equal(slot->bytes_alloc, 64);
	assert_int_equal(m.count, 1);
	ptrmap_remove(&m, ptrmap_find(&m, 0x1000));
	assert_null(ptrmap_find(&m, 0x1000));
	assert_int_equal(m.count, 0);
	ptrmap_release(&m);
}

static void random_sequence_matches_reference(void **state)
{
	/* distinct keys sharing their low bits, as slab objects of one size do */
	static uint64_t keys[KEYS];
	static uint32_t value[KEYS];
	static unsigned char live[KEYS];
	struct ptrmap m;
	uint64_t s = 88172645463325252ull;
	size_t i, n_live = 0;
	int step, existed;

	(void)state;
	for (i = 0; i < KEYS; i++)
		keys[i] = ((next_random(&s) & 0xff) << 32) | ((uint64_t)i << 8) | 0x40;
	ptrmap_init(&m);
	for (step = 0; step < 400000; step++) {
		i = next_random(&s) % KEYS;
		if (!live[i] || next_random(&s) % 3 == 0) {
			struct live_alloc *slot = ptrmap_insert(&m, keys[i], &existed);

			assert_int_equal(existed, live[i]);
			if (!live[i])
				n_live++;
			live[i] = 1;
			value[i] = (uint32_t)step;
			slot->bytes_alloc = (uint32_t)step;
		} else {
			struct live_alloc *slot = ptrmap_find(&m, keys[i]);

			assert_non_null(slot);
			assert_int_equal(slot->bytes_alloc, value[i]);
			ptrmap_remove(&m, slot);
			live[i] = 0;
			n_live--;
		}
	}
	assert_int_equal(m.count, n_live);
	size_t iterated = 0, peak_bound = KEYS;	/* records are reused: never more than keys */

	for (i = 0; i < m.nrecs; i++)
		iterated += m.recs[i].ptr != 0;
	assert_int_equal(iterated, n_live);
	assert_true(m.nrecs <= peak_bound);
	for (i = 0; i < KEYS; i++) {
		struct live_alloc *slot = ptrmap_find(&m, keys[i]);

		if (live[i]) {
			assert_non_null(slot);
			assert_int_equal(slot->bytes_alloc, value[i]);
		} else {
			assert_null(slot);
		}
	}
	ptrmap_release(&m);
}

/*
 * Sized beforehand, the index takes the expected objects without growing,
 * keeps what it held, never shrinks, and stops at PTRMAP_EXPECT_MAX; past
 * the guess it grows as before.
 */
static void expected_objects_fit_without_growth(void **state)
{
	struct ptrmap m;
	uint64_t seed = 0x9e3779b97f4a7c15ull, keys[3000];
	size_t i, buckets;
	int existed;

	(void)state;
	ptrmap_init(&m);
	for (i = 0; i < 3000; i++) {	/* already there before the guess */
		keys[i] = next_random(&seed) | 1;
		ptrmap_insert(&m, keys[i], &existed)->bytes_alloc = (uint32_t)i;
	}
	ptrmap_expect(&m, 100000);
	buckets = m.mask + 1;
	assert_int_equal(buckets, 262144);	/* 100,000 at most 75% full */
	for (i = 0; i < 3000; i++)
		assert_int_equal(ptrmap_find(&m, keys[i])->bytes_alloc, i);
	for (i = 3000; i < 100000; i++)
		ptrmap_insert(&m, next_random(&seed) | 1, &existed);
	assert_int_equal(m.mask + 1, buckets);
	ptrmap_expect(&m, 10);
	assert_int_equal(m.mask + 1, buckets);
	for (i = 100000; i < 200000; i++)
		ptrmap_insert(&m, next_random(&seed) | 1, &existed);
	assert_true(m.mask + 1 > buckets);
	assert_int_equal(m.count, 200000);
	for (i = 0; i < 3000; i++)
		assert_int_equal(ptrmap_find(&m, keys[i])->bytes_alloc, i);
	ptrmap_release(&m);

	ptrmap_init(&m);
	ptrmap_expect(&m, (size_t)1 << 40);
	assert_int_equal(m.mask + 1, (size_t)PTRMAP_EXPECT_MAX * 2);
	ptrmap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(insert_find_remove),
		cmocka_unit_test(random_sequence_matches_reference),
		cmocka_unit_test(expected_objects_fit_without_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
