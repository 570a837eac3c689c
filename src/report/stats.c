/*
 * stats.c - the per-call-site statistics (--stats) and record's brief
 * answer (stats.h). Not here: the summary (summary.c) or what is still
 * held (outstanding.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "report.h"
#include "stats.h"
#include "summary.h"

/* ---- --stats ------------------------------------------------------------------ */

static const struct out_column stats_columns[] = {
	{ "caller", NULL, OUT_STR, true },
	{ "hits", NULL, OUT_U64, false },
	{ "bytes_alloc", NULL, OUT_U64, false },
	{ "alloc_per_hit", "alloc/hit", OUT_U64, false },
	{ "bytes_req", NULL, OUT_U64, false },
	{ "req_per_hit", "req/hit", OUT_U64, false },
	{ "frag_pct", "frag%", OUT_PCT, false },
	{ "total_waste", NULL, OUT_U64, false },
	{ "frees", NULL, OUT_U64, false },
	{ "pingpong", "ping-pong", OUT_U64, false },
	{ "current_dynamic", "net", OUT_U64, false },
	{ "peak_dynamic", "peak", OUT_U64, false },
};

static void add_stats_table(struct out_doc *d, const struct account_rows *rows, size_t top,
			    const char *title, const char *group_by)
{
	struct out_column *columns = xmalloc(sizeof(stats_columns));
	const char *one, *many;
	struct out_block *t;
	size_t i, n = top && top < rows->count ? top : rows->count;

	/* the text heading says what a row is: "caller", or "comm", "function"... */
	memcpy(columns, stats_columns, sizeof(stats_columns));
	report_row_noun(group_by, &one, &many);
	columns[0].heading = one;
	out_doc_keep(d, columns);
	t = out_table(d, "callers", title, columns,
		      sizeof(stats_columns) / sizeof(stats_columns[0]));
	t->keyed = true;
	for (i = 0; i < n; i++) {
		const struct account_row *r = &rows->rows[i];
		const struct site_stats *s = &r->s;

		out_row_str(d, t, r->caller);
		out_row_u64(d, t, s->alloc_count);
		out_row_u64(d, t, s->total_dynamic);
		out_row_u64(d, t, s->alloc_count ? s->total_dynamic / s->alloc_count : 0);
		out_row_u64(d, t, s->total_req);
		out_row_u64(d, t, s->alloc_count ? s->total_req / s->alloc_count : 0);
		out_row_pct(d, t, fragmentation_pct(s->total_req, s->total_dynamic));
		out_row_u64(d, t, (uint64_t)site_total_waste(s));
		out_row_u64(d, t, s->free_count);
		out_row_u64(d, t, s->pingpong);
		out_row_u64(d, t, s->current_dynamic);
		if (r->nsites == 1)
			out_row_u64(d, t, s->peak_dynamic);
		else	/* the peak of a sum is not the sum of the peaks */
			out_row_none(d, t);
	}
}

void write_stats(struct out_dest *o, const struct account_rows *rows, size_t top)
{
	struct out_doc d;

	out_doc_init(&d, "stats");
	add_stats_table(&d, rows, top, NULL, o->group_by);
	out_emit(o, &d);
	out_doc_release(&d);
}


static int by_bytes_allocated(const void *pa, const void *pb)
{
	const struct account_row *a = pa, *b = pb;

	if (a->s.total_dynamic != b->s.total_dynamic)
		return a->s.total_dynamic > b->s.total_dynamic ? -1 : 1;
	return strcmp(a->caller, b->caller);
}

void write_record_brief(struct out_dest *o, const struct account_rows *rows, size_t top,
			const struct account_totals *totals)
{
	struct account_rows by_bytes = *rows;
	struct out_doc d;

	/* perf kmem stat --caller's order: the bytes allocated, most first */
	by_bytes.rows = xmalloc((rows->count ? rows->count : 1) * sizeof(*rows->rows));
	memcpy(by_bytes.rows, rows->rows, rows->count * sizeof(*rows->rows));
	qsort(by_bytes.rows, by_bytes.count, sizeof(*by_bytes.rows), by_bytes_allocated);
	out_doc_init(&d, "stats");
	add_stats_table(&d, &by_bytes, top, "top callers by bytes allocated (as perf kmem stat "
			"--caller)", o->group_by);
	summary_add_bytes_block(&d, totals, NULL);
	out_emit(o, &d);
	out_doc_release(&d);
	free(by_bytes.rows);
}

