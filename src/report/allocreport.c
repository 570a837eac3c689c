/*
 * allocreport.c - the account and summary of allocinfo snapshots
 * (allocreport.h), as documents of output.h. Not here: reading, grouping
 * (allocgroups.h), the series' charts.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "allocgroups.h"
#include "allocreport.h"
#include "error.h"
#include "report.h"
#include "suspects.h"

static const struct out_column site_columns[] = {
	{ "key", "site", OUT_STR, true },
	{ "bytes", NULL, OUT_U64, false },
	{ "allocs", NULL, OUT_U64, false },
	{ "avg_bytes", "avg", OUT_U64, false },
	{ "share_pct", "share%", OUT_PCT, false },
	{ "sites", NULL, OUT_U64, false },
	{ "accurate", NULL, OUT_BOOL, false },
};

enum alloc_key alloc_key_for(enum group_by g)
{
	switch (g) {
	case GROUP_FUNCTION:
		return ALLOC_BY_FUNCTION;
	case GROUP_FILE:
		return ALLOC_BY_FILE;
	case GROUP_DIR:
		return ALLOC_BY_DIR;
	case GROUP_MODULE:
		return ALLOC_BY_MODULE;
	default:
		return ALLOC_BY_SITE;
	}
}

/* The key column's heading, as the rows are grouped. */
static const char *row_heading(enum alloc_key g)
{
	switch (g) {
	case ALLOC_BY_FUNCTION:
		return "function";
	case ALLOC_BY_FILE:
		return "file";
	case ALLOC_BY_DIR:
		return "directory";
	case ALLOC_BY_MODULE:
		return "module";
	default:
		return "site";
	}
}

static void snapshot_facts(struct out_doc *d, struct out_block *b, const struct alloc_series *s)
{
	char version[32];

	snprintf(version, sizeof(version), "%u.%u", s->major, s->minor);
	out_item_str(d, b, "version", "allocinfo version", version);
	out_item_u64(d, b, "snapshots", "snapshots", s->snapshots);
	if (s->snapshots > 1 && !s->untimed)	/* a span needs real times */
		out_item_f64(d, b, "span_s", "from first to last (s)",
			     (double)(s->last_ns - s->first_ns) / 1e9);
	if (s->untimed && s->snapshots > 1)
		out_item_u64(d, b, "untimed_snapshots", "without a time (numbered 1, 2... in order)",
			     s->untimed);
}

void write_snapshot_account(struct out_dest *o, const struct alloc_report_query *q)
{
	struct out_column columns[sizeof(site_columns) / sizeof(site_columns[0])];
	struct alloc_rows rows;
	struct out_doc d;
	struct out_block *b, *t;
	uint32_t i, shown;

	alloc_rows_build(&rows, q->s, q->group, q->branch);
	out_doc_init(&d, "allocinfo");
	b = out_list(&d, "totals", NULL);
	out_item_u64(&d, b, "bytes", "bytes live", rows.bytes);
	out_item_u64(&d, b, "allocs", "allocations live", rows.calls);
	out_item_u64(&d, b, "rows", "rows", rows.n);
	out_item_u64(&d, b, "sites_live", "sites with something live", rows.sites_live);
	out_item_u64(&d, b, "sites_idle", "sites with nothing live (not listed)", rows.sites_idle);
	if (q->branch)
		out_item_u64(&d, b, "sites_outside", "sites outside -b", rows.sites_outside);
	snapshot_facts(&d, b, q->s);
	memcpy(columns, site_columns, sizeof(columns));
	columns[0].heading = row_heading(q->group);
	t = out_table(&d, "sites", NULL, columns, sizeof(columns) / sizeof(columns[0]));
	t->keyed = true;
	t->group_by = q->group_by;
	shown = q->top && q->top < rows.n ? (uint32_t)q->top : rows.n;
	for (i = 0; i < shown; i++) {
		const struct alloc_row_sum *r = &rows.rows[i];

		out_row_str(&d, t, strtab_get(&rows.names, r->name));
		out_row_u64(&d, t, r->bytes);
		out_row_u64(&d, t, r->calls);
		out_row_u64(&d, t, r->calls ? r->bytes / r->calls : 0);
		out_row_pct(&d, t, rows.bytes ? 100.0 * (double)r->bytes / (double)rows.bytes : 0);
		out_row_u64(&d, t, r->sites);
		out_row_bool(&d, t, !r->inaccurate);
	}
	out_emit(o, &d);
	out_doc_release(&d);
	alloc_rows_release(&rows);
}

static const struct out_column module_columns[] = {
	{ "key", "module", OUT_STR, true },
	{ "bytes", NULL, OUT_U64, false },
	{ "allocs", NULL, OUT_U64, false },
	{ "sites", NULL, OUT_U64, false },
};

static void modules_table(struct out_doc *d, const struct alloc_report_query *q)
{
	struct alloc_rows rows;
	struct out_block *t;
	uint32_t i;

	alloc_rows_build(&rows, q->s, ALLOC_BY_MODULE, q->branch);
	t = out_table(d, "modules", "by module (vmlinux: built-in code)", module_columns,
		      sizeof(module_columns) / sizeof(module_columns[0]));
	t->keyed = true;
	t->group_by = "module";
	for (i = 0; i < rows.n; i++) {
		out_row_str(d, t, strtab_get(&rows.names, rows.rows[i].name));
		out_row_u64(d, t, rows.rows[i].bytes);
		out_row_u64(d, t, rows.rows[i].calls);
		out_row_u64(d, t, rows.rows[i].sites);
	}
	alloc_rows_release(&rows);
}

void write_snapshot_summary(struct out_dest *o, const struct alloc_report_query *q)
{
	const struct alloc_series *s = q->s;
	struct alloc_rows rows;
	struct out_doc d;
	struct out_block *b;
	size_t untraced;

	alloc_rows_build(&rows, s, ALLOC_BY_SITE, q->branch);
	out_doc_init(&d, "allocinfo-summary");
	b = out_list(&d, "snapshots", "what was read");
	out_item_str(&d, b, "source", "read from", s->files > 1 ? s->first_source : s->last_source);
	if (s->files > 1) {
		out_item_u64(&d, b, "files", "files", s->files);
		out_item_str(&d, b, "last_source", "last file", s->last_source);
	}
	snapshot_facts(&d, b, s);
	out_item_u64(&d, b, "rows", "rows of the last snapshot", s->rows);
	out_item_u64(&d, b, "sites", "sites (rows of one key summed)", s->rows - s->duplicates);
	out_item_u64(&d, b, "duplicate_rows", "rows of a key listed before, summed",
		     s->duplicates);
	if (s->duplicates)
		out_item_str(&d, b, "first_duplicate", "first of them", s->duplicate_key);
	out_item_u64(&d, b, "inaccurate_sites", "sites saying accurate:no", s->inaccurate_sites);
	out_item_u64(&d, b, "bad_rows", "rows not parsed (not counted)", s->bad_rows);
	if (s->bad_rows) {
		char where[512];

		snprintf(where, sizeof(where), "%s line %" PRIu64 ": %s", s->first_bad.source,
			 s->first_bad.line, s->first_bad.text);
		out_item_str(&d, b, "first_bad_row", "first of them", where);
	}
	b = out_list(&d, "totals", "live at the last snapshot");
	out_item_u64(&d, b, "bytes", "bytes live", rows.bytes);
	out_item_u64(&d, b, "allocs", "allocations live", rows.calls);
	out_item_u64(&d, b, "sites_live", "sites with something live", rows.sites_live);
	out_item_u64(&d, b, "sites_idle", "sites with nothing live", rows.sites_idle);
	modules_table(&d, q);
	if (q->rows)
		leak_suspects_report(&d, q->rows, q->top, NULL, &untraced);
	out_emit(o, &d);
	out_doc_release(&d);
	alloc_rows_release(&rows);
}

void write_snapshot_reading(FILE *f, const struct alloc_series *s, const char *source,
			    double seconds)
{
	fprintf(f, "trace_analyze: read '%s': allocinfo %u.%u, %" PRIu64 " snapshot%s", source,
		s->major, s->minor, s->snapshots, s->snapshots == 1 ? "" : "s");
	if (s->files > 1)
		fprintf(f, " in %" PRIu64 " files", s->files);
	fprintf(f, ", %" PRIu64 " rows in the last (%" PRIu64 " sites) in %.3f s\n", s->rows,
		s->rows - s->duplicates, seconds);
	if (s->duplicates)
		fprintf(f, "trace_analyze: note: %" PRIu64 " row%s of a key listed before (as "
			"'%s': an inline function's tag in each file including it) added to it\n",
			s->duplicates, s->duplicates == 1 ? "" : "s", s->duplicate_key);
	if (s->bad_rows)
		fprintf(f, "trace_analyze: warning: %" PRIu64 " row%s not parsed, not counted: "
			"the first, %s line %" PRIu64 ": '%s'\n", s->bad_rows,
			s->bad_rows == 1 ? "" : "s", s->first_bad.source, s->first_bad.line,
			s->first_bad.text);
	if (s->inaccurate_sites)
		fprintf(f, "trace_analyze: note: %" PRIu64 " site%s say accurate:no: their counts "
			"are not exact, their changes are\n", s->inaccurate_sites,
			s->inaccurate_sites == 1 ? "" : "s");
	if (s->untimed && s->snapshots > 1)
		fprintf(f, "trace_analyze: note: %" PRIu64 " snapshot%s had no time line: each "
			"is taken one second after the one before\n", s->untimed,
			s->untimed == 1 ? "" : "s");
}
