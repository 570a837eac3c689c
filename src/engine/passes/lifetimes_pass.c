/*
 * lifetimes_pass.c - how long the rows' objects lived (lifetimes.h): the
 * rows' account tells it each free, so it takes no event itself. Its part
 * of a DB: the rows' histograms.
 */
#include "engine.h"

static int start_lifetimes(struct analysis *a, struct ta_error *err)
{
	struct namers n;

	(void)err;
	lifetimes_init(&a->lifetimes);
	account_time_lifetimes((struct account *)analysis_rows_account(a, &n), &a->lifetimes);
	return 0;
}

static void release_lifetimes(struct analysis *a)
{
	lifetimes_release(&a->lifetimes);
}

static void lifetimes_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct lifetime_row);
	sizes[1] = LIFETIME_BUCKETS;
}

static void put_lifetimes(struct db_blob *b, const struct analysis *a)
{
	const struct lifetimes *l = &a->lifetimes;

	db_put_array(b, l->rows, db_rows_used(l->rows, l->nrows, sizeof(*l->rows)),
		     sizeof(*l->rows));
}

static bool take_lifetimes(struct db_cursor *c, struct analysis *a)
{
	struct lifetimes *l = &a->lifetimes;

	l->rows = db_take_array(c, sizeof(*l->rows), UINT32_MAX, &l->nrows);
	return !c->problem && db_rows_within(c, l->rows, l->nrows, sizeof(*l->rows),
					     a->strings.call_sites.count);
}

static const struct pass_store lifetimes_store = {
	.version = 1, .sizes = lifetimes_sizes, .put = put_lifetimes, .take = take_lifetimes,
};

const struct analysis_pass lifetimes_pass = {
	.name = "lifetimes",
	.need = NEED_LIFETIMES,
	.init = start_lifetimes,
	.release = release_lifetimes,
	.store = &lifetimes_store,
};
