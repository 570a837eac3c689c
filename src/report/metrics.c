/*
 * metrics.c - the families each input gives (metrics.h): a log's account,
 * an allocinfo snapshot, a kernel snapshot's ledger and cgroups. Not here:
 * the format (openmetrics.c), the ledger's rules (ledger.c).
 */
#include <string.h>

#include "ledger.h"
#include "metrics.h"
#include "request.h"

const char *metrics_row_label(const char *group)
{
	static const char *const names[][2] = {
		{ "callsite", "callsite" }, { "function", "function" }, { "origin", "origin" },
		{ "cache", "cache" }, { "dir", "dir" }, { "size-class", "size_class" },
		{ "comm", "comm" }, { "pid", "task" }, { "gfp", "gfp" }, { "module", "module" },
		{ "file", "file" }, { "cgroup", "cgroup" },
	};
	size_t i;

	for (i = 0; group && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(group, names[i][0]) == 0)
			return names[i][1];
	return "row";
}

void metrics_write_account(FILE *out, const struct account_rows *rows, const char *group,
			   const struct out_tags *tags, const struct om_limits *lim)
{
	static const struct {
		const char *name, *unit, *help;
	} families[] = {
		{ "trace_analyze_slab_live_bytes", "bytes", "Slab bytes (bytes_alloc) allocated in "
		  "the trace and still held at its end" },
		{ "trace_analyze_slab_allocated_bytes", "bytes", "Slab bytes (bytes_alloc) "
		  "allocated over the trace" },
		{ "trace_analyze_slab_allocations", "allocations", "Slab allocations over the trace" },
	};
	const char *label = metrics_row_label(group);
	size_t f, i;

	for (f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		struct om_family fam;

		om_family_init(&fam, families[f].name, families[f].unit, families[f].help, &label, 1);
		for (i = 0; i < rows->count; i++) {
			const struct site_stats *s = &rows->rows[i].s;
			uint64_t v = f == 0 ? s->current_dynamic : f == 1 ? s->total_dynamic
							      : s->alloc_count;

			om_family_add(&fam, &rows->rows[i].caller,
				      v > INT64_MAX ? INT64_MAX : (int64_t)v);
		}
		om_family_write(out, &fam, tags, lim);
		om_family_release(&fam);
	}
	om_write_eof(out);
}

/* A site's labels, as the rows are grouped: by site all four, else the one. */
static size_t site_labels(const struct alloc_series *s, uint32_t k, int group,
			  const char *values[4], char *site, size_t cap)
{
	const struct alloc_site *x = &s->sites[k];
	const char *file = strtab_get(&s->names, x->file);

	switch (group) {
	case GROUP_FUNCTION:
		values[0] = strtab_get(&s->names, x->func);
		return 1;
	case GROUP_FILE:
		values[0] = file;
		return 1;
	case GROUP_MODULE:
		values[0] = alloc_name(s, x->module);
		return 1;
	default:
		snprintf(site, cap, "%s:%u", file, x->line);
		values[0] = site;
		values[1] = strtab_get(&s->names, x->func);
		values[2] = file;
		values[3] = alloc_name(s, x->module);
		return 4;
	}
}

void metrics_add_allocinfo(FILE *out, const struct alloc_series *s, int group,
			   const struct out_tags *tags, const struct om_limits *lim)
{
	static const char *const by_site[] = { "site", "function", "file", "module" };
	const char *one = group == GROUP_FUNCTION ? "function" : group == GROUP_FILE ? "file"
			  : "module";
	const char *const *labels = group == GROUP_FUNCTION || group == GROUP_FILE ||
				    group == GROUP_MODULE ? &one : by_site;
	size_t nlabels = labels == by_site ? 4 : 1;
	struct om_family bytes, calls;
	char site[512];
	uint32_t k;

	om_family_init(&bytes, "trace_analyze_allocinfo_bytes", "bytes", "Bytes live at each "
		       "allocation site, as /proc/allocinfo counts them (memory allocation "
		       "profiling)", labels, nlabels);
	om_family_init(&calls, "trace_analyze_allocinfo_allocations", "allocations", "Allocations "
		       "live at each allocation site, as /proc/allocinfo counts them", labels,
		       nlabels);
	for (k = 0; k < s->nsites; k++) {
		const char *values[4];

		if (s->listed_in[k] != s->snapshots || (!s->bytes[k] && !s->calls[k]))
			continue;	/* not in the last snapshot, or idle */
		site_labels(s, k, group, values, site, sizeof(site));
		om_family_add(&bytes, values, s->bytes[k] > INT64_MAX ? INT64_MAX
					      : (int64_t)s->bytes[k]);
		om_family_add(&calls, values, s->calls[k] > INT64_MAX ? INT64_MAX
					      : (int64_t)s->calls[k]);
	}
	om_family_write(out, &bytes, tags, lim);
	om_family_write(out, &calls, tags, lim);
	om_family_release(&bytes);
	om_family_release(&calls);
}

static const char *const part_names[] = {
	[LEDGER_TOTAL] = "total", [LEDGER_FREE] = "free", [LEDGER_USER] = "user",
	[LEDGER_KERNEL] = "kernel", [LEDGER_UNEXPLAINED] = "unexplained",
};

/* The ledger's lines: every one, never cut (they are few, and add up to MemTotal). */
static void add_ledger(FILE *out, const struct ledger *l, const struct out_tags *tags)
{
	static const char *const labels[] = { "line", "part", "source" };
	struct om_limits all = { 0, 0 };
	struct om_family f;
	unsigned i;

	om_family_init(&f, "trace_analyze_ledger_bytes", "bytes", "Where MemTotal went: the "
		       "ledger's lines (free, user, kernel, unexplained), each with the meminfo "
		       "fields or the rule it is made of", labels, 3);
	for (i = 0; i < l->nlines; i++) {
		const struct ledger_line *x = &l->lines[i];
		const char *values[] = { x->name, part_names[x->part], x->source };

		om_family_add(&f, values, x->part == LEDGER_UNEXPLAINED ? x->signed_bytes
					  : x->bytes > INT64_MAX ? INT64_MAX : (int64_t)x->bytes);
	}
	om_family_write(out, &f, tags, &all);
	om_family_release(&f);
}

/* Each cgroup's memory.stat kernel keys and memory.current. */
static void add_cgroups(FILE *out, const struct kernel_snapshot *k, const struct out_tags *tags,
			const struct om_limits *lim)
{
	static const char *const kernel_labels[] = { "cgroup", "kind" };
	static const char *const current_labels[] = { "cgroup" };
	struct om_family kernel, current;
	uint32_t i;
	size_t key;

	om_family_init(&kernel, "trace_analyze_cgroup_kernel_bytes", "bytes", "Kernel memory "
		       "charged to each cgroup, by memory.stat's key (kernel, slab, sock, vmalloc, "
		       "percpu, kernel_stack, pagetables...)", kernel_labels, 2);
	om_family_init(&current, "trace_analyze_cgroup_memory_bytes", "bytes", "Memory charged "
		       "to each cgroup (memory.current)", current_labels, 1);
	for (i = 0; i < k->ncgroups; i++) {
		const struct ksnap_cgroup *g = &k->cgroups[i];

		for (key = 0; g->has_stat && ksnap_cgroup_keys[key]; key++) {
			const char *values[] = { g->path, ksnap_cgroup_keys[key] };
			uint64_t v;

			if (ksnap_field(&g->stat, ksnap_cgroup_keys[key], &v))
				om_family_add(&kernel, values, v > INT64_MAX ? INT64_MAX : (int64_t)v);
		}
		if (g->has_current) {
			const char *values[] = { g->path };

			om_family_add(&current, values, g->current > INT64_MAX ? INT64_MAX
						       : (int64_t)g->current);
		}
	}
	om_family_write(out, &kernel, tags, lim);
	om_family_write(out, &current, tags, lim);
	om_family_release(&kernel);
	om_family_release(&current);
}

int metrics_write_kernel_snapshot(FILE *out, const struct kernel_snapshot *k, uint64_t page_size,
				  const struct out_tags *tags, const struct om_limits *lim,
				  struct ta_error *err)
{
	struct ledger l;

	if (ledger_make(&l, k, page_size, err) < 0)
		return -1;
	add_ledger(out, &l, tags);
	if (k->ncgroups)
		add_cgroups(out, k, tags, lim);
	if (k->allocinfo)
		metrics_add_allocinfo(out, k->allocinfo, GROUP_CALLSITE, tags, lim);
	om_write_eof(out);
	return 0;
}

void metrics_tags_of_stamp(const struct kernel_snapshot *k, struct out_tags *tags)
{
	static const char *const keys[] = { "host", "kernel", "boot_id" };
	const char *values[] = { k->host, k->release, k->boot_id };
	size_t i;

	memset(tags, 0, sizeof(*tags));
	for (i = 0; k->has_stamp && i < 3; i++)
		if (values[i][0]) {
			tags->key[tags->n] = keys[i];
			snprintf(tags->value[tags->n], sizeof(tags->value[0]), "%s", values[i]);
			tags->n++;
		}
}
