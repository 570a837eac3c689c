/*
 * pageownerreport.c - page_owner's dump beside a trace (pageownerreport.h):
 * a join by pfn of the trace's live pages and the dump's blocks, counted,
 * and the pages of the same allocations by the dump's origins.
 */
#include <stdlib.h>
#include <string.h>

#include "lowerbound.h"
#include "pageownerreport.h"

static int pfn_against(const void *key, const void *element)
{
	uint64_t pfn = *(const uint64_t *)key, at = ((const struct page_owner_block *)element)->pfn;

	return (pfn > at) - (pfn < at);
}

static const struct page_owner_block *block_at(const struct analysis *a, uint64_t pfn)
{
	size_t i = lower_bound(&pfn, a->po_blocks, a->npo_blocks, sizeof(*a->po_blocks),
			       pfn_against);

	return i < a->npo_blocks && a->po_blocks[i].pfn == pfn ? &a->po_blocks[i] : NULL;
}

struct origin_pages {
	char name[128];
	uint64_t pages;
};

static int more_pages_first(const void *pa, const void *pb)
{
	const struct origin_pages *a = pa, *b = pb;

	if (a->pages != b->pages)
		return a->pages > b->pages ? -1 : 1;
	return strcmp(a->name, b->name);
}

static const struct out_column origin_columns[] = {
	{ "origin", NULL, OUT_STR, false },
	{ "pages", NULL, OUT_U64, false },
	{ "kb", "KB", OUT_U64, false },
};

/* The origin of the trace's live page l, when its event had a stack: true. */
static bool trace_origin_of(const struct analysis *a, const struct live_page *l, char *out,
			    size_t cap)
{
	uint32_t call_site, stack;

	if (l->id == STR_NONE || l->id >= origin_key_count(&a->keys))
		return false;
	origin_key_parts(&a->keys, l->id, &call_site, &stack);
	if (stack == STACK_NONE)
		return false;
	callchains_origin(&a->chains, call_site, stack, out, cap);
	return true;
}

void page_owner_beside_report(struct out_doc *d, const struct analysis *a)
{
	const struct pagemap *live = &a->pages.live;
	struct live_page page, *l = &page;
	size_t cursor = 0;
	bool *seen = xcalloc(a->npo_blocks ? a->npo_blocks : 1, sizeof(*seen));
	uint64_t trace_live = 0, in_dump = 0, same = 0, again = 0, gone = 0;
	uint64_t before = 0, after = 0, during = 0, dump_pages = 0;
	uint64_t with_stack = 0, same_origin = 0;
	struct origin_pages *origins = NULL;
	size_t norigins = 0, i, k;
	struct out_block *b, *t;

	while (pagemap_next(live, &cursor, &page)) {
		const struct page_owner_block *p;

		trace_live++;
		p = block_at(a, l->key);
		if (!p) {
			gone++;
			continue;
		}
		in_dump++;
		seen[p - a->po_blocks] = true;
		if (p->ts_ns < a->first_ns || p->ts_ns > a->last_ns) {
			again++;	/* the trace's page was freed, and allocated again */
			continue;
		}
		same++;
		if (analysis_runs(a, PASS_ORIGINS)) {	/* who made it, as the dump's stack says */
			char name[128], trace_name[128];

			callchains_origin(&a->chains, STR_NONE, p->stack, name, sizeof(name));
			for (k = 0; k < norigins && strcmp(origins[k].name, name); k++)
				;
			if (k == norigins) {
				origins = xrealloc(origins, (norigins + 1) * sizeof(*origins));
				snprintf(origins[norigins].name, sizeof(origins[0].name), "%s", name);
				origins[norigins++].pages = 0;
			}
			origins[k].pages += 1ull << (p->order > 0 ? p->order : 0);
			if (trace_origin_of(a, l, trace_name, sizeof(trace_name))) {
				with_stack++;	/* the trace's stack beside the dump's */
				same_origin += strcmp(trace_name, name) == 0;
			}
		}
	}
	for (i = 0; i < a->npo_blocks; i++) {
		const struct page_owner_block *p = &a->po_blocks[i];

		dump_pages += 1ull << (p->order > 0 ? p->order : 0);
		if (seen[i])
			continue;
		if (p->ts_ns < a->first_ns)
			before++;
		else if (p->ts_ns > a->last_ns)
			after++;
		else
			during++;
	}
	b = out_list(d, "page_owner", "page_owner's dump beside the trace (page blocks, by pfn)");
	out_item_str(d, b, "dump", "dump", a->page_owner_source);
	out_item_u64(d, b, "dump_blocks", "blocks the dump holds", a->npo_blocks);
	out_item_u64(d, b, "dump_pages", "their pages", dump_pages);
	out_item_u64(d, b, "trace_live", "the trace's blocks still held at its end", trace_live);
	out_item_u64(d, b, "in_dump", "of them held in the dump at the same pfn", in_dump);
	out_item_u64(d, b, "same_allocation", "the same allocation (the dump's time within the "
		     "trace's)", same);
	out_item_u64(d, b, "allocated_again", "freed and allocated again (the dump's time "
		     "outside the trace's)", again);
	out_item_u64(d, b, "not_in_dump", "not in the dump (freed after the trace)", gone);
	out_item_u64(d, b, "before_trace", "blocks the trace never saw allocated: before it", before);
	out_item_u64(d, b, "after_trace", "after it", after);
	out_item_u64(d, b, "during_trace", "during it (its events lost, or freed and allocated "
		     "again unseen)", during);
	if (analysis_runs(a, PASS_ORIGINS)) {
		out_item_u64(d, b, "same_with_stack", "of the same allocations, with a stack in the "
			     "trace too", with_stack);
		out_item_u64(d, b, "same_origin", "  whose origin (the stack's top past the "
			     "allocators) is the dump's", same_origin);
		out_item_u64(d, b, "other_origin", "  whose origin differs", with_stack - same_origin);
		if (norigins)
			qsort(origins, norigins, sizeof(*origins), more_pages_first);
		t = out_table(d, "page_owner_origins", "the trace's pages still held, by the dump's "
			      "origin", origin_columns,
			      sizeof(origin_columns) / sizeof(origin_columns[0]));
		for (k = 0; k < norigins; k++) {
			out_row_str(d, t, origins[k].name);
			out_row_u64(d, t, origins[k].pages);
			out_row_u64(d, t, origins[k].pages * 4);
		}
	}
	free(origins);
	free(seen);
}

/* ---- a series of page_owner files: growth per row ---------------------------------- */

static const struct out_column growth_columns[] = {
	{ "row", NULL, OUT_STR, true },
	{ "pages_first", "first", OUT_U64, false },
	{ "pages_last", "last", OUT_U64, false },
	{ "grew_pages", "grew", OUT_I64, false },
	{ "grew_kb", "grew KB", OUT_I64, false },
	{ "peak_pages", "most", OUT_U64, false },
	{ "peak_at", "at file", OUT_U64, false },
	{ "stacks", NULL, OUT_U64, false },
};

static const struct out_column series_columns[] = {
	{ "row", NULL, OUT_STR, true },
	{ "file_no", "file", OUT_U64, false },
	{ "pages", NULL, OUT_U64, false },
};

static const struct out_column file_columns[] = {
	{ "file_no", "file", OUT_U64, false },
	{ "path", NULL, OUT_STR, true },
	{ "pages", NULL, OUT_U64, false },
	{ "stacks", NULL, OUT_U64, false },
};

/* A row of the series: its pages at each file (pages[nfiles]), its stacks. */
struct series_row {
	uint32_t id;		/* in the series' rows */
	int64_t grew;
	uint64_t stacks;
};

static int more_growth_first(const void *pa, const void *pb, void *ctx)
{
	const struct series_row *a = pa, *b = pb;
	const struct strtab *names = ctx;

	if (a->grew != b->grew)
		return a->grew > b->grew ? -1 : 1;
	return strcmp(strtab_get(names, a->id), strtab_get(names, b->id));
}

static uint64_t pages_at(const struct page_owner_series *s, size_t file, uint32_t stack)
{
	return stack < s->nstacks[file] ? s->pages[file][stack] : 0;
}

void page_owner_growth_report(struct out_dest *o, const struct analysis *a, const char *group,
			      size_t top)
{
	const struct page_owner_series *s = &a->po_series;
	uint32_t nrows = s->rows.count, stack, r;
	uint64_t *pages = xcalloc((size_t)nrows * s->nfiles + 1, sizeof(*pages));
	struct series_row *rows = xcalloc(nrows + 1, sizeof(*rows));
	struct out_block *t, *l, *f;
	struct out_doc d;
	static char title[160];
	size_t i, n;

	for (stack = 0; stack < s->nstack_rows; stack++) {
		bool held = false;

		for (i = 0; i < s->nfiles; i++) {
			uint64_t p = pages_at(s, i, stack);

			pages[(size_t)s->row_of_stack[stack] * s->nfiles + i] += p;
			held |= p != 0;
		}
		rows[s->row_of_stack[stack]].stacks += held;
	}
	for (r = 0; r < nrows; r++) {
		const uint64_t *p = pages + (size_t)r * s->nfiles;

		rows[r].id = r;
		rows[r].grew = (int64_t)p[s->nfiles - 1] - (int64_t)p[0];
	}
	qsort_r(rows, nrows, sizeof(*rows), more_growth_first, (void *)&s->rows);
	n = top && top < nrows ? top : nrows;
	out_doc_init(&d, "page_owner_growth");
	d.main = "growth";
	snprintf(title, sizeof(title), "page_owner: pages held by %s over %zu files, most growth "
		 "first", group, s->nfiles);
	t = out_table(&d, "growth", title, growth_columns,
		      sizeof(growth_columns) / sizeof(growth_columns[0]));
	t->keyed = true;
	t->group_by = group;
	for (i = 0; i < n; i++) {
		const uint64_t *p = pages + (size_t)rows[i].id * s->nfiles;
		size_t k, peak_at = 0;

		for (k = 1; k < s->nfiles; k++)
			if (p[k] > p[peak_at])
				peak_at = k;
		if (!rows[i].stacks)
			continue;
		out_row_str(&d, t, strtab_get(&s->rows, rows[i].id));
		out_row_u64(&d, t, p[0]);
		out_row_u64(&d, t, p[s->nfiles - 1]);
		out_row_i64(&d, t, rows[i].grew);
		out_row_i64(&d, t, rows[i].grew * 4);
		out_row_u64(&d, t, p[peak_at]);
		out_row_u64(&d, t, peak_at + 1);
		out_row_u64(&d, t, rows[i].stacks);
	}
	l = out_table(&d, "series", "each row's pages in each file", series_columns,
		      sizeof(series_columns) / sizeof(series_columns[0]));
	l->keyed = true;
	l->group_by = group;
	for (i = 0; i < n; i++) {
		const uint64_t *p = pages + (size_t)rows[i].id * s->nfiles;
		size_t k;

		if (!rows[i].stacks)
			continue;
		for (k = 0; k < s->nfiles; k++) {
			out_row_str(&d, l, strtab_get(&s->rows, rows[i].id));
			out_row_u64(&d, l, k + 1);
			out_row_u64(&d, l, p[k]);
		}
	}
	f = out_table(&d, "files", "the files, in time order", file_columns,
		      sizeof(file_columns) / sizeof(file_columns[0]));
	for (i = 0; i < s->nfiles; i++) {
		uint64_t total = 0, held = 0;

		for (stack = 0; stack < s->nstacks[i]; stack++) {
			total += s->pages[i][stack];
			held += s->pages[i][stack] != 0;
		}
		out_row_u64(&d, f, i + 1);
		out_row_str(&d, f, s->names[i]);
		out_row_u64(&d, f, total);
		out_row_u64(&d, f, held);
	}
	out_emit(o, &d);
	out_doc_release(&d);
	free(rows);
	free(pages);
}
