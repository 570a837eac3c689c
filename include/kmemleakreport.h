/*
 * kmemleakreport.h - kmemleak's report beside a trace (--kmemleak REPORT):
 * each object it reports found among the trace's allocations still live at
 * its end, by address where the trace prints raw pointers (a kernel booted
 * with no_hash_pointers), else by what both carry (the call site and the
 * size); the summary says how many, at which call sites, and lists every
 * object with the rule that matched it, or none. A kmemleak that reports
 * nothing is said so: no leak is made up.
 * Not here: reading the report (kmemleak.h).
 */
#ifndef TA_KMEMLEAKREPORT_H
#define TA_KMEMLEAKREPORT_H

#include "engine.h"
#include "output.h"
#include "suspects.h"

/* The addresses of the trace's live allocations kmemleak's objects were found to be (by either rule), into h. */
void kmemleak_hits_of(const struct analysis *a, struct kmemleak_hits *h);
void kmemleak_hits_release(struct kmemleak_hits *h);

/* The kmemleak blocks of the summary document d. */
void kmemleak_beside_report(struct out_doc *d, const struct analysis *a);

#endif
