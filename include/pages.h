/*
 * pages.h - the page allocator's events (--page): mm_page_alloc,
 * mm_page_free, mm_page_free_batched, mm_page_alloc_zone_locked,
 * mm_page_pcpu_drain and mm_page_alloc_extfrag, counted as perf kmem
 * --page stat counts them and a little more.
 *
 * Pages are matched by pfn (by the page pointer when the log has no pfn).
 * An mm_page_alloc whose page is later freed by mm_page_free is an
 * "alloc+freed" request, one never so freed "alloc-only", an mm_page_free
 * of a page not seen allocated "free-only" (perf's three lines); pages
 * freed by mm_page_free_batched are counted on their own and also leave
 * the live set. Sizes assume 4 KiB pages. A page of 0 is a failed request.
 * Not here: slab events, output formats.
 */
#ifndef TA_PAGES_H
#define TA_PAGES_H

#include <stdint.h>

#include "event.h"
#include "output.h"
#include "pagemap.h"
#include "strtab.h"

#define PAGE_ORDERS 11		/* 0 .. MAX_ORDER-1 (10); larger orders go to the last row */
#define PAGE_MIGRATETYPES 6	/* unmovable, movable, reclaimable, highatomic, cma, isolate */

struct page_count {
	uint64_t requests;
	uint64_t pages;		/* 1 << order each */
};

struct page_cpu {
	uint64_t refills, refill_pages;	/* zone_locked with percpu_refill=1 */
	uint64_t drains, drain_pages;	/* mm_page_pcpu_drain */
};

/* Page allocations of one origin key (origins.h). */
struct page_origin {
	uint64_t allocs;
	uint64_t pages;
	uint64_t live_pages;	/* still allocated at the end */
};

struct page_stats {
	struct page_count alloc, free, free_batched, alloc_freed, free_only, failed;
	struct page_count by_order_type[PAGE_ORDERS][PAGE_MIGRATETYPES];
	uint64_t unknown_type;		/* allocations with no migratetype, or one past Isolate */
	struct page_count *by_gfp;	/* indexed by GFP-string id */
	uint32_t ngfp;
	struct page_cpu *cpus;
	uint32_t ncpus;
	uint64_t zone_locked, extfrag, extfrag_fragmenting, extfrag_change_ownership;
	struct pagemap live;		/* key: pfn (or page); id: the origin key */
	struct page_origin *by_key;	/* indexed by origin key */
	uint32_t nkeys;
	uint64_t allocs_with_stack;	/* allocations whose event had a stack */
};

/* The pages of an allocation of that order (a bad order counts one). */
static inline uint64_t pages_of(int order)
{
	return order >= 0 && order < 63 ? 1ull << order : 1;
}

/*
 * How many allocations a page block of that key (pfn, or struct page
 * pointer) stands for: one, or for a block page_owner's show_stacks made up
 * (a pfn from KMEM_PFN_LIMIT, below where kernel pointers start) its
 * pages, each an order-0 page as the file counts them. No trace holds such
 * a key: the readers refuse pfns and page pointers in that range.
 */
static inline uint64_t pages_allocations_in(uint64_t key, int order)
{
	return kmem_page_key_is_made_up(key) ? pages_of(order) : 1;
}

/*
 * --page with --group-by comm, pid, cgroup, module or dir: the page
 * allocations by that row, counted as the origins are (by_key indexed by
 * row id in names); module and dir are those of each stack's origin,
 * found once per stack (stack_row: stack id -> row id + 1).
 */
struct page_rows {
	struct page_stats rows;
	struct strtab names;
	uint32_t *stack_row;
	uint32_t nstack_row;
};

void pages_init(struct page_stats *p);
void pages_release(struct page_stats *p);

/* Apply one page event; key: the origin key of an allocation, or STR_NONE (not kept). */
void pages_apply(struct page_stats *p, const struct kmem_event *ev, uint32_t key);

#endif
