/*
 * suspects.c - leak suspects ranked by evidence (suspects.h): steady
 * growth, rising windows, old live objects, and no pointer coming back
 * while live.
 *
 * Not here: which rows are sampled or how (timeline.c), the table of the
 * rows whose pointers come back while live (stats.c).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "ringchart.h"
#include "strtab.h"
#include "suspects.h"

#define GROWTH_MIN_BYTES 16384.0
#define GROWTH_MIN_SHARE 0.01

/* What the account says of the rows of one name. */
struct name_evidence {
	uint64_t allocs, reallocated;
	uint64_t reclaimable;		/* allocations from reclaimable slab caches */
	uint64_t oldest_ts;		/* of its held objects; 0: none held */
	uint64_t held, uncertain;	/* live objects: held, or allocated before a loss */
	uint64_t kmemleak;		/* live objects kmemleak reports */
};

struct suspect {
	uint32_t row;
	double grew;
	unsigned rising;		/* windows that rose, of SUSPECT_WINDOWS - 1 */
	double untraced_share;		/* of its allocations, came back while live */
	double age_share;		/* oldest live object's age / the log's span */
	int confidence;			/* 2 high, 1 medium, 0 low, -1 a reclaimable cache's */
	uint64_t oldest_ts;		/* of its held objects; 0: not known */
	uint64_t kmemleak;		/* of its live objects, those kmemleak reports */
};

/* A row at least half of whose allocations fill reclaimable caches is rated so. */
#define RECLAIMABLE_SHARE 0.5

static const struct out_column suspect_columns[] = {
	{ "caller", NULL, OUT_STR, true },
	{ "confidence", NULL, OUT_STR, true },
	{ "grew_bytes", "grew", OUT_U64, false },
	{ "over_s", "over (s)", OUT_F64, false },
	{ "bytes_per_s", "bytes/s", OUT_REAL, false },
	{ "r2", "r2", OUT_REAL, false },
	{ "rising_windows", "up/7", OUT_U64, false },
	{ "oldest_age_pct", "oldest%", OUT_PCT, false },
	{ "came_back_pct", "back%", OUT_PCT, false },
	{ "live_end", "live at end", OUT_U64, false },
	{ "why", NULL, OUT_STR, true },
	{ "kmemleak", NULL, OUT_STR, true },	/* with --kmemleak only: the last column */
};

#define SUSPECT_COLUMNS (sizeof(suspect_columns) / sizeof(suspect_columns[0]))

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static bool kmemleak_reports(const struct kmemleak_hits *k, uint64_t ptr)
{
	return k && k->n && bsearch(&ptr, k->ptrs, k->n, sizeof(*k->ptrs), compare_u64);
}

/* Per name of the account's rows: allocations, pointers back while live, oldest live. */
static struct name_evidence *gather_evidence(const struct suspect_evidence *ev,
					     struct strtab *names)
{
	const struct account *a = ev->account;
	uint32_t *name_of = xcalloc(a->nsites + 1, sizeof(*name_of)), id;
	struct name_evidence *e;
	char name[CALLSITE_NAME_MAX];
	size_t j;

	for (id = 0; id < a->nsites; id++) {
		size_t len;

		if (!a->sites[id].alloc_count || !row_kept(ev->kept, id)) {
			name_of[id] = STR_NONE;
			continue;
		}
		len = ev->namer->name(ev->namer->ctx, id, name, sizeof(name));
		name_of[id] = strtab_intern(names, name, len);
	}
	e = xcalloc(names->count + 1, sizeof(*e));
	for (id = 0; id < a->nsites; id++)
		if (name_of[id] != STR_NONE) {
			e[name_of[id]].allocs += a->sites[id].alloc_count;
			e[name_of[id]].reallocated += account_reallocated(a, id);
			e[name_of[id]].reclaimable += reclaim_count_of(ev->reclaim, id);
		}
	for (j = 0; j < account_live(a)->nrecs; j++) {
		const struct live_alloc *l = &account_live(a)->recs[j];
		struct name_evidence *x;
		uint32_t row;

		if (!l->ptr)
			continue;
		row = account_live_row(a, l);
		if (row >= a->nsites || name_of[row] == STR_NONE)
			continue;
		x = &e[name_of[row]];
		if (ev->losses && loss_window_ends_after(ev->losses, l->ts_ns)) {
			x->uncertain++;	/* its free may have been lost: no evidence of a leak */
			continue;
		}
		x->held++;
		x->kmemleak += kmemleak_reports(ev->kmemleak, l->ptr);
		if (!x->oldest_ts || l->ts_ns < x->oldest_ts)
			x->oldest_ts = l->ts_ns;
	}
	free(name_of);
	return e;
}

/* How many of the SUSPECT_WINDOWS windows' mean live bytes rose over the window before. */
static unsigned rising_windows(const double *v, uint32_t n)
{
	double mean[SUSPECT_WINDOWS];
	unsigned w, rose = 0;

	for (w = 0; w < SUSPECT_WINDOWS; w++) {
		uint32_t from = (uint32_t)((uint64_t)n * w / SUSPECT_WINDOWS);
		uint32_t to = (uint32_t)((uint64_t)n * (w + 1) / SUSPECT_WINDOWS), i;
		double sum = 0;

		for (i = from; i < to; i++)
			sum += v[i];
		mean[w] = to > from ? sum / (to - from) : 0;
		if (w && mean[w] > mean[w - 1])
			rose++;
	}
	return rose;
}

static int judge(const struct suspect *s, double r2)
{
	const unsigned windows = SUSPECT_WINDOWS - 1;

	if (r2 >= 0.95 && s->rising == windows && s->untraced_share == 0 && s->age_share >= 0.5)
		return 2;
	if (r2 >= 0.9 && s->rising * 4 >= windows * 3 && s->untraced_share < 0.01)
		return 1;
	return 0;
}

static int by_evidence(const void *pa, const void *pb)
{
	const struct suspect *a = pa, *b = pb;

	if (a->confidence != b->confidence)
		return a->confidence > b->confidence ? -1 : 1;
	if (a->grew != b->grew)
		return a->grew > b->grew ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

static void why_text(const struct suspect *s, const struct growth_fit *f,
		     const struct timeline_rows *rows, bool listed_by_log, bool objects_known,
		     char *out, size_t cap)
{
	char over[48];

	char size[32];
	int n = 0;

	human_size((uint64_t)llround(fmax(f->grew, 0)), size, sizeof(size));
	if (s->confidence < 0)
		n = snprintf(out, cap, "a reclaimable slab cache (%sgrows with the page cache and "
			     "dcache, given back under memory pressure): ",
			     listed_by_log ? "the log's header lists it; " : "");
	if (n < 0 || (size_t)n >= cap)
		return;
	out += n;
	cap -= (size_t)n;
	if (rows->untimed)	/* numbered snapshots: no time */
		snprintf(over, sizeof(over), "over %u snapshots", rows->nsamples);
	else
		snprintf(over, sizeof(over), "in %.1f s", f->span_s);
	if (!objects_known)	/* counts without objects (allocinfo): no age, nothing came back */
		snprintf(out, cap, "grew %s %s (r2 %.2f), up in %u/%u windows; no object's "
			 "age is known (counts, not objects: at most medium)", size, over, f->r2,
			 s->rising, SUSPECT_WINDOWS - 1);
	else
		snprintf(out, cap, "grew %s %s (r2 %.2f), up in %u/%u windows, oldest live "
			 "%.0f%% of the log old, %s", size, over, f->r2, s->rising,
			 SUSPECT_WINDOWS - 1, 100.0 * s->age_share,
			 s->untraced_share > 0 ? "a few came back live" : "none came back live");
}

static const char *const level[] = { "reclaimable", "low", "medium", "high" };

/*
 * The rows that grow steadily, judged, most evidence first, into s (room
 * for every row): how many; *e the evidence by name (NULL without an
 * account), *untraced the growers left out as untraced free paths.
 */
static size_t judge_suspects(const struct timeline_rows *rows, const struct suspect_evidence *ev,
			     struct suspect *s, struct name_evidence **evidence,
			     struct strtab *names, size_t *untraced)
{
	struct name_evidence *e = NULL;
	double peak_total = 0, min_bytes;
	size_t n = 0, i;
	uint32_t r;

	*untraced = 0;
	if (ev && ev->account)
		e = gather_evidence(ev, names);
	for (i = 0; i < rows->nsamples; i++)
		if (rows->total[i] > peak_total)
			peak_total = rows->total[i];
	min_bytes = fmax(GROWTH_MIN_BYTES, GROWTH_MIN_SHARE * peak_total);
	for (r = 0; r < rows->nrows; r++) {
		const struct growth_fit *f = &rows->fit[r];
		struct suspect *x = &s[n];
		uint32_t id;

		if (rows->nsamples < 8 || !growth_is_steady(f, min_bytes))
			continue;
		memset(x, 0, sizeof(*x));	/* nothing of a row judged before and left out */
		x->row = r;
		x->grew = f->grew;
		x->rising = rising_windows(timeline_row_values(rows, r), rows->nsamples);
		id = e ? strtab_find(names, rows->names[r], strlen(rows->names[r])) : STR_NONE;
		if (id != STR_NONE) {
			const struct name_evidence *y = &e[id];

			x->untraced_share = y->allocs ? (double)y->reallocated / (double)y->allocs : 0;
			x->oldest_ts = y->oldest_ts;
			x->kmemleak = y->kmemleak;
			if (y->oldest_ts && rows->span_s > 0 && ev->end_ns > y->oldest_ts)
				x->age_share = fmin(1.0, (double)(ev->end_ns - y->oldest_ts) / 1e9 /
							 rows->span_s);
		}
		if (id != STR_NONE && e[id].uncertain && !e[id].held)
			continue;	/* all it holds was allocated before events were lost */
		if (x->untraced_share >= SUSPECT_UNTRACED_SHARE) {
			(*untraced)++;	/* its frees take a path the log does not see */
			continue;
		}
		x->confidence = judge(x, f->r2);
		if (ev && (ev->rows_are_caches ? cache_is_reclaimable(rows->names[r],
								      ev->reclaimable_list)
			   : id != STR_NONE && e[id].allocs &&
			     (double)e[id].reclaimable >= RECLAIMABLE_SHARE * (double)e[id].allocs))
			x->confidence = -1;
		n++;
	}
	if (n)
		qsort(s, n, sizeof(*s), by_evidence);
	*evidence = e;
	return n;
}

size_t leak_suspects_report(struct out_doc *d, const struct timeline_rows *rows, size_t top,
			    const struct suspect_evidence *ev, size_t *untraced)
{
	struct suspect *s = xcalloc(rows->nrows + 1, sizeof(*s));
	struct name_evidence *e = NULL;
	struct strtab names;
	struct out_block *t;
	size_t n, i;

	strtab_init(&names);
	n = judge_suspects(rows, ev, s, &e, &names, untraced);
	if (n) {
		if (top && n > top)
			n = top;
		t = out_table(d, "leak_suspects", "leak suspects (live bytes growing steadily), "
			      "most evidence first", suspect_columns,
			      ev && ev->kmemleak ? SUSPECT_COLUMNS : SUSPECT_COLUMNS - 1);
		t->keyed = true;
		for (i = 0; i < n; i++) {
			const struct growth_fit *f = &rows->fit[s[i].row];
			char why[384];

			why_text(&s[i], f, rows, ev && ev->reclaimable_list && *ev->reclaimable_list,
				 e != NULL, why, sizeof(why));
			out_row_str(d, t, rows->names[s[i].row]);
			out_row_str(d, t, level[s[i].confidence + 1]);
			out_row_u64(d, t, (uint64_t)llround(f->grew));
			if (rows->untimed) {	/* a span and a rate need real times */
				out_row_none(d, t);
				out_row_none(d, t);
			} else {
				out_row_f64(d, t, f->span_s);
				out_row_real(d, t, f->slope);
			}
			out_row_real(d, t, f->r2);
			out_row_u64(d, t, s[i].rising);
			if (e) {
				out_row_pct(d, t, 100.0 * s[i].age_share);
				out_row_pct(d, t, 100.0 * s[i].untraced_share);
			} else {	/* no objects: their ages and comebacks are not known */
				out_row_none(d, t);
				out_row_none(d, t);
			}
			out_row_u64(d, t, (uint64_t)llround(timeline_row_values(rows, s[i].row)
							   [rows->nsamples - 1]));
			out_row_str(d, t, why);
			if (ev && ev->kmemleak) {
				char said[64];

				if (s[i].kmemleak)
					snprintf(said, sizeof(said), "kmemleak reports %" PRIu64
						 " of its objects", s[i].kmemleak);
				else
					snprintf(said, sizeof(said), "kmemleak reports none");
				out_row_str(d, t, said);
			}
		}
	}
	free(s);
	free(e);
	strtab_release(&names);
	return n;
}

size_t leak_suspects_marks(const struct timeline_rows *rows, const struct suspect_evidence *ev,
			   struct suspect_mark **out)
{
	struct suspect *s = xcalloc(rows->nrows + 1, sizeof(*s));
	struct name_evidence *e = NULL;
	struct suspect_mark *m;
	struct strtab names;
	size_t n, i, untraced;

	strtab_init(&names);
	n = judge_suspects(rows, ev, s, &e, &names, &untraced);
	m = xcalloc(n + 1, sizeof(*m));
	for (i = 0; i < n; i++) {
		m[i].name = rows->names[s[i].row];
		m[i].confidence = level[s[i].confidence + 1];
		m[i].grew = (uint64_t)llround(fmax(rows->fit[s[i].row].grew, 0));
		m[i].oldest_ns = s[i].oldest_ts;
		m[i].live_end = (uint64_t)llround(timeline_row_values(rows, s[i].row)
						   [rows->nsamples - 1]);
	}
	free(s);
	free(e);
	strtab_release(&names);
	*out = m;
	return n;
}
