/*
 * findings.h - what a log says is odd, as kmemtrace_check told it, and the
 * slab caches' own table; both fed event by event, for --summary.
 *
 * Findings, each counted with the first FINDING_EXAMPLES line numbers:
 *   - an object from kmem_cache_alloc* freed by kfree, or one from
 *     kmalloc* freed by kmem_cache_free (information: SLUB allows it);
 *   - an allocation with bytes_alloc < bytes_req;
 *   - a free of a pointer that was freed before with no allocation of it
 *     in between: of an untraced allocation when the log explains it (a
 *     slab cache's object: its bulk allocation has no event; or events
 *     missing between the two: a lost marker, or FINDINGS_SILENCE_NS with
 *     no event at all, as when tracing was paused), else a double free;
 *   - a timestamp earlier than the one before it on the same CPU;
 *   - lost-event and "buffer started" markers (events the log lacks).
 * They are looked for among all slab events, whatever --malloc/--cache say.
 *
 * Caches: for allocations and frees that name their cache (name=, 6.x),
 * objects allocated, freed (matched to a named allocation) and live, the
 * bytes allocated and requested, and the live bytes and their waste.
 * kmalloc events name no cache: they are counted under the kmalloc cache
 * of their size class as /proc/slabinfo spells it ("kmalloc-1k",
 * "kmalloc-cg-1k" when accounted), in rows of their own that the table
 * says are named so. kmem_cache events with no name= (6.1 prints none on
 * its allocations) are left out of the table and counted.
 * Not here: the account's matching (account.h) or any output format.
 */
#ifndef TA_FINDINGS_H
#define TA_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "output.h"
#include "ptrmap.h"
#include "strtab.h"

#define FINDING_EXAMPLES 5
#define FINDINGS_SILENCE_NS 10000000000ull	/* no event for 10 s: events missing */
#define FINDINGS_CLASS_KEYS 64		/* size classes (14) x accounted= (3), rounded up */

enum finding_kind {
	FIND_CACHE_OBJECT_KFREED,	/* kmem_cache_alloc'd, kfree'd */
	FIND_KMALLOC_CACHE_FREED,	/* kmalloc'd, kmem_cache_free'd */
	FIND_ALLOC_BELOW_REQ,		/* bytes_alloc < bytes_req */
	FIND_UNTRACED_ALLOC_FREE,	/* freed again: its allocation untraced */
	FIND_DOUBLE_FREE,		/* freed again: nothing in the log explains it */
	FIND_TIME_BACKWARDS,
	FIND_LOST_MARKER,
	FIND_KIND_COUNT
};

struct finding {
	uint64_t count;
	uint64_t lines[FINDING_EXAMPLES];	/* the first ones */
	uint64_t related[FINDING_EXAMPLES];	/* the line it relates to (0: none) */
	uint64_t ts[FINDING_EXAMPLES];		/* their timestamps (0: none) */
	uint64_t related_ts[FINDING_EXAMPLES];
	int32_t cpu[FINDING_EXAMPLES];		/* -1: none */
};

struct cache_stats {
	uint64_t allocs, frees;
	uint64_t bytes_alloc, bytes_req;
	uint64_t live, live_bytes, live_req;
};

struct findings {
	struct finding found[FIND_KIND_COUNT];
	struct ptrmap live;		/* slab objects: kind, line, cache (in call_site); unless shared */
	struct ptrmap_rows shared;	/* the account's live objects when the same; their rows */
	struct ptrmap freed;		/* freed and not allocated since: line of the free */
	uint64_t *last_ts;		/* per CPU */
	uint64_t *last_line;
	uint32_t ncpus;
	uint64_t last_event_ts;		/* the latest timestamp of any CPU */
	uint64_t missing_line;		/* the last line after which events are missing */
	struct cache_stats *caches;	/* indexed by cache-name id */
	uint32_t ncaches;
	struct strtab classes;		/* kmalloc caches named by size class */
	struct cache_stats *class_stats;	/* indexed by id in classes */
	uint32_t class_ids[FINDINGS_CLASS_KEYS];	/* (class, accounted) -> id + 1 */
	uint64_t unnamed_allocs;	/* kmem_cache allocations without name= */
};

void findings_init(struct findings *f);
void findings_release(struct findings *f);
/*
 * The account's live objects (live) are the findings': the account sees
 * every slab event they see (no family filter, no task filter). Before
 * any event. Each event then goes to findings_before before the account
 * takes it, and to findings_apply after.
 */
void findings_share_live(struct findings *f, const struct ptrmap *live);
void findings_before(struct findings *f, const struct kmem_event *ev);
void findings_apply(struct findings *f, const struct kmem_event *ev);

/*
 * The findings, then the caches table, as blocks of d; by_time: each example
 * cited by its time and CPU (a binary capture has no text lines to cite).
 */
void findings_report(struct out_doc *d, const struct findings *f, const struct strtab *caches,
		     bool by_time);

#endif
