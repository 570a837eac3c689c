/*
 * lifetimereport.c - the --lifetimes report (lifetimereport.h): rows named
 * and merged by name (their histograms add up), sorted by objects. Not
 * here: counting lifetimes (lifetimes.c).
 */
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "lifetimereport.h"
#include "report.h"
#include "strtab.h"

/* A row short-lived: more than this share of its freed objects died within 1 us. */
#define SHORT_LIVED_SHARE 0.5

struct lifetime_line {
	uint64_t count[LIFETIME_BUCKETS];
	uint64_t freed, never_freed;
};

static const struct out_column row_columns[] = {
	{ "key", "row", OUT_STR, true },
	{ "freed", NULL, OUT_U64, false },
	{ "never_freed", "never freed", OUT_U64, false },
	{ "within_1us_pct", "<1us%", OUT_PCT, false },
	{ "median_s", "median (s)", OUT_F64_NS, false },
	{ "p90_s", "p90 (s)", OUT_F64_NS, false },
	{ "p99_s", "p99 (s)", OUT_F64_NS, false },
	{ "short_lived", "short-lived", OUT_BOOL, false },
};

static const struct out_column bucket_columns[] = {
	{ "key", "row", OUT_STR, true },
	{ "from_s", "from (s)", OUT_F64, false },
	{ "to_s", "to (s)", OUT_F64, false },
	{ "objects", NULL, OUT_U64, false },
};

struct sort_ctx {
	const struct lifetime_line *lines;
	const struct strtab *names;
};

static int by_objects(const void *pa, const void *pb, void *pctx)
{
	const struct sort_ctx *c = pctx;
	const struct lifetime_line *a = &c->lines[*(const uint32_t *)pa];
	const struct lifetime_line *b = &c->lines[*(const uint32_t *)pb];
	uint64_t na = a->freed + a->never_freed, nb = b->freed + b->never_freed;

	if (na != nb)
		return na > nb ? -1 : 1;
	return strcmp(strtab_get(c->names, *(const uint32_t *)pa),
		      strtab_get(c->names, *(const uint32_t *)pb));
}

/* Where id's objects are counted: its name's line (at_of: ids named so far). */
static uint32_t line_of(const struct lifetime_query *q, struct strtab *names,
			struct lifetime_line **lines, uint32_t *cap, uint32_t *at_of, uint32_t nids,
			uint32_t id)
{
	uint32_t at = row_of_id(q->namer, names, at_of, nids, id);

	*lines = xgrow_zeroed(*lines, cap, at, sizeof(**lines));
	return at;
}

/* The lines by name: the histograms of their ids, and their objects still live. */
static struct lifetime_line *lines_of(const struct lifetime_query *q, struct strtab *names)
{
	const struct ptrmap *m = account_live(q->account);
	struct lifetime_line *lines = NULL;
	uint32_t cap = 0, id, at, nids = q->lifetimes->nrows;
	uint32_t *at_of;
	unsigned b;
	size_t i;

	for (i = 0; i < m->nrecs; i++)	/* ids: the rows', and the live objects' */
		if (m->recs[i].ptr && account_live_row(q->account, &m->recs[i]) >= nids)
			nids = account_live_row(q->account, &m->recs[i]) + 1;
	at_of = row_cache_new(nids);
	for (id = 0; id < q->lifetimes->nrows; id++) {
		const struct lifetime_row *r = &q->lifetimes->rows[id];

		if (!r->freed)
			continue;
		at = line_of(q, names, &lines, &cap, at_of, nids, id);
		for (b = 0; b < LIFETIME_BUCKETS; b++)
			lines[at].count[b] += r->count[b];
		lines[at].freed += r->freed;
	}
	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].ptr) {
			at = line_of(q, names, &lines, &cap, at_of, nids,
				     account_live_row(q->account, &m->recs[i]));
			lines[at].never_freed++;	/* after the call: it may move lines */
		}
	free(at_of);
	return lines;
}

/* The row's counts per power of two of microseconds, those not 0. */
static void add_buckets(struct out_doc *d, struct out_block *t, const char *name,
			const struct lifetime_line *l)
{
	unsigned b = 0, octave;
	uint64_t n;

	for (n = 0, b = 0; b < LIFETIME_FIRST_US_BUCKET; b++)
		n += l->count[b];	/* under 1 us: one row, whatever the finer buckets */
	if (n) {
		out_row_str(d, t, name);
		out_row_f64(d, t, 0);
		out_row_f64(d, t, 1e-6);
		out_row_u64(d, t, n);
	}
	for (octave = LIFETIME_SUB_OCTAVES; octave <= LIFETIME_OCTAVES; octave++) {
		unsigned first = 1 + octave * LIFETIME_SUBS, last = octave < LIFETIME_OCTAVES
			? first + LIFETIME_SUBS - 1 : LIFETIME_BUCKETS - 1;

		for (n = 0, b = first; b <= last; b++)
			n += l->count[b];
		if (!n)
			continue;
		out_row_str(d, t, name);
		out_row_f64(d, t, lifetime_bucket_low_s(first));
		if (octave < LIFETIME_OCTAVES)
			out_row_f64(d, t, lifetime_bucket_high_s(last));
		else
			out_row_none(d, t);	/* and more */
		out_row_u64(d, t, n);
	}
}

void write_lifetimes(struct out_dest *o, const struct lifetime_query *q)
{
	struct out_column rows_cols[sizeof(row_columns) / sizeof(row_columns[0])];
	struct out_column bucket_cols[sizeof(bucket_columns) / sizeof(bucket_columns[0])];
	struct sort_ctx ctx;
	struct strtab names;
	struct out_block *t, *h;
	struct out_doc d;
	struct lifetime_line *lines;
	const char *many;
	uint32_t *order, n, i, shown;

	strtab_init(&names);
	lines = lines_of(q, &names);
	n = names.count;
	order = xmalloc((n ? n : 1) * sizeof(*order));
	for (i = 0; i < n; i++)
		order[i] = i;
	ctx.lines = lines;
	ctx.names = &names;
	qsort_r(order, n, sizeof(*order), by_objects, &ctx);
	shown = q->top && q->top < n ? (uint32_t)q->top : n;

	memcpy(rows_cols, row_columns, sizeof(rows_cols));
	memcpy(bucket_cols, bucket_columns, sizeof(bucket_cols));
	report_row_noun(q->group_by, &rows_cols[0].heading, &many);
	bucket_cols[0].heading = rows_cols[0].heading;
	out_doc_init(&d, "lifetimes");
	t = out_table(&d, "rows", "how long each row's objects lived (allocation to free), most "
		      "objects first", rows_cols, sizeof(rows_cols) / sizeof(rows_cols[0]));
	t->keyed = true;
	t->group_by = q->group_by;
	for (i = 0; i < shown; i++) {
		const struct lifetime_line *l = &lines[order[i]];
		uint64_t under = 0;
		unsigned bb;
		double within;

		for (bb = 0; bb < LIFETIME_FIRST_US_BUCKET; bb++)
			under += l->count[bb];
		within = l->freed ? (double)under / (double)l->freed : 0;

		out_row_str(&d, t, strtab_get(&names, order[i]));
		out_row_u64(&d, t, l->freed);
		out_row_u64(&d, t, l->never_freed);
		out_row_pct(&d, t, 100.0 * within);
		if (l->freed) {
			out_row_f64_ns(&d, t, lifetime_percentile_s(l->count, l->freed, 50));
			out_row_f64_ns(&d, t, lifetime_percentile_s(l->count, l->freed, 90));
			out_row_f64_ns(&d, t, lifetime_percentile_s(l->count, l->freed, 99));
		} else {
			out_row_none(&d, t);
			out_row_none(&d, t);
			out_row_none(&d, t);
		}
		out_row_bool(&d, t, within > SHORT_LIVED_SHARE);
	}
	h = out_table(&d, "buckets", "objects freed per lifetime, by power of two of microseconds",
		      bucket_cols, sizeof(bucket_cols) / sizeof(bucket_cols[0]));
	h->keyed = true;
	h->group_by = q->group_by;
	for (i = 0; i < shown; i++)
		add_buckets(&d, h, strtab_get(&names, order[i]), &lines[order[i]]);
	out_emit(o, &d);
	out_doc_release(&d);
	strtab_release(&names);
	free(lines);
	free(order);
}
