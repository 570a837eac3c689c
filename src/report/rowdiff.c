/*
 * rowdiff.c - two sides merged by name, counted and sorted as bloat-o-meter
 * does, and laid out as a document (output.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rowdiff.h"
#include "error.h"

static int compare_entries(const void *pa, const void *pb)
{
	const struct diff_entry *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

static struct diff_entry *sorted_copy(const struct diff_side *s)
{
	struct diff_entry *e = xmalloc((s->count ? s->count : 1) * sizeof(*e));

	if (s->count)
		memcpy(e, s->rows, s->count * sizeof(*e));
	qsort(e, s->count, sizeof(*e), compare_entries);
	return e;
}

static int compare_rows(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double x = fabs(a->delta), y = fabs(b->delta);

	if (x != y)
		return x > y ? -1 : 1;
	if (a->delta != b->delta)	/* equal sizes: growth first */
		return a->delta > b->delta ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void add_row(struct diff_result *r, size_t *cap, const char *name, const double *o,
		    const double *n)
{
	struct diff_row *row;
	double delta = (n ? *n : 0) - (o ? *o : 0);

	if (o && n) {
		if (delta > 0) {
			r->grown++;
			r->up += delta;
		} else if (delta < 0) {
			r->shrunk++;
			r->down -= delta;
		}
	} else if (n) {
		r->added++;
		r->up += *n > 0 ? *n : 0;
		r->down += *n < 0 ? -*n : 0;
	} else {
		r->removed++;
		r->down += *o > 0 ? *o : 0;
		r->up += *o < 0 ? -*o : 0;
	}
	if (delta == 0 && o && n)
		return;		/* unchanged: not listed */
	if (r->count == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		r->rows = xrealloc(r->rows, *cap * sizeof(*r->rows));
	}
	row = &r->rows[r->count++];
	row->name = name;
	row->old_value = o ? *o : 0;
	row->new_value = n ? *n : 0;
	row->in_old = o != NULL;
	row->in_new = n != NULL;
	row->delta = delta;
}

void diff_compute(struct diff_result *r, const struct diff_side *old_side,
		  const struct diff_side *new_side)
{
	struct diff_entry *a = sorted_copy(old_side), *b = sorted_copy(new_side);
	size_t i = 0, j = 0, cap = 0;

	memset(r, 0, sizeof(*r));
	r->old_total = old_side->total;
	r->new_total = new_side->total;
	while (i < old_side->count || j < new_side->count) {
		int c = i == old_side->count ? 1 : j == new_side->count ? -1
			: strcmp(a[i].name, b[j].name);

		if (c == 0) {
			add_row(r, &cap, a[i].name, &a[i].value, &b[j].value);
			i++;
			j++;
		} else if (c < 0) {
			add_row(r, &cap, a[i].name, &a[i].value, NULL);
			i++;
		} else {
			add_row(r, &cap, b[j].name, NULL, &b[j].value);
			j++;
		}
	}
	if (r->count)
		qsort(r->rows, r->count, sizeof(*r->rows), compare_rows);
	free(a);
	free(b);
}

/* bloat-o-meter's order: (delta, name) descending, as Python sorts the tuples. */
static int compare_as_bloat_o_meter(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;

	if (a->delta != b->delta)
		return a->delta > b->delta ? -1 : 1;
	return -strcmp(a->name, b->name);
}

void diff_sort_as_bloat_o_meter(struct diff_result *r)
{
	if (r->count)
		qsort(r->rows, r->count, sizeof(*r->rows), compare_as_bloat_o_meter);
}

void diff_result_release(struct diff_result *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

double diff_total_pct(const struct diff_result *r)
{
	return r->old_total != 0 ? 100.0 * (r->new_total - r->old_total) / fabs(r->old_total)
				 : NAN;
}

/* ---- the document ---------------------------------------------------------------- */

static const struct out_column whole_columns[] = {
	{ "name", NULL, OUT_STR, true },
	{ "old", NULL, OUT_I64, false },
	{ "new", NULL, OUT_I64, false },
	{ "delta", NULL, OUT_I64, false },
	{ "delta_pct", "delta%", OUT_PCT, false },
	{ "change", NULL, OUT_STR, true },
};

static const struct out_column real_columns[] = {
	{ "name", NULL, OUT_STR, true },
	{ "old", NULL, OUT_REAL, false },
	{ "new", NULL, OUT_REAL, false },
	{ "delta", NULL, OUT_REAL, false },
	{ "delta_pct", "delta%", OUT_PCT, false },
	{ "change", NULL, OUT_STR, true },
};

static void put_number(struct out_doc *d, struct out_block *t, double v, bool whole, bool change)
{
	if (whole && change)
		out_row_i64_change(d, t, (int64_t)llround(v));
	else if (whole)
		out_row_i64(d, t, (int64_t)llround(v));
	else if (change)
		out_row_real_change(d, t, v);
	else
		out_row_real(d, t, v);
}

static void number_text(double v, bool whole, char *out, size_t cap)
{
	if (whole)
		snprintf(out, cap, "%lld", (long long)llround(v));
	else
		snprintf(out, cap, "%.2f", v);
}

void diff_add_to_doc(struct out_doc *d, const struct diff_result *r,
		     const struct diff_labels *l, enum out_format format)
{
	const struct out_column *cols = l->whole ? whole_columns : real_columns;
	struct out_column *mine = xmalloc(6 * sizeof(*mine));
	char up[64], down[64], net[64], before[64], after[64];
	char *title = NULL, *totals = NULL, *summary_key = NULL, *totals_key = NULL;
	struct out_block *t, *b;
	double pct = diff_total_pct(r);
	size_t i, n;

	/* the first column is named after what the rows are */
	memcpy(mine, cols, 6 * sizeof(*mine));
	mine[0].key = l->key;
	number_text(r->up, l->whole, up, sizeof(up));
	number_text(r->down, l->whole, down, sizeof(down));
	number_text(r->up - r->down, l->whole, net, sizeof(net));
	if (format == FORMAT_TEXT) {
		const char *minus = r->down ? "-" : "";	/* bloat-o-meter prints -down: 0, not -0 */

		n = (size_t)snprintf(NULL, 0, "add/remove: %zu/%zu grow/shrink: %zu/%zu up/down: "
				     "%s/%s%s (%s)", r->added, r->removed, r->grown, r->shrunk, up,
				     minus, down, net) + 1;
		title = xmalloc(n);
		snprintf(title, n, "add/remove: %zu/%zu grow/shrink: %zu/%zu up/down: %s/%s%s (%s)",
			 r->added, r->removed, r->grown, r->shrunk, up, minus, down, net);
	} else {
		if (l->named_totals) {
			summary_key = xmalloc(strlen(l->block) + 16);
			sprintf(summary_key, "%s_summary", l->block);
			out_doc_keep(d, summary_key);
		}
		b = out_list(d, summary_key ? summary_key : "summary", NULL);
		out_item_u64(d, b, "added", "added", r->added);
		out_item_u64(d, b, "removed", "removed", r->removed);
		out_item_u64(d, b, "grown", "grown", r->grown);
		out_item_u64(d, b, "shrunk", "shrunk", r->shrunk);
		if (l->whole) {
			out_item_i64(d, b, "up", "up", (int64_t)llround(r->up));
			out_item_i64(d, b, "down", "down", (int64_t)llround(r->down));
			out_item_i64(d, b, "net", "net", (int64_t)llround(r->up - r->down));
		} else {
			out_item_real(d, b, "up", "up", r->up);
			out_item_real(d, b, "down", "down", r->down);
			out_item_real(d, b, "net", "net", r->up - r->down);
		}
	}
	t = out_table(d, l->block, title, mine, 6);
	t->keyed = true;
	t->group_by = l->group_by ? l->group_by : l->key;
	for (i = 0; i < r->count; i++) {
		const struct diff_row *row = &r->rows[i];

		out_row_str(d, t, row->name);
		if (row->in_old)
			put_number(d, t, row->old_value, l->whole, false);
		else
			out_row_none(d, t);
		if (row->in_new)
			put_number(d, t, row->new_value, l->whole, false);
		else
			out_row_none(d, t);
		put_number(d, t, row->delta, l->whole, true);
		if (row->in_old && row->old_value != 0)
			out_row_pct_change(d, t, 100.0 * row->delta / fabs(row->old_value));
		else
			out_row_none(d, t);
		out_row_str(d, t, !row->in_old ? "added" : !row->in_new ? "removed" : "");
	}
	number_text(r->old_total, l->whole, before, sizeof(before));
	number_text(r->new_total, l->whole, after, sizeof(after));
	if (format == FORMAT_TEXT) {
		n = (size_t)snprintf(NULL, 0, "Before=%s, After=%s, chg %+.2f%%", before, after,
				     pct == pct ? pct : 0.0) + 1;
		totals = xmalloc(n);
		snprintf(totals, n, "Before=%s, After=%s, chg %+.2f%%", before, after,
			 pct == pct ? pct : 0.0);
		b = out_list(d, "totals", NULL);
		out_item_str(d, b, "total", "Total", totals);
	} else {
		if (l->named_totals) {
			totals_key = xmalloc(strlen(l->block) + 16);
			sprintf(totals_key, "%s_totals", l->block);
			out_doc_keep(d, totals_key);
		}
		b = out_list(d, totals_key ? totals_key : "totals", NULL);
		if (l->whole) {
			out_item_i64(d, b, "before", "before", (int64_t)llround(r->old_total));
			out_item_i64(d, b, "after", "after", (int64_t)llround(r->new_total));
		} else {
			out_item_real(d, b, "before", "before", r->old_total);
			out_item_real(d, b, "after", "after", r->new_total);
		}
		out_item_pct(d, b, "change_pct", "change %", pct);
	}
	/* what was made here lives as long as the document */
	out_doc_keep(d, mine);
	if (title)
		out_doc_keep(d, title);
	free(totals);
}
