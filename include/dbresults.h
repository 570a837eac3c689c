/*
 * dbresults.h - the report data a DB keeps beside its events (DESIGN.md
 * section 6): what the analyses hold at the end of the log, as a run over
 * the whole log with every slab family, rows by call site and every
 * analysis on leaves them (before their finishing steps). A run that
 * asks no other view of the log takes them instead of replaying every
 * event: its reports are the ones the replay would give.
 *
 * A section per part, so that a run checks and reads only what it takes:
 * the span of the log, the account (every record of its live map, so
 * that reports that walk it see the same order), the findings, the page
 * allocator's account, the timeline and its reclaimable counts, the peak,
 * the lifetimes, the origin keys and their account, the windows of lost
 * events. A layout stamp first: a DB of another build's layout has its
 * results passed over (the events are replayed), never misread.
 * Not here: which runs may take them (the engine), the file (db.c).
 */
#ifndef TA_DBRESULTS_H
#define TA_DBRESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "binfile.h"
#include "error.h"
#include "event.h"
#include "findings.h"
#include "losses.h"
#include "origins.h"
#include "pages.h"
#include "peak.h"
#include "reclaim.h"
#include "timeline.h"
#include "lifetimes.h"

/*
 * What an analysis holds, by reference: the writer reads every part; the
 * loader fills those that are not NULL (initialised as the run set them up).
 */
struct db_results {
	uint64_t *first_ns, *last_ns;	/* the timestamps of the events counted */
	struct account *account;	/* every slab family, by call site */
	struct findings *findings;
	struct page_stats *pages;
	struct timeline *timeline;
	struct reclaim_counts *reclaim;	/* with the timeline */
	struct peak_watch *peak;
	struct lifetimes *lifetimes;
	struct origin_keys *keys;	/* with by_key */
	struct account *by_key;
	struct loss_windows *losses;
};

/* Write r's parts as sections base, base + 1, ... of f; 0, or -1 with err. */
int db_results_write(struct binfile_writer *f, uint32_t base, const struct db_results *r,
		     struct ta_error *err);

/*
 * Fill into's parts (those not NULL) from f's sections base, base + 1...,
 * ids checked against strings: 1 done; 0 when f keeps none, or of another
 * layout (nothing filled: replay); -1 with err when they are damaged.
 * The live maps may read their records in f's map: f outlives them.
 */
int db_results_load(struct binfile *f, uint32_t base, const struct db_results *into,
		    const struct trace_strings *strings, struct ta_error *err);

/* Every part read (into scratch, then dropped): 0, or -1 with err naming the damage. */
int db_results_check(struct binfile *f, uint32_t base, const struct trace_strings *strings,
		     struct ta_error *err);

#endif
