/*
 * ledger.c - MemTotal split into lines of meminfo's fields (ledger.h).
 * Every line is a sum of named fields; "unexplained" is MemTotal minus
 * every other line. Thread stacks are vmalloc'd on kernels with
 * CONFIG_VMAP_STACK and are then in both VmallocUsed and KernelStack:
 * when vmallocinfo shows stack areas, the vmalloc line leaves them out.
 */
#include <stdio.h>
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

	if (!ksnap_field(&s->meminfo, "Cached", &cached)) {
		note_absent(l, "Cached");
		return;
	}
	ksnap_field(&s->meminfo, "Buffers", &buffers);
	ksnap_field(&s->meminfo, "Shmem", &shmem);
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
