/*
 * sizereport.c - the --sizes report (sizereport.h) from its pass's
 * histogram: the ranges that hold allocations, smallest first, each with
 * its share of the allocations, the bytes asked for and given and the
 * waste (given - asked: below zero only in a log that asks more than it
 * is given, as the account's total_waste); then the totals, the account's. Not
 * here: the counting (sizes.c, sizes_pass.c).
 */
#include <stdio.h>

#include "engine.h"
#include "output.h"
#include "pipeline.h"
#include "sizereport.h"
#include "sizes.h"

static const struct out_column size_columns[] = {
	{ "size", "requested size", OUT_STR, false },
	{ "from_bytes", "from", OUT_U64, false },
	{ "to_bytes", "to", OUT_U64, false },
	{ "allocations", NULL, OUT_U64, false },
	{ "allocations_pct", "allocs%", OUT_PCT, false },
	{ "bytes_req", "requested", OUT_U64, false },
	{ "bytes_alloc", "allocated", OUT_U64, false },
	{ "waste", NULL, OUT_I64, false },
	{ "waste_pct", "waste%", OUT_PCT, false },
};

/* "0", "1", "3-4", "2049-4096" */
static const char *range_name(unsigned k, char *buf, size_t cap)
{
	uint64_t low, high;

	size_bin_bounds(k, &low, &high);
	if (low == high)
		snprintf(buf, cap, "%llu", (unsigned long long)low);
	else
		snprintf(buf, cap, "%llu-%llu", (unsigned long long)low, (unsigned long long)high);
	return buf;
}

static double share(int64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

void write_sizes_report(struct out_dest *o, const struct report_run *run)
{
	const struct size_histogram *h = analysis_pass_state(run->a, PASS_SIZES);
	uint64_t req = 0, given = 0, low, high;
	struct out_block *t, *l;
	struct out_doc d;
	char name[48];
	unsigned k;

	out_doc_init(&d, "sizes");
	t = out_table(&d, "sizes", "slab allocations by requested size (powers of two)",
		      size_columns, sizeof(size_columns) / sizeof(size_columns[0]));
	for (k = 0; k < SIZE_BINS; k++) {
		const struct size_bin *b = &h->bins[k];

		if (!b->allocs)
			continue;
		size_bin_bounds(k, &low, &high);
		out_row_str(&d, t, range_name(k, name, sizeof(name)));
		out_row_u64(&d, t, low);
		out_row_u64(&d, t, high);
		out_row_u64(&d, t, b->allocs);
		out_row_pct(&d, t, share(b->allocs, h->allocs));
		out_row_u64(&d, t, b->bytes_req);
		out_row_u64(&d, t, b->bytes_alloc);
		out_row_i64(&d, t, (int64_t)b->bytes_alloc - (int64_t)b->bytes_req);
		out_row_pct(&d, t, share((int64_t)b->bytes_alloc - (int64_t)b->bytes_req,
					 b->bytes_alloc));
		req += b->bytes_req;
		given += b->bytes_alloc;
	}
	l = out_list(&d, "totals", "all sizes");
	out_item_u64(&d, l, "allocations", "allocations", h->allocs);
	out_item_u64(&d, l, "bytes_req", "bytes requested", req);
	out_item_u64(&d, l, "bytes_alloc", "bytes allocated", given);
	out_item_i64(&d, l, "waste", "waste", (int64_t)given - (int64_t)req);
	out_item_pct(&d, l, "waste_pct", "waste%", share((int64_t)given - (int64_t)req, given));
	out_emit(o, &d);
	out_doc_release(&d);
}
