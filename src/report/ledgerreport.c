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
#define cgroup_keys ksnap_cgroup_keys
#define NCGROUP_KEYS 9

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

/* With --top: the groups charged the most kernel memory (memory.stat's kernel) first. */
static int more_kernel_first(const void *pa, const void *pb)
{
	const struct ksnap_cgroup *a = *(const struct ksnap_cgroup *const *)pa;
	const struct ksnap_cgroup *b = *(const struct ksnap_cgroup *const *)pb;
	uint64_t ka, kb;

	ksnap_field(&a->stat, "kernel", &ka);
	ksnap_field(&b->stat, "kernel", &kb);
	if (ka != kb)
		return ka > kb ? -1 : 1;
	return strcmp(a->path, b->path);
}

static void cgroup_table(struct out_doc *d, const struct kernel_snapshot *s, size_t top)
{
	struct out_column *cols = xcalloc(NCGROUP_KEYS + 2, sizeof(*cols));
	const struct ksnap_cgroup **order = xcalloc(s->ncgroups, sizeof(*order));
	struct out_block *t;
	uint32_t i;
	size_t k;
	uint64_t v;

	cols[0] = (struct out_column){ "cgroup", NULL, OUT_STR, false };
	cols[1] = (struct out_column){ "current", "memory.current", OUT_U64, false };
	for (k = 0; k < NCGROUP_KEYS; k++)
		cols[k + 2] = (struct out_column){ cgroup_keys[k], NULL, OUT_U64, false };
	out_doc_keep(d, cols);
	for (i = 0; i < s->ncgroups; i++)
		order[i] = &s->cgroups[i];
	if (top)	/* the whole tree by path; a cut of it by kernel memory */
		qsort(order, s->ncgroups, sizeof(*order), more_kernel_first);
	t = out_table(d, "cgroups", top ? "kernel memory charged to each cgroup (memory.stat, "
		      "bytes), the most kernel first" : "kernel memory charged to each cgroup "
		      "(memory.stat, bytes), by path", cols, NCGROUP_KEYS + 2);
	for (i = 0; i < s->ncgroups && (!top || i < top); i++) {
		const struct ksnap_cgroup *g = order[i];

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
	free(order);
}

static const struct out_column tree_columns[] = {
	{ "tree", NULL, OUT_STR, true },
	{ "kernel", "kernel (the group's and below)", OUT_U64, false },
	{ "current", "memory.current", OUT_U64, false },
};

/*
 * The groups as a tree: each by its last name, indented two spaces a level
 * (memory.stat is hierarchical: a group's kernel holds its children's).
 */
static void cgroup_tree(struct out_doc *d, const struct kernel_snapshot *s)
{
	struct out_block *t = out_table(d, "cgroup_tree", "the cgroups as a tree",
					tree_columns, sizeof(tree_columns) / sizeof(tree_columns[0]));
	char name[512];
	uint32_t i;
	uint64_t v;

	for (i = 0; i < s->ncgroups; i++) {
		const struct ksnap_cgroup *g = &s->cgroups[i];
		const char *last = strrchr(g->path, '/'), *c;
		int depth = 0;

		for (c = g->path + 1; *c; c++)
			depth += *c == '/';
		if (strcmp(g->path, "/") != 0)
			depth++;
		snprintf(name, sizeof(name), "%*s%s", 2 * depth, "",
			     strcmp(g->path, "/") == 0 ? "/" : last + 1);
		out_row_str(d, t, name);
		if (ksnap_field(&g->stat, "kernel", &v))
			out_row_u64(d, t, v);
		else
			out_row_none(d, t);
		if (g->has_current)
			out_row_u64(d, t, g->current);
		else
			out_row_none(d, t);
	}
}

/*
 * The gap: the kernel memory meminfo counts (its slab, vmalloc, percpu,
 * stacks and page tables lines; not allocinfo's other pages) against what
 * the root cgroup's memory.stat says is charged to cgroups (its "kernel").
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
		if (l->lines[i].part == LEDGER_KERNEL && !l->lines[i].from_profile)
			kernel += l->lines[i].bytes;
	b = out_list(d, "cgroup_gap", "the kernel's memory against what cgroups are charged");
	out_item_u64(d, b, "kernel_bytes", "kernel lines of the ledger meminfo counts (bytes)",
		     kernel);
	out_item_u64(d, b, "charged_bytes", "charged to cgroups (root memory.stat kernel)", charged);
	out_item_i64(d, b, "not_charged_bytes", "charged to no cgroup",
		     (int64_t)kernel - (int64_t)charged);
}

/* What MemTotal leaves out (zoneinfo), the kernel image (dmesg, -k's objects), the modules. */
static void static_list(struct out_doc *d, const struct kernel_snapshot *s, uint64_t page_size,
			const struct analysis *a)
{
	struct ledger_static st;
	struct out_block *b;

	ledger_static_of(&st, s, page_size);
	if (!st.has_zones && !st.has_modules && !st.has_boot && !a->have_dirs)
		return;
	b = out_list(d, "static", "what MemTotal leaves out, and the modules");
	if (st.has_zones) {
		out_item_u64(d, b, "present_bytes", "memory present (zoneinfo: present pages)",
			     st.present_bytes);
		if (st.has_reserved)
			out_item_i64(d, b, "reserved_bytes", "not in MemTotal: reserved at boot, kernel "
				     "image, struct pages, memblock (present - MemTotal)",
				     st.reserved_bytes);
		out_item_u64(d, b, "managed_bytes", "managed by the zones' page allocators "
			     "(zoneinfo: managed pages)", st.managed_bytes);
	}
	if (st.has_boot) {	/* dmesg's Memory: line, at boot */
		out_item_u64(d, b, "boot_kernel_code", "kernel code (dmesg: Memory:, at boot)",
			     st.boot.code);
		out_item_u64(d, b, "boot_rwdata", "kernel rwdata", st.boot.rwdata);
		out_item_u64(d, b, "boot_rodata", "kernel rodata", st.boot.rodata);
		out_item_u64(d, b, "boot_init", "kernel init (freed after boot)", st.boot.init);
		out_item_u64(d, b, "boot_bss", "kernel bss", st.boot.bss);
		out_item_u64(d, b, "boot_reserved", "reserved at boot (dmesg)", st.boot.reserved);
		out_item_u64(d, b, "boot_available", "available at boot (dmesg)", st.boot.available);
	}
	if (a->have_dirs) {	/* -k: the built tree's objects, vmlinux's and the modules' */
		out_item_u64(d, b, "tree_objects", "objects of the tree (-k)", a->ktree.counts.objects);
		out_item_u64(d, b, "tree_static_bytes", "their text + data + rodata + bss",
			     dir_node_static(&a->dirs.nodes[0]));
	}
	if (st.has_modules) {
		out_item_u64(d, b, "modules", "modules loaded (/proc/modules)", st.modules);
		out_item_u64(d, b, "module_bytes", "their sizes (bytes)", st.module_bytes);
	}
}

static const struct out_column module_columns[] = {
	{ "module", NULL, OUT_STR, false },
	{ "bytes", NULL, OUT_U64, false },
	{ "state", NULL, OUT_STR, false },
};

static void module_table(struct out_doc *d, const struct kernel_snapshot *s, size_t top)
{
	struct by_bytes *order = xcalloc(s->nmodules ? s->nmodules : 1, sizeof(*order));
	struct out_block *t;
	uint32_t i;

	for (i = 0; i < s->nmodules; i++)
		order[i] = (struct by_bytes){ i, s->modules[i].size, s->modules[i].name };
	qsort(order, s->nmodules, sizeof(*order), more_bytes_first);
	t = out_table(d, "modules", "modules by size (/proc/modules), largest first",
		      module_columns, sizeof(module_columns) / sizeof(module_columns[0]));
	for (i = 0; i < s->nmodules && (!top || i < top); i++) {
		out_row_str(d, t, s->modules[order[i].id].name);
		out_row_u64(d, t, order[i].bytes);
		out_row_str(d, t, s->modules[order[i].id].state);
	}
	free(order);
}

static const struct out_column site_columns[] = {
	{ "site", NULL, OUT_STR, false },
	{ "function", NULL, OUT_STR, false },
	{ "module", NULL, OUT_STR, false },
	{ "bytes", NULL, OUT_U64, false },
	{ "allocations", NULL, OUT_U64, false },
};

/* The first top (0: all) of the n sites in order, as rows of t: site, function, module... */
static void site_rows(struct out_doc *d, struct out_block *t, const struct alloc_series *a,
		      const struct by_bytes *order, uint32_t n, size_t top)
{
	char site[4096];
	uint32_t i;

	for (i = 0; i < n && (!top || i < top); i++) {
		const struct alloc_site *st = &a->sites[order[i].id];

		snprintf(site, sizeof(site), "%s:%u", alloc_name(a, st->file), st->line);
		out_row_str(d, t, site);
		out_row_str(d, t, alloc_name(a, st->func));
		out_row_str(d, t, alloc_name(a, st->module));
		out_row_u64(d, t, order[i].bytes);
		out_row_u64(d, t, a->calls[order[i].id]);
	}
}

/* The allocation profile's sites, most live bytes first: every kind of memory, tagged. */
static void allocinfo_table(struct out_doc *d, const struct alloc_series *a, size_t top)
{
	struct by_bytes *order = xcalloc(a->nsites ? a->nsites : 1, sizeof(*order));
	struct out_block *t, *l;
	uint64_t sum = 0, sites = 0;
	uint32_t i, n = 0;

	for (i = 0; i < a->nsites; i++)
		if (a->listed_in[i]) {
			if (a->bytes[i])	/* a tag that holds nothing is no row */
				order[n++] = (struct by_bytes){ i, a->bytes[i],
								strtab_get(&a->keys, i) };
			sum += a->bytes[i];
			sites++;
		}
	qsort(order, n, sizeof(*order), more_bytes_first);
	t = out_table(d, "allocinfo_sites", "the allocation profile (allocinfo): live bytes by "
		      "site, most first (slab, pages, vmalloc and percpu alike)", site_columns,
		      sizeof(site_columns) / sizeof(site_columns[0]));
	site_rows(d, t, a, order, n, top);
	l = out_list(d, "allocinfo_totals", "the allocation profile's sites");
	out_item_u64(d, l, "sites", "sites", sites);
	out_item_u64(d, l, "holding", "of them holding memory", n);
	out_item_u64(d, l, "bytes", "their live bytes", sum);
	free(order);
}

/*
 * The sites of the ledger's "other pages" line, most bytes first, and how
 * much of their sum another line may count too, at most.
 */
static void other_pages_table(struct out_doc *d, const struct kernel_snapshot *s,
			      uint64_t page_size, size_t top)
{
	const struct alloc_series *a = s->allocinfo;
	uint8_t *is_other = xcalloc(a->nsites ? a->nsites : 1, 1);
	struct by_bytes *order = xcalloc(a->nsites ? a->nsites : 1, sizeof(*order));
	struct ledger_other o;
	struct out_block *t, *l;
	uint32_t i, n = 0;

	ledger_other_pages(&o, s, page_size, is_other);
	for (i = 0; i < a->nsites; i++)
		if (is_other[i])
			order[n++] = (struct by_bytes){ i, a->bytes[i], strtab_get(&a->keys, i) };
	qsort(order, n, sizeof(*order), more_bytes_first);
	t = out_table(d, "other_pages", "other pages: the allocation profile's sites of whole "
		      "pages outside slab, percpu, vmalloc, user pages, page tables and stacks, "
		      "most first", site_columns, sizeof(site_columns) / sizeof(site_columns[0]));
	site_rows(d, t, a, order, n, top);
	l = out_list(d, "other_pages_bound", "of the other pages, what another line may "
		     "count too, at most (bytes)");
	out_item_u64(d, l, "other_bytes", "the line's bytes", o.bytes);
	out_item_u64(d, l, "slab_bytes", o.slab_bound_is_slab
		     ? "slab objects (no slabinfo: all of meminfo Slab)"
		     : "slab objects of a page or more (slabinfo: objects x size)", o.overlap_slab);
	if (!o.slab_bound_is_slab)
		out_item_u64(d, l, "large_kmalloc_bytes", "large kmallocs (meminfo Slab less "
			     "slabinfo's slabs)", o.overlap_large_kmalloc);
	out_item_u64(d, l, "percpu_bytes", "percpu (meminfo Percpu)", o.overlap_percpu);
	out_item_u64(d, l, "vmalloc_bytes", o.vmalloc_bound_is_used
		     ? "vmalloc (no vmallocinfo: meminfo VmallocUsed)"
		     : "vmalloc areas of callers no site is of (vmallocinfo: pages)",
		     o.overlap_vmalloc);
	out_item_u64(d, l, "at_most_bytes", "at most, in all (and never past the other pages)",
		     ledger_other_overlap(&o));
	free(order);
	free(is_other);
}

static const struct out_column order_columns[] = {
	{ "order", NULL, OUT_U64, false },
	{ "blocks", "free blocks", OUT_U64, false },
	{ "bytes", NULL, OUT_U64, false },
};

/*
 * buddyinfo's free blocks of each order, every zone summed: how fragmented
 * the free memory is; beside MemFree and vmstat's nr_free_pages.
 */
static void free_order_table(struct out_doc *d, const struct kernel_snapshot *s,
			     uint64_t page_size)
{
	uint64_t blocks[KSNAP_ORDERS] = { 0 }, total = 0, v;
	unsigned orders = 0, k;
	struct out_block *t, *l;
	uint32_t i;

	for (i = 0; i < s->nzones; i++)
		for (k = 0; k < s->zones[i].orders; k++) {
			blocks[k] += s->zones[i].blocks[k];
			if (k + 1 > orders)
				orders = k + 1;
		}
	if (s->has_buddyinfo) {
		t = out_table(d, "free_blocks", "free memory by order (buddyinfo, every zone)",
			      order_columns, sizeof(order_columns) / sizeof(order_columns[0]));
		for (k = 0; k < orders; k++) {
			out_row_u64(d, t, k);
			out_row_u64(d, t, blocks[k]);
			out_row_u64(d, t, (blocks[k] << k) * page_size);
			total += (blocks[k] << k) * page_size;
		}
	}
	l = out_list(d, "free_totals", "free memory, three ways");
	if (s->has_buddyinfo)
		out_item_u64(d, l, "buddy_bytes", "in free blocks (buddyinfo, bytes)", total);
	if (ksnap_field(&s->meminfo, "MemFree", &v))
		out_item_u64(d, l, "meminfo_free", "meminfo MemFree (bytes)", v);
	if (ksnap_field(&s->vmstat, "nr_free_pages", &v))
		out_item_u64(d, l, "vmstat_free", "vmstat nr_free_pages (bytes)", v * page_size);
}

/* The finer files of one snapshot, each under the ledger's line it makes up. */
static void snapshot_tables(struct out_doc *d, const struct kernel_snapshot *s,
			    const struct ledger *l, bool have_ledger, uint64_t page_size, size_t top,
			    const struct analysis *a)
{
	static_list(d, s, page_size, a);
	if (s->has_slabinfo)
		slab_table(d, s, page_size, top);
	if (s->has_vmallocinfo)
		vmalloc_table(d, s, page_size, top);
	if (s->allocinfo) {
		allocinfo_table(d, s->allocinfo, top);
		other_pages_table(d, s, page_size, top);
	}
	if (s->nmodules)
		module_table(d, s, top);
	if (s->has_buddyinfo || s->has_vmstat)
		free_order_table(d, s, page_size);
	if (s->ncgroups) {
		cgroup_table(d, s, top);
		if (!top)	/* the whole tree; with --top, the table's cut alone */
			cgroup_tree(d, s);
		if (have_ledger)
			cgroup_gap(d, s, l);
	}
}

/* ---- a series ---- */

/* "B" of "/x/snap/B/": the folder's or file's last name, as a column heading */
static char *label_of(const char *source)
{
	size_t n = strlen(source);
	const char *slash;
	char *copy;

	while (n > 1 && source[n - 1] == '/')
		n--;
	slash = memrchr(source, '/', n);
	if (slash && slash + 1 < source + n) {
		n = (size_t)(source + n - slash - 1);
		source = slash + 1;
	}
	copy = xmalloc(n + 1);
	memcpy(copy, source, n);
	copy[n] = '\0';
	return copy;
}

/* The line of that name in l, or NULL. */
static const struct ledger_line *line_named(const struct ledger *l, const char *name)
{
	unsigned i;

	for (i = 0; i < l->nlines; i++)
		if (strcmp(l->lines[i].name, name) == 0)
			return &l->lines[i];
	return NULL;
}

/* The series table's columns: line, part, the bytes at each snapshot, the change, the source. */
static struct out_column *series_columns(struct out_doc *d, const struct kernel_snapshot *snaps,
					 uint32_t n)
{
	struct out_column *cols = xcalloc(n + 4, sizeof(*cols));
	uint32_t k;

	cols[0] = (struct out_column){ "line", NULL, OUT_STR, false };
	cols[1] = (struct out_column){ "part", NULL, OUT_STR, false };
	for (k = 0; k < n; k++) {
		char key[32], *heading = label_of(snaps[k].source), *kept;

		snprintf(key, sizeof(key), "bytes_%u", k + 1);
		kept = xstrdup(key);
		out_doc_keep(d, kept);
		out_doc_keep(d, heading);
		cols[2 + k] = (struct out_column){ kept, heading, OUT_I64, false };
	}
	cols[2 + n] = (struct out_column){ "change", "first to last", OUT_I64, false };
	cols[3 + n] = (struct out_column){ "source", NULL, OUT_STR, true };
	out_doc_keep(d, cols);
	return cols;
}

/* Each ledger line at each snapshot (the last one's lines), and its change from the first. */
static void series_table(struct out_doc *d, const struct kernel_snapshot *snaps, uint32_t n,
			 uint64_t page_size)
{
	struct ledger *l = xcalloc(n, sizeof(*l));
	struct out_column *cols = series_columns(d, snaps, n);
	const struct ledger *last = &l[n - 1];
	struct ta_error err;
	struct out_block *t;
	uint32_t i, k;

	for (k = 0; k < n; k++)
		ledger_make(&l[k], &snaps[k], page_size, &err);	/* each has meminfo: checked */
	t = out_table(d, "ledger_series", "where MemTotal went at each snapshot (bytes)", cols,
		      n + 4);
	for (i = 0; i < last->nlines; i++) {
		const struct ledger_line *first = line_named(&l[0], last->lines[i].name);

		out_row_str(d, t, last->lines[i].name);
		out_row_str(d, t, part_names[last->lines[i].part]);
		for (k = 0; k < n; k++) {
			const struct ledger_line *at = line_named(&l[k], last->lines[i].name);

			if (at)
				out_row_i64(d, t, at->signed_bytes);
			else
				out_row_none(d, t);
		}
		if (first)
			out_row_i64_change(d, t, last->lines[i].signed_bytes - first->signed_bytes);
		else
			out_row_none(d, t);
		out_row_str(d, t, last->lines[i].source);
	}
	free(l);
}

static const struct out_column snapshot_columns[] = {
	{ "column", NULL, OUT_STR, false },
	{ "source", NULL, OUT_STR, false },
	{ "seconds_since_boot", "taken (s after boot)", OUT_F64, false },
	{ "host", NULL, OUT_STR, false },
	{ "release", NULL, OUT_STR, false },
	{ "boot_id", "boot id", OUT_STR, false },
};

/* The series' snapshots: where each column comes from, and when it was taken. */
static void snapshots_table(struct out_doc *d, const struct kernel_snapshot *snaps, uint32_t n)
{
	struct out_block *t = out_table(d, "snapshots", "the snapshots, in the columns' order",
					snapshot_columns,
					sizeof(snapshot_columns) / sizeof(snapshot_columns[0]));
	uint32_t k;

	for (k = 0; k < n; k++) {
		char *label = label_of(snaps[k].source);
		bool stamp = snaps[k].has_stamp;

		out_row_str(d, t, label);
		free(label);
		out_row_str(d, t, snaps[k].source);
		if (stamp)
			out_row_f64(d, t, snaps[k].monotonic_s);
		else
			out_row_none(d, t);
		if (stamp && snaps[k].host[0])
			out_row_str(d, t, snaps[k].host);
		else
			out_row_none(d, t);
		if (stamp && snaps[k].release[0])
			out_row_str(d, t, snaps[k].release);
		else
			out_row_none(d, t);
		if (stamp && snaps[k].boot_id[0])
			out_row_str(d, t, snaps[k].boot_id);
		else
			out_row_none(d, t);
	}
}

static const struct out_column grew_columns[] = {
	{ "kind", NULL, OUT_STR, false },
	{ "name", NULL, OUT_STR, false },
	{ "first", NULL, OUT_I64, false },
	{ "last", NULL, OUT_I64, false },
	{ "change", NULL, OUT_I64, false },
};

static int grew_more_first(const void *pa, const void *pb)
{
	const struct ledger_change *a = *(const struct ledger_change *const *)pa;
	const struct ledger_change *b = *(const struct ledger_change *const *)pb;
	int64_t ga = a->last - a->first, gb = b->last - b->first;
	int c;

	if (ga != gb)
		return ga > gb ? -1 : 1;
	c = strcmp(a->kind, b->kind);
	return c ? c : strcmp(a->name, b->name);
}

/* What grew from the first snapshot to the last, most first: lines, caches, callers, sites... */
static void grew_table(struct out_doc *d, const struct kernel_snapshot *first,
		       const struct kernel_snapshot *last, uint64_t page_size, size_t top)
{
	struct ledger_changes ch;
	const struct ledger_change **grew;
	struct out_block *t;
	size_t i, n = 0;

	ledger_changes_of(&ch, first, last, page_size);
	grew = xcalloc(ch.n ? ch.n : 1, sizeof(*grew));
	for (i = 0; i < ch.n; i++)
		if (ch.c[i].last > ch.c[i].first && strcmp(ch.c[i].kind, "ledger") != 0)
			grew[n++] = &ch.c[i];
	qsort(grew, n, sizeof(*grew), grew_more_first);
	t = out_table(d, "grew_most", "what grew most from the first snapshot to the last (bytes; "
		      "slab caches, vmalloc callers, allocinfo sites, modules, cgroups)",
		      grew_columns, sizeof(grew_columns) / sizeof(grew_columns[0]));
	for (i = 0; i < n && (!top || i < top); i++) {
		out_row_str(d, t, grew[i]->kind);
		out_row_str(d, t, grew[i]->name);
		out_row_i64(d, t, grew[i]->first);
		out_row_i64(d, t, grew[i]->last);
		out_row_i64_change(d, t, grew[i]->last - grew[i]->first);
	}
	free(grew);
	ledger_changes_release(&ch);
}

/*
 * Beside a trace (record's snapshots at its start and end): what the trace
 * saw allocated and still live at its end, against the slab lines' change.
 */
static void trace_live(struct out_doc *d, const struct report_run *run)
{
	const struct analysis *a = run->a;
	const struct kernel_snapshot *first = &a->ksnaps[0], *last = &a->ksnaps[a->nksnaps - 1];
	struct out_block *b = out_list(d, "trace_live", "what the trace saw allocated and still "
				       "live at its end (bytes)");
	uint64_t r0 = 0, u0 = 0, r1 = 0, u1 = 0;

	out_item_u64(d, b, "slab_live_bytes", "slab objects live (the account's current bytes)",
		     account_live_bytes(&a->account));
	if (a->nksnaps > 1 && ksnap_field(&first->meminfo, "SReclaimable", &r0) &&
	    ksnap_field(&first->meminfo, "SUnreclaim", &u0) &&
	    ksnap_field(&last->meminfo, "SReclaimable", &r1) &&
	    ksnap_field(&last->meminfo, "SUnreclaim", &u1))
		out_item_i64(d, b, "slab_change_bytes", "meminfo Slab, end less start",
			     (int64_t)(r1 + u1) - (int64_t)(r0 + u0));
}

void write_ledger_report(struct out_dest *o, const struct report_run *run)
{
	const struct kernel_snapshot *snaps = run->a->ksnaps;
	uint32_t n = run->a->nksnaps;
	const struct kernel_snapshot *s = &snaps[n - 1];
	uint64_t page_size = run->o->page_size;
	bool have_ledger = false;
	struct ta_error err;
	struct ledger l;
	struct out_doc d;

	out_doc_init(&d, "ledger");
	memset(&l, 0, sizeof(l));
	if (s->has_meminfo && ledger_make(&l, s, page_size, &err) == 0) {
		have_ledger = true;
		if (n > 1)
			series_table(&d, snaps, n, page_size);
		else
			ledger_table(&d, &l);
		if (l.absent[0]) {
			struct out_block *b = out_list(&d, "ledger_notes", NULL);

			out_item_str(&d, b, "absent_fields", "meminfo lacks (their memory is in "
				     "unexplained)", l.absent);
		}
	}
	if (n > 1) {
		grew_table(&d, &snaps[0], s, page_size, run->o->top);
		snapshots_table(&d, snaps, n);
	}
	if (!run->a->have_ksnap)	/* the snapshots beside a trace */
		trace_live(&d, run);
	snapshot_tables(&d, s, &l, have_ledger, page_size, run->o->top, run->a);
	out_emit(o, &d);
	out_doc_release(&d);
}
