/*
 * ledger.c - MemTotal split into lines of meminfo's fields (ledger.h).
 * Every line is a sum of named fields; "unexplained" is MemTotal minus
 * every other line. Thread stacks are vmalloc'd on kernels with
 * CONFIG_VMAP_STACK and are then in both VmallocUsed and KernelStack:
 * when vmallocinfo shows stack areas, the vmalloc line leaves them out.
 * With allocinfo, "other pages" is the profile's whole-page sites outside
 * the allocators the other lines count (ledger_other in ledger.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger.h"

bool ledger_caller_is_stack(const char *caller)
{
	static const char *const stack_callers[] = {
		"alloc_thread_stack_node", "dup_task_struct", "copy_process", "kernel_clone",
		"fork_idle", NULL,
	};
	size_t i;

	for (i = 0; stack_callers[i]; i++)
		if (strcmp(caller, stack_callers[i]) == 0)
			return true;
	return false;
}

/*
 * The allocators whose pages a meminfo line counts, by source file: a
 * site in one of them is that line's, not "other pages". The user pages'
 * allocators tag the page cache, anonymous, shmem, swap cache and huge
 * pages; mm/memory.c the user page tables too.
 */
static const char *const counted_files[] = {
	"mm/slub.c", "mm/slab.c", "mm/slab_common.c",				/* slab */
	"mm/percpu.c", "mm/percpu-vm.c", "mm/percpu-km.c",			/* percpu */
	"mm/vmalloc.c",								/* vmalloc */
	"mm/shmem.c", "mm/filemap.c", "mm/readahead.c", "mm/memory.c",		/* user */
	"mm/huge_memory.c", "mm/khugepaged.c", "mm/migrate.c", "mm/swap_state.c",
	"mm/mempolicy.c", "mm/ksm.c", "mm/hugetlb.c", "mm/userfaultfd.c",
	"include/asm-generic/pgalloc.h",					/* page tables */
	"kernel/fork.c",							/* stacks */
	NULL,
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

bool ledger_file_is_counted(const char *path)
{
	size_t i;

	for (i = 0; counted_files[i]; i++)
		if (strcmp(path, counted_files[i]) == 0)
			return true;
	/* an architecture's page tables: arch/x86/mm/pgtable.c, arch/arm64/include/asm/pgalloc.h */
	return strncmp(path, "arch/", 5) == 0 &&
	       (ends_with(path, "/mm/pgtable.c") || ends_with(path, "/pgalloc.h"));
}

/* The callers of s's vmalloc areas (kind vmalloc), as a set. */
static void vmalloc_callers_of(struct strtab *t, const struct kernel_snapshot *s)
{
	uint32_t i;

	strtab_init(t);
	for (i = 0; i < s->nvmallocs; i++)
		if (strcmp(s->vmallocs[i].kind, "vmalloc") == 0)
			strtab_intern(t, s->vmallocs[i].caller, strlen(s->vmallocs[i].caller));
}

static bool in_set(const struct strtab *t, const char *name)
{
	return strtab_find(t, name, strlen(name)) != STR_NONE;
}

/* Does site i hold whole pages, in a file and function no other line's allocator is? */
static bool site_is_other(const struct alloc_series *a, uint32_t i, uint64_t page_size,
			  const struct strtab *vmalloc_callers)
{
	const struct alloc_site *st = &a->sites[i];
	uint64_t bytes = a->bytes[i];

	if (!a->listed_in[i] || bytes == 0 || bytes % page_size != 0 ||
	    bytes / page_size < a->calls[i])
		return false;
	return !ledger_file_is_counted(alloc_name(a, st->file)) &&
	       !in_set(vmalloc_callers, alloc_name(a, st->func));
}

/* The bounds of what of o->bytes another line may count too (ledger_other). */
static void bound_overlap(struct ledger_other *o, const struct kernel_snapshot *s,
			  uint64_t page_size)
{
	uint64_t slab = 0, slabs = 0, v, r, u;
	struct strtab funcs;
	uint32_t i;

	if (ksnap_field(&s->meminfo, "SReclaimable", &r) &&
	    ksnap_field(&s->meminfo, "SUnreclaim", &u))
		slab = r + u;
	o->slab_bound_is_slab = !s->has_slabinfo;
	if (s->has_slabinfo) {
		for (i = 0; i < s->nslabs; i++) {
			const struct ksnap_slab *c = &s->slabs[i];

			uint64_t in_slabs = c->num_slabs * c->pagesperslab * page_size;
			uint64_t objects = c->active_objs * c->objsize;

			/*
			 * a site of objects below a page never averages a page an
			 * allocation; objects live in their slabs (a file that says
			 * more is held to them)
			 */
			if (c->objsize >= page_size)
				o->overlap_slab += objects < in_slabs ? objects : in_slabs;
			slabs += in_slabs;
		}
		o->overlap_large_kmalloc = slab > slabs ? slab - slabs : 0;
	} else {
		o->overlap_slab = slab;
	}
	if (ksnap_field(&s->meminfo, "Percpu", &v))
		o->overlap_percpu = v;
	o->vmalloc_bound_is_used = !s->has_vmallocinfo;
	if (!s->has_vmallocinfo) {
		if (ksnap_field(&s->meminfo, "VmallocUsed", &v))
			o->overlap_vmalloc = v;
		return;
	}
	strtab_init(&funcs);
	for (i = 0; i < s->allocinfo->nsites; i++)
		if (s->allocinfo->listed_in[i]) {
			const char *f = alloc_name(s->allocinfo, s->allocinfo->sites[i].func);

			strtab_intern(&funcs, f, strlen(f));
		}
	for (i = 0; i < s->nvmallocs; i++) {
		const struct ksnap_vmalloc *a = &s->vmallocs[i];

		if (strcmp(a->kind, "vmalloc") == 0 && !ledger_caller_is_stack(a->caller) &&
		    !in_set(&funcs, a->caller))
			o->overlap_vmalloc += a->pages * page_size;
	}
	strtab_release(&funcs);
}

void ledger_other_pages(struct ledger_other *o, const struct kernel_snapshot *s,
			uint64_t page_size, uint8_t *is_other)
{
	const struct alloc_series *a = s->allocinfo;
	struct strtab vmalloc_callers;
	uint32_t i;

	memset(o, 0, sizeof(*o));
	if (!a || !page_size)
		return;
	o->known = true;
	vmalloc_callers_of(&vmalloc_callers, s);
	for (i = 0; i < a->nsites; i++) {
		bool other = site_is_other(a, i, page_size, &vmalloc_callers);

		if (is_other)
			is_other[i] = other;
		if (other)
			o->bytes += a->bytes[i];
	}
	strtab_release(&vmalloc_callers);
	bound_overlap(o, s, page_size);
}

uint64_t ledger_other_overlap(const struct ledger_other *o)
{
	uint64_t sum = o->overlap_slab + o->overlap_large_kmalloc + o->overlap_percpu +
		       o->overlap_vmalloc;	/* each below 2^33 pages: no wrap */

	return sum < o->bytes ? sum : o->bytes;
}

/* Is there a field of these, and their sum into *sum? */
static bool sum_fields(const struct kernel_snapshot *s, const char *const *names, uint64_t *sum)
{
	bool any = false;
	uint64_t v;
	size_t i;

	*sum = 0;
	for (i = 0; names[i]; i++)
		if (ksnap_field(&s->meminfo, names[i], &v)) {
			*sum += v;
			any = true;
		}
	return any;
}

static struct ledger_line *add_line(struct ledger *l, const char *name, enum ledger_part part,
				    uint64_t bytes, const char *source)
{
	struct ledger_line *line = &l->lines[l->nlines++];

	line->name = name;
	line->part = part;
	line->bytes = bytes;
	line->signed_bytes = (int64_t)bytes;
	snprintf(line->source, sizeof(line->source), "%s", source);
	return line;
}

/* A field a line needs that meminfo lacks: its memory falls into unexplained. */
static void note_absent(struct ledger *l, const char *field)
{
	size_t used = strlen(l->absent);

	snprintf(l->absent + used, sizeof(l->absent) - used, "%s%s", used ? ", " : "", field);
}

/* A line of one field, when the snapshot has it (absent: noted, unless optional). */
static void field_line(struct ledger *l, const struct kernel_snapshot *s, const char *name,
		       enum ledger_part part, const char *field, bool optional)
{
	const char *names[] = { field, NULL };
	char source[96];
	uint64_t v;

	if (!sum_fields(s, names, &v)) {
		if (!optional)
			note_absent(l, field);
		return;
	}
	snprintf(source, sizeof(source), "meminfo: %s", field);
	add_line(l, name, part, v, source);
}

static void file_cache_line(struct ledger *l, const struct kernel_snapshot *s)
{
	uint64_t buffers, cached, shmem;

	if (!ksnap_field(&s->meminfo, "Cached", &cached) ||
	    !ksnap_field(&s->meminfo, "Buffers", &buffers) ||
	    !ksnap_field(&s->meminfo, "Shmem", &shmem)) {	/* its rule needs the three */
		note_absent(l, !ksnap_field(&s->meminfo, "Cached", &cached) ? "Cached" :
			    !ksnap_field(&s->meminfo, "Buffers", &buffers) ? "Buffers" : "Shmem");
		return;
	}
	add_line(l, "file cache", LEDGER_USER, buffers + cached - (shmem < cached ? shmem : cached),
		 "meminfo: Buffers + Cached - Shmem");
}

/* The stack areas' pages in vmallocinfo: are thread stacks vmalloc'd? */
static void find_stacks(struct ledger *l, const struct kernel_snapshot *s, uint64_t page_size)
{
	uint32_t i;

	l->stacks_unknown = !s->has_vmallocinfo;
	for (i = 0; i < s->nvmallocs; i++) {
		const struct ksnap_vmalloc *a = &s->vmallocs[i];

		if (strcmp(a->kind, "vmalloc") == 0)
			l->vmalloc_pages_bytes += a->pages * page_size;
		if (strcmp(a->kind, "vmalloc") == 0 && ledger_caller_is_stack(a->caller))
			l->stacks_in_vmalloc = true;
	}
}

static void vmalloc_line(struct ledger *l, const struct kernel_snapshot *s)
{
	uint64_t used, stacks;

	if (!ksnap_field(&s->meminfo, "VmallocUsed", &used)) {
		note_absent(l, "VmallocUsed");
		return;
	}
	if (l->stacks_in_vmalloc && ksnap_field(&s->meminfo, "KernelStack", &stacks)) {
		add_line(l, "vmalloc", LEDGER_KERNEL, used > stacks ? used - stacks : 0,
			 "meminfo: VmallocUsed - KernelStack (vmallocinfo: the stacks are vmalloc'd)");
		return;
	}
	add_line(l, "vmalloc", LEDGER_KERNEL, used, l->stacks_unknown
		 ? "meminfo: VmallocUsed (with CONFIG_VMAP_STACK the stacks too: no vmallocinfo "
		   "to tell)" : "meminfo: VmallocUsed");
}

/* Free pages on the CPUs' lists: taken from the buddy lists, so not in MemFree. */
static void per_cpu_free_line(struct ledger *l, const struct kernel_snapshot *s,
			      uint64_t page_size)
{
	uint64_t pages = 0;
	bool any = false;
	uint32_t i;

	for (i = 0; i < s->nzones; i++)
		if (s->zones[i].in_zoneinfo && s->zones[i].has_pcp) {
			pages += s->zones[i].pcp;
			any = true;
		}
	if (any)
		add_line(l, "free on CPU lists", LEDGER_FREE, pages * page_size,
			 "zoneinfo: every pageset's count (per-CPU free pages, not in MemFree)");
}

static void other_reclaimable_line(struct ledger *l, const struct kernel_snapshot *s)
{
	uint64_t k, sr;

	if (ksnap_field(&s->meminfo, "KReclaimable", &k) &&
	    ksnap_field(&s->meminfo, "SReclaimable", &sr) && k > sr)
		add_line(l, "other reclaimable", LEDGER_KERNEL, k - sr,
			 "meminfo: KReclaimable - SReclaimable");
}

int ledger_make(struct ledger *l, const struct kernel_snapshot *s, uint64_t page_size,
		struct ta_error *err)
{
	static const char *const page_tables[] = { "PageTables", "SecPageTables", NULL };
	uint64_t sum = 0, v;
	struct ledger_line *u;
	unsigned i;

	memset(l, 0, sizeof(*l));
	if (!ksnap_field(&s->meminfo, "MemTotal", &l->total))
		return error_set(err, "'%s' has no MemTotal: not a /proc/meminfo", s->source);
	find_stacks(l, s, page_size);
	add_line(l, "MemTotal", LEDGER_TOTAL, l->total, "meminfo: MemTotal");
	field_line(l, s, "free", LEDGER_FREE, "MemFree", false);
	per_cpu_free_line(l, s, page_size);
	field_line(l, s, "anonymous", LEDGER_USER, "AnonPages", false);
	file_cache_line(l, s);
	field_line(l, s, "shmem, tmpfs", LEDGER_USER, "Shmem", false);
	field_line(l, s, "swap cache", LEDGER_USER, "SwapCached", false);
	field_line(l, s, "huge pages", LEDGER_USER, "Hugetlb", true);	/* 5.18 and later */
	field_line(l, s, "slab reclaimable", LEDGER_KERNEL, "SReclaimable", false);
	field_line(l, s, "slab unreclaimable", LEDGER_KERNEL, "SUnreclaim", false);
	vmalloc_line(l, s);
	field_line(l, s, "percpu", LEDGER_KERNEL, "Percpu", false);
	field_line(l, s, "kernel stacks", LEDGER_KERNEL, "KernelStack", false);
	if (sum_fields(s, page_tables, &v))
		add_line(l, "page tables", LEDGER_KERNEL, v, "meminfo: PageTables + SecPageTables");
	else
		note_absent(l, "PageTables");
	other_reclaimable_line(l, s);
	ledger_other_pages(&l->other, s, page_size, NULL);
	if (l->other.known)
		add_line(l, "other pages", LEDGER_KERNEL, l->other.bytes, "allocinfo: the sites of "
			 "whole pages outside the allocators of the lines above")->from_profile = true;
	for (i = 1; i < l->nlines; i++)
		sum += l->lines[i].bytes;
	u = add_line(l, "unexplained", LEDGER_UNEXPLAINED, l->total > sum ? l->total - sum : 0,
		     "MemTotal - every line above");
	u->signed_bytes = (int64_t)l->total - (int64_t)sum;
	return 0;
}

void ledger_static_of(struct ledger_static *st, const struct kernel_snapshot *s,
		      uint64_t page_size)
{
	uint64_t total;
	uint32_t i;

	memset(st, 0, sizeof(*st));
	st->has_zones = s->has_zoneinfo;
	for (i = 0; i < s->nzones; i++)
		if (s->zones[i].in_zoneinfo) {
			st->present_bytes += s->zones[i].present * page_size;
			st->managed_bytes += s->zones[i].managed * page_size;
		}
	/* MemTotal is the kernel's totalram: on most machines the zones' managed pages, not on all */
	st->has_reserved = st->has_zones && ksnap_field(&s->meminfo, "MemTotal", &total);
	st->reserved_bytes = st->has_reserved ? (int64_t)st->present_bytes - (int64_t)total : 0;
	st->has_boot = s->has_boot_memory;
	st->boot = s->boot_memory;
	st->has_modules = s->has_modules;
	st->modules = s->nmodules;
	for (i = 0; i < s->nmodules; i++)
		st->module_bytes += s->modules[i].size;
}

/* ---- a series' changes ---- */

/* The change of kind and name, added when new. */
static struct ledger_change *change_of(struct ledger_changes *ch, const char *kind,
				       const char *name)
{
	char key[512];
	int len = snprintf(key, sizeof(key), "%s\t%s", kind, name);
	uint32_t id;

	if (len < 0 || (size_t)len >= sizeof(key))
		len = (int)sizeof(key) - 1;
	id = strtab_find(&ch->names, key, (size_t)len);
	if (id != STR_NONE)
		return &ch->c[id];
	id = strtab_intern(&ch->names, key, (size_t)len);
	if (id >= ch->cap) {
		ch->cap = ch->cap ? 2 * ch->cap : 256;
		ch->c = xrealloc(ch->c, ch->cap * sizeof(*ch->c));
	}
	ch->n = id + 1;
	memset(&ch->c[id], 0, sizeof(ch->c[id]));
	ch->c[id].kind = kind;
	ch->c[id].name = strtab_get(&ch->names, id) + strlen(kind) + 1;
	return &ch->c[id];
}

/* Add bytes to the kind's name in the first snapshot (last: false) or the last. */
static void count(struct ledger_changes *ch, bool last, const char *kind, const char *name,
		  int64_t bytes)
{
	struct ledger_change *c = change_of(ch, kind, name);

	if (last) {
		c->last += bytes;
		c->in_last = true;
	} else {
		c->first += bytes;
		c->in_first = true;
	}
}

static void count_snapshot(struct ledger_changes *ch, bool last, const struct kernel_snapshot *s,
			   uint64_t page_size)
{
	struct ta_error err;
	struct ledger l;
	uint64_t v;
	uint32_t i;

	if (s->has_meminfo && ledger_make(&l, s, page_size, &err) == 0)
		for (i = 0; i < l.nlines; i++)
			count(ch, last, "ledger", l.lines[i].name, l.lines[i].signed_bytes);
	for (i = 0; i < s->nslabs; i++)
		count(ch, last, "slab", s->slabs[i].name, (int64_t)(s->slabs[i].num_slabs *
						s->slabs[i].pagesperslab * page_size));
	for (i = 0; i < s->nvmallocs; i++)
		count(ch, last, "vmalloc", s->vmallocs[i].caller,
		      (int64_t)(s->vmallocs[i].pages * page_size));
	if (s->allocinfo)
		for (i = 0; i < s->allocinfo->nsites; i++)
			if (s->allocinfo->listed_in[i])
				count(ch, last, "allocinfo", strtab_get(&s->allocinfo->keys, i),
				      (int64_t)s->allocinfo->bytes[i]);
	for (i = 0; i < s->nmodules; i++)
		count(ch, last, "module", s->modules[i].name, (int64_t)s->modules[i].size);
	for (i = 0; i < s->ncgroups; i++) {
		if (s->cgroups[i].has_current)
			count(ch, last, "cgroup", s->cgroups[i].path, (int64_t)s->cgroups[i].current);
		if (ksnap_field(&s->cgroups[i].stat, "kernel", &v))
			count(ch, last, "cgroup kernel", s->cgroups[i].path, (int64_t)v);
	}
}

void ledger_changes_of(struct ledger_changes *ch, const struct kernel_snapshot *a,
		       const struct kernel_snapshot *b, uint64_t page_size)
{
	size_t i;

	memset(ch, 0, sizeof(*ch));
	strtab_init(&ch->names);
	count_snapshot(ch, false, a, page_size);
	count_snapshot(ch, true, b, page_size);
	for (i = 0; i < ch->n; i++)	/* the table grew: its strings may have moved */
		ch->c[i].name = strtab_get(&ch->names, (uint32_t)i) + strlen(ch->c[i].kind) + 1;
}

void ledger_changes_release(struct ledger_changes *ch)
{
	free(ch->c);
	strtab_release(&ch->names);
	memset(ch, 0, sizeof(*ch));
}
