/*
 * stats.h - the reports beyond trace_analyze.py's account, in perf kmem's
 * and kmemtrace's terms: the summary (--summary), per-call-site statistics
 * (--stats) and the allocations still live at the end (--outstanding).
 * Each is one document of output.h, so text, CSV and JSON carry the same
 * numbers. Reads only aggregated tables; never the log.
 */
#ifndef TA_STATS_H
#define TA_STATS_H

#include <stdio.h>

#include "account.h"
#include "reclaim.h"
#include "callchain.h"
#include "origins.h"
#include "findings.h"
#include "output.h"
#include "parse.h"
#include "report.h"
#include "symbols.h"
#include "timeline_chart.h"

/*
 * --stats: one row per call site (rows sorted as -o says, top N if top):
 * hits, bytes allocated and requested with their per-hit means,
 * fragmentation %, ping-pong frees, peak live bytes.
 */
void write_stats(struct out_dest *o, const struct account_rows *rows, size_t top);

/*
 * What record prints when no report was asked for, as perf kmem stat
 * does: the top callers of --stats, then the slab bytes of --summary.
 */
void write_record_brief(struct out_dest *o, const struct account_rows *rows, size_t top,
			const struct account_totals *totals);

struct summary_report {
	const char *source;		/* the log (or DB) */
	const struct parse_stats *stats;
	const struct trace_header *header;
	const struct account_totals *totals;
	uint64_t live_bytes;		/* the account's current bytes allocated */
	const char *binary_kind;	/* "trace.dat", "perf.data": lost events named so; NULL: text */
	const struct reclaim_counts *reclaim;	/* by the rows' ids, or NULL (suspects.h) */
	const char *reclaimable_list;	/* the log header's reclaimable caches, or "" */
	bool rows_are_caches;
	unsigned families;
	const struct findings *findings;	/* NULL: no findings block */
	const struct strtab *caches;
	uint64_t first_ns, last_ns;	/* of the events counted */
	const struct timeline_rows *growth;	/* NULL: no growth table */
	/* -b: the rows (branch) counted in a block of their own; NULL: no branch */
	const char *branch;
	const struct row_filter *rows_kept;
	/* the rows' account and names, for "re-allocated while live" (NULL: none) */
	const struct account *rows;
	const struct row_namer *namer;
};

/* --summary: totals, fragmentation, ping-pong, nodes, events, findings. */
void write_summary_report(struct out_dest *o, const struct summary_report *s);

struct outstanding_query {
	const struct account *account;	/* its live map: what is still allocated */
	const struct row_namer *namer;	/* the name of a live allocation's id */
	uint64_t start_ns, end_ns;	/* the log's first and last timestamps */
	uint64_t min_age_ns;		/* hide younger allocations */
	size_t top;			/* 0: all rows */
	/* leaks by stack, when the log had stacks; by_key NULL: no such table */
	const struct account *by_key;	/* the allocations by origin key */
	const struct origin_keys *keys;
	const struct callchains *chains;
	const struct timeline_rows *growth;	/* NULL: no growth table */
	struct row_filter rows_kept;	/* -b: the live allocations of these rows only */
	const struct reclaim_counts *reclaim;	/* by the rows' ids, or NULL (suspects.h) */
	const char *reclaimable_list;	/* the log header's reclaimable caches, or "" */
	bool rows_are_caches;
	struct row_filter keys_kept;	/* and, in the stack table, of these keys */
};

/*
 * --outstanding: live allocations at the end of the log by call site (or
 * as the namer names them): count, bytes, oldest and median age (end -
 * allocation time), sorted by bytes; allocations younger than min_age are
 * left out. With by_key, then the top stacks by bytes still held (top, or
 * OUTSTANDING_STACKS), each with its origin and frames, as bcc's memleak
 * lists them.
 */
#define OUTSTANDING_STACKS 10
void write_outstanding(struct out_dest *o, const struct outstanding_query *q);

#endif
