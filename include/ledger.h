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
	bool from_profile;		/* "other pages": allocinfo's sum, no meminfo field's */
};

#define LEDGER_LINES 20

/*
 * The pages the allocation profile tags that no meminfo line counts: a
 * trace's ring buffer, page_owner's page_ext, the stack depot's pools.
 * allocinfo does not say which allocator a site called, so the rule is
 * by evidence: a site is counted here when it holds whole pages (its live
 * bytes a multiple of the page size, at least a page per allocation), its
 * file is none of the allocators whose pages a meminfo line counts
 * (ledger_file_is_counted: slab, percpu, vmalloc, the user pages', page
 * tables', stacks') and vmallocinfo names no vmalloc area of its function.
 * Slab objects of a page's size, large kmallocs, percpu and vmalloc
 * through a wrapper can still pass that rule: how much of the sum that
 * can be is bounded from the files (the overlap_ fields), not guessed.
 */
struct ledger_other {
	bool known;			/* the snapshot has allocinfo */
	uint64_t bytes;			/* the sites' live bytes */
	/* at most this much of bytes may be on another line too */
	uint64_t overlap_slab;		/* slab objects of a page or more (slabinfo), or Slab */
	uint64_t overlap_large_kmalloc;	/* meminfo Slab less slabinfo's slabs */
	uint64_t overlap_percpu;	/* meminfo Percpu */
	uint64_t overlap_vmalloc;	/* vmalloc areas of callers no allocinfo site is of */
	bool slab_bound_is_slab;	/* no slabinfo: the whole of meminfo's Slab */
	bool vmalloc_bound_is_used;	/* no vmallocinfo: the whole of VmallocUsed */
};

struct ledger {
	struct ledger_line lines[LEDGER_LINES];
	unsigned nlines;
	uint64_t total;			/* MemTotal */
	bool stacks_in_vmalloc;		/* vmallocinfo shows thread stacks: taken out of vmalloc */
	bool stacks_unknown;		/* no vmallocinfo to tell */
	uint64_t slab_pages_bytes;	/* slabinfo: the caches' slabs, in bytes */
	uint64_t vmalloc_pages_bytes;	/* vmallocinfo: the vmalloc areas' pages, in bytes */
	struct ledger_other other;	/* the "other pages" line's sites and bounds */
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

/*
 * The other pages of s (ledger_other) into o; is_other, when not NULL,
 * gets 1 for each allocinfo site counted (s->allocinfo->nsites of them).
 */
void ledger_other_pages(struct ledger_other *o, const struct kernel_snapshot *s,
			uint64_t page_size, uint8_t *is_other);

/* The most of o->bytes another line may count too: the bounds' sum, at most o->bytes. */
uint64_t ledger_other_overlap(const struct ledger_other *o);

/* Is path ("mm/slub.c") the source of an allocator whose pages a meminfo line counts? */
bool ledger_file_is_counted(const char *path);

/* Is vmallocinfo caller (a function) the one that allocates thread stacks? */
bool ledger_caller_is_stack(const char *caller);

#endif
