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

/*
 * The --page report; with origins (a row_namer over origin keys, see
 * report.h) and allocations with stacks, a table of allocations by origin.
 */
void write_pages(struct out_dest *o, const struct page_stats *p, const struct strtab *gfps,
		 const struct row_namer *origins, void (*more)(struct out_doc *d, const void *ctx),
		 const void *more_ctx);

#endif
