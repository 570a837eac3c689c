/*
 * peakreport.h - --peak: the moment of the highest live slab bytes (or
 * --peak-at's moment) and what each row held then: bytes, objects, their
 * share, and each row's own highest live bytes and when; the most pages
 * held and when, when the log has page events. One document of output.h.
 * Reads only the watcher (peak.h); never the log.
 */
#ifndef TA_PEAKREPORT_H
#define TA_PEAKREPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "peak.h"
#include "rows.h"

struct peak_query {
	const struct peak_watch *watch;
	const struct row_namer *namer;	/* the rows' names: ids of one name are one row */
	const char *group_by;		/* what a row is ("callsite", "cache", ...) */
	size_t top;			/* 0: every row */
	bool have_pages;		/* the log has page events: the pages held's peak */
	int64_t peak_pages;
	uint64_t peak_pages_ns;
};

void write_peak(struct out_dest *o, const struct peak_query *q);

#endif
