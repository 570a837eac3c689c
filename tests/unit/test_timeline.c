/*
 * test_timeline.c - sampling live bytes over time: slices closed as time
 * passes, widened when the log outlasts them, the last sample equal to the
 * account's live bytes; the growth fit on series made by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "account.h"
#include "timeline.h"

#define MS 1000000ull

struct run {
	struct account account;
	struct timeline timeline;
	uint64_t next_ptr;
};

static void feed(struct run *r, enum kmem_kind kind, uint32_t site, uint64_t ptr, uint32_t bytes,
		 uint64_t ts)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = (uint16_t)kind;
	ev.call_site = site;
	ev.ptr = ptr;
	ev.bytes_req = bytes;
	ev.bytes_alloc = bytes;
	ev.ts_ns = ts;
	ev.order = -1;
	ev.stack = STACK_NONE;
	ev.cache = STR_NONE;
	timeline_before_event(&r->timeline, &ev);
	account_apply(&r->account, &ev);
	timeline_after_event(&r->timeline, &ev);
}

static void start(struct run *r)
{
	memset(r, 0, sizeof(*r));
	account_init(&r->account, FAMILY_ALL);
	timeline_init(&r->timeline, &r->account);
}

static void stop(struct run *r)
{
	timeline_release(&r->timeline);
	account_release(&r->account);
}

static void samples_hold_the_state_at_each_slice_end(void **state)
{
	struct run r;

	(void)state;
	start(&r);
	feed(&r, KMEM_KMALLOC, 0, 0x1000, 100, 1000 * MS);	/* t0 */
	feed(&r, KMEM_KMALLOC, 1, 0x2000, 50, 1000 * MS + MS / 2);
	feed(&r, KMEM_KFREE, 0, 0x1000, 0, 1003 * MS + 1);	/* in slice 3 */
	timeline_finish(&r.timeline);
	/* slices 0, 1, 2 closed before the free; then the end */
	assert_int_equal(r.timeline.nsamples, 4);
	assert_int_equal(r.timeline.samples[0].ts_ns, 1001 * MS);
	assert_int_equal(r.timeline.samples[0].total, 150);
	assert_int_equal(timeline_live(&r.timeline.samples[0], 0), 100);
	assert_int_equal(timeline_live(&r.timeline.samples[2], 1), 50);
	assert_int_equal(r.timeline.samples[3].ts_ns, 1003 * MS + 1);
	assert_int_equal(r.timeline.samples[3].total, 50);
	assert_int_equal(r.timeline.samples[3].total, r.account.sites[0].current_dynamic +
			 r.account.sites[1].current_dynamic);
	stop(&r);
}

static void a_long_log_widens_the_slices_and_ends_on_the_live_bytes(void **state)
{
	struct run r;
	uint64_t i, live = 0;

	(void)state;
	start(&r);
	/* 10 s of one allocation a millisecond: far past 512 slices of 1 ms */
	for (i = 0; i < 10000; i++) {
		feed(&r, KMEM_KMALLOC, (uint32_t)(i % 3), 0x10000 + i * 64, 64, 5000 * MS + i * MS);
		live += 64;
		if (i % 2) {
			feed(&r, KMEM_KFREE, 0, 0x10000 + (i - 1) * 64, 0, 5000 * MS + i * MS + 1);
			live -= 64;
		}
	}
	timeline_finish(&r.timeline);
	assert_true(r.timeline.nsamples <= TIMELINE_SAMPLES);
	assert_true(r.timeline.nsamples >= TIMELINE_SAMPLES / 4);
	assert_int_equal(r.timeline.width, 32 * MS);	/* 1 ms doubled to cover 10 s */
	for (i = 1; i < r.timeline.nsamples; i++) {
		assert_true(r.timeline.samples[i].ts_ns > r.timeline.samples[i - 1].ts_ns);
		assert_true(r.timeline.samples[i].total >= r.timeline.samples[i - 1].total);
	}
	assert_int_equal(r.timeline.samples[r.timeline.nsamples - 1].total, live);
	assert_int_equal(r.timeline.samples[r.timeline.nsamples - 1].ts_ns, 5000 * MS + 9999 * MS + 1);
	stop(&r);
}

static void pages_and_lost_markers_are_kept(void **state)
{
	struct run r;
	struct kmem_event ev;

	(void)state;
	start(&r);
	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_PAGE_ALLOC;
	ev.pfn = 5;
	ev.order = 2;
	ev.ts_ns = 7 * MS;
	timeline_before_event(&r.timeline, &ev);
	timeline_after_event(&r.timeline, &ev);
	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_LOST_EVENTS;
	ev.pfn = 12;
	timeline_before_event(&r.timeline, &ev);
	timeline_after_event(&r.timeline, &ev);
	/* a page the log did not allocate: its free is not taken from the log's pages */
	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_PAGE_FREE;
	ev.pfn = 9;
	ev.order = 0;
	ev.ts_ns = 9 * MS;
	timeline_before_event(&r.timeline, &ev);
	timeline_after_event(&r.timeline, &ev);
	assert_int_equal(r.timeline.pages, 4);
	/* the one it did: all four pages of its order 2 given back */
	ev.pfn = 5;
	timeline_before_event(&r.timeline, &ev);
	timeline_after_event(&r.timeline, &ev);
	timeline_finish(&r.timeline);
	assert_int_equal(r.timeline.pages, 0);
	assert_int_equal(r.timeline.nlost, 1);
	assert_int_equal(r.timeline.lost_at[0], 7 * MS);
	assert_int_equal(r.timeline.lost_count[0], 12);
	assert_int_equal(r.timeline.samples[0].pages, 4);
	stop(&r);
}

static void a_straight_line_fits_perfectly(void **state)
{
	uint64_t ts[10];
	double y[10];
	struct growth_fit fit;
	int i;

	(void)state;
	for (i = 0; i < 10; i++) {
		ts[i] = (uint64_t)i * 1000 * MS;	/* one a second */
		y[i] = 1000.0 + 500.0 * i;
	}
	growth_fit_series(ts, y, 10, &fit);
	assert_true(fit.slope > 499.999 && fit.slope < 500.001);
	assert_true(fit.r2 > 0.9999);
	assert_true(fit.grew == 4500.0);
	assert_true(fit.span_s == 9.0);
	assert_true(growth_is_steady(&fit, 4096));
	assert_false(growth_is_steady(&fit, 8192));
}

static void noise_and_a_fall_are_not_steady_growth(void **state)
{
	uint64_t ts[8];
	double saw[8], fall[8];
	struct growth_fit fit;
	int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		ts[i] = (uint64_t)i * 100 * MS;
		saw[i] = i % 2 ? 100000.0 : 0.0;
		fall[i] = 100000.0 - 1000.0 * i;
	}
	growth_fit_series(ts, saw, 8, &fit);
	assert_false(growth_is_steady(&fit, 1));
	growth_fit_series(ts, fall, 8, &fit);
	assert_true(fit.slope < 0);
	assert_false(growth_is_steady(&fit, 1));
	growth_fit_series(ts, fall, 2, &fit);	/* too few samples: no fit */
	assert_true(fit.slope == 0 && fit.r2 == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(samples_hold_the_state_at_each_slice_end),
		cmocka_unit_test(a_long_log_widens_the_slices_and_ends_on_the_live_bytes),
		cmocka_unit_test(pages_and_lost_markers_are_kept),
		cmocka_unit_test(a_straight_line_fits_perfectly),
		cmocka_unit_test(noise_and_a_fall_are_not_steady_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
