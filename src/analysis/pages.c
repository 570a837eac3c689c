/*
 * pages.c - page-allocator statistics (what is counted how: pages.h).
 */
#include <string.h>

#include "error.h"
#include "pages.h"
#include "callsite.h"
#include "report.h"

void pages_init(struct page_stats *p)
{
	memset(p, 0, sizeof(*p));
	ptrmap_init(&p->live);
}

void pages_release(struct page_stats *p)
{
	ptrmap_release(&p->live);
	free(p->by_key);
	free(p->by_gfp);
	free(p->cpus);
	memset(p, 0, sizeof(*p));
}

static uint64_t pages_of(int order)
{
	return order >= 0 && order < 63 ? 1ull << order : 1;
}

static void count(struct page_count *c, int order)
{
	c->requests++;
	c->pages += pages_of(order);
}

static uint64_t key_of(const struct kmem_event *ev)
{
	return ev->pfn ? ev->pfn : ev->ptr;
}

static struct page_cpu *cpu_of(struct page_stats *p, int32_t cpu)
{
	if (cpu < 0 || cpu > 65535)
		return NULL;
	if ((uint32_t)cpu >= p->ncpus) {
		uint32_t n = (uint32_t)cpu + 1;

		p->cpus = xrealloc(p->cpus, n * sizeof(*p->cpus));
		memset(p->cpus + p->ncpus, 0, (n - p->ncpus) * sizeof(*p->cpus));
		p->ncpus = n;
	}
	return &p->cpus[cpu];
}

static void count_gfp(struct page_stats *p, uint32_t gfp, int order)
{
	if (gfp == STR_NONE)
		return;
	if (gfp >= p->ngfp) {
		uint32_t n = gfp + 1;

		p->by_gfp = xrealloc(p->by_gfp, n * sizeof(*p->by_gfp));
		memset(p->by_gfp + p->ngfp, 0, (n - p->ngfp) * sizeof(*p->by_gfp));
		p->ngfp = n;
	}
	count(&p->by_gfp[gfp], order);
}

static struct page_origin *origin_of(struct page_stats *p, uint32_t key)
{
	if (key == STR_NONE)
		return NULL;
	if (key >= p->nkeys) {
		uint32_t n = p->nkeys ? p->nkeys : 64;

		while (n <= key)
			n *= 2;
		p->by_key = xrealloc(p->by_key, n * sizeof(*p->by_key));
		memset(p->by_key + p->nkeys, 0, (n - p->nkeys) * sizeof(*p->by_key));
		p->nkeys = n;
	}
	return &p->by_key[key];
}

/* A live page leaves: its origin holds it no longer. */
static void release_page(struct page_stats *p, const struct live_alloc *slot)
{
	if (slot->call_site != STR_NONE && slot->call_site < p->nkeys)
		p->by_key[slot->call_site].live_pages -= pages_of((int)slot->bytes_alloc);
}

static void on_alloc(struct page_stats *p, const struct kmem_event *ev, uint32_t key)
{
	struct page_origin *o;
	int order = ev->order < 0 ? 0 : ev->order;
	struct live_alloc *slot;
	int existed;

	if (ev->ptr == 0 && ev->pfn == 0) {
		count(&p->failed, order);
		return;
	}
	count(&p->alloc, order);
	if (ev->migratetype >= 0 && ev->migratetype < PAGE_MIGRATETYPES)
		count(&p->by_order_type[order < PAGE_ORDERS ? order : PAGE_ORDERS - 1]
				       [ev->migratetype], order);
	else
		p->unknown_type++;
	count_gfp(p, ev->gfp, order);
	slot = ptrmap_insert(&p->live, key_of(ev), &existed);
	if (existed)
		release_page(p, slot);
	slot->bytes_alloc = (uint32_t)order;
	slot->line = ev->line;
	slot->call_site = key;
	o = origin_of(p, key);
	if (o) {
		o->allocs++;
		o->pages += pages_of(order);
		o->live_pages += pages_of(order);
		p->allocs_with_stack += ev->stack != STACK_NONE;
	}
}

static void on_free(struct page_stats *p, const struct kmem_event *ev, bool batched)
{
	int order = ev->order < 0 ? 0 : ev->order;
	struct live_alloc *slot = key_of(ev) ? ptrmap_find(&p->live, key_of(ev)) : NULL;

	count(batched ? &p->free_batched : &p->free, order);
	if (slot) {
		if (!batched)
			count(&p->alloc_freed, (int)slot->bytes_alloc);
		release_page(p, slot);
		ptrmap_remove(&p->live, slot);
	} else if (!batched) {
		count(&p->free_only, order);
	}
}

void pages_apply(struct page_stats *p, const struct kmem_event *ev, uint32_t key)
{
	struct page_cpu *c;

	switch (ev->kind) {
	case KMEM_PAGE_ALLOC:
		on_alloc(p, ev, key);
		break;
	case KMEM_PAGE_FREE:
		on_free(p, ev, false);
		break;
	case KMEM_PAGE_FREE_BATCHED:
		on_free(p, ev, true);
		break;
	case KMEM_PAGE_ALLOC_ZONE_LOCKED:
		p->zone_locked++;
		c = cpu_of(p, ev->cpu);
		if (c && ev->percpu_refill == 1) {
			c->refills++;
			c->refill_pages += pages_of(ev->order);
		}
		break;
	case KMEM_PAGE_PCPU_DRAIN:
		c = cpu_of(p, ev->cpu);
		if (c) {
			c->drains++;
			c->drain_pages += pages_of(ev->order);
		}
		break;
	case KMEM_PAGE_ALLOC_EXTFRAG:
		p->extfrag++;
		p->extfrag_fragmenting += ev->percpu_refill == 1;	/* fragmenting= */
		p->extfrag_change_ownership += ev->change_ownership == 1;
		break;
	default:
		break;
	}
}

/* ---- report ------------------------------------------------------------------ */

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
	struct out_block *t = out_table(d, "orders", "allocation requests by order and migratetype",
					order_columns, sizeof(order_columns) / sizeof(order_columns[0]));
	int o, m;

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

static const struct out_column origin_columns[] = {
	{ "origin", NULL, OUT_STR, true },
	{ "allocations", NULL, OUT_U64, false },
	{ "pages", NULL, OUT_U64, false },
	{ "kb", "KB", OUT_U64, false },
	{ "live_pages", "still held", OUT_U64, false },
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

/* Page allocations by origin function: keys merged by the name they report under. */
static void add_origin_table(struct out_doc *d, const struct page_stats *p,
			     const struct row_namer *namer)
{
	struct out_block *t = out_table(d, "origins", "page allocations by origin", origin_columns,
					sizeof(origin_columns) / sizeof(origin_columns[0]));
	struct origin_row *rows = xcalloc(p->nkeys ? p->nkeys : 1, sizeof(*rows));
	struct strtab names;
	char name[CALLSITE_NAME_MAX];
	uint32_t id, n = 0, i;

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

void write_pages(FILE *f, const struct page_stats *p, const struct strtab *gfps,
		 const struct row_namer *origins, enum out_format format)
{
	struct out_doc d;
	struct out_block *b, *x;
	struct page_count alloc_only = { p->alloc.requests - p->alloc_freed.requests,
					 p->alloc.pages - p->alloc_freed.pages };
	struct page_count live = { p->live.count, 0 };
	size_t i;

	for (i = 0; i < p->live.nrecs; i++)
		if (p->live.recs[i].ptr)
			live.pages += pages_of((int)p->live.recs[i].bytes_alloc);
	out_doc_init(&d, "page");
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
	add_count(&d, b, "live_requests", "pages still allocated at the end", "live_kb", "  KB",
		  &live);
	out_item_u64(&d, b, "unknown_migratetype", "allocations of another migratetype",
		     p->unknown_type);
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
	if (origins && p->allocs_with_stack)
		add_origin_table(&d, p, origins);
	out_write(f, &d, format);
	out_doc_release(&d);
}
