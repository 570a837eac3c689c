/*
 * report.h - the account file (trace_analyze.py's layout) and the run
 * summary. Reads only the aggregated tables (rows.h); never the log.
 */
#ifndef TA_REPORT_H
#define TA_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "account.h"
#include "rows.h"
#include "event.h"
#include "output.h"
#include "input.h"
#include "text_parse.h"
#include "symbols.h"

/*
 * The account file: header totals, then the table. As text, exactly
 * trace_analyze.py's layout; as CSV or JSON, the same numbers as a list
 * "totals" and a table "callers" (output.h). With top, only the first top
 * rows are listed (--top N); the totals stay those of every row. extra
 * (or NULL): more blocks, after the table (in text, after the layout).
 */
struct account_extra {
	void (*add)(struct out_doc *d, const void *ctx);	/* blocks after the table's */
	const void *ctx;
};

void write_account(struct out_dest *o, const struct account_rows *rows, size_t top,
		   const struct account_extra *extra);

/* What the reading's summary on standard error is made of (not --summary: summary.h). */
struct run_summary {
	const char *source;	/* the log's name, or the DB's */
	const char *made_from;	/* for a DB: the log it was made from, else NULL */
	const char *compression;	/* for a compressed log: its format, else NULL */
	uint64_t compressed_bytes;
	const struct parse_stats *stats;
	const struct trace_header *header;
	const struct account_totals *totals;
	unsigned families;
	uint64_t overlong_lines;	/* dropped by the input module */
	bool truncated_last_line;
	uint64_t first_malformed_line;	/* 0 if none */
	double seconds;
	uint64_t reordered;		/* events of one tick put in pairing order (tickorder.h) */
	bool stacks;			/* stack traces were read: say what became of them */
	uint32_t distinct_stacks;
	/* a trace.dat or perf.data: records, not lines, and lost events as it names them */
	const char *binary_kind;	/* "trace.dat", "perf.data", or NULL for text */
	uint64_t records, file_bytes;
};

/* "summary of 'LOG': N lines, B bytes in S s", the events read and skipped, what was lost. */
void write_reading_summary(FILE *f, const struct run_summary *sum);

/*
 * What a row is, one and many, by --group-by's name (NULL: call sites):
 * "caller"/"callers" (trace_analyze.py's words), "comm"/"comms",
 * "task"/"tasks", "directory"/"directories"...: the text tables' heading.
 */
void report_row_noun(const char *group_by, const char **one, const char **many);

#endif
