/*
 * test_account.c - DESIGN.md section 5's matching rules, one by one, on
 * hand-made event sequences.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "account.h"

enum { SITE_A, SITE_B };

static struct kmem_event event(enum kmem_kind kind, uint32_t site, uint64_t ptr,
			       uint32_t req, uint32_t alloc)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = (uint16_t)kind;
	ev.call_site = site;
	ev.ptr = ptr;
	ev.bytes_req = req;
	ev.bytes_alloc = alloc;
	return ev;
}

static void apply(struct account *a, enum kmem_kind kind, uint32_t site, uint64_t ptr,
		  uint32_t req, uint32_t alloc)
{
	struct kmem_event ev = event(kind, site, ptr, req, alloc);

	account_apply(a, &ev);
}

static void alloc_then_free_credits_the_allocating_site(void **state)
{
	struct account a;
	const struct site_stats *s;

	(void)state;
	account_init(&a, FAMILY_ALL);
	apply(&a, KMEM_KMALLOC, SITE_A, 0x100, 100, 128);
	apply(&a, KMEM_KMALLOC, SITE_A, 0x200, 30, 32);
	apply(&a, KMEM_KFREE, SITE_B, 0x100, 0, 0);	/* freed from elsewhere */
	s = account_site(&a, SITE_A);
	assert_int_equal(s->alloc_count, 2);
	assert_int_equal(s->free_count, 1);
	assert_int_equal(s->total_dynamic, 160);
	assert_int_equal(s->current_dynamic, 32);
	assert_int_equal(s->current_req, 30);
	assert_null(account_site(&a, SITE_B));	/* it never allocated */
	assert_int_equal(a.totals.frees, 1);
	account_release(&a);
}

static void free_of_unknown_pointer_is_lost(void **state)
{
	struct account a;

	(void)state;
	account_init(&a, FAMILY_ALL);
	apply(&a, KMEM_KFREE, SITE_B, 0x300, 0, 0);
	assert_int_equal(a.totals.lost_frees, 1);
	assert_int_equal(a.totals.frees, 0);
	account_release(&a);
}

static void realloc_of_live_pointer_is_implicit_free(void **state)
{
	struct account a;
	const struct site_stats *sa, *sb;

	(void)state;
	account_init(&a, FAMILY_ALL);
	apply(&a, KMEM_CACHE_ALLOC, SITE_A, 0x100, 192, 192);
	apply(&a, KMEM_CACHE_ALLOC, SITE_B, 0x100, 60, 64);	/* its free was lost */
	sa = account_site(&a, SITE_A);
	sb = account_site(&a, SITE_B);
	assert_int_equal(sa->current_dynamic, 0);
	assert_int_equal(sa->free_count, 0);	/* no free is credited */
	assert_int_equal(sa->total_dynamic, 192);
	assert_int_equal(sb->current_dynamic, 64);
	assert_int_equal(a.totals.implicit_frees, 1);
	/* the object re-allocated while live was A's: A's live bytes are suspect */
	assert_int_equal(account_reallocated(&a, SITE_A), 1);
	assert_int_equal(account_reallocated(&a, SITE_B), 0);
	assert_int_equal(account_reallocated(&a, 999), 0);
	apply(&a, KMEM_CACHE_FREE, SITE_A, 0x100, 0, 0);	/* frees B's object */
	assert_int_equal(sb->free_count, 1);
	assert_int_equal(sb->current_dynamic, 0);
	account_release(&a);
}

static void null_pointers_count_only_as_such(void **state)
{
	struct account a;

	(void)state;
	account_init(&a, FAMILY_ALL);
	apply(&a, KMEM_KMALLOC, SITE_A, 0, 64, 64);
	apply(&a, KMEM_KFREE, SITE_A, 0, 0, 0);
	apply(&a, KMEM_KFREE, SITE_A, 0, 0, 0);
	assert_int_equal(a.totals.failed_allocs, 1);
	assert_int_equal(a.totals.null_frees, 2);
	assert_int_equal(a.totals.allocs, 0);
	assert_int_equal(a.totals.lost_frees, 0);
	assert_null(account_site(&a, SITE_A));
	account_release(&a);
}

static void families_filter_both_sides(void **state)
{
	struct account a;

	(void)state;
	account_init(&a, FAMILY_MALLOC);
	apply(&a, KMEM_CACHE_ALLOC, SITE_A, 0x100, 64, 64);
	apply(&a, KMEM_KFREE, SITE_B, 0x100, 0, 0);	/* its allocation is filtered out */
	apply(&a, KMEM_KMALLOC_NODE, SITE_B, 0x200, 8, 8);
	assert_null(account_site(&a, SITE_A));
	assert_int_equal(a.totals.filtered, 1);
	assert_int_equal(a.totals.lost_frees, 1);
	assert_int_equal(account_site(&a, SITE_B)->alloc_count, 1);
	account_release(&a);
}

static void page_events_are_not_slab_events(void **state)
{
	struct account a;

	(void)state;
	account_init(&a, FAMILY_ALL);
	apply(&a, KMEM_PAGE_ALLOC, SITE_A, 0x100, 0, 0);
	apply(&a, KMEM_PAGE_FREE, SITE_A, 0x200, 0, 0);
	assert_int_equal(a.totals.allocs + a.totals.lost_frees + a.totals.filtered, 0);
	account_release(&a);
}

/* xorshift: a deterministic sequence, the same on every machine */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * An account of other rows that shares the call-site account's live
 * objects counts as one with a table of its own: a long random sequence
 * of allocations (of live pointers too), frees (of unknown pointers too),
 * NULLs and both families, each event given to the shared one before and
 * after its owner, leaves the same totals, rows and live rows.
 */
static void shared_live_counts_as_its_own(void **state)
{
	struct account owner, own, shared;
	uint64_t seed = 0x853c49e6748fea9bull;
	const struct ptrmap *m;
	uint32_t id;
	size_t i;
	int step;

	(void)state;
	account_init(&owner, FAMILY_ALL);
	account_init(&own, FAMILY_ALL);
	account_init(&shared, FAMILY_ALL);
	account_share_live(&shared, &owner.live);
	for (step = 0; step < 200000; step++) {
		uint64_t r = next_random(&seed);
		uint64_t ptr = (r >> 8) % 3000 * 64;	/* 0 sometimes: NULL */
		unsigned kind = (unsigned)(r % 8);
		struct kmem_event ev = event(kind < 2 ? KMEM_KMALLOC : kind < 4 ? KMEM_CACHE_ALLOC
					     : kind < 6 ? KMEM_KFREE : KMEM_CACHE_FREE,
					     (uint32_t)(r >> 40) % 50, ptr, (uint32_t)(r >> 20) % 500,
					     512);
		struct kmem_event keyed = ev;

		ev.ts_ns = (uint64_t)step * 1000;
		ev.cpu = (int32_t)(r >> 60) % 2;
		keyed.ts_ns = ev.ts_ns;
		keyed.cpu = ev.cpu;
		keyed.call_site = ev.call_site % 7;	/* the other rows */
		account_before(&shared, &ev);
		account_apply(&owner, &ev);
		account_apply(&own, &keyed);
		account_apply(&shared, &keyed);
	}
	assert_memory_equal(&own.totals, &shared.totals, sizeof(own.totals));
	assert_int_equal(own.nsites, shared.nsites);
	assert_memory_equal(own.sites, shared.sites, own.nsites * sizeof(*own.sites));
	for (id = 0; id < own.nsites; id++)
		assert_int_equal(account_reallocated(&own, id), account_reallocated(&shared, id));
	m = account_live(&shared);
	assert_ptr_equal(m, &owner.live);
	assert_int_equal(m->count, own.live.count);
	for (i = 0; i < m->nrecs; i++) {
		const struct live_alloc *l = &m->recs[i], *o;

		if (!l->ptr)
			continue;
		o = ptrmap_find(&own.live, l->ptr);
		assert_non_null(o);
		assert_int_equal(account_live_row(&shared, l), o->call_site);
		assert_int_equal(l->bytes_req, o->bytes_req);
	}
	assert_true(own.totals.implicit_frees > 1000 && own.totals.lost_frees > 1000 &&
		    own.totals.frees > 1000);
	account_release(&owner);
	account_release(&own);
	account_release(&shared);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alloc_then_free_credits_the_allocating_site),
		cmocka_unit_test(free_of_unknown_pointer_is_lost),
		cmocka_unit_test(realloc_of_live_pointer_is_implicit_free),
		cmocka_unit_test(null_pointers_count_only_as_such),
		cmocka_unit_test(families_filter_both_sides),
		cmocka_unit_test(page_events_are_not_slab_events),
		cmocka_unit_test(shared_live_counts_as_its_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
