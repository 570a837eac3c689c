/*
 * stats.h - per-call-site statistics (--stats) in perf kmem's and
 * kmemtrace's terms, and record's brief answer. One document of output.h,
 * so text, CSV and JSON carry the same numbers. Reads only aggregated
 * tables; never the log. The summary is summary.h, what is still held
 * outstanding.h.
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
#include "text_parse.h"
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

#endif
