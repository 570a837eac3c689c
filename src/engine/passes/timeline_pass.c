/*
 * timeline_pass.c - live bytes over time by row (timeline.h), and the
 * allocations from reclaimable caches (reclaim.h), for --timeline, --html
 * and the growth the summary and --outstanding read. A series of
 * allocinfo snapshots makes its timeline of its own (engine: read as the
 * snapshots come). Its part of a DB: the samples and lost windows, then
 * the reclaimable counts.
 */
#include <stdlib.h>

#include "engine.h"

static int start_timeline(struct analysis *a, struct ta_error *err)
{
	struct namers n;

	(void)err;
	timeline_init(&a->timeline, analysis_rows_account(a, &n));
	reclaim_counts_init(&a->reclaim);
	return 0;
}

static void sample_before(struct analysis *a, const struct kmem_event *ev)
{
	timeline_before_event(&a->timeline, ev);
}

static void sample_after(struct analysis *a, const struct kmem_event *ev)
{
	timeline_after_event(&a->timeline, ev);
	reclaim_counts_apply(&a->reclaim, ev);
}

/* The last sample, and which caches are reclaimable: the log's header's list, or ours. */
static void finish_timeline(struct analysis *a)
{
	timeline_finish(&a->timeline);
	reclaim_counts_decide(&a->reclaim, &a->strings.caches, a->read.header.reclaimable);
}

static void release_timeline(struct analysis *a)
{
	timeline_release(&a->timeline);
	reclaim_counts_release(&a->reclaim);
}

static void timeline_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct timeline_sample);
	sizes[1] = TIMELINE_SAMPLES;
	sizes[2] = sizeof(struct reclaim_pair);
}

static void put_timeline(struct db_blob *b, const struct analysis *a)
{
	const struct timeline *t = &a->timeline;
	uint64_t scalars[] = { t->t0, t->width, t->filling_end, t->started, t->nsamples,
			       t->last_ts, (uint64_t)t->pages, (uint64_t)t->peak_pages,
			       t->peak_pages_ns, t->page_events, t->finished };
	uint32_t i;

	db_put(b, scalars, sizeof(scalars));
	for (i = 0; i < t->nsamples; i++) {
		const struct timeline_sample *s = &t->samples[i];
		uint64_t head[3] = { s->ts_ns, s->total, (uint64_t)s->pages };

		db_put(b, head, sizeof(head));
		db_put_array(b, s->live, s->nkeys, sizeof(*s->live));
	}
	db_put_array(b, t->lost_at, t->nlost, sizeof(*t->lost_at));
	db_put(b, t->lost_count, t->nlost * sizeof(*t->lost_count));
	/* not its live pages: the pass's alone, no report reads them */
	db_put_u64(b, a->reclaim.npairs);
	db_put_array(b, a->reclaim.pairs, a->reclaim.pairs_cap, sizeof(*a->reclaim.pairs));
}

/*
 * A sample is its rows' bytes and their sum, as the timeline took it; no
 * kernel holds 2^53 bytes (a report's arithmetic on them stays exact).
 */
static bool sample_adds_up(const struct timeline_sample *s)
{
	uint64_t sum = 0;
	uint32_t k;

	for (k = 0; k < s->nkeys; k++) {
		if (s->live[k] >= DB_COUNT_LIMIT)
			return false;
		sum += s->live[k];
	}
	return sum == s->total && s->total < DB_COUNT_LIMIT;
}

static bool take_samples(struct db_cursor *c, struct timeline *t, uint32_t nrows)
{
	uint64_t v[11];
	uint32_t i, n;

	if (!db_take_into(c, v, sizeof(v)))
		return false;
	if (v[4] > TIMELINE_SAMPLES || v[3] > 1 || v[10] > 1)
		return db_fail(c, "its saved timeline has more samples than a timeline has");
	t->t0 = v[0];
	t->width = v[1];
	t->filling_end = v[2];
	t->started = v[3];
	t->last_ts = v[5];
	t->pages = (int64_t)v[6];
	t->peak_pages = (int64_t)v[7];
	t->peak_pages_ns = v[8];
	t->page_events = v[9];
	t->finished = v[10];
	for (i = 0; i < v[4]; i++) {
		struct timeline_sample *s = &t->samples[i];
		uint64_t head[3];

		if (!db_take_into(c, head, sizeof(head)))
			return false;
		s->ts_ns = head[0];
		s->total = head[1];
		s->pages = (int64_t)head[2];
		s->live = db_take_array(c, sizeof(*s->live), nrows, &s->nkeys);
		t->nsamples = i + 1;	/* freed with the timeline from here on */
		if (c->problem || !sample_adds_up(s))
			return db_fail(c, c->problem ? c->problem
				       : "a sample of its saved timeline does not add up");
	}
	t->lost_at = db_take_array(c, sizeof(*t->lost_at), UINT32_MAX, &n);
	t->nlost = t->lost_cap = n;
	t->lost_count = xcalloc(n ? n : 1, sizeof(*t->lost_count));
	return !c->problem && db_take_into(c, t->lost_count, (size_t)n * sizeof(*t->lost_count));
}

static bool take_reclaim(struct db_cursor *c, struct reclaim_counts *r,
			 const struct trace_strings *s)
{
	uint64_t npairs = db_take_u64(c);
	uint32_t cap, i;

	free(r->pairs);
	r->pairs = db_take_array(c, sizeof(*r->pairs), 1u << 30, &cap);
	r->pairs_cap = cap;
	if (c->problem)
		return false;
	if ((cap & (cap - 1)) || npairs > cap)
		return db_fail(c, "its saved reclaimable counts are not a table");
	for (i = 0; i < cap; i++)	/* key: call site << 32 | cache, + 1 */
		if (r->pairs[i].key && ((r->pairs[i].key - 1) >> 32) >= s->call_sites.count)
			return db_fail(c, "its saved reclaimable counts name a call site it has not");
	r->npairs = (uint32_t)npairs;
	return true;
}

static bool take_timeline(struct db_cursor *c, struct analysis *a)
{
	return take_samples(c, &a->timeline, a->strings.call_sites.count) &&
	       take_reclaim(c, &a->reclaim, &a->strings);
}

static const struct pass_store timeline_store = {
	.version = 1, .sizes = timeline_sizes, .put = put_timeline, .take = take_timeline,
};

const struct analysis_pass timeline_pass = {
	.name = "timeline",
	.need = NEED_TIMELINE,
	.init = start_timeline,
	.before = sample_before,
	.event = sample_after,
	.finish = finish_timeline,
	.release = release_timeline,
	.store = &timeline_store,
};
