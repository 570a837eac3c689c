/*
 * peakreport.c - the --peak report (peakreport.h): rows named and merged
 * by name, sorted by what they held at the moment. Not here: finding the
 * peak (peak.c).
 */
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "peakreport.h"
#include "report.h"
#include "strtab.h"

struct peak_line {
	uint32_t name;			/* in the names table */
	uint64_t bytes, objects;	/* at the moment */
	struct row_peak own;		/* the row's own peak (merged rows: the sum's) */
};

static const struct out_column peak_columns[] = {
	{ "key", "row", OUT_STR, true },
	{ "bytes", "live bytes", OUT_U64, false },
	{ "objects", NULL, OUT_U64, false },
	{ "share_pct", "share%", OUT_PCT, false },
	{ "own_peak_bytes", "own peak", OUT_U64, false },
	{ "own_peak_s", "at (s)", OUT_F64, false },
};

static int by_bytes(const void *pa, const void *pb)
{
	const struct peak_line *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return (a->name > b->name) - (a->name < b->name);
}

/*
 * The watcher's rows merged by name, those holding anything at the
 * moment first; each with its own peak, a merged row's that of its sum.
 */
static struct peak_line *lines_of(const struct peak_query *q, struct strtab *names, size_t *n)
{
	const struct peak_watch *w = q->watch;
	uint32_t *row_of = xmalloc((w->nrows ? w->nrows : 1) * sizeof(*row_of));
	struct peak_line *l = xcalloc(w->nrows ? w->nrows : 1, sizeof(*l));
	struct row_peak *own;
	char name[CALLSITE_NAME_MAX];
	uint32_t id, r, held = 0;

	for (id = 0; id < w->nrows; id++) {
		row_of[id] = UINT32_MAX;
		if (!w->rows[id].group)	/* never changed */
			continue;
		row_of[id] = strtab_intern(names, name,
					   q->namer->name(q->namer->ctx, id, name, sizeof(name)));
		l[row_of[id]].name = row_of[id];
	}
	own = xcalloc(names->count + 1, sizeof(*own));
	peak_watch_row_peaks(w, row_of, w->nrows, names->count, own);
	for (id = 0; id < w->nrows; id++) {
		uint64_t bytes, objects;

		if (row_of[id] == UINT32_MAX)
			continue;
		peak_watch_row(w, id, &bytes, &objects);
		l[row_of[id]].bytes += bytes;
		l[row_of[id]].objects += objects;
	}
	for (r = 0; r < names->count; r++) {	/* those that held nothing then are left out */
		l[r].own = own[r];
		if (l[r].bytes)
			l[held++] = l[r];
	}
	*n = held;
	free(own);
	free(row_of);
	return l;
}

void write_peak(struct out_dest *o, const struct peak_query *q)
{
	const struct peak_watch *w = q->watch;
	uint64_t total = w->at_set ? w->at_live : w->peak_bytes;
	struct out_doc d;
	struct out_block *b, *t;
	struct strtab names;
	struct out_column columns[sizeof(peak_columns) / sizeof(peak_columns[0])];
	const char *many;
	struct peak_line *l;
	size_t n, i, shown;

	out_doc_init(&d, "peak");
	b = out_list(&d, "moment", w->at_set ? "live slab bytes at the time asked for (--peak-at)"
					      : "the peak of live slab bytes");
	out_item_f64(&d, b, "time_s", "time (s)",
		     (double)(w->at_set ? w->at_ns : w->peak_ns) / 1e9);
	out_item_u64(&d, b, "live_bytes", "live bytes", total);
	out_item_u64(&d, b, "objects", "objects", w->at_set ? w->at_objects_total : w->peak_objects);
	if (w->at_set) {
		out_item_u64(&d, b, "peak_bytes", "the peak's live bytes", w->peak_bytes);
		out_item_f64(&d, b, "peak_time_s", "the peak's time (s)", (double)w->peak_ns / 1e9);
	}
	if (q->have_pages) {
		out_item_i64(&d, b, "pages_peak", "most pages held", q->peak_pages);
		out_item_f64(&d, b, "pages_peak_time_s", "when (s)", (double)q->peak_pages_ns / 1e9);
	}
	strtab_init(&names);
	l = lines_of(q, &names, &n);
	qsort(l, n, sizeof(*l), by_bytes);
	memcpy(columns, peak_columns, sizeof(columns));
	report_row_noun(q->group_by, &columns[0].heading, &many);	/* "caller", "comm"... */
	t = out_table(&d, "rows", w->at_set ? "what each row held then, most first"
					    : "what each row held at the peak, most first",
		      columns, sizeof(columns) / sizeof(columns[0]));
	t->keyed = true;
	t->group_by = q->group_by;
	shown = q->top && q->top < n ? q->top : n;
	for (i = 0; i < shown; i++) {
		out_row_str(&d, t, strtab_get(&names, l[i].name));
		out_row_u64(&d, t, l[i].bytes);
		out_row_u64(&d, t, l[i].objects);
		out_row_pct(&d, t, total ? 100.0 * (double)l[i].bytes / (double)total : 0);
		if (l[i].own.exact) {
			out_row_u64(&d, t, l[i].own.bytes);
			out_row_f64(&d, t, (double)l[i].own.ns / 1e9);
		} else {	/* its ids were grouped otherwise as the log was read */
			out_row_none(&d, t);
			out_row_none(&d, t);
		}
	}
	out_emit(o, &d);
	out_doc_release(&d);
	strtab_release(&names);
	free(l);
}
