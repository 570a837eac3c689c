/*
 * summary.h - the summary (--summary): the slab bytes as perf kmem stat
 * gives them, fragmentation, ping-pong, nodes, events, findings, slab
 * caches, rows re-allocated while live, leak suspects. One document of
 * output.h. Reads only aggregated tables; never the log.
 */
#ifndef TA_SUMMARY_H
#define TA_SUMMARY_H

#include <stdio.h>

#include "account.h"
#include "losses.h"
#include "reclaim.h"
#include "callchain.h"
#include "origins.h"
#include "findings.h"
#include "output.h"
#include "text_parse.h"
#include "report.h"
#include "symbols.h"
#include "suspects.h"
#include "timeline_chart.h"

struct summary_report {
	const char *source;		/* the log (or DB) */
	const struct parse_stats *stats;
	const struct trace_header *header;
	const struct account_totals *totals;
	uint64_t live_bytes;		/* the account's current bytes allocated */
	uint64_t reordered;		/* events of one tick put in pairing order (tickorder.h) */
	const char *binary_kind;	/* "trace.dat", "perf.data": lost events named so; NULL: text */
	const struct reclaim_counts *reclaim;	/* by the rows' ids, or NULL (suspects.h) */
	const char *reclaimable_list;	/* the log header's reclaimable caches, or "" */
	const struct loss_windows *losses;	/* when events were lost (losses.h), or NULL */
	const struct kmemleak_hits *kmemleak;	/* --kmemleak's objects in the trace, or NULL */
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
	/* blocks added after the leak suspects (--kmemleak), or NULL */
	void (*more)(struct out_doc *d, const void *ctx);
	const void *more_ctx;
};

/* --summary: totals, fragmentation, ping-pong, nodes, events, findings. */
void write_summary_report(struct out_dest *o, const struct summary_report *s);

/* The slab bytes block, as perf kmem stat's SUMMARY (live: NULL leaves its line out). */
void summary_add_bytes_block(struct out_doc *d, const struct account_totals *t,
			     const uint64_t *live);

#endif
