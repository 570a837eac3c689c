/*
 * ledgerreport.h - the --ledger report of a kernel snapshot (ledger.h):
 * the ledger's lines with their sources and shares of MemTotal, then the
 * slab caches (slabinfo), the vmalloc callers (vmallocinfo) and the
 * cgroups' charges (memory.stat) when the snapshot has them, with how far
 * each finer file agrees with meminfo's line.
 */
#ifndef TA_LEDGERREPORT_H
#define TA_LEDGERREPORT_H

struct out_dest;
struct report_run;

void write_ledger_report(struct out_dest *o, const struct report_run *run);

#endif
