/*
 * test_peak.c - the peak watcher's own peaks: a row of one id has that
 * id's; a row of several ids, grouped alike as the log was read, has the
 * peak of their sum, which no member's is; a row whose ids were grouped
 * otherwise has none (not exact); the state at the peak, asked for even
 * when the watcher was asked for another time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "peak.h"

#define MS 1000000ull

/* ids 0 and 1 are group 0 (one function's two call sites), id 2 group 1 */
static uint32_t group_of(void *ctx, uint32_t id)
{
	(void)ctx;
	return id < 2 ? 0 : 1;
}

/*
 * id 0 holds 100 from 1 ms to 3 ms; id 1 holds 80 from 2 ms on; id 2
 * holds 500 from 4 ms to 5 ms. The members' own peaks are 100 (1 ms) and
 * 80 (2 ms); their sum's is 180 at 2 ms, when neither was at its own.
 */
static void watch_three_ids(struct peak_watch *w, bool grouped)
{
	peak_watch_init(w, false, 0);
	if (grouped)
		w->grouping.group_of = group_of;
	peak_watch_change(w, 0, 100, 1, 1 * MS);
	peak_watch_change(w, 1, 80, 1, 2 * MS);
	peak_watch_change(w, 0, -100, -1, 3 * MS);
	peak_watch_change(w, 2, 500, 1, 4 * MS);
	peak_watch_change(w, 2, -500, -1, 5 * MS);
}

static void a_merged_row_has_the_peak_of_its_sum(void **state)
{
	struct peak_watch w;
	uint32_t row_of[3] = { 0, 0, 1 };
	struct row_peak p[2];

	(void)state;
	watch_three_ids(&w, true);
	peak_watch_row_peaks(&w, row_of, 3, 2, p);
	assert_true(p[0].exact);
	assert_int_equal(p[0].bytes, 180);
	assert_int_equal(p[0].ns, 2 * MS);
	assert_true(p[1].exact);
	assert_int_equal(p[1].bytes, 500);
	assert_int_equal(p[1].ns, 4 * MS);
	peak_watch_release(&w);
}

static void rows_of_one_id_have_its_own_peak_whatever_the_groups(void **state)
{
	struct peak_watch w;
	uint32_t row_of[3] = { 0, 1, 2 };
	struct row_peak p[3];

	(void)state;
	watch_three_ids(&w, false);	/* no grouping at all */
	peak_watch_row_peaks(&w, row_of, 3, 3, p);
	assert_true(p[0].exact && p[1].exact && p[2].exact);
	assert_int_equal(p[0].bytes, 100);
	assert_int_equal(p[0].ns, 1 * MS);
	assert_int_equal(p[1].bytes, 80);
	assert_int_equal(p[2].bytes, 500);
	peak_watch_release(&w);
}

static void a_row_grouped_otherwise_has_no_exact_peak(void **state)
{
	struct peak_watch w;
	uint32_t two_groups[3] = { 0, 0, 0 }, part[3] = { 0, UINT32_MAX, 1 };
	struct row_peak p[2];

	(void)state;
	watch_three_ids(&w, true);
	peak_watch_row_peaks(&w, two_groups, 3, 1, p);	/* groups 0 and 1 in one row */
	assert_false(p[0].exact);
	assert_int_equal(p[0].bytes, 0);
	peak_watch_release(&w);
	watch_three_ids(&w, false);	/* merged, but never grouped */
	peak_watch_row_peaks(&w, two_groups, 3, 1, p);
	assert_false(p[0].exact);
	peak_watch_release(&w);
	watch_three_ids(&w, true);	/* a group's ids split: id 1 in no row */
	peak_watch_row_peaks(&w, part, 3, 2, p);
	assert_true(p[0].exact);	/* one id: its own */
	assert_int_equal(p[0].bytes, 100);
	assert_true(p[1].exact);
	assert_int_equal(p[1].bytes, 500);
	peak_watch_release(&w);
}

static void the_state_at_the_peak_is_kept_beside_a_time_asked_for(void **state)
{
	struct peak_watch w;

	(void)state;
	peak_watch_init(&w, true, 2 * MS);	/* --peak-at 0.002 */
	w.grouping.group_of = group_of;
	peak_watch_change(&w, 0, 100, 1, 1 * MS);
	peak_watch_change(&w, 1, 80, 1, 2 * MS);
	peak_watch_change(&w, 2, 500, 1, 4 * MS);	/* the peak: 680 */
	peak_watch_change(&w, 0, -100, -1, 5 * MS);
	peak_watch_change(&w, 2, -500, -1, 6 * MS);
	peak_watch_finish(&w);
	assert_int_equal(w.peak_bytes, 680);
	assert_int_equal(w.peak_ns, 4 * MS);
	assert_int_equal(peak_watch_row_at_peak(&w, 0), 100);
	assert_int_equal(peak_watch_row_at_peak(&w, 1), 80);
	assert_int_equal(peak_watch_row_at_peak(&w, 2), 500);
	assert_int_equal(peak_watch_row_at_peak(&w, 9), 0);
	peak_watch_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_merged_row_has_the_peak_of_its_sum),
		cmocka_unit_test(rows_of_one_id_have_its_own_peak_whatever_the_groups),
		cmocka_unit_test(a_row_grouped_otherwise_has_no_exact_peak),
		cmocka_unit_test(the_state_at_the_peak_is_kept_beside_a_time_asked_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
