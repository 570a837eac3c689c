/*
 * lifetimereport.h - --lifetimes: per row, how long its objects lived:
 * objects freed and never freed, the share that died within 1 us (a tick
 * of a text log's clock), median, p90 and p99 (lifetimes.h), and a table of
 * counts per power of two of microseconds. Rows whose freed objects mostly
 * die within the microsecond are called short-lived: candidates for a
 * per-CPU cache or the stack. One document of output.h; never the log.
 */
#ifndef TA_LIFETIMEREPORT_H
#define TA_LIFETIMEREPORT_H

#include <stddef.h>

#include "account.h"
#include "lifetimes.h"
#include "output.h"
#include "rows.h"

struct lifetime_query {
	const struct lifetimes *lifetimes;
	const struct account *account;	/* its live map: the objects never freed */
	const struct row_namer *namer;	/* ids of one name are one row */
	const char *group_by;
	size_t top;			/* 0: every row */
};

void write_lifetimes(struct out_dest *o, const struct lifetime_query *q);

#endif
