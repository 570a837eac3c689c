/*
 * ledger.c - MemTotal split into lines of meminfo's fields (ledger.h).
 * Every line is a sum of named fields; "unexplained" is MemTotal minus
 * every other line. Thread stacks are vmalloc'd on kernels with
 * CONFIG_VMAP_STACK and are then in both VmallocUsed and KernelStack:
 * when vmallocinfo shows stack areas, the vmalloc line leaves them out.
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
