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

static void write_account_document(struct out_dest *o, const struct account_rows *rows,
				   const struct site_stats *sum, size_t callers,
				   const struct account_extra *extra)
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
	out_item_u64(&d, totals, "callers", "number of callers", callers);
	table = out_table(&d, "callers", NULL, account_columns,
			  sizeof(account_columns) / sizeof(account_columns[0]));
	table->keyed = true;
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
	if (extra)
		extra->add(&d, extra->ctx);
	out_emit(o, &d);
	out_doc_release(&d);
}

/*
 * What a row of the account is, one and many, by --group-by's name: the
 * call site's "caller" (trace_analyze.py's heading), or what the grouping
 * makes a row, so that a table by comm says "comm" and "number of comms".
 */
void report_row_noun(const char *group_by, const char **one, const char **many)
{
	static const struct {
		const char *group, *one, *many;
	} nouns[] = {
		{ "function", "function", "functions" }, { "origin", "origin", "origins" },
		{ "cache", "cache", "caches" }, { "size-class", "size class", "size classes" },
		{ "comm", "comm", "comms" }, { "pid", "task", "tasks" },
		{ "gfp", "gfp_flags", "gfp_flags" }, { "dir", "directory", "directories" },
		{ "module", "module", "modules" }, { "cgroup", "cgroup", "cgroups" },
	};
	size_t i;

	*one = "caller";
	*many = "callers";
	for (i = 0; group_by && i < sizeof(nouns) / sizeof(nouns[0]); i++)
		if (strcmp(group_by, nouns[i].group) == 0) {
			*one = nouns[i].one;
			*many = nouns[i].many;
		}
}

static int digits_of(long long v)
{
	char buf[32];

	return snprintf(buf, sizeof(buf), "%lld", v);
}

static int widest(int width, long long v)
{
	int d = digits_of(v);

	return d > width ? d : width;
}

/*
 * The table in trace_analyze.py's columns (8, 8, 8, 5/5 wide), each
 * widened to its widest number when one does not fit, so that 10-digit
 * figures still line up under their heading.
 */
static void write_account_table(FILE *f, const struct account_rows *rows, const char *noun)
{
	int wt = 8, ww = 8, wn = 8, wa = 5, wf = 5, len, k;
	size_t i;

	for (i = 0; i < rows->count; i++) {
		const struct site_stats *s = &rows->rows[i].s;

		wt = widest(wt, (long long)s->total_dynamic);
		ww = widest(ww, (long long)site_waste(s));
		wn = widest(wn, (long long)s->current_dynamic);
		wa = widest(wa, (long long)s->alloc_count);
		wf = widest(wf, (long long)s->free_count);
	}
	len = fprintf(f, "%*s %*s %*s %*s  %s\n", wt, "total", ww, "waste", wn, "net",
		      wa + wf, "alloc/free", noun);
	for (k = 1; k < len; k++)
		fputc('-', f);
	fputc('\n', f);
	for (i = 0; i < rows->count; i++) {
		const struct account_row *r = &rows->rows[i];

		fprintf(f, "%*" PRIu64 " %*" PRId64 " %*" PRIu64 " %*" PRIu64 "/%-*" PRIu64 " %s\n",
			wt, r->s.total_dynamic, ww, site_waste(&r->s), wn, r->s.current_dynamic,
			wa, r->s.alloc_count, wf, r->s.free_count, r->caller);
	}
}

void write_account(struct out_dest *o, const struct account_rows *rows, size_t top,
		   const struct account_extra *extra)
{
	FILE *f = o->f;
	struct site_stats sum = { 0 };
	struct account_rows shown = *rows;	/* the first top rows; the totals are all rows' */
	const char *one, *many;
	char label[64];
	size_t i;
	int w;

	for (i = 0; i < rows->count; i++)
		site_stats_add(&sum, &rows->rows[i].s);
	if (top && shown.count > top)
		shown.count = top;
	if (o->format != FORMAT_TEXT) {
		write_account_document(o, &shown, &sum, rows->count, extra);
		return;
	}

	/* trace_analyze.py's 10 digits, wider (after a space) when a figure needs it */
	w = widest(10, (long long)sum.current_dynamic);
	w = widest(w, (long long)sum.current_req);
	w = widest(w, (long long)sum.alloc_count);
	w = w > 10 ? w + 1 : w;
	fprintf(f, "%-25s%*" PRIu64 "\n", "current bytes allocated:", w, sum.current_dynamic);
	fprintf(f, "%-25s%*" PRIu64 "\n", "current bytes requested:", w, sum.current_req);
	fprintf(f, "%-25s%*" PRId64 "\n", "current wasted bytes:", w, site_waste(&sum));
	fprintf(f, "%-25s%*" PRIu64 "\n", "number of allocs:", w, sum.alloc_count);
	fprintf(f, "%-25s%*" PRIu64 "\n", "number of frees:", w, sum.free_count);
	report_row_noun(o->group_by, &one, &many);
	snprintf(label, sizeof(label), "number of %s:", many);
	fprintf(f, "%-25s%*zu\n", label, w, rows->count);
	fputs("\n", f);
	write_account_table(f, &shown, one);
	if (extra) {
		struct out_doc d;

		out_doc_init(&d, "account");
		extra->add(&d, extra->ctx);
		fputs("\n", f);
		out_write(f, &d, FORMAT_TEXT);
		out_doc_release(&d);
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

/* A binary file's records that are no kmem event, in place of the text's lines skipped. */
static void write_records_skipped(FILE *f, const struct run_summary *sum)
{
	const struct parse_stats *st = sum->stats;

	summary_line(f, "records skipped:", st->other_events + st->malformed);
	summary_detail(f, "other events", st->other_events);
	summary_detail(f, "malformed kmem events", st->malformed);
}

/* Lost events as the binary file records them: perf's PERF_RECORD_LOST, trace.dat's missed events. */
static void write_binary_losses(FILE *f, const struct run_summary *sum)
{
	const struct parse_stats *st = sum->stats;
	uint64_t marks = st->events[KMEM_LOST_EVENTS];
	bool perf = strcmp(sum->binary_kind, "perf.data") == 0;

	if (!marks)
		fprintf(f, "  %-24snone recorded (%s)\n", "lost events:",
			perf ? "no PERF_RECORD_LOST record" : "no page says events were missed");
	else if (perf)
		fprintf(f, "  %-24s%" PRIu64 " events, in %" PRIu64 " PERF_RECORD_LOST record%s\n",
			"lost events:", st->lost_events, marks, marks == 1 ? "" : "s");
	else
		fprintf(f, "  %-24s%" PRIu64 " events, missed before %" PRIu64 " page%s of the "
			   "ring buffer\n", "lost events:", st->lost_events, marks, marks == 1 ? "" : "s");
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

void write_reading_summary(FILE *f, const struct run_summary *sum)
{
	const struct parse_stats *st = sum->stats;
	const struct account_totals *t = sum->totals;

	fprintf(f, "trace_analyze: summary of '%s'", sum->source);
	if (sum->made_from)
		fprintf(f, " (made from '%s')", sum->made_from);
	if (sum->binary_kind)
		fprintf(f, " (a %s): %" PRIu64 " records, %" PRIu64 " bytes", sum->binary_kind,
			sum->records, sum->file_bytes);
	else
		fprintf(f, ": %" PRIu64 " lines, %" PRIu64 " bytes", st->lines, st->bytes);
	if (sum->compression)
		fprintf(f, " (%s, %" PRIu64 " compressed)", sum->compression, sum->compressed_bytes);
	fprintf(f, " in %.2f s\n", sum->seconds);
	write_events_read(f, st);
	if (sum->binary_kind)
		write_records_skipped(f, sum);
	else
		write_lines_skipped(f, sum);
	if (sum->families != FAMILY_ALL)
		summary_line(f, sum->families == FAMILY_MALLOC ? "left out by --malloc:"
							       : "left out by --cache:",
			     t->filtered);
	summary_line(f, "allocations:", t->allocs);
	summary_line(f, "frees matched:", t->frees);
	summary_line(f, "lost frees:", t->lost_frees);
	summary_line(f, "implicit frees:", t->implicit_frees);
	if (sum->reordered)
		fprintf(f, "  %-24s%10" PRIu64 " (of one tick across CPUs: put in the order they "
			"pair in)\n", "events reordered:", sum->reordered);
	summary_line(f, "failed allocations:", t->failed_allocs);
	summary_line(f, "null frees:", t->null_frees);
	if (sum->stacks)
		write_stacks_read(f, sum);
	if (sum->binary_kind)
		write_binary_losses(f, sum);
	else
		write_ring_buffer(f, sum);
	if (sum->first_malformed_line)
		fprintf(f, "  first malformed kmem event at %s %" PRIu64 "\n",
			sum->binary_kind ? "line of its text form" : "line", sum->first_malformed_line);
}
