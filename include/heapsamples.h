/*
 * heapsamples.h - the kernel heap over time as a trace viewer draws it
 * (--perfetto): live slab bytes in all, pages held and each row's live
 * bytes, each as the points of a counter; bytes allocated and freed, and
 * frees of untraced allocations, per window.
 *
 * A series gets a point when its value has moved by HEAP_SAMPLE_SHARE of
 * the live bytes in all (at least a page) since its last point, and no
 * sooner than HEAP_SAMPLE_MIN_NS after it; a move held back is written at
 * the next window's end (HEAP_RATE_WINDOW_NS), so no value stays wrong
 * longer than that; at the end every series gets its last value, so the
 * last points are the account's. A row churning around its value (an
 * object allocated and freed) makes no point: the viewer gets a picture of
 * the heap, not a point per event. Memory: O(points), which the rule bounds
 * by the log's span over HEAP_SAMPLE_MIN_NS per series that moves.
 *
 * Not here: which rows are shown, or the file (perfetto.h).
 */
#ifndef TA_HEAPSAMPLES_H
#define TA_HEAPSAMPLES_H

#include <stdbool.h>
#include <stdint.h>

#define HEAP_SAMPLE_SHARE 0.005		/* of the live bytes in all */
#define HEAP_SAMPLE_FLOOR 4096		/* bytes: a move of less is no move */
#define HEAP_SAMPLE_MIN_NS 1000000ull	/* 1 ms between two points of a series */
#define HEAP_RATE_WINDOW_NS 10000000ull	/* 10 ms windows of the rates */

struct heap_point {
	uint64_t ts;
	int64_t value;
};

struct heap_series {
	struct heap_point *p;
	uint32_t n, cap;
	int64_t now;		/* its value now */
	bool pending;		/* now differs from the last point's, held back */
};

struct heap_window {
	uint64_t start;		/* of the window */
	uint64_t allocated, freed;	/* bytes */
	uint64_t untraced_frees;	/* frees of a pointer not live */
};

struct heap_samples {
	struct heap_series total;	/* live slab bytes */
	struct heap_series pages;	/* pages held (a count) */
	bool have_pages;
	struct heap_series *rows;	/* by row id */
	uint32_t nrows;
	uint32_t *pending;		/* rows held back, to write at the window's end */
	uint32_t npending, pending_cap;
	struct heap_window *windows;	/* those with something in them */
	uint32_t nwindows, windows_cap;
	struct heap_window now;		/* the window filling */
	uint64_t first_ts, last_ts;
	bool started;
};

void heap_samples_init(struct heap_samples *h);
void heap_samples_release(struct heap_samples *h);

/* Row row now holds row_bytes after a change of delta bytes, the rows in all total, at ts. */
void heap_samples_change(struct heap_samples *h, uint32_t row, uint64_t row_bytes,
			 uint64_t total, int64_t delta, uint64_t ts);

/* Pages held now (page events), as bytes (pages of 4 KiB), at ts. */
void heap_samples_pages(struct heap_samples *h, int64_t bytes, uint64_t ts);

/* A free of a pointer not live (an untraced allocation's), at ts. */
void heap_samples_untraced_free(struct heap_samples *h, uint64_t ts);

/* The end of the log: every series' last value at its last timestamp. */
void heap_samples_finish(struct heap_samples *h);

#endif
