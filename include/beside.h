/*
 * beside.h - a trace's account beside an allocinfo snapshot of the same
 * boot (-f LOG --allocinfo SNAPSHOT): per row, what the trace saw live at
 * its end and what allocinfo says is live for the same function (with its
 * module), module or directory; allocations made before tracing began,
 * and those no traced event covers (pages, vmalloc), show as the
 * difference. Matching is by name: a call site's function (and the module
 * its name carries) to the tags of that function; a directory to the
 * tags whose source file lies in it. A function whose tags are in several
 * files (static functions of one name) is summed and counted as
 * ambiguous.
 *
 * Not here: reading either side, or how the account itself is written.
 */
#ifndef TA_BESIDE_H
#define TA_BESIDE_H

#include <stddef.h>

#include "allocinfo.h"
#include "output.h"
#include "request.h"
#include "rows.h"

struct beside_query {
	const struct alloc_series *s;	/* the snapshot */
	const char *source;		/* its name */
	const struct account_rows *rows;	/* the trace's account, every row */
	enum group_by group;		/* function, callsite (by function), module or dir */
	const char *branch;		/* -b: only the tags under it (and dir rows below it) */
	const struct task_filters *filters;	/* --module: only the tags of these modules */
	size_t top;			/* rows listed of each table, 0: all */
};

/*
 * A list "allocinfo_match" (what matched, what did not, how much), a table
 * "allocinfo" (per trace row: both sides' live bytes and the difference)
 * and a table "allocinfo_only" (tags with live bytes the trace never saw).
 */
void beside_add_tables(struct out_doc *d, const struct beside_query *q);

#endif
