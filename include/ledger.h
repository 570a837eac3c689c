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
#include "strtab.h"

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

/*
 * What MemTotal leaves out and what stays put: the pages present
 * (zoneinfo) less MemTotal, reserved at boot (the kernel image, struct
 * pages, memblock's reservations); the pages the zones' allocators manage;
 * the modules' sizes (/proc/modules).
 */
struct ledger_static {
	bool has_zones, has_reserved, has_modules;
	uint64_t present_bytes, managed_bytes;
	int64_t reserved_bytes;		/* present - MemTotal */
	uint64_t modules, module_bytes;
	bool has_boot;			/* dmesg's Memory: line */
	struct ksnap_boot_memory boot;
};

void ledger_static_of(struct ledger_static *st, const struct kernel_snapshot *s,
		      uint64_t page_size);

/* What a series' first and last snapshots say of one thing, and of which kind. */
struct ledger_change {
	const char *kind;		/* "ledger", "slab", "vmalloc", "allocinfo", "module", "cgroup" */
	const char *name;		/* in the changes' names */
	int64_t first, last;		/* bytes; 0 where a snapshot has no such thing */
	bool in_first, in_last;
};

struct ledger_changes {
	struct ledger_change *c;
	size_t n, cap;
	struct strtab names;		/* "kind\tname" */
};

/*
 * From a to b (of one boot): every ledger line, slab cache (slabs x
 * pages), vmalloc caller (pages), allocinfo site (bytes), module (size)
 * and cgroup (memory.current; its kernel as "cgroup kernel") either has.
 */
void ledger_changes_of(struct ledger_changes *ch, const struct kernel_snapshot *a,
		       const struct kernel_snapshot *b, uint64_t page_size);
void ledger_changes_release(struct ledger_changes *ch);

/* Is vmallocinfo caller (a function) the one that allocates thread stacks? */
bool ledger_caller_is_stack(const char *caller);

#endif
