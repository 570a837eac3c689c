/*
 * account.h - matching allocations with frees (DESIGN.md section 5) and
 * the per-call-site counters the account file is made of.
 *
 * Rules, in log order: an allocation inserts its ptr; a free removes it
 * and credits the allocating call site's free_count. A free of an unknown
 * ptr is a lost free. An allocation of a ptr still live releases the old
 * one without crediting any free_count (an implicit free). ptr 0 on an
 * allocation is a failed allocation, on a free a null free; both are
 * counted only as such. Not here: names, sorting, output.
 */
#ifndef TA_ACCOUNT_H
#define TA_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "lifetimes.h"
#include "peak.h"
#include "ptrmap.h"

enum account_family {
	FAMILY_MALLOC = 1 << 0,	/* kmalloc, kmalloc_node, kfree */
	FAMILY_CACHE = 1 << 1,	/* kmem_cache_alloc(_node), kmem_cache_free */
	FAMILY_ALL = FAMILY_MALLOC | FAMILY_CACHE,
};

struct site_stats {
	uint64_t total_dynamic;	/* sum of bytes_alloc of its allocations */
	uint64_t total_req;	/* sum of bytes_req of its allocations */
	uint64_t current_dynamic;	/* bytes_alloc of its allocations still live */
	uint64_t current_req;	/* bytes_req of the same */
	uint64_t alloc_count;
	uint64_t free_count;	/* frees that matched one of its allocations */
	uint64_t pingpong;	/* of those, frees on another CPU than the allocation's */
	uint64_t peak_dynamic;	/* the highest current_dynamic it reached */
};

struct account_totals {
	uint64_t allocs;	/* successful allocations */
	uint64_t frees;		/* frees that matched a live allocation */
	uint64_t lost_frees;	/* frees of a ptr not live */
	uint64_t implicit_frees;	/* allocations of a ptr still live */
	uint64_t failed_allocs;	/* allocations returning NULL */
	uint64_t null_frees;	/* kfree(NULL) and the like */
	uint64_t filtered;	/* slab events left out by --malloc/--cache */
	uint64_t bytes_requested;	/* bytes_req of successful allocations */
	uint64_t bytes_allocated;	/* bytes_alloc of the same */
	uint64_t bytes_freed;	/* bytes_alloc of the allocations matched frees freed */
	uint64_t pingpong;	/* matched frees on another CPU than the allocation's */
	uint64_t node_allocs;	/* allocations with node= other than -1 */
	uint64_t cross_node;	/* of those, on another node than their CPU's (node 0) */
};

struct account {
	unsigned families;	/* enum account_family bits */
	struct ptrmap live;
	struct site_stats *sites;	/* indexed by call-site id */
	uint32_t nsites;	/* ids below this have a slot */
	uint32_t sites_cap;
	struct account_totals totals;
	/*
	 * Per call site: its live objects allocated again with no free seen
	 * (the implicit frees it suffered). Not saved in a DB: only the event
	 * replay that --summary makes fills it.
	 */
	uint64_t *reallocated;
	uint32_t reallocated_cap;
	struct peak_watch *watch;	/* told every change of a row's live bytes, or NULL */
	struct lifetimes *lifetimes;	/* told every matched free's lifetime, or NULL */
	/*
	 * Another account's live objects, when they are this one's too (the
	 * same events under other rows: account_share_live), and each
	 * record's row here; live is then empty.
	 */
	struct ptrmap_rows shared;
	struct {			/* the live object at the event's pointer, noted before */
		bool valid;
		struct live_alloc obj;	/* its row here in call_site */
	} noted;
};

void account_init(struct account *a, unsigned families);

/* Tell l (lifetimes.h) how long each object lived whose free matched, from now on. */
static inline void account_time_lifetimes(struct account *a, struct lifetimes *l)
{
	a->lifetimes = l;
}

/* Tell w (peak.h) every change of a row's live bytes and objects from now on. */
static inline void account_watch(struct account *a, struct peak_watch *w)
{
	a->watch = w;
}
void account_release(struct account *a);

/* Apply one event; events that are not slab events are ignored. */
void account_apply(struct account *a, const struct kmem_event *ev);

/*
 * a keeps no live table of its own but reads live, the table of an account
 * that takes the same events before it (same families, no task filter),
 * keeping a row per record beside it. Before any event. Each event then
 * goes to account_before before the owner takes it, and to
 * account_apply after.
 */
void account_share_live(struct account *a, const struct ptrmap *live);
void account_before(struct account *a, const struct kmem_event *ev);

/* The live objects of a: its own, or those it shares. */
static inline const struct ptrmap *account_live(const struct account *a)
{
	return a->shared.of ? a->shared.of : &a->live;
}

/* The row (a's call-site id) of l, a live record of account_live(a). */
static inline uint32_t account_live_row(const struct account *a, const struct live_alloc *l)
{
	return a->shared.of ? ptrmap_row(&a->shared, l) : l->call_site;
}

/* Does a count events of kind (a slab event of its families: --malloc, --cache)? */
bool account_counts_kind(const struct account *a, unsigned kind);

/*
 * ev, an allocation this account does not count (--comm, --pid, --gfp
 * left it out), reuses the pointer of a live object: that object was freed
 * where no tracepoint saw it, an implicit free as if ev had been counted.
 */
void account_pointer_came_back(struct account *a, const struct kmem_event *ev);

/* How many of call site id's live objects were allocated again without a free. */
static inline uint64_t account_reallocated(const struct account *a, uint32_t id)
{
	return id < a->reallocated_cap ? a->reallocated[id] : 0;
}

/* The counters of call site id, or NULL if it never allocated. */
const struct site_stats *account_site(const struct account *a, uint32_t id);

/* The bytes live at the end: every row's current_dynamic, the account's "current bytes allocated". */
uint64_t account_live_bytes(const struct account *a);

#endif
