/*
 * timeline.h - live slab bytes over the log's time, per key of one account
 * (call site, origin key or cache), sampled so that any log fits in
 * TIMELINE_SAMPLES samples: sample i is the state at the end of the i-th
 * of equal time slices; when the log outlasts the slices, they double in
 * width and every other sample is dropped (the later of each pair kept).
 * The last sample is the state at the log's last event, so it equals the
 * account's live bytes. Memory is O(samples x keys) whatever the log's
 * size. Also kept: the pages held, net of frees, since the log began, and
 * when events were lost. From the samples, each key's growth: a
 * least-squares slope and how well a line fits (r squared).
 *
 * Not here: drawing (timeline_chart.h), naming keys.
 */
#ifndef TA_TIMELINE_H
#define TA_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "event.h"
#include "pagemap.h"
#include "ptrmap.h"

#define TIMELINE_SAMPLES 512
#define TIMELINE_FIRST_WIDTH_NS 1000000ull	/* 1 ms slices until the log is longer */

struct timeline_sample {
	uint64_t ts_ns;		/* the state as of this time */
	uint64_t *live;		/* bytes per key, nkeys of them (later keys: 0) */
	uint32_t nkeys;
	uint64_t total;		/* the sum of live[] */
	int64_t pages;		/* pages allocated in the log and not freed (never below 0) */
};

/* Values sampled without an account: v[0..n) (allocinfo snapshots' live bytes per site). */
struct timeline_values {
	uint64_t *v;
	uint32_t n;
};

struct timeline {
	const struct account *account;	/* whose current_dynamic is sampled */
	const struct timeline_values *values;	/* or, without an account, these */
	uint64_t t0, width;	/* slice i is [t0 + i * width, t0 + (i + 1) * width) */
	uint64_t filling_end;	/* the end of the slice now filling: an event before it closes none */
	bool started;
	struct timeline_sample samples[TIMELINE_SAMPLES];
	uint32_t nsamples;	/* the slices before the one now filling */
	uint64_t last_ts;
	int64_t pages;		/* pages allocated in the log and not freed */
	int64_t peak_pages;	/* the most of them at once, and when first */
	uint64_t peak_pages_ns;
	struct pagemap live_pages;	/* them, by pfn (or page), with their order */
	uint64_t page_events;
	uint64_t *lost_at;	/* timestamps (of the event before) of lost-event markers */
	uint64_t *lost_count;	/* events lost there, 0 if not said */
	uint32_t nlost, lost_cap;
	bool finished;
	uint64_t snapshots_seen, stride;	/* samples taken whole: every stride-th kept */
	bool tail;	/* the last sample is off the stride: replaced by the next */
};

void timeline_init(struct timeline *t, const struct account *account);
void timeline_release(struct timeline *t);

/* Before the accounts take ev: close the slices ev's time is past. */
void timeline_before_event(struct timeline *t, const struct kmem_event *ev);
/*
 * A sample of the state at ts_ns, taken whole (an allocinfo snapshot, in
 * time order): every stride-th snapshot is kept, the first among them; when
 * the samples fill, every other one is dropped (the first stays) and the
 * stride doubles, so a series of any length is kept evenly over its whole
 * span; the newest off the stride is kept as the last until the next.
 */
void timeline_add_sample(struct timeline *t, uint64_t ts_ns);

/* After: pages and lost-event markers. */
void timeline_after_event(struct timeline *t, const struct kmem_event *ev);

/* The last sample: the state after the log's last event. */
void timeline_finish(struct timeline *t);

/* A key's bytes in sample s. */
static inline uint64_t timeline_live(const struct timeline_sample *s, uint32_t key)
{
	return key < s->nkeys ? s->live[key] : 0;
}

/* How one series grew over the samples. */
struct growth_fit {
	double slope;		/* bytes per second, least squares */
	double r2;		/* how well a line fits: 0..1 (1 if the series is flat) */
	double grew;		/* the last sample minus the first: bytes gained */
	double span_s;		/* the time the samples cover */
};

/*
 * The fit of series y[0..n) at times ts[0..n) (ns). Fewer than 3 samples
 * or no time between them: a zero fit.
 */
void growth_fit_series(const uint64_t *ts, const double *y, uint32_t n, struct growth_fit *fit);

/* Is a fit a steady growth worth a finding: slope > 0, r2 >= 0.8, grew >= min_bytes? */
bool growth_is_steady(const struct growth_fit *fit, double min_bytes);

#endif
