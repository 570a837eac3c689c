/*
 * pagereport.c - the --page report: the page allocator's counts (pages.h)
 * as tables, by order and migratetype, by GFP flags, per CPU, and by
 * origin when the log had stacks.
 */
#include <string.h>

#include "callsite.h"
#include "error.h"
#include "pagereport.h"
#include "report.h"

/* Requests and KB of c, under the keys and labels given (literals). */
static void add_count(struct out_doc *d, struct out_block *b, const char *key_n,
		      const char *label_n, const char *key_kb, const char *label_kb,
		      const struct page_count *c)
{
	out_item_u64(d, b, key_n, label_n, c->requests);
	out_item_u64(d, b, key_kb, label_kb, c->pages * 4);
}

static const struct out_column order_columns[] = {
	{ "order", NULL, OUT_U64, false },
	{ "unmovable", NULL, OUT_U64, false },
	{ "movable", NULL, OUT_U64, false },
	{ "reclaimable", NULL, OUT_U64, false },
	{ "highatomic", NULL, OUT_U64, false },
	{ "cma", NULL, OUT_U64, false },
	{ "isolate", NULL, OUT_U64, false },
	{ "requests", NULL, OUT_U64, false },
	{ "kb", "KB", OUT_U64, false },
};

static const struct out_column gfp_columns[] = {
	{ "gfp_flags", NULL, OUT_STR, true },
	{ "requests", NULL, OUT_U64, false },
	{ "kb", "KB", OUT_U64, false },
};

static const struct out_column cpu_columns[] = {
	{ "cpu", NULL, OUT_U64, false },
	{ "refills", NULL, OUT_U64, false },
	{ "refill_pages", NULL, OUT_U64, false },
	{ "drains", NULL, OUT_U64, false },
	{ "drain_pages", NULL, OUT_U64, false },
};

static int compare_gfp(const void *a, const void *b, void *ctx)
{
	const struct page_stats *p = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (p->by_gfp[x].requests != p->by_gfp[y].requests)
		return p->by_gfp[x].requests > p->by_gfp[y].requests ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void add_order_table(struct out_doc *d, const struct page_stats *p)
{
	/* show_stacks gives no migratetype: its pages are counted in the summary alone */
	struct out_block *t = out_table(d, "orders", "allocation requests of a known migratetype, "
					"by order and migratetype",
					order_columns, sizeof(order_columns) / sizeof(order_columns[0]));
	int o, m;

	t->keyed = true;
	t->group_by = "order";

	for (o = 0; o < PAGE_ORDERS; o++) {
		struct page_count row = { 0, 0 };

		out_row_u64(d, t, (uint64_t)o);
		for (m = 0; m < PAGE_MIGRATETYPES; m++) {
			out_row_u64(d, t, p->by_order_type[o][m].requests);
			row.requests += p->by_order_type[o][m].requests;
			row.pages += p->by_order_type[o][m].pages;
		}
		out_row_u64(d, t, row.requests);
		out_row_u64(d, t, row.pages * 4);
	}
}

static void add_gfp_table(struct out_doc *d, const struct page_stats *p, const struct strtab *gfps)
{
	struct out_block *t = out_table(d, "gfp", "allocation requests by GFP flags", gfp_columns,
					sizeof(gfp_columns) / sizeof(gfp_columns[0]));
	uint32_t *ids = xmalloc((p->ngfp ? p->ngfp : 1) * sizeof(*ids)), n = 0, i;

	t->keyed = true;
	t->group_by = "gfp_flags";

	for (i = 0; i < p->ngfp; i++)
		if (p->by_gfp[i].requests)
			ids[n++] = i;
	qsort_r(ids, n, sizeof(*ids), compare_gfp, (void *)p);
	for (i = 0; i < n; i++) {
		out_row_str(d, t, strtab_get(gfps, ids[i]));
		out_row_u64(d, t, p->by_gfp[ids[i]].requests);
		out_row_u64(d, t, p->by_gfp[ids[i]].pages * 4);
	}
	free(ids);
}

static void add_cpu_table(struct out_doc *d, const struct page_stats *p)
{
	struct out_block *t = out_table(d, "cpus", "per-CPU list refills and drains", cpu_columns,
					sizeof(cpu_columns) / sizeof(cpu_columns[0]));
	uint32_t i;

	t->keyed = true;
	t->group_by = "cpu";

	for (i = 0; i < p->ncpus; i++) {
		const struct page_cpu *c = &p->cpus[i];

		if (!c->refills && !c->drains)
			continue;
		out_row_u64(d, t, i);
		out_row_u64(d, t, c->refills);
		out_row_u64(d, t, c->refill_pages);
		out_row_u64(d, t, c->drains);
		out_row_u64(d, t, c->drain_pages);
	}
}

/* The columns of a table of page allocations by the row named first. */
#define PAGE_ROW_COLUMNS(row)					\
	{ row, NULL, OUT_STR, true },				\
	{ "allocations", NULL, OUT_U64, false },		\
	{ "pages", NULL, OUT_U64, false },			\
	{ "kb", "KB", OUT_U64, false },				\
	{ "live_pages", "still held", OUT_U64, false }

/* The tables of page allocations by row: each group's key, title and columns. */
static const struct page_row_table {
	const char *group, *key, *title;
	struct out_column columns[5];
} page_row_tables[] = {
	{ "origin", "origins", "page allocations by origin", { PAGE_ROW_COLUMNS("origin") } },
	{ "comm", "rows", "page allocations by task name", { PAGE_ROW_COLUMNS("comm") } },
	{ "pid", "rows", "page allocations by task", { PAGE_ROW_COLUMNS("pid") } },
	{ "cgroup", "rows", "page allocations by cgroup", { PAGE_ROW_COLUMNS("cgroup") } },
	{ "module", "rows", "page allocations by the module of their origin",
	  { PAGE_ROW_COLUMNS("module") } },
	{ "dir", "rows", "page allocations by the directory of their origin",
	  { PAGE_ROW_COLUMNS("dir") } },
};

struct origin_row {
	const char *name;
	struct page_origin o;
};

static int compare_origin_rows(const void *pa, const void *pb)
{
	const struct origin_row *a = pa, *b = pb;

	if (a->o.pages != b->o.pages)
		return a->o.pages > b->o.pages ? -1 : 1;
	return strcmp(a->name, b->name);
}

/*
 * Page allocations by origin function (table "origins"), or by another
 * row (table "rows", group saying what a row is): keys merged by the name
 * they report under.
 */
static void add_rows_table(struct out_doc *d, const struct page_stats *p,
			   const struct row_namer *namer, const char *group)
{
	const struct page_row_table *shape = &page_row_tables[0];
	struct out_block *t;
	struct origin_row *rows = xcalloc(p->nkeys ? p->nkeys : 1, sizeof(*rows));
	struct strtab names;
	char name[CALLSITE_NAME_MAX];
	uint32_t id, n = 0, i;

	for (i = 0; i < sizeof(page_row_tables) / sizeof(page_row_tables[0]); i++)
		if (strcmp(page_row_tables[i].group, group) == 0)
			shape = &page_row_tables[i];
	t = out_table(d, shape->key, shape->title, shape->columns, 5);
	t->keyed = true;
	t->group_by = shape->group;

	strtab_init(&names);
	for (id = 0; id < p->nkeys; id++) {
		const struct page_origin *o = &p->by_key[id];
		uint32_t row;

		if (!o->allocs)
			continue;
		row = strtab_intern(&names, name, namer->name(namer->ctx, id, name, sizeof(name)));
		if (row == n)
			n++;
		rows[row].o.allocs += o->allocs;
		rows[row].o.pages += o->pages;
		rows[row].o.live_pages += o->live_pages;
	}
	for (i = 0; i < n; i++)
		rows[i].name = strtab_get(&names, i);
	qsort(rows, n, sizeof(*rows), compare_origin_rows);
	for (i = 0; i < n; i++) {
		out_row_str(d, t, rows[i].name);
		out_row_u64(d, t, rows[i].o.allocs);
		out_row_u64(d, t, rows[i].o.pages);
		out_row_u64(d, t, rows[i].o.pages * 4);
		out_row_u64(d, t, rows[i].o.live_pages);
	}
	free(rows);
	strtab_release(&names);
}

void write_pages(struct out_dest *o, const struct page_stats *p, const struct strtab *gfps,
		 const struct row_namer *origins, const struct page_rows_view *by,
		 void (*more)(struct out_doc *d, const void *ctx), const void *more_ctx)
{
	struct out_doc d;
	struct out_block *b, *x;
	struct page_count alloc_only = { p->alloc.requests - p->alloc_freed.requests,
					 p->alloc.pages - p->alloc_freed.pages };
	struct page_count live = { 0, 0 };
	struct live_page page;
	size_t cursor = 0;

	while (pagemap_next(&p->live, &cursor, &page)) {
		live.requests += pages_allocations_in(page.key, (int)page.order);
		live.pages += pages_of((int)page.order);
	}
	out_doc_init(&d, "page");
	d.main = "orders";	/* CSV: the orders table, the totals and other tables beside it */
	b = out_list(&d, "totals", "SUMMARY (page allocator, 4 KB pages)");
	add_count(&d, b, "alloc_requests", "total allocation requests", "alloc_kb",
		  "  KB", &p->alloc);
	add_count(&d, b, "free_requests", "total free requests (mm_page_free)", "free_kb",
		  "  KB", &p->free);
	add_count(&d, b, "free_batched_requests", "mm_page_free_batched", "free_batched_kb",
		  "  KB", &p->free_batched);
	add_count(&d, b, "alloc_freed_requests", "total alloc+freed requests", "alloc_freed_kb",
		  "  KB", &p->alloc_freed);
	add_count(&d, b, "alloc_only_requests", "total alloc-only requests", "alloc_only_kb",
		  "  KB", &alloc_only);
	add_count(&d, b, "free_only_requests", "total free-only requests", "free_only_kb",
		  "  KB", &p->free_only);
	add_count(&d, b, "failed_requests", "total allocation failures", "failed_kb", "  KB",
		  &p->failed);
	add_count(&d, b, "live_requests", "allocations still live at the end", "live_kb", "  KB",
		  &live);
	out_item_u64(&d, b, "unknown_migratetype", "allocations of no migratetype this build "
		     "names (none given, or past Isolate)", p->unknown_type);
	x = out_list(&d, "other", "zone lock and fragmentation events");
	out_item_u64(&d, x, "zone_locked", "mm_page_alloc_zone_locked events", p->zone_locked);
	out_item_u64(&d, x, "extfrag", "mm_page_alloc_extfrag events", p->extfrag);
	out_item_u64(&d, x, "extfrag_fragmenting", "of them with fragmenting=1",
		     p->extfrag_fragmenting);
	out_item_pct(&d, x, "extfrag_fragmenting_pct", "fragmenting %",
		     p->extfrag ? 100.0 * (double)p->extfrag_fragmenting / (double)p->extfrag : 0);
	out_item_u64(&d, x, "extfrag_change_ownership", "of them with change_ownership=1",
		     p->extfrag_change_ownership);
	add_order_table(&d, p);
	add_gfp_table(&d, p, gfps);
	add_cpu_table(&d, p);
	if (by)
		add_rows_table(&d, by->rows, &by->namer, by->group);
	else if (origins && p->allocs_with_stack)
		add_rows_table(&d, p, origins, "origin");
	if (more)
		more(&d, more_ctx);
	out_emit(o, &d);
	out_doc_release(&d);
}
