/*
 * stats.c - the summary, per-call-site statistics and outstanding
 * allocations reports (what each holds is in stats.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "report.h"
#include "stats.h"
#include "suspects.h"

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

static void add_bytes_block(struct out_doc *d, const struct account_totals *t, const uint64_t *live);

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
	add_bytes_block(&d, totals, NULL);
	out_emit(o, &d);
	out_doc_release(&d);
	free(by_bytes.rows);
}

/* ---- --summary ------------------------------------------------------------------- */

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/*
 * With live (the summary), two "net" figures named apart: perf kmem's net
 * (allocated minus the frees that matched an allocation) and the
 * account's live bytes at the end; they differ by the allocations whose
 * pointer was allocated again while live (implicit frees: no free seen).
 */
static void add_bytes_block(struct out_doc *d, const struct account_totals *t, const uint64_t *live)
{
	struct out_block *b = out_list(d, "bytes", "slab bytes (SUMMARY, as perf kmem stat)");

	out_item_u64(d, b, "requested", "total bytes requested", t->bytes_requested);
	out_item_u64(d, b, "allocated", "total bytes allocated", t->bytes_allocated);
	out_item_u64(d, b, "freed", "total bytes freed", t->bytes_freed);
	out_item_i64(d, b, "net", "net total bytes allocated",
		     (int64_t)(t->bytes_allocated - t->bytes_freed));
	if (live) {
		out_item_u64(d, b, "live", "live bytes at the end (as the account)", *live);
		out_item_i64(d, b, "net_minus_live", "net - live (implicit frees' bytes)",
			     (int64_t)(t->bytes_allocated - t->bytes_freed) - (int64_t)*live);
	}
	out_item_u64(d, b, "fragmentation_bytes", "bytes wasted on internal fragmentation",
		     t->bytes_allocated - t->bytes_requested);
	out_item_pct(d, b, "fragmentation_pct", "internal fragmentation %",
		     fragmentation_pct(t->bytes_requested, t->bytes_allocated));
	out_item_u64(d, b, "pingpong", "frees on another CPU (ping-pong)", t->pingpong);
	out_item_pct(d, b, "pingpong_pct", "ping-pong % of matched frees", share(t->pingpong, t->frees));
	out_item_u64(d, b, "node_allocs", "allocations naming a node", t->node_allocs);
	out_item_u64(d, b, "cross_node", "cross-node allocations (CPU on node 0)", t->cross_node);
}


static void add_events_block(struct out_doc *d, const struct summary_report *s)
{
	struct out_block *b = out_list(d, "events", "events");
	const struct account_totals *t = s->totals;
	int k;

	for (k = KMEM_KMALLOC; k < KMEM_KIND_COUNT; k++) {
		const char *name = kmem_kind_name((enum kmem_kind)k);
		const char *key = k == KMEM_LOST_EVENTS ? "lost_events_markers"
				: k == KMEM_BUFFER_STARTED ? "buffer_started_markers" : name;

		if (k == KMEM_LOST_EVENTS && s->binary_kind)	/* as the file names them */
			name = strcmp(s->binary_kind, "perf.data") == 0 ? "PERF_RECORD_LOST records"
				: "pages after missed events";

		out_item_u64(d, b, key, name, s->stats->events[k]);
	}
	out_item_u64(d, b, "allocations", "allocations", t->allocs);
	out_item_u64(d, b, "frees_matched", "frees matched", t->frees);
	out_item_u64(d, b, "lost_frees", "lost frees", t->lost_frees);
	out_item_u64(d, b, "implicit_frees", "implicit frees", t->implicit_frees);
	out_item_u64(d, b, "failed_allocations", "failed allocations", t->failed_allocs);
	out_item_u64(d, b, "null_frees", "null frees", t->null_frees);
	if (s->families != FAMILY_ALL)
		out_item_u64(d, b, "filtered", s->families == FAMILY_MALLOC ? "left out by --malloc"
									    : "left out by --cache",
			     t->filtered);
	out_item_u64(d, b, "lost_events", !s->binary_kind ? "events lost (trace_pipe markers)"
		     : strcmp(s->binary_kind, "perf.data") == 0 ? "events lost (PERF_RECORD_LOST)"
		     : "events lost (missed, trace.dat)", s->stats->lost_events);
	if (s->header->has_entries) {
		out_item_u64(d, b, "entries_in_buffer", "entries in buffer",
			     s->header->entries_in_buffer);
		out_item_u64(d, b, "entries_written", "entries written", s->header->entries_written);
		out_item_u64(d, b, "ring_buffer_dropped", "dropped by the ring buffer",
			     s->header->entries_written > s->header->entries_in_buffer
			     ? s->header->entries_written - s->header->entries_in_buffer : 0);
	}
	out_item_f64(d, b, "first_seconds", "first event (s)", (double)s->first_ns / 1e9);
	out_item_f64(d, b, "last_seconds", "last event (s)", (double)s->last_ns / 1e9);
	out_item_f64(d, b, "span_seconds", "span (s)",
		     (double)(s->last_ns > s->first_ns ? s->last_ns - s->first_ns : 0) / 1e9);
}

static const struct out_column reallocated_columns[] = {
	{ "caller", NULL, OUT_STR, true },
	{ "reallocated", "re-allocated live", OUT_U64, false },
	{ "allocs", NULL, OUT_U64, false },
	{ "share_pct", "share", OUT_PCT, false },
	{ "live_bytes", "live at end", OUT_U64, false },
	{ "what", NULL, OUT_STR, true },
};

struct reallocated_row {
	uint64_t count, allocs, live;
	uint32_t name;
};

static int by_reallocated(const void *pa, const void *pb)
{
	const struct reallocated_row *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return (a->name > b->name) - (a->name < b->name);
}

#define REALLOCATED_ROWS 10

static void add_leak_suspects(struct out_doc *d, const struct timeline_rows *growth, size_t top,
			      const struct account *a, const struct row_namer *namer,
			      const struct row_filter *kept, uint64_t end_ns,
			      const struct reclaim_counts *reclaim, const char *reclaimable_list,
			      bool rows_are_caches)
{
	struct suspect_evidence ev = { a, namer, kept, end_ns, reclaim, reclaimable_list,
				       rows_are_caches };
	size_t untraced;

	leak_suspects_report(d, growth, top, a && namer ? &ev : NULL, &untraced);
}

/*
 * The rows whose live objects were allocated again with no free seen (the
 * implicit frees): their frees take a path with no tracepoint, so what the
 * account still counts live there is likely overstated. Rows holding at
 * least 5% of the implicit frees (and 10 of them), most first.
 */
static void add_reallocated_table(struct out_doc *d, const struct summary_report *s)
{
	const struct account *a = s->rows;
	struct reallocated_row *rows;
	struct strtab names;
	struct out_block *t;
	uint64_t total = a->totals.implicit_frees, least;
	uint32_t id, n, i;
	char name[1024];

	if (!total)
		return;
	least = total / 20 > 10 ? total / 20 : 10;
	strtab_init(&names);
	rows = xcalloc(a->nsites + 1, sizeof(*rows));
	for (id = 0; id < a->nsites; id++) {
		size_t len;

		if (!a->sites[id].alloc_count || !row_kept(s->rows_kept, id))
			continue;
		len = s->namer->name(s->namer->ctx, id, name, sizeof(name));
		i = strtab_intern(&names, name, len);
		rows[i].name = i;
		rows[i].count += account_reallocated(a, id);
		rows[i].allocs += a->sites[id].alloc_count;
		rows[i].live += a->sites[id].current_dynamic;
	}
	n = names.count;
	qsort(rows, n, sizeof(*rows), by_reallocated);
	for (i = 0; i < n && i < REALLOCATED_ROWS && rows[i].count >= least; i++)
		;
	if (i) {
		t = out_table(d, "reallocated_while_live",
			      "untraced free path: objects re-allocated while live (freed where no "
			      "tracepoint saw it: live bytes overstated; no leak suspects)", reallocated_columns,
			      sizeof(reallocated_columns) / sizeof(reallocated_columns[0]));
		t->keyed = true;
		n = i;
		for (i = 0; i < n; i++) {
			char what[160];

			snprintf(what, sizeof(what), "%.1f%% of its objects came back while live: "
				 "its live bytes are likely overstated",
				 100.0 * (double)rows[i].count / (double)rows[i].allocs);
			out_row_str(d, t, strtab_get(&names, rows[i].name));
			out_row_u64(d, t, rows[i].count);
			out_row_u64(d, t, rows[i].allocs);
			out_row_pct(d, t, 100.0 * (double)rows[i].count / (double)rows[i].allocs);
			out_row_u64(d, t, rows[i].live);
			out_row_str(d, t, what);
		}
	}
	free(rows);
	strtab_release(&names);
}

/* -b: the totals of the rows under the branch (the blocks above are of the whole log). */
static void add_branch_block(struct out_doc *d, const struct summary_report *s)
{
	const struct account *a = s->rows;
	struct site_stats sum;
	struct out_block *b;
	uint32_t id;

	memset(&sum, 0, sizeof(sum));
	for (id = 0; id < a->nsites; id++) {
		const struct site_stats *x = &a->sites[id];

		if (!x->alloc_count || !row_kept(s->rows_kept, id))
			continue;
		sum.total_dynamic += x->total_dynamic;
		sum.total_req += x->total_req;
		sum.current_dynamic += x->current_dynamic;
		sum.current_req += x->current_req;
		sum.alloc_count += x->alloc_count;
		sum.free_count += x->free_count;
	}
	b = out_list(d, "branch", "under -b");
	out_item_str(d, b, "branch", "branch", s->branch);
	out_item_u64(d, b, "allocs", "allocations", sum.alloc_count);
	out_item_u64(d, b, "frees", "frees matched", sum.free_count);
	out_item_u64(d, b, "requested", "requested", sum.total_req);
	out_item_u64(d, b, "allocated", "allocated", sum.total_dynamic);
	out_item_u64(d, b, "total_waste", "total_waste", sum.total_dynamic - sum.total_req);
	out_item_u64(d, b, "live", "live at end", sum.current_dynamic);
	out_item_u64(d, b, "waste", "waste (live)", sum.current_dynamic - sum.current_req);
}

void write_summary_report(struct out_dest *o, const struct summary_report *s)
{
	struct out_doc d;
	struct out_block *src;

	out_doc_init(&d, "summary");
	d.main = "";	/* CSV: its figures in its own file, its tables beside it */
	src = out_list(&d, "source", NULL);
	out_item_str(&d, src, "log", "log", s->source);
	add_bytes_block(&d, s->totals, &s->live_bytes);
	add_events_block(&d, s);
	if (s->branch && s->rows && s->rows_kept)
		add_branch_block(&d, s);
	if (s->findings)
		findings_report(&d, s->findings, s->caches, s->binary_kind != NULL);
	if (s->rows && s->namer)
		add_reallocated_table(&d, s);
	if (s->growth)
		add_leak_suspects(&d, s->growth, 10, s->rows, s->namer, s->rows_kept, s->last_ns,
				  s->reclaim, s->reclaimable_list, s->rows_are_caches);
	out_emit(o, &d);
	out_doc_release(&d);
}

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

/* Live allocations old enough, each tagged with its row (report name). */
static struct live_item *collect_live(const struct outstanding_query *q, struct strtab *names,
				      size_t *n)
{
	const struct ptrmap *m = &q->account->live;
	struct live_item *items = xmalloc((m->count ? m->count : 1) * sizeof(*items));
	char name[CALLSITE_NAME_MAX];
	size_t i;

	*n = 0;
	for (i = 0; i < m->nrecs; i++) {
		const struct live_alloc *a = &m->recs[i];
		uint64_t age;
		size_t len;

		if (!a->ptr)
			continue;
		age = q->end_ns > a->ts_ns ? q->end_ns - a->ts_ns : 0;
		if (age < q->min_age_ns || !row_kept(&q->rows_kept, a->call_site))
			continue;
		len = q->namer->name(q->namer->ctx, a->call_site, name, sizeof(name));
		items[*n].row = strtab_intern(names, name, len);
		items[*n].age_ns = age;
		items[*n].bytes = a->bytes_alloc;
		(*n)++;
	}
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
	const struct ptrmap *m = &q->by_key->live;
	uint32_t nstacks = q->chains->strings->stacks.count, i, n = 0;
	struct stack_leak *leaks = xcalloc(nstacks ? nstacks : 1, sizeof(*leaks));
	struct out_block *t;
	char origin[CALLSITE_NAME_MAX];
	size_t j, shown;

	for (i = 0; i < nstacks; i++)
		leaks[i].stack = i;
	for (j = 0; j < m->nrecs; j++) {
		const struct live_alloc *a = &m->recs[j];
		uint32_t call_site, stack;
		uint64_t age;

		if (!a->ptr)
			continue;
		age = q->end_ns > a->ts_ns ? q->end_ns - a->ts_ns : 0;
		if (age < q->min_age_ns || !row_kept(&q->keys_kept, a->call_site))
			continue;
		origin_key_parts(q->keys, a->call_site, &call_site, &stack);
		if (stack == STACK_NONE || stack >= nstacks)
			continue;
		leaks[stack].count++;
		leaks[stack].bytes += a->bytes_alloc;
		leaks[stack].origin_key = a->call_site;
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
	struct strtab names;
	struct outstanding_row *rows;
	struct live_item *items;
	struct out_doc d;
	struct out_block *t, *head;
	size_t n, i, j, nrows = 0, shown;
	uint64_t total_bytes = 0;

	strtab_init(&names);
	items = collect_live(q, &names, &n);
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
	out_item_f64(&d, head, "min_age_s", "minimum age (s)", (double)q->min_age_ns / 1e9);
	out_item_f64(&d, head, "log_start_s", "log start (s)", (double)q->start_ns / 1e9);
	out_item_f64(&d, head, "log_end_s", "log end (s)", (double)q->end_ns / 1e9);
	out_item_f64(&d, head, "log_span_s", "log span (s)",
		     (double)(q->end_ns > q->start_ns ? q->end_ns - q->start_ns : 0) / 1e9);
	if (!n && q->account->live.count && q->min_age_ns) {
		char note[256];

		snprintf(note, sizeof(note), "--min-age %.3f s left out all %zu live allocations: "
			 "the log spans %.3f s", (double)q->min_age_ns / 1e9, q->account->live.count,
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
	if (q->by_key)
		add_stack_table(&d, q);
	if (q->growth)
		add_leak_suspects(&d, q->growth, q->top, q->account, q->namer, &q->rows_kept,
				  q->end_ns, q->reclaim, q->reclaimable_list, q->rows_are_caches);
	out_emit(o, &d);
	out_doc_release(&d);
	free(rows);
	free(items);
	strtab_release(&names);
}
