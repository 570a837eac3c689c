/*
 * kreport.h - the reports that need a kernel tree: the callers file (one
 * row per call site with its directory, trace_analyze.py's -l), the static
 * footprint table of static-only mode, and the kernel lines of the summary.
 * Reads only the aggregated tables (account rows, dirtree); never the log.
 */
#ifndef TA_KREPORT_H
#define TA_KREPORT_H

#include <stdio.h>

#include "dirtree.h"
#include "ktree.h"
#include "output.h"
#include "report.h"

/*
 * As text, trace_analyze.py's "{:<60} {:<8} {:<8} {:<8}" lines: call site,
 * current_dynamic, waste, and the object (or pseudo node) it is placed in,
 * relative to the tree. As CSV or JSON, a table "callers" of the same.
 */
void write_callers(struct out_dest *o, const struct account_rows *rows, const struct dirtree *d);

/*
 * The static footprint under node top: totals, then one row per directory
 * (its whole subtree) in path order: text, data, rodata, bss, static.
 */
void write_static_table(struct out_dest *o, const struct dirtree *d, uint32_t top);

/*
 * The tree under node top as nested JSON for the --html sunburst:
 * {"name": ..., "v": [static, current, current_dynamic, total_dynamic,
 * waste], "c": [children...]} (size_attr order), nodes of all-zero
 * values left out; "attrs" at the top names the five.
 */
void write_dirtree_json(FILE *f, const struct dirtree *d, uint32_t top);

/* Kernel lines of the stderr summary: objects, symbols, skips, placements. */
void write_tree_summary(FILE *f, const char *source, const struct kernel_tree *kt,
			  const struct dirtree *d, bool placed);

#endif
