/*
 * peak_pass.c - the peak of the rows' live bytes, each row's part of it,
 * and each row's own peak (peak.h): the rows' account tells it every
 * change of a row, grouped by the row's name as its id is first seen
 * (analysis_peak_group). Its part of a DB: the peak, the rows and groups.
 */
#include "engine.h"

static int start_peak(struct analysis *a, struct ta_error *err)
{
	struct namers n;

	(void)err;
	peak_watch_init(&a->peak, a->req->has_peak_at, a->req->peak_at_ns);
	strtab_init(&a->peak_groups);
	a->peak.grouping.group_of = analysis_peak_group;
	a->peak.grouping.ctx = a;
	account_watch((struct account *)analysis_rows_account(a, &n), &a->peak);
	return 0;
}

static void finish_peak(struct analysis *a)
{
	peak_watch_finish(&a->peak);
}

static void release_peak(struct analysis *a)
{
	peak_watch_release(&a->peak);
	strtab_release(&a->peak_groups);
}

static void peak_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct peak_row);
}

/* The peak's groups its rows name: up to the highest (an empty one may be named). */
static uint32_t groups_named(const struct peak_watch *w)
{
	uint32_t n = 0, i;

	for (i = 0; i < w->nrows; i++)
		if (w->rows[i].group > n)
			n = w->rows[i].group;
	return w->groups ? n : 0;
}

static void put_peak(struct db_blob *b, const struct analysis *a)
{
	const struct peak_watch *w = &a->peak;
	uint64_t scalars[] = { w->live, w->objects, w->peak_bytes, w->peak_objects, w->peak_ns,
			       w->gen };

	db_put(b, scalars, sizeof(scalars));
	db_put_array(b, w->rows, db_rows_used(w->rows, w->nrows, sizeof(*w->rows)),
		     sizeof(*w->rows));
	db_put_array(b, w->groups, groups_named(w), sizeof(*w->groups));
}

static bool take_peak(struct db_cursor *c, struct analysis *a)
{
	struct peak_watch *w = &a->peak;
	uint64_t v[6];
	uint32_t i;

	if (!db_take_into(c, v, sizeof(v)))
		return false;
	w->live = v[0];
	w->objects = v[1];
	w->peak_bytes = v[2];
	w->peak_objects = v[3];
	w->peak_ns = v[4];
	w->gen = (uint32_t)v[5];
	w->rows = db_take_array(c, sizeof(*w->rows), UINT32_MAX, &w->nrows);
	w->groups = db_take_array(c, sizeof(*w->groups), UINT32_MAX, &w->ngroups);
	if (c->problem || !db_rows_within(c, w->rows, w->nrows, sizeof(*w->rows),
					  a->strings.call_sites.count))
		return false;
	for (i = 0; i < w->nrows; i++)
		if (w->ngroups && w->rows[i].group > w->ngroups)
			return db_fail(c, "its saved peaks name a group they have not");
	return true;
}

static const struct pass_store peak_store = {
	.version = 1, .sizes = peak_sizes, .put = put_peak, .take = take_peak,
};

const struct analysis_pass peak_pass = {
	.name = "peak",
	.need = NEED_PEAK,
	.init = start_peak,
	.finish = finish_peak,
	.release = release_peak,
	.store = &peak_store,
};
