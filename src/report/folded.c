/*
 * folded.c - origin keys folded into stack lines with summed weights.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "folded.h"
#include "text_stacks.h"

/* Room for the longest folded line: every frame at its longest, and ';'s. */
#define FOLDED_MAX ((size_t)STACK_MAX_FRAMES * (FRAME_NAME_MAX + 1) + CALLSITE_NAME_MAX + 16)

void folded_init(struct folded *fo)
{
	memset(fo, 0, sizeof(*fo));
	strtab_init(&fo->lines);
}

void folded_release(struct folded *fo)
{
	strtab_release(&fo->lines);
	free(fo->weight);
	memset(fo, 0, sizeof(*fo));
}

const char *stack_weight_meaning(enum stack_weight w)
{
	switch (w) {
	case WEIGHT_LIVE:
		return "bytes still held at the end";
	case WEIGHT_WASTE:
		return "bytes wasted by allocations still held (bytes_alloc - bytes_req)";
	case WEIGHT_COUNT:
		return "allocations";
	case WEIGHT_BYTES:
	default:
		return "bytes allocated (bytes_alloc)";
	}
}

static void add_line(struct folded *fo, const char *text, size_t len, uint64_t weight)
{
	uint32_t id = strtab_intern(&fo->lines, text, len);

	if (id >= fo->cap) {
		uint32_t cap = fo->cap ? fo->cap * 2 : 256;

		while (cap <= id)
			cap *= 2;
		fo->weight = xrealloc(fo->weight, cap * sizeof(*fo->weight));
		memset(fo->weight + fo->cap, 0, (cap - fo->cap) * sizeof(*fo->weight));
		fo->cap = cap;
	}
	fo->weight[id] += weight;
}

static uint64_t weight_of(const struct site_stats *s, enum stack_weight w)
{
	switch (w) {
	case WEIGHT_LIVE:
		return s->current_dynamic;
	case WEIGHT_WASTE:	/* an object given less than asked wastes nothing */
		return s->current_dynamic > s->current_req ? s->current_dynamic - s->current_req : 0;
	case WEIGHT_COUNT:
		return s->alloc_count;
	case WEIGHT_BYTES:
	default:
		return s->total_dynamic;
	}
}

void folded_add_slab(struct folded *fo, const struct account *by_key,
		     const struct origin_keys *keys, const struct callchains *c,
		     enum stack_weight w)
{
	char *buf = xmalloc(FOLDED_MAX);
	uint32_t id, call_site, stack;

	for (id = 0; id < by_key->nsites; id++) {
		const struct site_stats *s = account_site(by_key, id);
		uint64_t weight;

		if (!s || (weight = weight_of(s, w)) == 0)
			continue;
		origin_key_parts(keys, id, &call_site, &stack);
		add_line(fo, buf, callchains_folded(c, call_site, stack, buf, FOLDED_MAX), weight);
	}
	free(buf);
}

void folded_add_pages(struct folded *fo, const struct page_stats *p,
		      const struct origin_keys *keys, const struct callchains *c,
		      uint64_t page_size)
{
	char *buf = xmalloc(FOLDED_MAX);
	uint32_t id, call_site, stack;

	for (id = 0; id < p->nkeys; id++) {
		if (!p->by_key[id].pages)
			continue;
		origin_key_parts(keys, id, &call_site, &stack);
		add_line(fo, buf, callchains_folded(c, call_site, stack, buf, FOLDED_MAX),
			 p->by_key[id].pages * page_size);
	}
	free(buf);
}

static int compare_lines(const void *pa, const void *pb, void *ctx)
{
	const struct strtab *t = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return strcmp(strtab_get(t, a), strtab_get(t, b));
}

uint32_t *folded_sorted(const struct folded *fo, uint32_t *n)
{
	uint32_t *ids = xmalloc((fo->lines.count ? fo->lines.count : 1) * sizeof(*ids)), i;

	*n = 0;
	for (i = 0; i < fo->lines.count; i++)
		if (fo->weight[i])
			ids[(*n)++] = i;
	qsort_r(ids, *n, sizeof(*ids), compare_lines, (void *)&fo->lines);
	return ids;
}

void folded_write(FILE *f, const struct folded *fo)
{
	uint32_t n, i, *ids = folded_sorted(fo, &n);

	for (i = 0; i < n; i++)
		fprintf(f, "%s %" PRIu64 "\n", strtab_get(&fo->lines, ids[i]), fo->weight[ids[i]]);
	free(ids);
}
