/*
 * rows.c - an account's rows as reports list them: named (call site,
 * function, origin, cache...), merged when they print the same name,
 * sorted by a key, placed in the kernel tree, filtered. What a row means
 * is the account's; how it is printed is a report's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "rows.h"

const char *const order_key_names[ORDER_KEY_COUNT + 1] = {
	[ORDER_TOTAL_DYNAMIC] = "total_dynamic",
	[ORDER_CURRENT_DYNAMIC] = "current_dynamic",
	[ORDER_ALLOC_COUNT] = "alloc_count",
	[ORDER_FREE_COUNT] = "free_count",
	[ORDER_WASTE] = "waste",
	[ORDER_FRAG] = "frag",
	[ORDER_HIT] = "hit",
	[ORDER_BYTES] = "bytes",
	[ORDER_PINGPONG] = "pingpong",
	[ORDER_PEAK] = "peak",
	[ORDER_TOTAL_WASTE] = "total_waste",
};

const char *order_key_name(enum order_key key)
{
	return order_key_names[key];
}


/* ---- rows ---------------------------------------------------------------- */

void site_stats_add(struct site_stats *a, const struct site_stats *b)
{
	a->total_dynamic += b->total_dynamic;
	a->total_req += b->total_req;
	a->current_dynamic += b->current_dynamic;
	a->current_req += b->current_req;
	a->alloc_count += b->alloc_count;
	a->free_count += b->free_count;
	a->pingpong += b->pingpong;
	a->peak_dynamic += b->peak_dynamic;	/* exact only for a single site */
}

static int64_t sort_value(const struct site_stats *s, enum order_key key)
{
	switch (key) {
	case ORDER_FRAG:	/* in millionths of a percent, to sort as an integer */
		return (int64_t)(fragmentation_pct(s->total_req, s->total_dynamic) * 1e6);
	case ORDER_HIT:
		return (int64_t)s->alloc_count;
	case ORDER_BYTES:
		return (int64_t)s->total_dynamic;
	case ORDER_PINGPONG:
		return (int64_t)s->pingpong;
	case ORDER_PEAK:
		return (int64_t)s->peak_dynamic;
	case ORDER_TOTAL_WASTE:
		return site_total_waste(s);
	case ORDER_TOTAL_DYNAMIC:
		return (int64_t)s->total_dynamic;
	case ORDER_CURRENT_DYNAMIC:
		return (int64_t)s->current_dynamic;
	case ORDER_ALLOC_COUNT:
		return (int64_t)s->alloc_count;
	case ORDER_FREE_COUNT:
		return (int64_t)s->free_count;
	case ORDER_WASTE:
	default:
		return site_waste(s);
	}
}

static int compare_rows(const void *pa, const void *pb, void *ctx)
{
	const struct account_row *a = pa, *b = pb;
	enum order_key key = *(const enum order_key *)ctx;
	int64_t x = sort_value(&a->s, key), y = sort_value(&b->s, key);

	if (x != y)
		return x > y ? -1 : 1;
	return strcmp(a->caller, b->caller);
}

size_t callsite_row_name(const void *ctx, uint32_t id, char *out, size_t cap)
{
	const struct callsite_namer *n = ctx;

	return callsite_name(strtab_get(n->call_sites, id), strtab_length(n->call_sites, id),
			     n->syms, n->by_function, out, cap);
}

size_t strtab_row_name(const void *ctx, uint32_t id, char *out, size_t cap)
{
	const struct strtab_namer *n = ctx;
	size_t len = strtab_length(n->names, id);

	if (cap == 0)
		return 0;
	if (len >= cap)
		len = cap - 1;
	memcpy(out, strtab_get(n->names, id), len);
	out[len] = '\0';
	return len;
}

void account_rows_build(struct account_rows *out, const struct account *acc,
			const struct row_namer *namer, enum order_key key,
			const struct row_places *places)
{
	char name[CALLSITE_NAME_MAX];
	uint32_t id;
	size_t i;

	memset(out, 0, sizeof(*out));
	strtab_init(&out->names);
	out->rows = xcalloc(acc->nsites ? acc->nsites : 1, sizeof(*out->rows));
	for (id = 0; id < acc->nsites; id++) {
		const struct site_stats *s = account_site(acc, id);

		if (!s)
			continue;
		size_t n = namer->name(namer->ctx, id, name, sizeof(name));
		uint32_t row = strtab_intern(&out->names, name, n);

		out->rows[row].nsites++;
		if (row == out->count) {
			out->count++;
			out->rows[row].place = places ? places->of_site[id] : UINT32_MAX;
		} else if (places) {
			out->rows[row].place = places->join(places->ctx, out->rows[row].place,
							    places->of_site[id]);
		}
		site_stats_add(&out->rows[row].s, s);
	}
	for (i = 0; i < out->count; i++)
		out->rows[i].caller = strtab_get(&out->names, (uint32_t)i);
	qsort_r(out->rows, out->count, sizeof(*out->rows), compare_rows, &key);
}

void account_rows_filter(struct account_rows *rows,
			 bool (*keep)(const struct account_row *row, const void *ctx),
			 const void *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < rows->count; i++)
		if (keep(&rows->rows[i], ctx))
			rows->rows[n++] = rows->rows[i];
	rows->count = n;
}

void account_rows_release(struct account_rows *rows)
{
	free(rows->rows);
	strtab_release(&rows->names);
	memset(rows, 0, sizeof(*rows));
}

uint32_t *row_cache_new(uint32_t n)
{
	uint32_t *cache = xmalloc((n ? n : 1) * sizeof(*cache));

	memset(cache, 0xff, (n ? n : 1) * sizeof(*cache));
	return cache;
}

uint32_t row_of_id(const struct row_namer *namer, struct strtab *names, uint32_t *cache,
		   uint32_t ncache, uint32_t id)
{
	char name[CALLSITE_NAME_MAX];
	size_t len;

	if (id < ncache && cache[id] != UINT32_MAX)
		return cache[id];
	len = namer->name(namer->ctx, id, name, sizeof(name));
	if (id >= ncache)
		return strtab_intern(names, name, len);
	return cache[id] = strtab_intern(names, name, len);
}
