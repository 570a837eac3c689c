/*
 * dbresults.c - the analyses' state at the end of a log, written into a DB
 * and read back (dbresults.h). Each part is its counters as they are
 * (fixed structs copied whole, arrays with their lengths) and the records
 * of its live maps in their order; nothing is recomputed on loading, so a
 * report reads what the run that saved them read. Every length is checked
 * against the bytes left and every id against the tables it names before
 * it is used: a damaged section is refused, never half-read.
 * Not here: the file and its checksums (db.c, binfile.c), which run may
 * take these (engine.c).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dbresults.h"

#define RESULTS_MAGIC "TARESLT2"

enum {
	PART_SPAN, PART_ACCOUNT, PART_FINDINGS, PART_KEYS, PART_BY_KEY, PART_PAGES,
	PART_TIMELINE, PART_RECLAIM, PART_PEAK, PART_LIFETIMES, PART_LOSSES,
};

/* The sizes and constants the parts are laid out with: another build's are not read. */
struct layout_stamp {
	char magic[8];
	uint32_t sizes[20];
};

static void stamp_of_this_build(struct layout_stamp *s)
{
	static const uint32_t sizes[20] = {
		sizeof(struct live_alloc), sizeof(struct site_stats), sizeof(struct account_totals),
		sizeof(struct finding), sizeof(struct cache_stats), sizeof(struct page_stats),
		sizeof(struct page_count), sizeof(struct page_cpu), sizeof(struct page_origin),
		sizeof(struct timeline_sample), sizeof(struct peak_row), sizeof(struct lifetime_row),
		sizeof(struct reclaim_pair), sizeof(struct loss_window), FIND_KIND_COUNT,
		FINDINGS_CLASS_KEYS, TIMELINE_SAMPLES, LIFETIME_BUCKETS, KMEM_KIND_COUNT,
		sizeof(struct kmem_event),
	};

	memset(s, 0, sizeof(*s));
	memcpy(s->magic, RESULTS_MAGIC, sizeof(s->magic));
	memcpy(s->sizes, sizes, sizeof(sizes));
}

static bool stats_are_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

/* ---- writing: a growing buffer ---- */

struct blob {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct blob *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 65536;

		while (cap < b->len + n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void put_u64(struct blob *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

/* An array with its length first. */
static void put_array(struct blob *b, const void *data, uint64_t count, size_t size)
{
	put_u64(b, count);
	put(b, data, (size_t)count * size);
}

/* Zeros up to the next 8-byte boundary: what follows is read in place, aligned. */
static void pad8(struct blob *b)
{
	static const unsigned char zeros[8];

	put(b, zeros, (8 - b->len % 8) % 8);
}

/* The live records, in their order (the freed ones between them are nobody's). */
static void put_live_map(struct blob *b, const struct ptrmap *m)
{
	size_t i;

	put_u64(b, m->count);
	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].ptr)
			put(b, &m->recs[i], sizeof(m->recs[i]));
}

static void put_account(struct blob *b, const struct account *a)
{
	put(b, &a->totals, sizeof(a->totals));
	put_array(b, a->sites, a->nsites, sizeof(*a->sites));
	put_array(b, a->reallocated, a->reallocated_cap, sizeof(*a->reallocated));
	put_live_map(b, &a->live);
}

/* Each part put into a blob of its own, from the analyses it saves. */
static void put_findings_part(struct blob *b, const struct db_results *r)
{
	const struct findings *f = r->findings;
	uint32_t i;

	put(b, f->found, sizeof(f->found));
	put_array(b, f->caches, f->ncaches, sizeof(*f->caches));
	put_u64(b, f->classes.count);
	for (i = 0; i < f->classes.count; i++) {
		uint64_t n = strtab_length(&f->classes, i);

		put_u64(b, n);
		put(b, strtab_get(&f->classes, i), (size_t)n);
		pad8(b);
	}
	put(b, f->class_stats, f->classes.count * sizeof(*f->class_stats));
	put(b, f->class_ids, sizeof(f->class_ids));
	put_u64(b, f->unnamed_allocs);
}

static void put_keys_part(struct blob *b, const struct db_results *r)
{
	const struct origin_keys *k = r->keys;
	uint32_t i, n = origin_key_count(k);

	put_u64(b, n);
	for (i = 0; i < n; i++) {
		uint32_t pair[2];

		origin_key_parts(k, i, &pair[0], &pair[1]);
		put(b, pair, sizeof(pair));
	}
}

static void put_pages_part(struct blob *b, const struct db_results *r)
{
	const struct page_stats *p = r->pages;

	put(b, p, sizeof(*p));	/* its pointers are taken from what follows */
	put_array(b, p->by_gfp, p->ngfp, sizeof(*p->by_gfp));
	put_array(b, p->cpus, p->ncpus, sizeof(*p->cpus));
	put_array(b, p->by_key, p->nkeys, sizeof(*p->by_key));
	put_live_map(b, &p->live);
}

static void put_timeline_part(struct blob *b, const struct db_results *r)
{
	const struct timeline *t = r->timeline;
	uint64_t scalars[] = { t->t0, t->width, t->filling_end, t->started, t->nsamples,
			       t->last_ts, (uint64_t)t->pages, (uint64_t)t->peak_pages,
			       t->peak_pages_ns, t->page_events, t->finished };
	uint32_t i;

	put(b, scalars, sizeof(scalars));
	for (i = 0; i < t->nsamples; i++) {
		const struct timeline_sample *s = &t->samples[i];
		uint64_t head[3] = { s->ts_ns, s->total, (uint64_t)s->pages };

		put(b, head, sizeof(head));
		put_array(b, s->live, s->nkeys, sizeof(*s->live));
	}
	put_array(b, t->lost_at, t->nlost, sizeof(*t->lost_at));
	put(b, t->lost_count, t->nlost * sizeof(*t->lost_count));
	/* not its live pages: the pass's alone, no report reads them */
}

/* Rows up to the last that holds anything: those after it read as none, kept or not. */
static uint32_t rows_used(const void *rows, uint32_t n, size_t size)
{
	while (n && stats_are_zero((const unsigned char *)rows + (size_t)(n - 1) * size, size))
		n--;
	return n;
}

/* The peak's groups its rows name: up to the highest (an empty one may be named). */
static uint32_t groups_named(const struct peak_watch *w)
{
	uint32_t n = 0, i;

	for (i = 0; i < w->nrows; i++)
		if (w->rows[i].group > n)
			n = w->rows[i].group;
	return w->groups ? n : 0;
}

static void put_peak_part(struct blob *b, const struct db_results *r)
{
	const struct peak_watch *w = r->peak;
	uint64_t scalars[] = { w->live, w->objects, w->peak_bytes, w->peak_objects, w->peak_ns,
			       w->gen };

	put(b, scalars, sizeof(scalars));
	put_array(b, w->rows, rows_used(w->rows, w->nrows, sizeof(*w->rows)), sizeof(*w->rows));
	put_array(b, w->groups, groups_named(w), sizeof(*w->groups));
}

static void put_losses_part(struct blob *b, const struct db_results *r)
{
	const struct loss_windows *l = r->losses;
	uint64_t scalars[] = { l->last_ts, l->first_ts, l->open };

	put(b, scalars, sizeof(scalars));
	put_array(b, l->w, l->n, sizeof(*l->w));
	put_array(b, l->cpu_first, l->ncpus, sizeof(*l->cpu_first));
}

static void put_span_part(struct blob *b, const struct db_results *r)
{
	struct layout_stamp stamp;

	stamp_of_this_build(&stamp);
	put(b, &stamp, sizeof(stamp));
	put_u64(b, *r->first_ns);
	put_u64(b, *r->last_ns);
}

static void put_account_part(struct blob *b, const struct db_results *r)
{
	put_account(b, r->account);
}

static void put_by_key_part(struct blob *b, const struct db_results *r)
{
	put_account(b, r->by_key);
}

static void put_reclaim_part(struct blob *b, const struct db_results *r)
{
	put_u64(b, r->reclaim->npairs);
	put_array(b, r->reclaim->pairs, r->reclaim->pairs_cap, sizeof(*r->reclaim->pairs));
}

static void put_lifetimes_part(struct blob *b, const struct db_results *r)
{
	const struct lifetimes *l = r->lifetimes;

	put_array(b, l->rows, rows_used(l->rows, l->nrows, sizeof(*l->rows)), sizeof(*l->rows));
}

/* The parts in their order, each a section of its own: a run checks and reads only those it takes. */
static const struct part_writer {
	uint32_t part;
	void (*put)(struct blob *b, const struct db_results *r);
} part_writers[] = {
	{ PART_SPAN, put_span_part },		{ PART_ACCOUNT, put_account_part },
	{ PART_FINDINGS, put_findings_part },	{ PART_KEYS, put_keys_part },
	{ PART_BY_KEY, put_by_key_part },	{ PART_PAGES, put_pages_part },
	{ PART_TIMELINE, put_timeline_part },	{ PART_RECLAIM, put_reclaim_part },
	{ PART_PEAK, put_peak_part },		{ PART_LIFETIMES, put_lifetimes_part },
	{ PART_LOSSES, put_losses_part },
};

int db_results_write(struct binfile_writer *f, uint32_t base, const struct db_results *r,
		     struct ta_error *err)
{
	struct blob b = { 0 };
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(part_writers) / sizeof(*part_writers) && rc == 0; i++) {
		b.len = 0;
		part_writers[i].put(&b, r);
		rc = binfile_add_section(f, base + part_writers[i].part, b.p, b.len, err);
	}
	free(b.p);
	return rc;
}

/* ---- reading: a cursor that fails once, and stays failed ---- */

struct cursor {
	const unsigned char *p, *end;
	const char *problem;		/* the first one met, or NULL */
};

static bool fail(struct cursor *c, const char *problem)
{
	if (!c->problem)
		c->problem = problem;
	c->p = c->end;
	return false;
}

static const void *take(struct cursor *c, size_t n)
{
	const unsigned char *at = c->p;

	if (c->problem || (size_t)(c->end - c->p) < n) {
		fail(c, "its saved report data are cut short");
		return NULL;
	}
	c->p += n;
	return at;
}

static uint64_t take_u64(struct cursor *c)
{
	const void *p = take(c, sizeof(uint64_t));
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

static bool take_into(struct cursor *c, void *out, size_t n)
{
	const void *p = take(c, n);

	if (p && n)
		memcpy(out, p, n);
	return p != NULL;
}

/* A counted array, copied into memory of its own (at least one byte); *count its length. */
static void *take_array(struct cursor *c, size_t size, uint64_t max, uint32_t *count)
{
	uint64_t n = take_u64(c);
	const void *p;
	void *copy;

	*count = 0;
	if (c->problem)
		return NULL;
	if (n > max || n > (uint64_t)(c->end - c->p) / size) {
		fail(c, "an array of its saved report data is longer than it can be");
		return NULL;
	}
	p = take(c, (size_t)n * size);
	copy = xmalloc(n ? (size_t)n * size : 1);
	if (n)
		memcpy(copy, p, (size_t)n * size);
	*count = (uint32_t)n;
	return copy;
}

/*
 * A live map's records (all live), read where they lie in the file when
 * aligned; every one's row (call_site) below nrows, or STR_NONE when none_ok.
 */
static bool take_live_map(struct cursor *c, struct ptrmap *m, uint32_t nrows, bool none_ok)
{
	uint64_t n = take_u64(c), i;
	const struct live_alloc *recs;

	if (c->problem)
		return false;
	if (n > UINT32_MAX - 1 || n > (uint64_t)(c->end - c->p) / sizeof(*recs))
		return fail(c, "a live map of its saved report data is longer than it can be");
	recs = take(c, (size_t)n * sizeof(*recs));
	for (i = 0; i < n; i++)
		if (!recs[i].ptr)
			return fail(c, "its saved report data hold a freed object among the live ones");
		else if (recs[i].kind >= KMEM_KIND_COUNT ||
			 (recs[i].call_site >= nrows && !(none_ok && recs[i].call_site == STR_NONE)))
			return fail(c, "a live object of its saved report data names a row it has not");
	if (ptrmap_restore(m, recs, (size_t)n, (uintptr_t)recs % _Alignof(struct live_alloc) == 0) < 0)
		return fail(c, "a live map of its saved report data is longer than it can be");
	return true;
}

/* No kernel allocates 2^53 bytes or objects: counts past that are damage (and overflow reports). */
#define COUNT_LIMIT (1ull << 53)

/* read as arrays of counts below: they must hold nothing else */
_Static_assert(sizeof(struct account_totals) % sizeof(uint64_t) == 0, "totals are counts");
_Static_assert(sizeof(struct site_stats) == 8 * sizeof(uint64_t), "a row is its eight counts");

static bool counts_in_range(const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] >= COUNT_LIMIT)
			return false;
	return true;
}

/*
 * An account as the pass leaves it: every count in range, each row's live
 * bytes within its total and the sum of its live objects', frees within
 * allocations.
 */
static bool account_adds_up(const struct account *a)
{
	uint64_t *live = xcalloc(a->nsites ? a->nsites : 1, sizeof(*live));
	bool ok = counts_in_range((const uint64_t *)&a->totals,
				  sizeof(a->totals) / sizeof(uint64_t)) &&
		  a->totals.bytes_freed <= a->totals.bytes_allocated &&
		  a->totals.frees <= a->totals.allocs;
	uint32_t id;
	size_t i;

	for (i = 0; ok && i < a->live.nrecs; i++)
		if (a->live.recs[i].ptr)
			live[a->live.recs[i].call_site] += a->live.recs[i].bytes_alloc;
	for (id = 0; ok && id < a->nsites; id++) {
		const struct site_stats *s = &a->sites[id];

		ok = counts_in_range((const uint64_t *)s, sizeof(*s) / sizeof(uint64_t)) &&
		     s->current_dynamic <= s->total_dynamic && s->current_req <= s->total_req &&
		     s->free_count <= s->alloc_count && s->current_dynamic == live[id];
	}
	free(live);
	return ok;
}

static bool take_account(struct cursor *c, struct account *a, uint32_t nrows)
{
	uint32_t n;

	if (!take_into(c, &a->totals, sizeof(a->totals)))
		return false;
	a->sites = take_array(c, sizeof(*a->sites), nrows, &a->nsites);
	a->sites_cap = a->nsites;
	a->reallocated = take_array(c, sizeof(*a->reallocated), UINT32_MAX, &n);
	a->reallocated_cap = n;
	if (c->problem || !take_live_map(c, &a->live, a->nsites, false))
		return false;
	return account_adds_up(a) || fail(c, "an account of its saved report data does not add up");
}

/* Rows (n of size bytes) that hold something only below limit: ids the tables have. */
static bool rows_within(struct cursor *c, const void *rows, uint32_t n, size_t size,
			uint32_t limit)
{
	uint32_t i;

	for (i = limit; i < n; i++)
		if (!stats_are_zero((const unsigned char *)rows + (size_t)i * size, size))
			return fail(c, "its saved report data count rows its tables have not");
	return true;
}

static bool take_findings(struct cursor *c, struct findings *f, const struct trace_strings *s)
{
	uint64_t nclasses, i;

	if (!take_into(c, f->found, sizeof(f->found)))
		return false;
	f->caches = take_array(c, sizeof(*f->caches), UINT32_MAX, &f->ncaches);
	if (c->problem || !rows_within(c, f->caches, f->ncaches, sizeof(*f->caches),
				       s->caches.count))
		return false;
	nclasses = take_u64(c);
	if (nclasses > FINDINGS_CLASS_KEYS)
		return fail(c, "its saved findings have too many size classes");
	for (i = 0; i < nclasses && !c->problem; i++) {
		uint64_t n = take_u64(c);
		const char *name = n <= 64 ? take(c, (size_t)n) : NULL;

		if (!name || strtab_intern(&f->classes, name, (size_t)n) != i)
			return fail(c, "its saved findings name a size class twice or badly");
		take(c, (8 - n % 8) % 8);
	}
	f->class_stats = xcalloc(nclasses ? nclasses : 1, sizeof(*f->class_stats));
	if (!take_into(c, f->class_stats, nclasses * sizeof(*f->class_stats)) ||
	    !take_into(c, f->class_ids, sizeof(f->class_ids)))
		return false;
	for (i = 0; i < FINDINGS_CLASS_KEYS; i++)
		if (f->class_ids[i] > nclasses)
			return fail(c, "its saved findings point at a size class they have not");
	f->unnamed_allocs = take_u64(c);
	return !c->problem;
}

static bool take_keys(struct cursor *c, struct origin_keys *k, const struct trace_strings *s)
{
	uint64_t n = take_u64(c), i;

	if (n > (uint64_t)(c->end - c->p) / 8)
		return fail(c, "its saved origin keys are cut short");
	for (i = 0; i < n && !c->problem; i++) {
		uint32_t pair[2];

		take_into(c, pair, sizeof(pair));
		if ((pair[0] >= s->call_sites.count && pair[0] != STR_NONE) ||
		    (pair[1] != STACK_NONE && pair[1] >= s->stacks.count) ||
		    origin_key(k, pair[0], pair[1]) != i)
			return fail(c, "its saved origin keys name what it has not");
	}
	return !c->problem;
}

/*
 * The page allocator's account; without origin keys (a run that reads no
 * stacks) it is made as such a run makes it: no origin in it.
 */
static bool take_pages(struct cursor *c, struct page_stats *p, const struct trace_strings *s,
		       uint32_t nkeys, bool keys)
{
	struct page_stats saved;
	uint32_t i;

	if (!take_into(c, &saved, sizeof(saved)))
		return false;
	saved.live = p->live;	/* initialised, empty: filled below */
	saved.by_gfp = take_array(c, sizeof(*saved.by_gfp), UINT32_MAX, &saved.ngfp);
	saved.cpus = take_array(c, sizeof(*saved.cpus), UINT32_MAX, &saved.ncpus);
	saved.by_key = take_array(c, sizeof(*saved.by_key), UINT32_MAX, &saved.nkeys);
	*p = saved;
	if (c->problem || !rows_within(c, p->by_gfp, p->ngfp, sizeof(*p->by_gfp), s->gfps.count) ||
	    !rows_within(c, p->by_key, p->nkeys, sizeof(*p->by_key), nkeys) ||
	    !take_live_map(c, &p->live, nkeys, true))
		return false;
	if (!keys) {
		free(p->by_key);
		p->by_key = NULL;
		p->nkeys = 0;
		p->allocs_with_stack = 0;
		for (i = 0; i < p->live.nrecs; i++)
			if (p->live.recs[i].ptr)
				p->live.recs[i].call_site = STR_NONE;
	}
	return true;
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
		if (s->live[k] >= 1ull << 53)
			return false;
		sum += s->live[k];
	}
	return sum == s->total && s->total < 1ull << 53;
}

static bool take_timeline(struct cursor *c, struct timeline *t, uint32_t nrows)
{
	uint64_t v[11];
	uint32_t i, n;

	if (!take_into(c, v, sizeof(v)))
		return false;
	if (v[4] > TIMELINE_SAMPLES || v[3] > 1 || v[10] > 1)
		return fail(c, "its saved timeline has more samples than a timeline has");
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

		if (!take_into(c, head, sizeof(head)))
			return false;
		s->ts_ns = head[0];
		s->total = head[1];
		s->pages = (int64_t)head[2];
		s->live = take_array(c, sizeof(*s->live), nrows, &s->nkeys);
		t->nsamples = i + 1;	/* freed with the timeline from here on */
		if (c->problem || !sample_adds_up(s))
			return fail(c, c->problem ? c->problem
				    : "a sample of its saved timeline does not add up");
	}
	t->lost_at = take_array(c, sizeof(*t->lost_at), UINT32_MAX, &n);
	t->nlost = t->lost_cap = n;
	t->lost_count = xcalloc(n ? n : 1, sizeof(*t->lost_count));
	return !c->problem && take_into(c, t->lost_count, (size_t)n * sizeof(*t->lost_count));
}

static bool take_reclaim(struct cursor *c, struct reclaim_counts *r,
			 const struct trace_strings *s)
{
	uint64_t npairs = take_u64(c);
	uint32_t cap, i;

	free(r->pairs);
	r->pairs = take_array(c, sizeof(*r->pairs), 1u << 30, &cap);
	r->pairs_cap = cap;
	if (c->problem)
		return false;
	if ((cap & (cap - 1)) || npairs > cap)
		return fail(c, "its saved reclaimable counts are not a table");
	for (i = 0; i < cap; i++)	/* key: call site << 32 | cache, + 1 */
		if (r->pairs[i].key && ((r->pairs[i].key - 1) >> 32) >= s->call_sites.count)
			return fail(c, "its saved reclaimable counts name a call site it has not");
	r->npairs = (uint32_t)npairs;
	return true;
}

static bool take_peak(struct cursor *c, struct peak_watch *w, uint32_t nrows)
{
	uint64_t v[6];
	uint32_t i;

	if (!take_into(c, v, sizeof(v)))
		return false;
	w->live = v[0];
	w->objects = v[1];
	w->peak_bytes = v[2];
	w->peak_objects = v[3];
	w->peak_ns = v[4];
	w->gen = (uint32_t)v[5];
	w->rows = take_array(c, sizeof(*w->rows), UINT32_MAX, &w->nrows);
	w->groups = take_array(c, sizeof(*w->groups), UINT32_MAX, &w->ngroups);
	if (c->problem || !rows_within(c, w->rows, w->nrows, sizeof(*w->rows), nrows))
		return false;
	for (i = 0; i < w->nrows; i++)
		if (w->ngroups && w->rows[i].group > w->ngroups)
			return fail(c, "its saved peaks name a group they have not");
	return true;
}

static bool take_lifetimes(struct cursor *c, struct lifetimes *l, uint32_t nrows)
{
	l->rows = take_array(c, sizeof(*l->rows), UINT32_MAX, &l->nrows);
	return !c->problem && rows_within(c, l->rows, l->nrows, sizeof(*l->rows), nrows);
}

static bool take_losses(struct cursor *c, struct loss_windows *l)
{
	uint64_t v[3];

	if (!take_into(c, v, sizeof(v)))
		return false;
	l->last_ts = v[0];
	l->first_ts = v[1];
	l->open = v[2] != 0;
	free(l->w);
	l->w = take_array(c, sizeof(*l->w), UINT32_MAX, &l->n);
	l->cap = l->n;
	free(l->cpu_first);
	l->cpu_first = take_array(c, sizeof(*l->cpu_first), UINT32_MAX, &l->ncpus);
	if (!c->problem && l->open && !l->n)
		return fail(c, "its saved loss windows wait for the end of none");
	return !c->problem;
}

/* A part's section as a cursor; absent: a cursor already failed. */
static struct cursor part(struct binfile *f, uint32_t id, struct ta_error *err, int *rc)
{
	const void *data = NULL;
	size_t len = 0;

	if (binfile_read_section(f, id, &data, &len, err) < 0) {
		*rc = -1;
		return (struct cursor){ NULL, NULL, "" };
	}
	if (!data)
		return (struct cursor){ NULL, NULL, "a part of its saved report data is missing" };
	return (struct cursor){ data, (const unsigned char *)data + len, NULL };
}

/* Read part id when the run wants it; false (*problem or err set) when it is damaged. */
#define PART(f, base, id, wanted, read)						\
	do {									\
		if (wanted) {							\
			struct cursor c = part((f), (base) + (id), err, &rc);	\
			if (rc < 0)						\
				return -1;					\
			if (c.problem || !(read) || (c.p != c.end &&		\
			    !fail(&c, "a part of its saved report data has bytes left over"))) \
				return damaged((f), err, c.problem);		\
		}								\
	} while (0)

static int damaged(const struct binfile *f, struct ta_error *err, const char *problem)
{
	return error_set(err, "'%s' is not a usable DB file: %s", f->path, problem);
}

static bool take_span(struct cursor *c, const struct db_results *r)
{
	*r->first_ns = take_u64(c);
	*r->last_ns = take_u64(c);
	return !c->problem;
}

int db_results_load(struct binfile *f, uint32_t base, const struct db_results *r,
		    const struct trace_strings *s, struct ta_error *err)
{
	struct layout_stamp saved, ours;
	uint32_t nsites = s->call_sites.count, nkeys;
	const void *data;
	size_t len;
	int rc = 0;

	if (binfile_read_section(f, base + PART_SPAN, &data, &len, err) < 0)
		return -1;
	stamp_of_this_build(&ours);
	if (!data || len < sizeof(saved))
		return 0;	/* none kept: the events are replayed */
	memcpy(&saved, data, sizeof(saved));
	if (memcmp(&saved, &ours, sizeof(ours)) != 0)
		return 0;	/* another build's layout: the same */
	PART(f, base, PART_SPAN, true, (take(&c, sizeof(saved)), take_span(&c, r)));
	PART(f, base, PART_ACCOUNT, r->account, take_account(&c, r->account, nsites));
	PART(f, base, PART_FINDINGS, r->findings, take_findings(&c, r->findings, s));
	PART(f, base, PART_KEYS, r->keys, take_keys(&c, r->keys, s));
	nkeys = r->keys ? origin_key_count(r->keys) : 0;
	PART(f, base, PART_BY_KEY, r->by_key, take_account(&c, r->by_key, nkeys));
	/* without keys, the pages' origins are counted but not named: any id goes */
	PART(f, base, PART_PAGES, r->pages,
	     take_pages(&c, r->pages, s, r->keys ? nkeys : UINT32_MAX, r->keys != NULL));
	PART(f, base, PART_TIMELINE, r->timeline, take_timeline(&c, r->timeline, nsites));
	PART(f, base, PART_RECLAIM, r->reclaim, take_reclaim(&c, r->reclaim, s));
	PART(f, base, PART_PEAK, r->peak, take_peak(&c, r->peak, nsites));
	PART(f, base, PART_LIFETIMES, r->lifetimes, take_lifetimes(&c, r->lifetimes, nsites));
	PART(f, base, PART_LOSSES, r->losses, take_losses(&c, r->losses));
	return 1;
}

int db_results_check(struct binfile *f, uint32_t base, const struct trace_strings *strings,
		     struct ta_error *err)
{
	uint64_t first = 0, last = 0;
	struct account account, by_key;
	struct findings findings;
	struct page_stats pages;
	struct timeline timeline;
	struct reclaim_counts reclaim;
	struct peak_watch peak;
	struct lifetimes lifetimes;
	struct origin_keys keys;
	struct loss_windows losses;
	struct db_results all = { &first, &last, &account, &findings, &pages, &timeline, &reclaim,
				  &peak, &lifetimes, &keys, &by_key, &losses };
	int rc;

	account_init(&account, FAMILY_ALL);
	account_init(&by_key, FAMILY_ALL);
	findings_init(&findings);
	pages_init(&pages);
	timeline_init(&timeline, &account);
	reclaim_counts_init(&reclaim);
	peak_watch_init(&peak, false, 0);
	lifetimes_init(&lifetimes);
	origin_keys_init(&keys);
	loss_windows_init(&losses);
	rc = db_results_load(f, base, &all, strings, err);
	loss_windows_release(&losses);
	origin_keys_release(&keys);
	lifetimes_release(&lifetimes);
	peak_watch_release(&peak);
	reclaim_counts_release(&reclaim);
	timeline_release(&timeline);
	pages_release(&pages);
	findings_release(&findings);
	account_release(&by_key);
	account_release(&account);
	return rc < 0 ? -1 : 0;
}
