/*
 * heapsamples.c - counters of the heap over time, thinned as heapsamples.h
 * says. Not here: choosing rows, writing any file.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "heapsamples.h"

void heap_samples_init(struct heap_samples *h)
{
	memset(h, 0, sizeof(*h));
}

void heap_samples_release(struct heap_samples *h)
{
	uint32_t i;

	free(h->total.p);
	free(h->pages.p);
	for (i = 0; i < h->nrows; i++)
		free(h->rows[i].p);
	free(h->rows);
	free(h->pending);
	free(h->windows);
	memset(h, 0, sizeof(*h));
}

static void add_point(struct heap_series *s, uint64_t ts, int64_t value)
{
	if (s->n && s->p[s->n - 1].ts == ts) {	/* one point per time: the latest value */
		s->p[s->n - 1].value = value;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->p = xrealloc(s->p, s->cap * sizeof(*s->p));
	}
	s->p[s->n].ts = ts;
	s->p[s->n].value = value;
	s->n++;
}

static int64_t threshold(const struct heap_samples *h)
{
	int64_t t = (int64_t)((double)h->total.now * HEAP_SAMPLE_SHARE);

	return t > HEAP_SAMPLE_FLOOR ? t : HEAP_SAMPLE_FLOOR;
}

/* s moved to value at ts: a point now, later (held back), or none (too small a move). */
static bool move_series(struct heap_samples *h, struct heap_series *s, int64_t value, uint64_t ts)
{
	int64_t last = s->n ? s->p[s->n - 1].value : 0, d = value - last;

	s->now = value;
	if (s->n && (d < 0 ? -d : d) < threshold(h)) {
		s->pending = value != last;	/* small: written at the end, or with a later move */
		return false;
	}
	if (s->n && ts < s->p[s->n - 1].ts + HEAP_SAMPLE_MIN_NS) {
		bool was = s->pending;

		s->pending = true;
		return !was;	/* newly held back: the window's end writes it */
	}
	add_point(s, ts, value);
	s->pending = false;
	return false;
}

/* The window filling ends before ts: kept if it saw anything; held-back moves written. */
static void close_windows_to(struct heap_samples *h, uint64_t ts)
{
	uint64_t end = h->now.start + HEAP_RATE_WINDOW_NS;
	uint32_t i;

	if (ts < end)
		return;
	if (end > h->last_ts)	/* the log's end: no point after its last event */
		end = h->last_ts;
	if (h->now.allocated || h->now.freed || h->now.untraced_frees) {
		if (h->nwindows == h->windows_cap) {
			h->windows_cap = h->windows_cap ? h->windows_cap * 2 : 256;
			h->windows = xrealloc(h->windows, h->windows_cap * sizeof(*h->windows));
		}
		h->windows[h->nwindows++] = h->now;
	}
	for (i = 0; i < h->npending; i++) {
		struct heap_series *s = &h->rows[h->pending[i]];

		if (s->pending) {
			add_point(s, end, s->now);
			s->pending = false;
		}
	}
	h->npending = 0;
	if (h->total.pending) {
		add_point(&h->total, end, h->total.now);
		h->total.pending = false;
	}
	if (h->pages.pending) {
		add_point(&h->pages, end, h->pages.now);
		h->pages.pending = false;
	}
	memset(&h->now, 0, sizeof(h->now));
	h->now.start = ts - (ts - h->first_ts) % HEAP_RATE_WINDOW_NS;
}

static void at_time(struct heap_samples *h, uint64_t ts)
{
	if (!h->started) {
		h->started = true;
		h->first_ts = h->now.start = ts;
	}
	if (ts > h->last_ts)
		h->last_ts = ts;
	close_windows_to(h, ts);
}

static struct heap_series *row_series(struct heap_samples *h, uint32_t row)
{
	if (row >= h->nrows) {
		uint32_t n = h->nrows ? h->nrows : 64;

		while (n <= row)
			n *= 2;
		h->rows = xrealloc(h->rows, n * sizeof(*h->rows));
		memset(h->rows + h->nrows, 0, (n - h->nrows) * sizeof(*h->rows));
		h->nrows = n;
	}
	return &h->rows[row];
}

void heap_samples_change(struct heap_samples *h, uint32_t row, uint64_t row_bytes,
			 uint64_t total, int64_t delta, uint64_t ts)
{
	struct heap_series *s;

	if (!ts)
		return;
	at_time(h, ts);
	if (delta > 0)
		h->now.allocated += (uint64_t)delta;
	else
		h->now.freed += (uint64_t)-delta;
	move_series(h, &h->total, (int64_t)total, ts);
	s = row_series(h, row);
	if (!s->n) {
		add_point(s, h->first_ts, 0);	/* every row starts at nothing */
		s->now = 0;
	}
	if (move_series(h, s, (int64_t)row_bytes, ts)) {
		if (h->npending == h->pending_cap) {
			h->pending_cap = h->pending_cap ? h->pending_cap * 2 : 64;
			h->pending = xrealloc(h->pending, h->pending_cap * sizeof(*h->pending));
		}
		h->pending[h->npending++] = row;
	}
}

void heap_samples_pages(struct heap_samples *h, int64_t bytes, uint64_t ts)
{
	if (!ts)
		return;
	at_time(h, ts);
	h->have_pages = true;
	move_series(h, &h->pages, bytes, ts);
}

void heap_samples_untraced_free(struct heap_samples *h, uint64_t ts)
{
	if (!ts)
		return;
	at_time(h, ts);
	h->now.untraced_frees++;
}

void heap_samples_finish(struct heap_samples *h)
{
	uint32_t i;

	if (!h->started)
		return;
	close_windows_to(h, (uint64_t)-1 / 2);
	add_point(&h->total, h->last_ts, h->total.now);
	if (h->have_pages)
		add_point(&h->pages, h->last_ts, h->pages.now);
	for (i = 0; i < h->nrows; i++)
		if (h->rows[i].n)
			add_point(&h->rows[i], h->last_ts, h->rows[i].now);
}
