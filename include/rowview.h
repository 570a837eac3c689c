/*
 * rowview.h - the rows of a run as the reports list them: the rows'
 * account grouped, sorted, placed in the kernel tree and cut to -b, and
 * -b as the reports that walk live allocations apply it. Not here: what
 * the rows are and how they are named (engine.h: analysis_rows_account).
 */
#ifndef TA_ROWVIEW_H
#define TA_ROWVIEW_H

#include "engine.h"
#include "rows.h"

/*
 * -b as the reports that read live allocations apply it: the ids of the
 * rows' account (rows) and of the account by origin key (keys) placed
 * under the branch; both keep everything without -b.
 */
void analysis_branch_filters(const struct analysis *a, struct row_filter *rows,
			     struct row_filter *keys);

/* The rows of the account as -c lists them: grouped, sorted, placed, cut to -b. */
void analysis_rows(const struct analysis *a, struct account_rows *rows);

#endif
