/*
 * metrics.h - what each input says, as OpenMetrics families
 * (openmetrics.h) for Prometheus and node_exporter's textfile collector:
 *
 *   a kmem log's account: trace_analyze_slab_live_bytes,
 *     _slab_allocated_bytes, _slab_allocations,
 *     by the row --group-by makes (label callsite, function, cache...);
 *   an allocinfo snapshot (the last of a series, or a kernel snapshot's):
 *     trace_analyze_allocinfo_bytes and _allocinfo_allocations, by site
 *     (labels site, function, file, module), or by function, file or
 *     module alone;
 *   a kernel snapshot: trace_analyze_ledger_bytes (label line, part and
 *     source: the ledger's lines, DESIGN.md section 15), and each cgroup's
 *     charged kernel memory, trace_analyze_cgroup_kernel_bytes (labels
 *     cgroup and kind: memory.stat's kernel, slab... keys) and
 *     trace_analyze_cgroup_memory_bytes (memory.current).
 *
 * Every series also has the tags as labels (host, kernel, boot_id: --tag,
 * or a snapshot's own stamp). Not here: escaping and cutting (openmetrics.c).
 */
#ifndef TA_METRICS_H
#define TA_METRICS_H

#include <stdio.h>

#include "account.h"
#include "allocinfo.h"
#include "error.h"
#include "ksnapshot.h"
#include "openmetrics.h"
#include "output.h"
#include "rows.h"

/* The label a row of the account is under, by --group-by's name ("callsite", "comm"...). */
const char *metrics_row_label(const char *group);

/* A kmem log's account rows (grouped as named by group) as families, then # EOF. */
void metrics_write_account(FILE *out, const struct account_rows *rows, const char *group,
			   const struct out_tags *tags, const struct om_limits *lim);

/*
 * An allocinfo snapshot's sites (the last of s) as families, by site or
 * by function, file or module (group: GROUP_* of request.h), no # EOF.
 */
void metrics_add_allocinfo(FILE *out, const struct alloc_series *s, int group,
			   const struct out_tags *tags, const struct om_limits *lim);

/* A kernel snapshot's ledger, cgroups and allocinfo as families, then # EOF; -1 with err without MemTotal. */
int metrics_write_kernel_snapshot(FILE *out, const struct kernel_snapshot *k, uint64_t page_size,
				  const struct out_tags *tags, const struct om_limits *lim,
				  struct ta_error *err);

/* A kernel snapshot's own stamp (host, kernel release, boot id) as tags, for the families' labels. */
void metrics_tags_of_stamp(const struct kernel_snapshot *k, struct out_tags *tags);

#endif
