/*
 * kmemleakreport.c - kmemleak's objects matched with a trace's live
 * allocations (kmemleakreport.h). Not here: the report's parsing.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "kmemleakreport.h"

enum rule { MATCH_NONE, MATCH_ADDRESS, MATCH_SITE_SIZE };

static const char *const rule_names[] = { "none", "address", "call site and size" };

static const struct out_column object_columns[] = {
	{ "address", NULL, OUT_STR, false },
	{ "size", NULL, OUT_U64, false },
	{ "comm", NULL, OUT_STR, false },
	{ "pid", NULL, OUT_I64, false },
	{ "kmemleak_site", "kmemleak's call site", OUT_STR, false },
	{ "matched_by", "matched by", OUT_STR, false },
	{ "trace_site", "the trace's call site", OUT_STR, false },
	{ "trace_time_s", "allocated (s)", OUT_F64, false },
	{ "trace_line", "line", OUT_U64, false },
};

/* A live allocation of the trace not yet taken by an object: by (call site, size). */
struct candidate {
	const struct live_alloc *a;
	bool taken;
};

static int by_site_and_size(const void *pa, const void *pb)
{
	const struct candidate *a = pa, *b = pb;

	if (a->a->call_site != b->a->call_site)
		return a->a->call_site < b->a->call_site ? -1 : 1;
	if (a->a->bytes_req != b->a->bytes_req)
		return a->a->bytes_req < b->a->bytes_req ? -1 : 1;
	return a->a->ts_ns < b->a->ts_ns ? -1 : a->a->ts_ns > b->a->ts_ns;
}

/* The first untaken live allocation at site of size bytes, or NULL. */
static struct candidate *take(struct candidate *c, size_t n, uint32_t site, uint64_t size)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c[mid].a->call_site < site ||
		    (c[mid].a->call_site == site && c[mid].a->bytes_req < size))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < n && c[lo].a->call_site == site && c[lo].a->bytes_req == size; lo++)
		if (!c[lo].taken) {
			c[lo].taken = true;
			return &c[lo];
		}
	return NULL;
}

static const char *site_name(const struct analysis *a, uint32_t id)
{
	return id == STR_NONE ? "(none)" : strtab_get(&a->strings.call_sites, id);
}

/*
 * Each of kmemleak's objects matched with a live allocation of the trace:
 * by address first, for every object (what one takes no other takes by
 * site and size), then by call site and size for the objects left.
 * match[i] and rule[i] for object i (NULL, MATCH_NONE: not found).
 */
static void match_objects(const struct analysis *a, const struct live_alloc **match,
			  enum rule *rule)
{
	const struct kmemleak_report *k = &a->kmemleak;
	const struct ptrmap *live = &a->account.live;
	struct candidate *cand = xcalloc(live->nrecs ? live->nrecs : 1, sizeof(*cand));
	size_t i, n = 0;

	for (i = 0; i < live->nrecs; i++)
		if (live->recs[i].ptr)
			cand[n++].a = &live->recs[i];
	if (n)
		qsort(cand, n, sizeof(*cand), by_site_and_size);
	for (i = 0; i < k->n; i++) {
		const struct live_alloc *m = ptrmap_find(live, k->o[i].addr);

		if (m) {	/* not to be taken by another object's site and size */
			struct candidate key = { m, false }, *c = bsearch(&key, cand, n, sizeof(*cand),
									  by_site_and_size);
			for (; c && c > cand && c[-1].a->call_site == m->call_site &&
			       c[-1].a->bytes_req == m->bytes_req; c--)
				;	/* the first of its equals, then the very record */
			for (; c && c < cand + n && c->a != m; c++)
				;
			if (c && c < cand + n)
				c->taken = true;
		}
	}
	for (i = 0; i < k->n; i++) {
		const struct kmemleak_object *o = &k->o[i];

		match[i] = ptrmap_find(live, o->addr);
		rule[i] = MATCH_ADDRESS;
		if (!match[i] && o->call_site != STR_NONE) {
			struct candidate *c = take(cand, n, o->call_site, o->size);

			match[i] = c ? c->a : NULL;
			rule[i] = MATCH_SITE_SIZE;
		}
		if (!match[i])
			rule[i] = MATCH_NONE;
	}
	free(cand);
}

static int compare_u64(const void *pa, const void *pb)
{
	uint64_t x = *(const uint64_t *)pa, y = *(const uint64_t *)pb;

	return (x > y) - (x < y);
}

void kmemleak_hits_of(const struct analysis *a, struct kmemleak_hits *h)
{
	const struct kmemleak_report *k = &a->kmemleak;
	const struct live_alloc **match = xcalloc(k->n ? k->n : 1, sizeof(*match));
	enum rule *rule = xcalloc(k->n ? k->n : 1, sizeof(*rule));
	size_t i;

	match_objects(a, match, rule);
	h->ptrs = xcalloc(k->n ? k->n : 1, sizeof(*h->ptrs));
	h->n = 0;
	for (i = 0; i < k->n; i++)
		if (match[i])
			h->ptrs[h->n++] = match[i]->ptr;
	qsort(h->ptrs, h->n, sizeof(*h->ptrs), compare_u64);
	free(match);
	free(rule);
}

void kmemleak_hits_release(struct kmemleak_hits *h)
{
	free(h->ptrs);
	h->ptrs = NULL;
	h->n = 0;
}

void kmemleak_beside_report(struct out_doc *d, const struct analysis *a)
{
	const struct kmemleak_report *k = &a->kmemleak;
	const struct live_alloc **match = xcalloc(k->n ? k->n : 1, sizeof(*match));
	enum rule *rule = xcalloc(k->n ? k->n : 1, sizeof(*rule));
	uint64_t by_rule[3] = { 0, 0, 0 }, bytes = 0;
	struct out_block *b, *t;
	char addr[32];
	size_t i;

	match_objects(a, match, rule);
	t = out_table(d, "kmemleak_objects", "kmemleak's objects and the trace's allocations "
		      "(still live at its end) they are", object_columns,
		      sizeof(object_columns) / sizeof(object_columns[0]));
	for (i = 0; i < k->n; i++) {
		const struct kmemleak_object *o = &k->o[i];
		const struct live_alloc *m = match[i];

		by_rule[rule[i]]++;
		bytes += o->size;
		snprintf(addr, sizeof(addr), "0x%" PRIx64, o->addr);
		out_row_str(d, t, addr);
		out_row_u64(d, t, o->size);
		out_row_str(d, t, o->comm != STR_NONE ? strtab_get(&a->strings.comms, o->comm) : "");
		out_row_i64(d, t, o->pid);
		out_row_str(d, t, site_name(a, o->call_site));
		out_row_str(d, t, rule_names[rule[i]]);
		if (m) {
			out_row_str(d, t, site_name(a, m->call_site));
			out_row_f64(d, t, (double)m->ts_ns / 1e9);
			out_row_u64(d, t, m->line);
		} else {
			out_row_none(d, t);
			out_row_none(d, t);
			out_row_none(d, t);
		}
	}
	b = out_list(d, "kmemleak", "kmemleak beside the trace");
	out_item_str(d, b, "report", "report", a->kmemleak_source);
	out_item_u64(d, b, "objects", "unreferenced objects it reports", k->n);
	out_item_u64(d, b, "bytes", "their bytes", bytes);
	out_item_u64(d, b, "by_address", "found live in the trace by address", by_rule[MATCH_ADDRESS]);
	out_item_u64(d, b, "by_site_and_size", "found by call site and size",
		     by_rule[MATCH_SITE_SIZE]);
	out_item_u64(d, b, "not_seen", "not among the trace's live allocations", by_rule[MATCH_NONE]);
	if (by_rule[MATCH_NONE])
		out_item_str(d, b, "not_seen_why", "why", "allocated before the trace, or freed in it "
			     "and allocated again after it, or not a slab object: a kmem trace has no "
			     "vmalloc or percpu event");
	out_item_str(d, b, "verdict", "verdict", k->n == 0 ? "kmemleak reports none" :
		     by_rule[MATCH_ADDRESS] + by_rule[MATCH_SITE_SIZE]
		     ? "kmemleak reports objects the trace saw allocated and never freed"
		     : "kmemleak reports objects the trace did not see allocated");
	free(match);
	free(rule);
}
