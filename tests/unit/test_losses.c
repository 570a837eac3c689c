/*
 * test_losses.c - the windows of lost events: a marker's window from the
 * event before it to the event after, a silence, the overrun's start of
 * the log; and the one-comparison question (is any window's end after this
 * allocation?) answering as the search for the first such window does, at
 * every time around every window's edges.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "findings.h"
#include "losses.h"

#define MS 1000000ull

static void feed(struct loss_windows *l, enum kmem_kind kind, uint64_t ts, int cpu)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = (uint16_t)kind;
	ev.ts_ns = ts;
	ev.cpu = cpu;
	loss_windows_apply(l, &ev);
}

/*
 * CPU 1 shows its first event at 50 ms of a log whose ring buffer overran:
 * the overrun window [10, 50] starts first. A marker between events at 20
 * and 30 ms makes [20, 30], which ends before the overrun's window does;
 * a silence after 100 ms makes [100, 100 + silence].
 */
static void make_windows(struct loss_windows *l)
{
	loss_windows_init(l);
	feed(l, KMEM_KMALLOC, 10 * MS, 0);
	feed(l, KMEM_KMALLOC, 20 * MS, 0);
	feed(l, KMEM_LOST_EVENTS, 0, -1);
	feed(l, KMEM_KFREE, 30 * MS, 0);
	feed(l, KMEM_KMALLOC, 50 * MS, 1);
	feed(l, KMEM_KMALLOC, 100 * MS, 0);
	feed(l, KMEM_KMALLOC, 100 * MS + FINDINGS_SILENCE_NS + MS, 0);
	loss_windows_finish(l, true, false);
}

static void windows_are_sorted_by_start_with_their_kinds(void **state)
{
	struct loss_windows l;

	(void)state;
	make_windows(&l);
	assert_int_equal(l.n, 3);
	assert_int_equal(l.w[0].kind, LOSS_OVERRUN);
	assert_int_equal(l.w[0].start_ns, 10 * MS);
	assert_int_equal(l.w[0].end_ns, 50 * MS);
	assert_int_equal(l.w[1].kind, LOSS_MARKER);
	assert_int_equal(l.w[1].start_ns, 20 * MS);
	assert_int_equal(l.w[1].end_ns, 30 * MS);
	assert_int_equal(l.w[2].kind, LOSS_SILENCE);
	assert_int_equal(l.w[2].start_ns, 100 * MS);
	loss_windows_release(&l);
}

static void the_first_window_ending_after_is_found_by_the_running_maximum(void **state)
{
	struct loss_windows l;

	(void)state;
	make_windows(&l);
	/* at 35 ms the marker's window has ended, the overrun's has not */
	assert_ptr_equal(loss_window_after(&l, 35 * MS), &l.w[0]);
	assert_ptr_equal(loss_window_after(&l, 60 * MS), &l.w[2]);
	assert_null(loss_window_after(&l, 100 * MS + FINDINGS_SILENCE_NS + MS));
	loss_windows_release(&l);
}

static void one_comparison_answers_as_the_search(void **state)
{
	struct loss_windows l, none;
	uint32_t i;
	int64_t d;

	(void)state;
	make_windows(&l);
	for (i = 0; i < l.n; i++)
		for (d = -2; d <= 2; d++) {
			uint64_t edges[2] = { l.w[i].start_ns + (uint64_t)d, l.w[i].end_ns + (uint64_t)d };
			int e;

			for (e = 0; e < 2; e++)
				assert_int_equal(loss_window_ends_after(&l, edges[e]),
						 loss_window_after(&l, edges[e]) != NULL);
		}
	assert_true(loss_window_ends_after(&l, 0));
	assert_false(loss_window_ends_after(&l, UINT64_MAX));
	loss_windows_release(&l);
	/* a log with no window: nothing is uncertain */
	loss_windows_init(&none);
	feed(&none, KMEM_KMALLOC, 10 * MS, 0);
	loss_windows_finish(&none, false, true);
	assert_false(loss_window_ends_after(&none, 0));
	assert_null(loss_window_after(&none, 0));
	loss_windows_release(&none);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(windows_are_sorted_by_start_with_their_kinds),
		cmocka_unit_test(the_first_window_ending_after_is_found_by_the_running_maximum),
		cmocka_unit_test(one_comparison_answers_as_the_search),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
