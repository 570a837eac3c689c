/*
 * peak.h - the moment of the highest live slab bytes of one account, and
 * what each of its rows held then; or, asked for a time, what each held
 * at that time. Also each row's own highest live bytes and when.
 *
 * The account tells the watcher every change of a row's live bytes and
 * objects, as it makes it (account_watch). A row's value at the peak is
 * saved only when the row first changes after a new peak, so a log that
 * peaks at every allocation costs one comparison an event, not a copy of
 * every row. Memory: O(rows).
 *
 * Rows that reports merge under one name (a function's call sites, a
 * directory's, an origin's keys) have a peak of their own that is not any
 * member's: the watcher keeps one per group of ids, the group an id's
 * first change names (group_of), so a merged row's peak is exact too
 * when the groups are the report's rows (peak_watch_row_peaks checks).
 *
 * Not here: naming or sorting rows, the report (reports.c), pages.
 */
#ifndef TA_PEAK_H
#define TA_PEAK_H

#include <stdbool.h>
#include <stdint.h>

#include "heapsamples.h"

struct peak_row {
	uint64_t bytes, objects;	/* live now */
	uint64_t saved_bytes, saved_objects;	/* at the peak, if changed after it */
	uint32_t gen;			/* the peak it was saved at */
	uint32_t group;			/* 1 + its group (group_of), 0 until its first change */
	uint64_t own_peak, own_peak_ns;	/* its own highest live bytes, and when first */
};

/* The ids named alike: their live bytes summed, the sum's highest, and when first. */
struct peak_group {
	uint64_t bytes, peak, peak_ns;
};

/* The group of an id (0, 1, ...: as many as there are names), asked at its first change. */
struct peak_grouping {
	uint32_t (*group_of)(void *ctx, uint32_t id);
	void *ctx;
};

struct peak_watch {
	struct peak_row *rows;
	uint32_t nrows;
	uint64_t live, objects;		/* all rows' now */
	uint64_t peak_bytes, peak_objects, peak_ns;
	uint32_t gen;			/* how many times the peak rose */
	/* --peak-at: the rows at a time instead */
	bool at_set, at_taken;
	uint64_t at_ns, at_live, at_objects_total;
	uint64_t *at_bytes, *at_objects;	/* by row, when taken */
	uint32_t at_nrows;
	struct heap_samples *samples;	/* told every change too (--perfetto), or NULL */
	struct peak_grouping grouping;	/* no group_of: every id is a group of its own */
	struct peak_group *groups;
	uint32_t ngroups;		/* room for (grown as ids are grouped) */
};

/* A watcher of the peak; with at_set, also of the moment at_ns. */
void peak_watch_init(struct peak_watch *w, bool at_set, uint64_t at_ns);
void peak_watch_release(struct peak_watch *w);

/* Row id gains bytes and objects (negative: loses) at ts_ns. */
void peak_watch_change(struct peak_watch *w, uint32_t id, int64_t bytes, int64_t objects,
		       uint64_t ts_ns);

/* The log is over: a --peak-at time after its last event takes the end. */
void peak_watch_finish(struct peak_watch *w);

/* What row id held at the peak (or at --peak-at's time). */
void peak_watch_row(const struct peak_watch *w, uint32_t id, uint64_t *bytes,
		    uint64_t *objects);

/* What row id held at the peak, even when the watcher was asked for a time. */
uint64_t peak_watch_row_at_peak(const struct peak_watch *w, uint32_t id);

/* A row's own highest live bytes and when, and whether they are exact. */
struct row_peak {
	uint64_t bytes, ns;
	bool exact;	/* false: its ids were grouped otherwise as the log was read */
};

/*
 * The peaks of rows made of ids: row_of[id] for id < nids (UINT32_MAX:
 * in no row), nrows rows, into peaks[0..nrows). A row of one id that
 * changed has that id's own peak; a row of several has its group's, when
 * its ids are exactly one group's; otherwise it is not exact (bytes 0).
 */
void peak_watch_row_peaks(const struct peak_watch *w, const uint32_t *row_of, uint32_t nids,
			  uint32_t nrows, struct row_peak *peaks);

#endif
