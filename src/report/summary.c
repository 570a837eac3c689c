/*
 * summary.c - the summary (--summary, summary.h): the slab bytes as perf
 * kmem stat gives them, nodes, events, findings, slab caches, the rows
 * re-allocated while live, the leak suspects. Not here: how findings are
 * found (findings.h) or suspects judged (suspects.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "report.h"
#include "summary.h"
#include "suspects.h"

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
/* What the lost events leave unknown: live objects allocated before a window of them. */
static void add_uncertain_items(struct out_doc *d, const struct summary_report *s)
{
	struct out_block *b = out_list(d, "uncertain", "live at the end but allocated before events "
				       "were lost: maybe freed among them (not held)");
	uint64_t objects, bytes;

	loss_uncertain_of(s->losses, account_live(s->rows), &objects, &bytes);
	out_item_u64(d, b, "loss_windows", "windows of lost events", s->losses->n);
	out_item_u64(d, b, "objects", "uncertain objects", objects);
	out_item_u64(d, b, "bytes", "uncertain bytes", bytes);
	out_item_u64(d, b, "held_bytes", "held bytes (live - uncertain)", s->live_bytes - bytes);
}

void summary_add_bytes_block(struct out_doc *d, const struct account_totals *t,
			     const uint64_t *live)
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
			     (int64_t)(t->bytes_allocated - t->bytes_freed - *live));
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
	if (s->reordered)
		out_item_u64(d, b, "reordered_in_tick", "events reordered in a tick", s->reordered);
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
	summary_add_bytes_block(&d, s->totals, &s->live_bytes);
	if (s->losses && s->losses->n && s->rows)
		add_uncertain_items(&d, s);
	add_events_block(&d, s);
	if (s->branch && s->rows && s->rows_kept)
		add_branch_block(&d, s);
	if (s->findings)
		findings_report(&d, s->findings, s->caches, s->binary_kind != NULL);
	if (s->rows && s->namer)
		add_reallocated_table(&d, s);
	if (s->growth) {
		struct suspect_evidence ev = { s->rows, s->namer, s->rows_kept, s->last_ns, s->reclaim,
					       s->reclaimable_list, s->rows_are_caches, s->losses,
					       s->kmemleak };
		size_t untraced;

		leak_suspects_report(&d, s->growth, 10, s->rows && s->namer ? &ev : NULL, &untraced);
	}
	if (s->more)
		s->more(&d, s->more_ctx);
	out_emit(o, &d);
	out_doc_release(&d);
}

