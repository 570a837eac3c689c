/*
 * ledgerreport.c - the --ledger report (ledgerreport.h): the ledger's
 * lines as ledger.c makes them, then each finer file's rows (slab caches
 * and vmalloc callers largest first, cgroups by path; --top N of them),
 * with their sum beside the meminfo line they make up. Not here: the arithmetic of the lines (ledger.c), the parsing
 * (ksnapshot.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "ledger.h"
#include "ledgerreport.h"
#include "options.h"
#include "output.h"
#include "pipeline.h"

static const char *const part_names[] = {
	[LEDGER_TOTAL] = "total", [LEDGER_FREE] = "free", [LEDGER_USER] = "user",
	[LEDGER_KERNEL] = "kernel", [LEDGER_UNEXPLAINED] = "unexplained",
};

static const struct out_column ledger_columns[] = {
	{ "line", NULL, OUT_STR, false },
	{ "part", NULL, OUT_STR, false },
	{ "bytes", NULL, OUT_I64, false },
	{ "total_pct", "of MemTotal", OUT_PCT, false },
	{ "source", NULL, OUT_STR, true },
};

static const struct out_column slab_columns[] = {
	{ "cache", NULL, OUT_STR, false },
	{ "objects", NULL, OUT_U64, false },
	{ "object_size", "size", OUT_U64, false },
	{ "object_bytes", "objects x size", OUT_U64, false },
	{ "slab_bytes", "slabs x pages", OUT_U64, false },
	{ "waste_bytes", "waste", OUT_U64, false },
};

static const struct out_column vmalloc_columns[] = {
	{ "caller", NULL, OUT_STR, false },
	{ "kind", NULL, OUT_STR, false },
	{ "areas", NULL, OUT_U64, false },
	{ "pages", NULL, OUT_U64, false },
	{ "page_bytes", "pages x size", OUT_U64, false },
	{ "area_bytes", "areas' size", OUT_U64, false },
};

/* memory.stat's kernel keys, as the table shows them */
static const char *const cgroup_keys[] = {
	"kernel", "slab", "slab_reclaimable", "slab_unreclaimable", "sock", "vmalloc",
	"percpu", "kernel_stack", "pagetables",
};
#define NCGROUP_KEYS (sizeof(cgroup_keys) / sizeof(cgroup_keys[0]))

static double share(int64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static void ledger_table(struct out_doc *d, const struct ledger *l)
{
	struct out_block *t = out_table(d, "ledger", "where MemTotal went (bytes)", ledger_columns,
					sizeof(ledger_columns) / sizeof(ledger_columns[0]));
	unsigned i;

	for (i = 0; i < l->nlines; i++) {
		const struct ledger_line *line = &l->lines[i];

		out_row_str(d, t, line->name);
		out_row_str(d, t, part_names[line->part]);
		out_row_i64(d, t, line->signed_bytes);
		out_row_pct(d, t, share(line->signed_bytes, l->total));
		out_row_str(d, t, line->source);
	}
}

static uint64_t slab_bytes(const struct ksnap_slab *c, uint64_t page_size)
{
	return c->num_slabs * c->pagesperslab * page_size;
}

struct by_bytes {
	uint32_t id;
	uint64_t bytes;
	const char *name;
};

static int more_bytes_first(const void *pa, const void *pb)
{
	const struct by_bytes *a = pa, *b = pb;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void slab_table(struct out_doc *d, const struct kernel_snapshot *s, uint64_t page_size,
		       size_t top)
{
	struct by_bytes *order = xcalloc(s->nslabs ? s->nslabs : 1, sizeof(*order));
	struct out_block *t, *l;
	uint64_t sum = 0, slab = 0;
	uint32_t i;

	for (i = 0; i < s->nslabs; i++) {
		order[i] = (struct by_bytes){ i, slab_bytes(&s->slabs[i], page_size),
					      s->slabs[i].name };
		sum += order[i].bytes;
	}
	qsort(order, s->nslabs, sizeof(*order), more_bytes_first);
	t = out_table(d, "slab_caches", "slab by cache (slabinfo), most bytes first",
		      slab_columns, sizeof(slab_columns) / sizeof(slab_columns[0]));
	for (i = 0; i < s->nslabs && (!top || i < top); i++) {
		const struct ksnap_slab *c = &s->slabs[order[i].id];
		uint64_t objects = c->active_objs * c->objsize;

		out_row_str(d, t, c->name);
		out_row_u64(d, t, c->active_objs);
		out_row_u64(d, t, c->objsize);
		out_row_u64(d, t, objects);
		out_row_u64(d, t, order[i].bytes);
		out_row_u64(d, t, order[i].bytes > objects ? order[i].bytes - objects : 0);
	}
	l = out_list(d, "slab_totals", "slab caches against meminfo");
	out_item_u64(d, l, "caches", "caches", s->nslabs);
	out_item_u64(d, l, "slab_bytes", "their slabs (bytes)", sum);
	if (ksnap_field(&s->meminfo, "Slab", &slab))
		out_item_u64(d, l, "meminfo_slab", "meminfo Slab (bytes)", slab);
	free(order);
}

/* Areas grouped by caller and kind. */
struct vm_row {
	const char *caller, *kind;
	uint64_t areas, pages, size;
};

static int vm_row_order(const void *pa, const void *pb)
{
	const struct vm_row *a = pa, *b = pb;
	int c;

	if (a->pages != b->pages)
		return a->pages > b->pages ? -1 : 1;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	c = strcmp(a->caller, b->caller);
	return c ? c : strcmp(a->kind, b->kind);
}

static void vmalloc_table(struct out_doc *d, const struct kernel_snapshot *s, uint64_t page_size,
			  size_t top)
{
	struct vm_row *rows = xcalloc(s->nvmallocs ? s->nvmallocs : 1, sizeof(*rows));
	struct out_block *t, *l;
	uint32_t n = 0, i, k;
	uint64_t pages = 0, used = 0;

	for (i = 0; i < s->nvmallocs; i++) {
		const struct ksnap_vmalloc *a = &s->vmallocs[i];

		for (k = 0; k < n; k++)
			if (strcmp(rows[k].caller, a->caller) == 0 && strcmp(rows[k].kind, a->kind) == 0)
				break;
		if (k == n)
			rows[n++] = (struct vm_row){ a->caller, a->kind, 0, 0, 0 };
		rows[k].areas++;
		rows[k].pages += a->pages;
		rows[k].size += a->size;
		if (strcmp(a->kind, "vmalloc") == 0)
			pages += a->pages;
	}
	qsort(rows, n, sizeof(*rows), vm_row_order);
	t = out_table(d, "vmalloc_callers", "vmalloc by caller (vmallocinfo), most pages first",
		      vmalloc_columns, sizeof(vmalloc_columns) / sizeof(vmalloc_columns[0]));
	for (i = 0; i < n && (!top || i < top); i++) {
		out_row_str(d, t, rows[i].caller);
		out_row_str(d, t, rows[i].kind[0] ? rows[i].kind : "-");
		out_row_u64(d, t, rows[i].areas);
		out_row_u64(d, t, rows[i].pages);
		out_row_u64(d, t, rows[i].pages * page_size);
		out_row_u64(d, t, rows[i].size);
	}
	l = out_list(d, "vmalloc_totals", "vmalloc areas against meminfo");
	out_item_u64(d, l, "areas", "areas", s->nvmallocs);
	out_item_u64(d, l, "vmalloc_page_bytes", "vmalloc areas' pages (bytes)", pages * page_size);
	if (ksnap_field(&s->meminfo, "VmallocUsed", &used))
		out_item_u64(d, l, "meminfo_vmalloc_used", "meminfo VmallocUsed (bytes)", used);
	free(rows);
}

static void cgroup_table(struct out_doc *d, const struct kernel_snapshot *s, size_t top)
{
	struct out_column *cols = xcalloc(NCGROUP_KEYS + 2, sizeof(*cols));
	struct out_block *t;
	uint32_t i;
	size_t k;
	uint64_t v;

	cols[0] = (struct out_column){ "cgroup", NULL, OUT_STR, false };
	cols[1] = (struct out_column){ "current", "memory.current", OUT_U64, false };
	for (k = 0; k < NCGROUP_KEYS; k++)
		cols[k + 2] = (struct out_column){ cgroup_keys[k], NULL, OUT_U64, false };
	out_doc_keep(d, cols);
	t = out_table(d, "cgroups", "kernel memory charged to each cgroup (memory.stat, bytes)",
		      cols, NCGROUP_KEYS + 2);
	for (i = 0; i < s->ncgroups && (!top || i < top); i++) {
		const struct ksnap_cgroup *g = &s->cgroups[i];

		out_row_str(d, t, g->path);
		if (g->has_current)
			out_row_u64(d, t, g->current);
		else
			out_row_none(d, t);
		for (k = 0; k < NCGROUP_KEYS; k++)
			if (ksnap_field(&g->stat, cgroup_keys[k], &v))
				out_row_u64(d, t, v);
			else
				out_row_none(d, t);
	}
}

/*
 * The gap: the kernel memory meminfo counts (its slab, vmalloc, percpu,
 * stacks and page tables lines) against what the root cgroup's
 * memory.stat says is charged to cgroups (its "kernel").
 */
static void cgroup_gap(struct out_doc *d, const struct kernel_snapshot *s, const struct ledger *l)
{
	uint64_t kernel = 0, charged;
	struct out_block *b;
	unsigned i;

	if (!s->ncgroups || strcmp(s->cgroups[0].path, "/") != 0 ||
	    !ksnap_field(&s->cgroups[0].stat, "kernel", &charged))
		return;
	for (i = 0; i < l->nlines; i++)
		if (l->lines[i].part == LEDGER_KERNEL)
			kernel += l->lines[i].bytes;
	b = out_list(d, "cgroup_gap", "the kernel's memory against what cgroups are charged");
	out_item_u64(d, b, "kernel_bytes", "kernel lines of the ledger (bytes)", kernel);
	out_item_u64(d, b, "charged_bytes", "charged to cgroups (root memory.stat kernel)", charged);
	out_item_i64(d, b, "not_charged_bytes", "charged to no cgroup",
		     (int64_t)kernel - (int64_t)charged);
}

void write_ledger_report(struct out_dest *o, const struct report_run *run)
{
	const struct kernel_snapshot *s = &run->a->ksnap;
	uint64_t page_size = run->o->page_size;
	struct ta_error err;
	struct ledger l;
	struct out_doc d;

	out_doc_init(&d, "ledger");
	if (ledger_make(&l, s, page_size, &err) == 0) {
		ledger_table(&d, &l);
		if (l.absent[0]) {
			struct out_block *b = out_list(&d, "ledger_notes", NULL);

			out_item_str(&d, b, "absent_fields", "meminfo lacks (their memory is in "
				     "unexplained)", l.absent);
		}
		if (s->has_slabinfo)
			slab_table(&d, s, page_size, run->o->top);
		if (s->has_vmallocinfo)
			vmalloc_table(&d, s, page_size, run->o->top);
		if (s->ncgroups) {
			cgroup_table(&d, s, run->o->top);
			cgroup_gap(&d, s, &l);
		}
	}
	out_emit(o, &d);
	out_doc_release(&d);
}
