/*
 * suspects.h - leak suspects: the rows whose live bytes grew steadily over
 * the log, ranked by the evidence that their objects are held, not merely
 * freed where no tracepoint sees it.
 *
 * Evidence, per row (a call site, function, origin...):
 *   - the fit of its live bytes over the timeline's samples (slope, r2:
 *     growth_is_steady, at least 16 KiB and 1% of the peak total);
 *   - the share of SUSPECT_WINDOWS equal windows of the log in which its
 *     live bytes rose over the window before;
 *   - the age of its oldest live object at the end, as a share of the
 *     log's span (a leak keeps its first objects);
 *   - its pointers that came back while live (re-allocated with no free
 *     seen): a row with SUSPECT_UNTRACED_SHARE of them or more frees on a
 *     path without a tracepoint and is no suspect ("untraced free path",
 *     the summary's table of its own).
 * Confidence high, medium or low, and the reason in one line; a row that
 * mostly fills reclaimable slab caches (reclaim.h: buffer heads, the page
 * cache's xarray nodes, dentries, inodes) grows with the page cache and is
 * given back under memory pressure: "reclaimable", after every suspect.
 * Not here: the sampling (timeline.c), the fit (growth_fit).
 */
#ifndef TA_SUSPECTS_H
#define TA_SUSPECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "losses.h"
#include "reclaim.h"
#include "output.h"
#include "rows.h"
#include "timeline_chart.h"

#define SUSPECT_WINDOWS 8
#define SUSPECT_UNTRACED_SHARE 0.05

/* The addresses of the trace's live allocations kmemleak reports (kmemleakreport.h), sorted. */
struct kmemleak_hits {
	uint64_t *ptrs;
	size_t n;
};

struct suspect_evidence {
	const struct account *account;	/* the rows' account: allocations, live map */
	const struct row_namer *namer;	/* the names the timeline's rows have */
	const struct row_filter *kept;	/* -b */
	uint64_t end_ns;		/* the log's last timestamp */
	/* allocations from reclaimable caches by the account's ids (call sites), or NULL */
	const struct reclaim_counts *reclaim;
	const char *reclaimable_list;	/* the log header's reclaimable caches, or "" (reclaim.h) */
	bool rows_are_caches;		/* --group-by cache: a row's name is its cache */
	const struct loss_windows *losses;	/* objects allocated before a loss: uncertain */
	/* --kmemleak: its objects found live in the trace; NULL without a report */
	const struct kmemleak_hits *kmemleak;
};

/*
 * The suspects as a table "leak_suspects" of d, most evidence first (then
 * the largest growth), at most top (0: all); nothing when none. Returns
 * how many rows; *untraced the steady growers left out as untraced free
 * paths.
 */
size_t leak_suspects_report(struct out_doc *d, const struct timeline_rows *rows, size_t top,
			    const struct suspect_evidence *ev, size_t *untraced);

/* A suspect as a trace viewer marks it: at its oldest held object's time. */
struct suspect_mark {
	const char *name;		/* the row's, in rows->names */
	const char *confidence;		/* "high", "medium", "low", "reclaimable" */
	uint64_t grew, live_end;	/* bytes */
	uint64_t oldest_ns;		/* its oldest held object's allocation, 0: not known */
};

/* The suspects the report would list, most evidence first, into *out (free it): how many. */
size_t leak_suspects_marks(const struct timeline_rows *rows, const struct suspect_evidence *ev,
			   struct suspect_mark **out);

#endif
