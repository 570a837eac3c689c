/*
 * outstanding.c - what is still allocated at the end (--outstanding,
 * outstanding.h): by row, by stack with its frames, the leak suspects.
 * Not here: how suspects are judged (suspects.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "outstanding.h"
#include "report.h"
#include "suspects.h"

/* ---- --outstanding ------------------------------------------------------------------ */

struct live_item {
	uint32_t row;
	uint64_t age_ns;
	uint32_t bytes;
};

static int compare_items(const void *pa, const void *pb)
{
	const struct live_item *a = pa, *b = pb;

	if (a->row != b->row)
		return a->row < b->row ? -1 : 1;
	return a->age_ns < b->age_ns ? -1 : a->age_ns > b->age_ns;
}

struct outstanding_row {
	const char *caller;
	uint64_t count, bytes, oldest_ns, median_ns;
};

static int compare_outstanding(const void *pa, const void *pb)
{
	const struct outstanding_row *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return strcmp(a->caller, b->caller);
}

static const struct out_column outstanding_columns[] = {
	{ "caller", NULL, OUT_STR, true },
	{ "count", NULL, OUT_U64, false },
	{ "bytes", NULL, OUT_U64, false },
	{ "oldest_age_s", "oldest (s)", OUT_F64, false },
	{ "median_age_s", "median (s)", OUT_F64, false },
};

/* Live objects allocated before a loss window, by row (names in their own table). */
struct uncertain_row {
	uint64_t objects, bytes;
	const struct loss_window *first;	/* the earliest window that makes one uncertain */
};

struct uncertain_rows {
	struct uncertain_row *r;
	uint32_t cap;
	uint64_t objects, bytes;
};

static void add_uncertain(struct uncertain_rows *u, uint32_t row, uint32_t bytes,
			  const struct loss_window *w)
{
	u->r = xgrow_zeroed(u->r, &u->cap, row, sizeof(*u->r));
	u->r[row].objects++;
	u->r[row].bytes += bytes;
	if (!u->r[row].first || w->start_ns < u->r[row].first->start_ns)
		u->r[row].first = w;
	u->objects++;
	u->bytes += bytes;
}

static const struct out_column uncertain_columns[] = {
	{ "caller", NULL, OUT_STR, true },
	{ "objects", NULL, OUT_U64, false },
	{ "bytes", NULL, OUT_U64, false },
	{ "lost_from_s", "events lost from (s)", OUT_F64, false },
	{ "lost_to_s", "to (s)", OUT_F64, false },
};

/* The rows whose live objects were allocated before events were lost, most bytes first. */
static void add_uncertain_table(struct out_doc *d, const struct uncertain_rows *u,
				const struct strtab *unames, size_t top)
{
	uint32_t *order = xmalloc((unames->count ? unames->count : 1) * sizeof(*order));
	uint32_t i, j, n = unames->count, shown;
	struct out_block *t;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = 1; i < n; i++)	/* insertion sort: bytes descending, then name */
		for (j = i; j > 0; j--) {
			const struct uncertain_row *a = &u->r[order[j - 1]], *b = &u->r[order[j]];

			if (a->bytes > b->bytes || (a->bytes == b->bytes &&
			    strcmp(strtab_get(unames, order[j - 1]), strtab_get(unames, order[j])) <= 0))
				break;
			uint32_t x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	t = out_table(d, "uncertain", "allocated before events were lost, not seen freed: they "
		      "may have been freed among the lost events (not held)", uncertain_columns,
		      sizeof(uncertain_columns) / sizeof(uncertain_columns[0]));
	t->keyed = true;
	shown = top && top < n ? (uint32_t)top : n;
	for (i = 0; i < shown; i++) {
		const struct uncertain_row *r = &u->r[order[i]];

		out_row_str(d, t, strtab_get(unames, order[i]));
		out_row_u64(d, t, r->objects);
		out_row_u64(d, t, r->bytes);
		out_row_f64(d, t, (double)r->first->start_ns / 1e9);
		out_row_f64(d, t, (double)r->first->end_ns / 1e9);
	}
	free(order);
}

/* Live allocations old enough, each tagged with its row (report name). */
static struct live_item *collect_live(const struct outstanding_query *q, struct strtab *names,
				      size_t *n, struct uncertain_rows *u, struct strtab *unames)
{
	const struct loss_window *w;
	const struct ptrmap *m = account_live(q->account);
	struct live_item *items = xmalloc((m->count ? m->count : 1) * sizeof(*items));
	uint32_t nsites = q->account->nsites, *row_of, *urow_of;
	size_t i;

	/* each call site named once, in the order its objects come, as the tables' rows */
	row_of = row_cache_new(nsites);
	urow_of = row_cache_new(nsites);
	*n = 0;
	for (i = 0; i < m->nrecs; i++) {
		const struct live_alloc *a = &m->recs[i];
		uint32_t row;
		uint64_t age;

		if (!a->ptr)
			continue;
		row = account_live_row(q->account, a);
		age = q->end_ns > a->ts_ns ? q->end_ns - a->ts_ns : 0;
		if (age < q->min_age_ns || !row_kept(&q->rows_kept, row))
			continue;
		if (q->losses && (w = loss_window_after(q->losses, a->ts_ns)) != NULL) {
			add_uncertain(u, row_of_id(q->namer, unames, urow_of, nsites, row),
				      a->bytes_alloc, w);
			continue;	/* its free may be among the lost events: not held */
		}
		items[*n].row = row_of_id(q->namer, names, row_of, nsites, row);
		items[*n].age_ns = age;
		items[*n].bytes = a->bytes_alloc;
		(*n)++;
	}
	free(row_of);
	free(urow_of);
	qsort(items, *n, sizeof(*items), compare_items);
	return items;
}

struct stack_leak {
	uint32_t stack;
	uint64_t count, bytes, oldest_ns;
	uint32_t origin_key;	/* a key of the stack, to name its origin */
};

static const struct out_column stack_columns[] = {
	{ "count", NULL, OUT_U64, false },
	{ "bytes", NULL, OUT_U64, false },
	{ "oldest_age_s", "oldest (s)", OUT_F64, false },
	{ "origin", NULL, OUT_STR, true },
	{ "frames", NULL, OUT_LINES, true },
};

/* By bytes, then by frames (names, not ids, so that the order is the log's own). */
static int compare_leaks(const void *pa, const void *pb, void *ctx)
{
	const struct stack_leak *a = pa, *b = pb;
	const struct callchains *c = ctx;
	uint32_t na, nb, i;
	const uint32_t *fa, *fb;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	fa = stack_frames(&c->strings->stacks, a->stack, &na);
	fb = stack_frames(&c->strings->stacks, b->stack, &nb);
	for (i = 0; i < na && i < nb; i++) {
		int d = strcmp(callchains_frame_name(c, fa[i]), callchains_frame_name(c, fb[i]));

		if (d)
			return d;
	}
	return na < nb ? -1 : na > nb;
}

/* The frames of a stack, leaf first, one a line. */
static char *frame_lines(const struct callchains *c, uint32_t stack)
{
	uint32_t n, i;
	const uint32_t *f = stack_frames(&c->strings->stacks, stack, &n);
	size_t len = 1, at = 0;
	char *out;

	for (i = 0; i < n; i++)
		len += strlen(callchains_frame_name(c, f[i])) + 1;
	out = xmalloc(len);
	for (i = 0; i < n; i++) {
		const char *name = callchains_frame_name(c, f[i]);
		size_t l = strlen(name);

		memcpy(out + at, name, l);
		at += l;
		out[at++] = i + 1 < n ? '\n' : '\0';
	}
	out[at] = '\0';
	return out;
}

static void add_stack_table(struct out_doc *d, const struct outstanding_query *q)
{
	const struct ptrmap *m = account_live(q->by_key);
	uint32_t nstacks = q->chains->strings->stacks.count, i, n = 0;
	struct stack_leak *leaks = xcalloc(nstacks ? nstacks : 1, sizeof(*leaks));
	struct out_block *t;
	char origin[CALLSITE_NAME_MAX];
	size_t j, shown;

	for (i = 0; i < nstacks; i++)
		leaks[i].stack = i;
	for (j = 0; j < m->nrecs; j++) {
		const struct live_alloc *a = &m->recs[j];
		uint32_t call_site, stack, key;
		uint64_t age;

		if (!a->ptr)
			continue;
		key = account_live_row(q->by_key, a);
		age = q->end_ns > a->ts_ns ? q->end_ns - a->ts_ns : 0;
		if (age < q->min_age_ns || !row_kept(&q->keys_kept, key))
			continue;
		origin_key_parts(q->keys, key, &call_site, &stack);
		if (stack == STACK_NONE || stack >= nstacks)
			continue;
		leaks[stack].count++;
		leaks[stack].bytes += a->bytes_alloc;
		leaks[stack].origin_key = key;
		if (age > leaks[stack].oldest_ns)
			leaks[stack].oldest_ns = age;
	}
	for (i = 0; i < nstacks; i++)
		if (leaks[i].count)
			leaks[n++] = leaks[i];
	qsort_r(leaks, n, sizeof(*leaks), compare_leaks, (void *)q->chains);
	t = out_table(d, "stacks", "still allocated at the end, by stack (frames leaf first)",
		      stack_columns, sizeof(stack_columns) / sizeof(stack_columns[0]));
	t->keyed = true;	/* CSV: the stack's frames are the key */
	t->group_by = "stack";
	t->key_column = 4;
	shown = q->top ? q->top : OUTSTANDING_STACKS;
	for (j = 0; j < n && j < shown; j++) {
		struct origin_namer on = { q->keys, q->chains };
		char *frames = frame_lines(q->chains, leaks[j].stack);

		origin_row_name(&on, leaks[j].origin_key, origin, sizeof(origin));
		out_row_u64(d, t, leaks[j].count);
		out_row_u64(d, t, leaks[j].bytes);
		out_row_f64(d, t, (double)leaks[j].oldest_ns / 1e9);
		out_row_str(d, t, origin);
		out_row_lines(d, t, frames);
		free(frames);
	}
	free(leaks);
}

void write_outstanding(struct out_dest *o, const struct outstanding_query *q)
{
	struct uncertain_rows u;
	struct strtab names, unames;
	struct outstanding_row *rows;
	struct live_item *items;
	struct out_doc d;
	struct out_block *t, *head;
	size_t n, i, j, nrows = 0, shown;
	uint64_t total_bytes = 0;

	strtab_init(&names);
	strtab_init(&unames);
	memset(&u, 0, sizeof(u));
	items = collect_live(q, &names, &n, &u, &unames);
	rows = xcalloc(names.count ? names.count : 1, sizeof(*rows));
	for (i = 0; i < n; i = j) {
		struct outstanding_row *r = &rows[nrows++];

		for (j = i; j < n && items[j].row == items[i].row; j++)
			r->bytes += items[j].bytes;
		r->caller = strtab_get(&names, items[i].row);
		r->count = j - i;
		r->oldest_ns = items[j - 1].age_ns;
		r->median_ns = (r->count % 2) ? items[i + r->count / 2].age_ns
			     : (items[i + r->count / 2 - 1].age_ns + items[i + r->count / 2].age_ns) / 2;
		total_bytes += r->bytes;
	}
	qsort(rows, nrows, sizeof(*rows), compare_outstanding);
	out_doc_init(&d, "outstanding");
	head = out_list(&d, "totals", NULL);
	out_item_u64(&d, head, "allocations", "live allocations", n);
	out_item_u64(&d, head, "bytes", "live bytes", total_bytes);
	out_item_u64(&d, head, "callers", "callers", nrows);
	if (q->losses && q->losses->n) {	/* what the lost events leave unknown */
		out_item_u64(&d, head, "uncertain_allocations", "uncertain allocations", u.objects);
		out_item_u64(&d, head, "uncertain_bytes", "uncertain bytes", u.bytes);
		out_item_u64(&d, head, "loss_windows", "windows of lost events", q->losses->n);
	}
	out_item_f64(&d, head, "min_age_s", "minimum age (s)", (double)q->min_age_ns / 1e9);
	out_item_f64(&d, head, "log_start_s", "log start (s)", (double)q->start_ns / 1e9);
	out_item_f64(&d, head, "log_end_s", "log end (s)", (double)q->end_ns / 1e9);
	out_item_f64(&d, head, "log_span_s", "log span (s)",
		     (double)(q->end_ns > q->start_ns ? q->end_ns - q->start_ns : 0) / 1e9);
	if (!n && account_live(q->account)->count && q->min_age_ns) {
		char note[256];

		snprintf(note, sizeof(note), "--min-age %.3f s left out all %zu live allocations: "
			 "the log spans %.3f s", (double)q->min_age_ns / 1e9, account_live(q->account)->count,
			 (double)(q->end_ns > q->start_ns ? q->end_ns - q->start_ns : 0) / 1e9);
		out_item_str(&d, head, "note", "note", note);
	}
	t = out_table(&d, "callers", NULL, outstanding_columns,
		      sizeof(outstanding_columns) / sizeof(outstanding_columns[0]));
	t->keyed = true;
	shown = q->top && q->top < nrows ? q->top : nrows;
	for (i = 0; i < shown; i++) {
		out_row_str(&d, t, rows[i].caller);
		out_row_u64(&d, t, rows[i].count);
		out_row_u64(&d, t, rows[i].bytes);
		out_row_f64(&d, t, (double)rows[i].oldest_ns / 1e9);
		out_row_f64(&d, t, (double)rows[i].median_ns / 1e9);
	}
	if (u.objects)
		add_uncertain_table(&d, &u, &unames, q->top);
	if (q->by_key)
		add_stack_table(&d, q);
	if (q->growth) {
		struct suspect_evidence ev = { q->account, q->namer, &q->rows_kept, q->end_ns,
					       q->reclaim, q->reclaimable_list, q->rows_are_caches,
					       q->losses, q->kmemleak };
		size_t untraced;

		leak_suspects_report(&d, q->growth, q->top, q->account && q->namer ? &ev : NULL,
				     &untraced);
	}
	out_emit(o, &d);
	out_doc_release(&d);
	free(rows);
	free(items);
	free(u.r);
	strtab_release(&names);
	strtab_release(&unames);
}
