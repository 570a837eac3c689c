/*
 * rowview.c - the rows as a report lists them (rowview.h): the rows'
 * account grouped, sorted and placed in the kernel tree, cut to -b; and
 * -b as the reports that walk live allocations apply it. Reads the run;
 * counts nothing.
 */
#include "engine.h"
#include "rowview.h"

static uint32_t join_places(const void *ctx, uint32_t a, uint32_t b)
{
	const struct dirtree *d = ctx;

	if (a == b || a == DIR_NONE || b == DIR_NONE)
		return a == DIR_NONE ? b : a;
	return dirtree_common_ancestor(d, a, b);
}

static bool row_is_in_branch(const struct account_row *row, const void *ctx)
{
	const struct analysis *r = ctx;

	return row->place != DIR_NONE && dirtree_is_within(&r->dirs, row->place, r->branch);
}

static bool placed_in_branch(const struct analysis *r, const uint32_t *place, uint32_t id,
			     uint32_t nplaces)
{
	return place && id < nplaces && place[id] != DIR_NONE &&
	       dirtree_is_within(&r->dirs, place[id], r->branch);
}

/* Rows of the rows' account: call sites, or origin keys by their origin's place. */
static bool row_id_in_branch(const void *ctx, uint32_t id)
{
	const struct analysis *r = ctx;

	if (analysis_by_origin(r))
		return placed_in_branch(r, r->key_place, id, r->by_key.nsites);
	return placed_in_branch(r, r->site_place, id, r->account.nsites);
}

/* Origin keys (the stack tables): by their origin, or by their call site's place. */
static bool key_in_branch(const void *ctx, uint32_t key)
{
	const struct analysis *r = ctx;
	uint32_t call_site, stack;

	if (analysis_by_origin(r))
		return placed_in_branch(r, r->key_place, key, r->by_key.nsites);
	origin_key_parts(&r->keys, key, &call_site, &stack);
	return placed_in_branch(r, r->site_place, call_site, r->account.nsites);
}

void analysis_branch_filters(const struct analysis *a, struct row_filter *rows,
			     struct row_filter *keys)
{
	bool cut = a->req->branch && a->have_dirs;

	rows->keep = cut ? row_id_in_branch : NULL;
	rows->ctx = a;
	keys->keep = cut && analysis_runs(a, PASS_ORIGINS) ? key_in_branch : NULL;
	keys->ctx = a;
}

/* The account rows, placed in the tree and cut to -b when there is one. */
void analysis_rows(const struct analysis *r, struct account_rows *rows)
{
	const uint32_t *place = analysis_by_origin(r) ? r->key_place
			      : group_is_by_event_field(r->req->group_by) ? NULL : r->site_place;
	struct row_places places = { place, join_places, &r->dirs };
	struct namers n;
	const struct account *a = analysis_rows_account(r, &n);

	account_rows_build(rows, a, &n.namer, r->req->order, place ? &places : NULL);
	if (r->req->branch && r->have_dirs)
		account_rows_filter(rows, row_is_in_branch, r);
}
