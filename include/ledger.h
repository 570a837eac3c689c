/*
 * ledger.h - where a machine's memory went, from a kernel snapshot
 * (ksnapshot.h): MemTotal split into free, user and kernel lines, each
 * with the meminfo fields it is the sum of, and "unexplained", what is
 * left (MemTotal minus every other line: pages the kernel took without a
 * counter of their own, a trace's ring buffer for one). Under the kernel's
 * lines, what finer files say they are made of: slab by cache
 * (slabinfo), vmalloc by caller (vmallocinfo); and what each cgroup is
 * charged (memory.stat). Sums are 64-bit and never wrap: a line a
 * snapshot lacks the field of is absent, not zero.
 */
#ifndef TA_LEDGER_H
#define TA_LEDGER_H

#include <stdbool.h>
#include <stdint.h>

#include "ksnapshot.h"

enum ledger_part { LEDGER_TOTAL, LEDGER_FREE, LEDGER_USER, LEDGER_KERNEL, LEDGER_UNEXPLAINED };

struct ledger_line {
	const char *name;		/* "slab unreclaimable" */
	enum ledger_part part;
	uint64_t bytes;
	int64_t signed_bytes;		/* unexplained: may be below zero (counters overlap) */
	char source[160];		/* "meminfo: SUnreclaim", or the rule */
};

#define LEDGER_LINES 20

struct ledger {
	struct ledger_line lines[LEDGER_LINES];
	unsigned nlines;
	uint64_t total;			/* MemTotal */
	bool stacks_in_vmalloc;		/* vmallocinfo shows thread stacks: taken out of vmalloc */
	bool stacks_unknown;		/* no vmallocinfo to tell */
	uint64_t slab_pages_bytes;	/* slabinfo: the caches' slabs, in bytes */
	uint64_t vmalloc_pages_bytes;	/* vmallocinfo: the vmalloc areas' pages, in bytes */
	char absent[256];		/* meminfo fields a line needs that it lacks: "Percpu, ..." */
};

/*
 * The ledger of s, pages of page_size bytes (slabinfo's and vmallocinfo's
 * counts): 0, or -1 with err when s has no MemTotal.
 */
int ledger_make(struct ledger *l, const struct kernel_snapshot *s, uint64_t page_size,
		struct ta_error *err);

/* Is vmallocinfo caller (a function) the one that allocates thread stacks? */
bool ledger_caller_is_stack(const char *caller);

#endif
