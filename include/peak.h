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
	uint64_t own_peak, own_peak_ns;	/* its own highest live bytes, and when first */
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

#endif
