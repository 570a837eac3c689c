/*
 * timeline.c - live bytes per key sampled over the log's time
 * (timeline.h). Each closed slice copies the account's current_dynamic of
 * every key: O(keys) per slice, at most 2 x TIMELINE_SAMPLES slices per
 * doubling of the log's length. Timestamps that step back (CPUs merged
 * out of order) fall in the slice now filling.
 *
 * Not here: which account (the analysis chooses), drawing, findings' text.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "timeline.h"

void timeline_init(struct timeline *t, const struct account *account)
{
	memset(t, 0, sizeof(*t));
	t->account = account;
	t->width = TIMELINE_FIRST_WIDTH_NS;
	pagemap_init(&t->live_pages);
}

void timeline_release(struct timeline *t)
{
	uint32_t i;

	for (i = 0; i < t->nsamples; i++)
		free(t->samples[i].live);
	free(t->lost_at);
	free(t->lost_count);
	pagemap_release(&t->live_pages);
	memset(t, 0, sizeof(*t));
}

static void take_sample(struct timeline *t, struct timeline_sample *s, uint64_t ts)
{
	const struct account *a = t->account;
	uint32_t k, n = a ? a->nsites : t->values->n;

	s->ts_ns = ts;
	s->nkeys = n;
	s->live = n ? xmalloc(n * sizeof(*s->live)) : NULL;
	s->total = 0;
	for (k = 0; k < n; k++) {
		s->live[k] = a ? a->sites[k].current_dynamic : t->values->v[k];
		s->total += s->live[k];
	}
	s->pages = t->pages;
}

/* Slices twice as wide: of each pair of samples, the later one stays. */
static void widen_slices(struct timeline *t)
{
	uint32_t i;

	for (i = 0; i < t->nsamples; i++) {
		if (i % 2 == 0) {
			free(t->samples[i].live);
			continue;
		}
		t->samples[i / 2] = t->samples[i];
		t->samples[i / 2].ts_ns = t->t0 + (uint64_t)(i / 2 + 1) * t->width * 2;
	}
	t->nsamples /= 2;
	t->width *= 2;
}

/* Close the slices before slice n: each gets the state now. */
static void close_slices_to(struct timeline *t, uint64_t n)
{
	while (t->nsamples < n) {
		take_sample(t, &t->samples[t->nsamples], t->t0 + (t->nsamples + 1) * t->width);
		t->nsamples++;
	}
}

/* ts is past the slice filling: close the slices before its own, widening them if need be. */
static void move_to(struct timeline *t, uint64_t ts)
{
	uint64_t slice = (ts - t->t0) / t->width;

	while (slice >= TIMELINE_SAMPLES) {
		close_slices_to(t, TIMELINE_SAMPLES);
		widen_slices(t);
		slice = (ts - t->t0) / t->width;
	}
	close_slices_to(t, slice);
	t->filling_end = t->t0 + (t->nsamples + 1) * t->width;
}

void timeline_before_event(struct timeline *t, const struct kmem_event *ev)
{
	if (!ev->ts_ns || ev->kind == KMEM_LOST_EVENTS || ev->kind == KMEM_BUFFER_STARTED)
		return;
	if (!t->started) {
		t->started = true;
		t->t0 = ev->ts_ns;
		t->filling_end = t->t0 + t->width;
	}
	if (ev->ts_ns > t->last_ts)
		t->last_ts = ev->ts_ns;
	if (ev->ts_ns >= t->filling_end)	/* earlier times, even before t0, fill this slice */
		move_to(t, ev->ts_ns);
}

void timeline_add_sample(struct timeline *t, uint64_t ts_ns)
{
	uint64_t n = t->snapshots_seen++;
	uint32_t i;

	if (!t->started) {
		t->started = true;
		t->t0 = ts_ns;
		t->stride = 1;
	}
	if (t->tail) {	/* the one before was kept only as the last so far */
		free(t->samples[--t->nsamples].live);
		t->tail = false;
	}
	if (n % t->stride == 0 && t->nsamples == TIMELINE_SAMPLES - 1) {
		for (i = 0; i < t->nsamples; i++) {	/* keep 0, 2, 4...: the first stays */
			if (i % 2)
				free(t->samples[i].live);
			else
				t->samples[i / 2] = t->samples[i];
		}
		t->nsamples = (t->nsamples + 1) / 2;
		t->stride *= 2;
	}
	t->tail = n % t->stride != 0;
	take_sample(t, &t->samples[t->nsamples++], ts_ns);
	t->last_ts = ts_ns;
	t->finished = true;	/* timeline_finish adds nothing to samples taken whole */
}

static void page_allocated(struct timeline *t, uint64_t key, int order, uint64_t ts_ns)
{
	struct live_page was;

	if (pagemap_put(&t->live_pages, key, order, 0, &was))	/* allocated again: its free was not seen */
		t->pages -= (int64_t)1 << was.order;
	t->pages += (int64_t)1 << order;
	if (t->pages > t->peak_pages) {
		t->peak_pages = t->pages;
		t->peak_pages_ns = ts_ns;
	}
}

static void page_freed(struct timeline *t, uint64_t key)
{
	struct live_page was;

	if (pagemap_take(&t->live_pages, key, &was))
		t->pages -= (int64_t)1 << was.order;
}

void timeline_after_event(struct timeline *t, const struct kmem_event *ev)
{
	int order = ev->order > 0 ? (ev->order < 40 ? ev->order : 40) : 0;

	switch (ev->kind) {
	case KMEM_PAGE_ALLOC:
		if (ev->pfn || ev->ptr) {
			page_allocated(t, ev->pfn ? ev->pfn : ev->ptr, order, ev->ts_ns);
			t->page_events++;
		}
		break;
	case KMEM_PAGE_FREE:
	case KMEM_PAGE_FREE_BATCHED:
		/* pages allocated before the log are not taken from what it allocated */
		page_freed(t, ev->pfn ? ev->pfn : ev->ptr);
		t->page_events++;
		break;
	case KMEM_LOST_EVENTS:
	case KMEM_BUFFER_STARTED:
		if (t->nlost == t->lost_cap) {
			t->lost_cap = t->lost_cap ? t->lost_cap * 2 : 16;
			t->lost_at = xrealloc(t->lost_at, t->lost_cap * sizeof(*t->lost_at));
			t->lost_count = xrealloc(t->lost_count, t->lost_cap * sizeof(*t->lost_count));
		}
		t->lost_at[t->nlost] = t->last_ts ? t->last_ts : t->t0;
		t->lost_count[t->nlost] = ev->kind == KMEM_LOST_EVENTS ? ev->pfn : 0;
		t->nlost++;
		break;
	default:
		break;
	}
}

void timeline_finish(struct timeline *t)
{
	if (t->finished || !t->started)
		return;
	t->finished = true;
	if (t->nsamples == TIMELINE_SAMPLES)
		widen_slices(t);
	take_sample(t, &t->samples[t->nsamples], t->last_ts);
	t->nsamples++;
}

void growth_fit_series(const uint64_t *ts, const double *y, uint32_t n, struct growth_fit *fit)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, syy = 0;
	uint32_t i;

	memset(fit, 0, sizeof(*fit));
	if (n < 3 || ts[n - 1] <= ts[0])
		return;
	for (i = 0; i < n; i++) {
		mx += (double)(ts[i] - ts[0]) / 1e9;
		my += y[i];
	}
	mx /= n;
	my /= n;
	for (i = 0; i < n; i++) {
		double dx = (double)(ts[i] - ts[0]) / 1e9 - mx, dy = y[i] - my;

		sxx += dx * dx;
		sxy += dx * dy;
		syy += dy * dy;
	}
	fit->span_s = (double)(ts[n - 1] - ts[0]) / 1e9;
	if (sxx <= 0)
		return;
	fit->slope = sxy / sxx;
	fit->r2 = syy > 0 ? sxy * sxy / (sxx * syy) : 1.0;
	fit->grew = y[n - 1] - y[0];
}

bool growth_is_steady(const struct growth_fit *fit, double min_bytes)
{
	return fit->slope > 0 && fit->r2 >= 0.8 && fit->grew >= min_bytes;
}
