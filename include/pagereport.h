/*
 * pagereport.h - the --page report, written from the page allocator's
 * counts (pages.h).
 */
#ifndef TA_PAGEREPORT_H
#define TA_PAGEREPORT_H

#include <stdio.h>

#include "output.h"
#include "pages.h"
#include "rows.h"

/* Page allocations by another row than the origin (struct page_rows), named by namer. */
struct page_rows_view {
	const struct page_stats *rows;	/* by_key indexed by the namer's ids */
	struct row_namer namer;
	const char *group;		/* what a row is: "comm", "module"... */
};

/*
 * The --page report; with origins (a row_namer over origin keys, see
 * report.h) and allocations with stacks, a table of allocations by origin,
 * or by the rows of by when not NULL.
 */
void write_pages(struct out_dest *o, const struct page_stats *p, const struct strtab *gfps,
		 const struct row_namer *origins, const struct page_rows_view *by,
		 void (*more)(struct out_doc *d, const void *ctx), const void *more_ctx);

#endif
