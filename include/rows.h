/*
 * rows.h - an account's rows as every report lists them: one per name a
 * report gives (ids that print the same name merged), sorted by a key
 * (descending, ties by name), placed in the kernel tree, filtered to a
 * branch. Reads only the account; writes nothing.
 */
#ifndef TA_ROWS_H
#define TA_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "strtab.h"
#include "symbols.h"

enum order_key {
	ORDER_TOTAL_DYNAMIC,
	ORDER_CURRENT_DYNAMIC,
	ORDER_ALLOC_COUNT,
	ORDER_FREE_COUNT,
	ORDER_WASTE,
	ORDER_FRAG,		/* fragmentation %: 100 - 100 * total_req / total_dynamic */
	ORDER_HIT,		/* allocations (as alloc_count) */
	ORDER_BYTES,		/* bytes allocated (as total_dynamic) */
	ORDER_PINGPONG,
	ORDER_PEAK,
	ORDER_TOTAL_WASTE,	/* over all allocations: total_dynamic - total requested */
	ORDER_KEY_COUNT
};

/* "total_dynamic" ... "total_waste", NULL: by enum order_key. */
extern const char *const order_key_names[ORDER_KEY_COUNT + 1];
const char *order_key_name(enum order_key key);

/* One row of the account: a call site (or function) and its counters. */
struct account_row {
	const char *caller;	/* points into account_rows.names */
	struct site_stats s;
	uint32_t nsites;	/* call sites merged into it; peak_dynamic only holds for 1 */
	uint32_t place;		/* where its function is (row_places), else UINT32_MAX */
};

/*
 * Where each call site id is, for reports that place rows in a kernel
 * tree: a row merging several call sites is where join() puts them.
 */
struct row_places {
	const uint32_t *of_site;	/* indexed by call-site id */
	uint32_t (*join)(const void *ctx, uint32_t a, uint32_t b);
	const void *ctx;
};

struct account_rows {
	struct account_row *rows;
	size_t count;
	struct strtab names;
};

/* The name a row is reported under, for an id of an account's table. */
struct row_namer {
	size_t (*name)(const void *ctx, uint32_t id, char *out, size_t cap);
	const void *ctx;
};

/*
 * id's row in names (its name interned), named once an id: cache[id] keeps
 * it (UINT32_MAX: not yet; ids from ncache on are named each time). For the
 * reports that meet an id once a live object.
 */
uint32_t row_of_id(const struct row_namer *namer, struct strtab *names, uint32_t *cache,
		   uint32_t ncache, uint32_t id);

/* A cache for row_of_id of n ids, none named yet. */
uint32_t *row_cache_new(uint32_t n);

/* Which ids of an account a report keeps (-b); NULL or keep NULL: every id. */
struct row_filter {
	bool (*keep)(const void *ctx, uint32_t id);
	const void *ctx;
};

static inline bool row_kept(const struct row_filter *f, uint32_t id)
{
	return !f || !f->keep || f->keep(f->ctx, id);
}

/* Call sites as trace_analyze.py names them ("sym+0xoff"; by_function: "sym"). */
struct callsite_namer {
	const struct strtab *call_sites;
	const struct symbol_table *syms;
	bool by_function;
};

size_t callsite_row_name(const void *ctx, uint32_t id, char *out, size_t cap);

/* Ids named by a string table (slab caches). */
struct strtab_namer {
	const struct strtab *names;
};

size_t strtab_row_name(const void *ctx, uint32_t id, char *out, size_t cap);

/*
 * The rows of the account: one per report name (ids that print the same
 * name are merged), sorted by key descending, ties by caller name.
 */
void account_rows_build(struct account_rows *out, const struct account *acc,
			const struct row_namer *namer, enum order_key key,
			const struct row_places *places);

/* Keep only the rows keep() says yes to, in their order. */
void account_rows_filter(struct account_rows *rows,
			 bool (*keep)(const struct account_row *row, const void *ctx),
			 const void *ctx);
void account_rows_release(struct account_rows *rows);

/* a += b, counter by counter (peak_dynamic exact only for a single site). */
void site_stats_add(struct site_stats *a, const struct site_stats *b);

/* waste, trace_analyze.py's: of the allocations still live at the end */
static inline int64_t site_waste(const struct site_stats *s)
{
	return (int64_t)(s->current_dynamic - s->current_req);
}

/* total_waste: bytes allocated beyond the request, over all allocations of the log */
static inline int64_t site_total_waste(const struct site_stats *s)
{
	return (int64_t)(s->total_dynamic - s->total_req);
}

/* perf kmem's internal fragmentation: 100 - 100 * requested / allocated. */
static inline double fragmentation_pct(uint64_t requested, uint64_t allocated)
{
	return allocated ? 100.0 - 100.0 * (double)requested / (double)allocated : 0.0;
}

#endif
