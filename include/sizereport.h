/*
 * sizereport.h - the --sizes report: slab allocations by requested size
 * (sizes.h), a row per power-of-two range that holds any, with what was
 * asked for, what was given and the waste between them.
 */
#ifndef TA_SIZEREPORT_H
#define TA_SIZEREPORT_H

struct out_dest;
struct report_run;

void write_sizes_report(struct out_dest *o, const struct report_run *run);

#endif
