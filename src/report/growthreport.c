/*
 * growthreport.c - the --growth report (growthreport.h): the timeline's
 * rows, most growth first. Not here: sampling (timeline.c) or fitting.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "growthreport.h"
#include "report.h"

static const struct out_column growth_columns[] = {
	{ "key", "row", OUT_STR, true },
	{ "start_bytes", "start", OUT_U64, false },
	{ "end_bytes", "end", OUT_U64, false },
	{ "grew_bytes", "grew", OUT_I64, false },
	{ "peak_bytes", "peak", OUT_U64, false },
	{ "peak_s", "peak at (s)", OUT_F64, false },
	{ "bytes_per_s", "bytes/s", OUT_REAL, false },
	{ "r2", NULL, OUT_REAL, false },
	{ "most_from_s", "grew most from (s)", OUT_F64, false },
	{ "most_to_s", "to (s)", OUT_F64, false },
	{ "most_grew_bytes", "by", OUT_I64, false },
};

struct growth_line {
	uint32_t row;
	double grew;
};

static int by_growth(const void *pa, const void *pb)
{
	const struct growth_line *a = pa, *b = pb;

	if (a->grew != b->grew)
		return a->grew > b->grew ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

/*
 * Bytes, and a change of them, as integers: the samples' doubles hold
 * whole byte counts; one past an integer's range (only a damaged DB's
 * kept data can hold one) is cut to it rather than converted undefined.
 */
static uint64_t bytes_of(double v)
{
	return v <= 0 ? 0 : v >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)v;
}

static int64_t change_of(double v)
{
	return v <= -9223372036854775808.0 ? INT64_MIN
	       : v >= 9223372036854774784.0 ? INT64_MAX : (int64_t)v;
}

/* The window (of GROWTH_WINDOWS of the samples) in which v grew most: [from, to], by how much. */
static void grew_most(const struct timeline_rows *rows, const double *v, uint32_t *from,
		      uint32_t *to, double *by)
{
	uint32_t w, n = rows->nsamples;

	*from = *to = 0;
	*by = 0;
	for (w = 0; w < GROWTH_WINDOWS && n; w++) {
		uint32_t a = (uint32_t)((uint64_t)w * n / GROWTH_WINDOWS);
		uint32_t b = (uint32_t)((uint64_t)(w + 1) * n / GROWTH_WINDOWS);
		uint32_t first = a ? a - 1 : 0;	/* the state before the window */
		double g;

		if (b <= a)
			continue;
		g = v[b - 1] - v[first];
		if (w == 0 || g > *by) {
			*by = g;
			*from = first;
			*to = b - 1;
		}
	}
}

void write_growth(struct out_dest *o, const struct timeline_rows *rows, const char *group_by,
		  size_t top)
{
	struct out_column columns[sizeof(growth_columns) / sizeof(growth_columns[0])];
	struct growth_line *l = xcalloc(rows->nrows ? rows->nrows : 1, sizeof(*l));
	struct out_doc d;
	struct out_block *t;
	const char *many;
	uint32_t r, i, n = rows->nrows, shown;

	for (r = 0; r < n; r++) {
		const double *v = timeline_row_values(rows, r);

		l[r].row = r;
		l[r].grew = rows->nsamples ? v[rows->nsamples - 1] - v[0] : 0;
	}
	qsort(l, n, sizeof(*l), by_growth);
	memcpy(columns, growth_columns, sizeof(columns));
	report_row_noun(group_by, &columns[0].heading, &many);
	out_doc_init(&d, "growth");
	t = out_table(&d, "rows", "how each row's live bytes grew over the log (the timeline's "
		      "samples), most growth first", columns, sizeof(columns) / sizeof(columns[0]));
	t->keyed = true;
	t->group_by = group_by;
	shown = top && top < n ? (uint32_t)top : n;
	for (i = 0; i < shown && rows->nsamples; i++) {
		const double *v = timeline_row_values(rows, l[i].row);
		const struct growth_fit *f = &rows->fit[l[i].row];
		uint32_t from, to;
		double by;

		grew_most(rows, v, &from, &to, &by);
		out_row_str(&d, t, rows->names[l[i].row]);
		out_row_u64(&d, t, bytes_of(v[0]));
		out_row_u64(&d, t, bytes_of(v[rows->nsamples - 1]));
		out_row_i64(&d, t, change_of(l[i].grew));
		out_row_u64(&d, t, bytes_of(rows->peak[l[i].row]));
		out_row_f64(&d, t, (double)rows->peak_ns[l[i].row] / 1e9);
		if (rows->untimed)	/* a rate needs real times */
			out_row_none(&d, t);
		else
			out_row_real(&d, t, f->slope);
		out_row_real(&d, t, f->r2);
		out_row_f64(&d, t, (double)rows->ts[from] / 1e9);
		out_row_f64(&d, t, (double)rows->ts[to] / 1e9);
		out_row_i64(&d, t, change_of(by));
	}
	out_emit(o, &d);
	out_doc_release(&d);
	free(l);
}
