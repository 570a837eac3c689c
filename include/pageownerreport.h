/*
 * pageownerreport.h - page_owner's dump beside a trace (--page-owner DUMP,
 * with --page): the trace's pages still held at its end looked for in the
 * dump by pfn (the same page: the dump's allocation time says whether it
 * is the same allocation, its stack who made it), and what the dump holds
 * that the trace never saw allocated, counted apart by when it was
 * allocated (before the trace, after it). Not here: reading the dump
 * (pageowner.h).
 */
#ifndef TA_PAGEOWNERREPORT_H
#define TA_PAGEOWNERREPORT_H

#include "engine.h"
#include "output.h"

/*
 * --growth of a series of page_owner files (-f A B C): each row (a stack's
 * origin, or its module or directory) with its pages at the first and the
 * last file, the growth, the most and when; the series long, a line per
 * row and file; the files. At most top rows by growth (0: all).
 */
void page_owner_growth_report(struct out_dest *o, const struct analysis *a, const char *group,
			      size_t top);

/* The page_owner blocks of the page report's document d. */
void page_owner_beside_report(struct out_doc *d, const struct analysis *a);

#endif
