/*
 * tracedat_pages.h - a trace.dat's per-CPU pages walked in place, when its
 * layout allows (struct dat_flyrecord): every record handed on in the
 * order tracecmd_iterate_events hands them (earliest timestamp first, the
 * lower CPU on a tie), with the same timestamps, offsets and missed-event
 * counts, but no record allocated, copied or reference-counted per event.
 * Not here: what a record means (tracedat.c), compressed files (libtracecmd).
 */
#ifndef TA_TRACEDAT_PAGES_H
#define TA_TRACEDAT_PAGES_H

#include "tracedat_layout.h"

struct tep_record;

/* Called per record, as tracecmd_iterate_events' callback (no handle); < 0 stops. */
typedef int (*dat_record_fn)(struct tep_record *rec, int cpu, void *ctx);

/* What datpages_iterate returns for a page whose header breaks the kernel's rule (dat_page_ok). */
#define DATPAGES_DAMAGED (-1000)

/*
 * The records of fly's pages in file (size bytes), each page checked as it
 * is loaded: the last callback's value (< 0 stopped it), DATPAGES_DAMAGED
 * at a damaged page, or 0.
 */
int datpages_iterate(const unsigned char *file, uint64_t size, const struct dat_flyrecord *fly,
		     dat_record_fn fn, void *ctx);

#endif
