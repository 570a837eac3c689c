/*
 * allocreport.h - the reports of /proc/allocinfo snapshots (allocinfo.h):
 * the account (a row per site, function, file, directory or module: live
 * bytes and allocations, their average, their share), the summary of what
 * was read, and its line on standard error. Every figure is a sum of the
 * snapshot's rows.
 *
 * Not here: the series over time (the timeline's and growth's writers
 * read it as they read a log's samples), the ringchart, pprof.
 */
#ifndef TA_ALLOCREPORT_H
#define TA_ALLOCREPORT_H

#include <stddef.h>
#include <stdio.h>

#include "allocinfo.h"
#include "output.h"
#include "allocgroups.h"
#include "request.h"
#include "timeline_chart.h"

/* An allocinfo snapshot's rows as --group-by says (callsite for the groupings of events). */
enum alloc_key alloc_key_for(enum group_by g);

struct alloc_report_query {
	const struct alloc_series *s;
	enum alloc_key group;
	const char *group_by;		/* its name, as the key column's group_by */
	const char *branch;		/* -b, or NULL */
	size_t top;			/* --top, 0: every row */
	const struct timeline_rows *rows;	/* the series' rows over time (suspects) */
};

/* The account: totals, and a table "sites" of rows, largest first. */
void write_snapshot_account(struct out_dest *o, const struct alloc_report_query *q);

/* --summary: what was read (versions, rows, duplicates, bad rows), by module, suspects. */
void write_snapshot_summary(struct out_dest *o, const struct alloc_report_query *q);

/* The reading's lines on standard error, as a log's run summary. */
void write_snapshot_reading(FILE *f, const struct alloc_series *s, const char *source,
			    double seconds);

#endif
