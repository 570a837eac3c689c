/*
 * outstanding.h - what is still allocated at the end of the log
 * (--outstanding), as bcc's memleak lists it. One document of output.h.
 * Reads only aggregated tables; never the log.
 */
#ifndef TA_OUTSTANDING_H
#define TA_OUTSTANDING_H

#include <stdio.h>

#include "account.h"
#include "losses.h"
#include "reclaim.h"
#include "callchain.h"
#include "origins.h"
#include "findings.h"
#include "suspects.h"
#include "output.h"
#include "text_parse.h"
#include "report.h"
#include "symbols.h"
#include "timeline_chart.h"

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
	const struct loss_windows *losses;	/* when events were lost (losses.h), or NULL */
	const struct kmemleak_hits *kmemleak;	/* --kmemleak's objects in the trace, or NULL */
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
