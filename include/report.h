/*
 * report.h - the account file (trace_analyze.py's layout) and the run
 * summary. Reads only the aggregated tables; never the log.
 */
#ifndef TA_REPORT_H
#define TA_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "account.h"
#include "event.h"
#include "output.h"
#include "input.h"
#include "parse.h"
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

/* "total_dynamic" ... "waste"; -1 if name is none of them. */
int order_key_of_name(const char *name);
const char *order_key_name(enum order_key key);

/* "total_dynamic, current_dynamic, ...": every key, for a usage error. */
const char *order_key_list(void);

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

/*
 * The account file: header totals, then the table. As text, exactly
 * trace_analyze.py's layout; as CSV or JSON, the same numbers as a list
 * "totals" and a table "callers" (output.h).
 */
void write_account(FILE *f, const struct account_rows *rows, enum out_format format);

/* What the summary is made of. */
struct run_summary {
	const char *source;	/* the log's name, or the DB's */
	const char *made_from;	/* for a DB: the log it was made from, else NULL */
	const char *compression;	/* for a compressed log: its format, else NULL */
	uint64_t compressed_bytes;
	const struct parse_stats *stats;
	const struct trace_header *header;
	const struct account_totals *totals;
	unsigned families;
	uint64_t overlong_lines;	/* dropped by the input module */
	bool truncated_last_line;
	uint64_t first_malformed_line;	/* 0 if none */
	double seconds;
	bool stacks;			/* stack traces were read: say what became of them */
	uint32_t distinct_stacks;
};

void write_summary(FILE *f, const struct run_summary *sum);

#endif
