/*
 * report.c - account file and summary writers.
 *
 * The account layout is trace_analyze.py's, column for column:
 *
 *   current bytes allocated:     669696
 *   ...
 *      total    waste      net alloc/free  caller
 *   ---------------------------------------------
 *     299200        0   298928  1100/1     alloc_inode+0x4f
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "report.h"

static const char *const order_names[ORDER_KEY_COUNT] = {
	[ORDER_TOTAL_DYNAMIC] = "total_dynamic",
	[ORDER_CURRENT_DYNAMIC] = "current_dynamic",
	[ORDER_ALLOC_COUNT] = "alloc_count",
	[ORDER_FREE_COUNT] = "free_count",
	[ORDER_WASTE] = "waste",
	[ORDER_FRAG] = "frag",
	[ORDER_HIT] = "hit",
	[ORDER_BYTES] = "bytes",
	[ORDER_PINGPONG] = "pingpong",
	[ORDER_PEAK] = "peak",
	[ORDER_TOTAL_WASTE] = "total_waste",
};

int order_key_of_name(const char *name)
{
	int k;

	for (k = 0; k < ORDER_KEY_COUNT; k++)
		if (strcmp(name, order_names[k]) == 0)
			return k;
	return -1;
}

const char *order_key_name(enum order_key key)
{
	return order_names[key];
}

const char *order_key_list(void)
{
	static char list[256];
	size_t n = 0;
	int k;

	if (!list[0])
		for (k = 0; k < ORDER_KEY_COUNT; k++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", k ? ", " : "",
					      order_names[k]);
	return list;
}

/* ---- rows ---------------------------------------------------------------- */

static void add_stats(struct site_stats *a, const struct site_stats *b)
{
	a->total_dynamic += b->total_dynamic;
	a->total_req += b->total_req;
	a->current_dynamic += b->current_dynamic;
	a->current_req += b->current_req;
	a->alloc_count += b->alloc_count;
	a->free_count += b->free_count;
	a->pingpong += b->pingpong;
	a->peak_dynamic += b->peak_dynamic;	/* exact only for a single site */
}

static int64_t sort_value(const struct site_stats *s, enum order_key key)
{
	switch (key) {
	case ORDER_FRAG:	/* in millionths of a percent, to sort as an integer */
		return (int64_t)(fragmentation_pct(s->total_req, s->total_dynamic) * 1e6);
	case ORDER_HIT:
		return (int64_t)s->alloc_count;
	case ORDER_BYTES:
		return (int64_t)s->total_dynamic;
	case ORDER_PINGPONG:
		return (int64_t)s->pingpong;
	case ORDER_PEAK:
		return (int64_t)s->peak_dynamic;
	case ORDER_TOTAL_WASTE:
		return site_total_waste(s);
	case ORDER_TOTAL_DYNAMIC:
		return (int64_t)s->total_dynamic;
	case ORDER_CURRENT_DYNAMIC:
		return (int64_t)s->current_dynamic;
	case ORDER_ALLOC_COUNT:
		return (int64_t)s->alloc_count;
	case ORDER_FREE_COUNT:
		return (int64_t)s->free_count;
	case ORDER_WASTE:
	default:
		return site_waste(s);
	}
}

static int compare_rows(const void *pa, const void *pb, void *ctx)
{
	const struct account_row *a = pa, *b = pb;
	enum order_key key = *(const enum order_key *)ctx;
	int64_t x = sort_value(&a->s, key), y = sort_value(&b->s, key);

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->caller, b->caller);
}

size_t callsite_row_name(const void *ctx, uint32_t id, char *out, size_t cap)
{
	const struct callsite_namer *n = ctx;

	return callsite_name(strtab_get(n->call_sites, id), strtab_length(n->call_sites, id),
			     n->syms, n->by_function, out, cap);
}

size_t strtab_row_name(const void *ctx, uint32_t id, char *out, size_t cap)
{
	const struct strtab_namer *n = ctx;
	size_t len = strtab_length(n->names, id);

	if (cap == 0)
		return 0;
	if (len >= cap)
		len = cap - 1;
	memcpy(out, strtab_get(n->names, id), len);
	out[len] = '\0';
	return len;
}

void account_rows_build(struct account_rows *out, const struct account *acc,
			const struct row_namer *namer, enum order_key key,
			const struct row_places *places)
{
	char name[CALLSITE_NAME_MAX];
	uint32_t id;
	size_t i;

	memset(out, 0, sizeof(*out));
	strtab_init(&out->names);
	out->rows = xcalloc(acc->nsites ? acc->nsites : 1, sizeof(*out->rows));
	for (id = 0; id < acc->nsites; id++) {
		const struct site_stats *s = account_site(acc, id);

		if (!s)
			continue;
		size_t n = namer->name(namer->ctx, id, name, sizeof(name));
		uint32_t row = strtab_intern(&out->names, name, n);

		out->rows[row].nsites++;
		if (row == out->count) {
			out->count++;
			out->rows[row].place = places ? places->of_site[id] : UINT32_MAX;
		} else if (places) {
			out->rows[row].place = places->join(places->ctx, out->rows[row].place,
							    places->of_site[id]);
		}
		add_stats(&out->rows[row].s, s);
	}
	for (i = 0; i < out->count; i++)
		out->rows[i].caller = strtab_get(&out->names, (uint32_t)i);
	qsort_r(out->rows, out->count, sizeof(*out->rows), compare_rows, &key);
}

void account_rows_filter(struct account_rows *rows,
			 bool (*keep)(const struct account_row *row, const void *ctx),
			 const void *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < rows->count; i++)
		if (keep(&rows->rows[i], ctx))
			rows->rows[n++] = rows->rows[i];
	rows->count = n;
}

void account_rows_release(struct account_rows *rows)
{
	free(rows->rows);
	strtab_release(&rows->names);
	memset(rows, 0, sizeof(*rows));
}

/* ---- account file ----------------------------------------------------------- */

static const struct out_column account_columns[] = {
	{ "caller", NULL, OUT_STR, false },
	{ "total_dynamic", NULL, OUT_U64, false },
	{ "waste", NULL, OUT_I64, false },
	{ "current_dynamic", NULL, OUT_U64, false },
	{ "current_req", NULL, OUT_U64, false },
	{ "alloc_count", NULL, OUT_U64, false },
	{ "free_count", NULL, OUT_U64, false },
	{ "total_req", NULL, OUT_U64, false },
	{ "total_waste", NULL, OUT_I64, false },
};

static void write_account_document(FILE *f, const struct account_rows *rows,
				   const struct site_stats *sum, enum out_format format)
{
	struct out_doc d;
	struct out_block *totals, *table;
	size_t i;

	out_doc_init(&d, "account");
	totals = out_list(&d, "totals", NULL);
	out_item_u64(&d, totals, "current_bytes_allocated", "current bytes allocated",
		     sum->current_dynamic);
	out_item_u64(&d, totals, "current_bytes_requested", "current bytes requested",
		     sum->current_req);
	out_item_i64(&d, totals, "current_wasted_bytes", "current wasted bytes", site_waste(sum));
	out_item_u64(&d, totals, "allocs", "number of allocs", sum->alloc_count);
	out_item_u64(&d, totals, "frees", "number of frees", sum->free_count);
	out_item_u64(&d, totals, "callers", "number of callers", rows->count);
	table = out_table(&d, "callers", NULL, account_columns,
			  sizeof(account_columns) / sizeof(account_columns[0]));
	for (i = 0; i < rows->count; i++) {
		const struct account_row *r = &rows->rows[i];

		out_row_str(&d, table, r->caller);
		out_row_u64(&d, table, r->s.total_dynamic);
		out_row_i64(&d, table, site_waste(&r->s));
		out_row_u64(&d, table, r->s.current_dynamic);
		out_row_u64(&d, table, r->s.current_req);
		out_row_u64(&d, table, r->s.alloc_count);
		out_row_u64(&d, table, r->s.free_count);
		out_row_u64(&d, table, r->s.total_req);
		out_row_i64(&d, table, site_total_waste(&r->s));
	}
	out_write(f, &d, format);
	out_doc_release(&d);
}

void write_account(FILE *f, const struct account_rows *rows, enum out_format format)
{
	struct site_stats sum = { 0 };
	size_t i;

	for (i = 0; i < rows->count; i++)
		add_stats(&sum, &rows->rows[i].s);
	if (format != FORMAT_TEXT) {
		write_account_document(f, rows, &sum, format);
		return;
	}

	fprintf(f, "%-25s%10" PRIu64 "\n", "current bytes allocated:", sum.current_dynamic);
	fprintf(f, "%-25s%10" PRIu64 "\n", "current bytes requested:", sum.current_req);
	fprintf(f, "%-25s%10" PRId64 "\n", "current wasted bytes:", site_waste(&sum));
	fprintf(f, "%-25s%10" PRIu64 "\n", "number of allocs:", sum.alloc_count);
	fprintf(f, "%-25s%10" PRIu64 "\n", "number of frees:", sum.free_count);
	fprintf(f, "%-25s%10zu\n", "number of callers:", rows->count);
	fputs("\n", f);
	fputs("   total    waste      net alloc/free  caller\n", f);
	fputs("---------------------------------------------\n", f);
	for (i = 0; i < rows->count; i++) {
		const struct account_row *r = &rows->rows[i];

		fprintf(f, "%8" PRIu64 " %8" PRId64 " %8" PRIu64 " %5" PRIu64 "/%-5" PRIu64 " %s\n",
			r->s.total_dynamic, site_waste(&r->s), r->s.current_dynamic,
			r->s.alloc_count, r->s.free_count, r->caller);
	}
}

/* ---- summary -------------------------------------------------------------------- */

static void summary_line(FILE *f, const char *label, uint64_t n)
{
	fprintf(f, "  %-24s%12" PRIu64 "\n", label, n);
}

static void summary_detail(FILE *f, const char *label, uint64_t n)
{
	if (n)
		fprintf(f, "    %-22s%12" PRIu64 "\n", label, n);
}

static void write_events_read(FILE *f, const struct parse_stats *st)
{
	uint64_t total = 0;
	int k;

	for (k = KMEM_KMALLOC; k <= KMEM_PAGE_ALLOC_EXTFRAG; k++)
		total += st->events[k];
	summary_line(f, "kmem events read:", total);
	for (k = KMEM_KMALLOC; k <= KMEM_PAGE_ALLOC_EXTFRAG; k++)
		summary_detail(f, kmem_kind_name((enum kmem_kind)k), st->events[k]);
}

static void write_lines_skipped(FILE *f, const struct run_summary *sum)
{
	const struct parse_stats *st = sum->stats;
	uint64_t overlong = st->overlong + sum->overlong_lines;
	uint64_t markers = st->events[KMEM_LOST_EVENTS] + st->events[KMEM_BUFFER_STARTED];
	uint64_t total = st->header_lines + st->blank_lines + st->stack_lines +
			 st->other_events + st->malformed + st->garbage + overlong + markers +
			 (sum->truncated_last_line ? 1 : 0);

	summary_line(f, "lines skipped:", total);
	summary_detail(f, "header", st->header_lines);
	summary_detail(f, "blank", st->blank_lines);
	summary_detail(f, "lost-event markers", markers);
	summary_detail(f, "stack trace", st->stack_lines);
	summary_detail(f, "other events", st->other_events);
	summary_detail(f, "malformed kmem events", st->malformed);
	summary_detail(f, "not trace lines", st->garbage);
	summary_detail(f, "longer than 1 MiB", overlong);
	summary_detail(f, "truncated last line", sum->truncated_last_line ? 1 : 0);
}

static void write_ring_buffer(FILE *f, const struct run_summary *sum)
{
	const struct trace_header *h = sum->header;
	const struct parse_stats *st = sum->stats;

	if (h->has_entries && h->entries_written > h->entries_in_buffer)
		fprintf(f, "  %-24sDROPPED %" PRIu64 " events (entries-in-buffer/entries-written: "
			   "%" PRIu64 "/%" PRIu64 ")\n", "ring buffer:",
			h->entries_written - h->entries_in_buffer, h->entries_in_buffer,
			h->entries_written);
	else if (h->has_entries)
		fprintf(f, "  %-24sno events dropped (entries-in-buffer/entries-written: "
			   "%" PRIu64 "/%" PRIu64 ")\n", "ring buffer:",
			h->entries_in_buffer, h->entries_written);
	else
		fprintf(f, "  %-24sno header: the log does not say whether events were dropped\n",
			"ring buffer:");
	if (st->events[KMEM_LOST_EVENTS])
		fprintf(f, "  %-24s%" PRIu64 " events lost at %" PRIu64 " marker%s "
			   "('CPU:N [LOST M EVENTS]')\n", "trace_pipe:", st->lost_events,
			st->events[KMEM_LOST_EVENTS], st->events[KMEM_LOST_EVENTS] == 1 ? "" : "s");
	if (st->events[KMEM_BUFFER_STARTED])
		fprintf(f, "  %-24s%" PRIu64 " 'CPU N buffer started' markers (a CPU's oldest "
			   "events were overwritten)\n", "ring buffer:",
			st->events[KMEM_BUFFER_STARTED]);
}

/* What pairing stacks with events made of the log's stack traces. */
static void write_stacks_read(FILE *f, const struct run_summary *sum)
{
	const struct stack_counts *c = &sum->stats->stacks;

	if (!c->blocks && !c->stray_frames && !c->user_blocks) {
		fprintf(f, "  %-24snone in the log: origins are call sites' functions\n",
			"stack traces:");
		return;
	}
	summary_line(f, "stack traces:", c->blocks);
	summary_detail(f, "of kmem events", c->kmem_paired);
	summary_detail(f, "of other events", c->other_paired);
	summary_detail(f, "with no event", c->orphans);
	summary_detail(f, "damaged, not used", c->dropped);
	if (c->user_blocks)
		summary_detail(f, "user stacks, not used", c->user_blocks);
	if (c->stray_frames)
		summary_detail(f, "frames outside a stack", c->stray_frames);
	summary_line(f, "kmem events with stack:", c->events_with);
	summary_line(f, "kmem events without one:", c->events_without);
	summary_line(f, "distinct stacks:", sum->distinct_stacks);
}

void write_summary(FILE *f, const struct run_summary *sum)
{
	const struct parse_stats *st = sum->stats;
	const struct account_totals *t = sum->totals;

	fprintf(f, "trace_analyze: summary of '%s'", sum->source);
	if (sum->made_from)
		fprintf(f, " (made from '%s')", sum->made_from);
	fprintf(f, ": %" PRIu64 " lines, %" PRIu64 " bytes", st->lines, st->bytes);
	if (sum->compression)
		fprintf(f, " (%s, %" PRIu64 " compressed)", sum->compression, sum->compressed_bytes);
	fprintf(f, " in %.2f s\n", sum->seconds);
	write_events_read(f, st);
	write_lines_skipped(f, sum);
	if (sum->families != FAMILY_ALL)
		summary_line(f, sum->families == FAMILY_MALLOC ? "left out by --malloc:"
							       : "left out by --cache:",
			     t->filtered);
	summary_line(f, "allocations:", t->allocs);
	summary_line(f, "frees matched:", t->frees);
	summary_line(f, "lost frees:", t->lost_frees);
	summary_line(f, "implicit frees:", t->implicit_frees);
	summary_line(f, "failed allocations:", t->failed_allocs);
	summary_line(f, "null frees:", t->null_frees);
	if (sum->stacks)
		write_stacks_read(f, sum);
	write_ring_buffer(f, sum);
	if (sum->first_malformed_line)
		fprintf(f, "  first malformed kmem event at line %" PRIu64 "\n",
			sum->first_malformed_line);
}
