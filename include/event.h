/*
 * event.h - struct kmem_event: one parsed trace event, the only thing the
 * parser hands on. Whatever the input format (tracefs text, trace_pipe,
 * trace-cmd report, perf script, or the DB file) it becomes this struct.
 * Strings are ids into the string tables of struct trace_strings.
 */
#ifndef TA_EVENT_H
#define TA_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "stacks.h"
#include "strtab.h"

enum kmem_kind {
	KMEM_NONE = 0,
	KMEM_KMALLOC,
	KMEM_KMALLOC_NODE,
	KMEM_CACHE_ALLOC,
	KMEM_CACHE_ALLOC_NODE,
	KMEM_KFREE,
	KMEM_CACHE_FREE,
	KMEM_PAGE_ALLOC,
	KMEM_PAGE_FREE,
	KMEM_PAGE_FREE_BATCHED,
	KMEM_PAGE_ALLOC_ZONE_LOCKED,
	KMEM_PAGE_PCPU_DRAIN,
	KMEM_PAGE_ALLOC_EXTFRAG,
	KMEM_LOST_EVENTS,	/* trace_pipe "CPU:N [LOST M EVENTS]" */
	KMEM_BUFFER_STARTED,	/* "##### CPU N buffer started ####" */
	KMEM_KIND_COUNT
};

#define CALLSITE_TEXT_MAX 1000	/* the longest call_site text an event keeps */
#define NODE_ABSENT INT32_MIN	/* the line had no node= field */
#define CPU_UNKNOWN (-1)

enum accounted_value { ACCOUNTED_ABSENT = 0, ACCOUNTED_FALSE, ACCOUNTED_TRUE };

/*
 * No machine has a page frame number past this (2^52 pages is 16 EiB):
 * a trace's pfn from it on is refused, and page_owner's show_stacks
 * numbers the blocks it makes up from here (pageowner.h).
 */
#define KMEM_PFN_LIMIT (1ull << 52)

/*
 * Is key (a pfn, or a struct page pointer) one no machine has: from
 * KMEM_PFN_LIMIT to where a 64-bit kernel's pointers start. Readers refuse
 * a trace's page pointer there; show_stacks' made-up blocks live there.
 */
static inline bool kmem_page_key_is_made_up(uint64_t key)
{
	return key >= KMEM_PFN_LIMIT && key < (1ull << 63);
}

struct kmem_event {
	uint64_t line;		/* 1-based line number in the input */
	uint64_t ts_ns;		/* timestamp, nanoseconds */
	uint64_t ptr;		/* object (slab) or struct page (page events); 0 = NULL */
	uint64_t pfn;		/* page events; lost-event count for KMEM_LOST_EVENTS */
	uint32_t call_site;	/* id in trace_strings.call_sites, or STR_NONE */
	uint32_t cache;		/* slab cache name= id, or STR_NONE */
	uint32_t gfp;		/* gfp_flags id, or STR_NONE */
	uint32_t comm;		/* task name id, or STR_NONE */
	uint32_t stack;		/* id in trace_strings.stacks, or STACK_NONE */
	uint32_t bytes_req;
	uint32_t bytes_alloc;
	int32_t pid;
	int32_t cpu;		/* CPU_UNKNOWN if the line had no [cpu] */
	int32_t node;		/* NODE_ABSENT if no node= */
	uint16_t kind;		/* enum kmem_kind */
	uint8_t accounted;	/* enum accounted_value */
	int8_t order;		/* page order (alloc_order for extfrag), -1 if absent */
	int8_t migratetype;	/* (alloc_migratetype for extfrag), -1 if absent */
	int8_t fallback_order;		/* extfrag only */
	int8_t fallback_migratetype;	/* extfrag only */
	int8_t percpu_refill;	/* zone_locked; fragmenting for extfrag; -1 absent */
	int8_t change_ownership;	/* extfrag only */
	uint8_t spare[7];	/* zero: no padding, so that two events compare as bytes */
};

/*
 * ev as every reader starts an event of kind: no string (STR_NONE), no
 * stack, no task (pid -1), CPU and node unknown, the page fields absent
 * (-1), every number 0. The one place a blank event is defined.
 */
static inline void kmem_event_init(struct kmem_event *ev, enum kmem_kind kind)
{
	_Static_assert(sizeof(*ev) == 88, "struct kmem_event has no padding");
	ev->line = ev->ts_ns = ev->ptr = ev->pfn = 0;
	ev->call_site = ev->cache = ev->gfp = ev->comm = STR_NONE;
	ev->stack = STACK_NONE;
	ev->bytes_req = ev->bytes_alloc = 0;
	ev->pid = -1;
	ev->cpu = CPU_UNKNOWN;
	ev->node = NODE_ABSENT;
	ev->kind = (uint16_t)kind;
	ev->accounted = ACCOUNTED_ABSENT;
	ev->order = ev->migratetype = ev->fallback_order = ev->fallback_migratetype = -1;
	ev->percpu_refill = ev->change_ownership = -1;
	memset(ev->spare, 0, sizeof(ev->spare));
}

/* The string tables that event ids point into. */
struct trace_strings {
	struct strtab call_sites;
	struct strtab caches;
	struct strtab comms;
	struct strtab gfps;
	struct strtab frames;		/* stack frames: function names or hex addresses */
	struct stack_table stacks;	/* sequences of frame ids */
};

void trace_strings_init(struct trace_strings *s);
void trace_strings_release(struct trace_strings *s);

/* The last kind that is a kernel event (the ones after are markers). */
#define KMEM_LAST_EVENT KMEM_PAGE_ALLOC_EXTFRAG

/* "kmalloc", "kmem_cache_free", ... as the kernel names the event. */
const char *kmem_kind_name(enum kmem_kind kind);

/* The kind of the kmem event named name[0..len) (today's names and older kernels'), or KMEM_NONE. */
enum kmem_kind kmem_kind_of_name(const char *name, size_t len);

static inline bool kmem_is_slab_alloc(unsigned kind)
{
	return kind >= KMEM_KMALLOC && kind <= KMEM_CACHE_ALLOC_NODE;
}

static inline bool kmem_is_slab_free(unsigned kind)
{
	return kind == KMEM_KFREE || kind == KMEM_CACHE_FREE;
}

static inline bool kmem_is_slab(unsigned kind)
{
	return kind >= KMEM_KMALLOC && kind <= KMEM_CACHE_FREE;
}

/* kmalloc, kmalloc_node, kfree: the family --malloc keeps. */
static inline bool kmem_is_malloc_family(unsigned kind)
{
	return kind == KMEM_KMALLOC || kind == KMEM_KMALLOC_NODE || kind == KMEM_KFREE;
}

/* kmem_cache_alloc(_node), kmem_cache_free: the family --cache keeps. */
static inline bool kmem_is_cache_family(unsigned kind)
{
	return kind == KMEM_CACHE_ALLOC || kind == KMEM_CACHE_ALLOC_NODE ||
	       kind == KMEM_CACHE_FREE;
}

static inline bool kmem_is_page(unsigned kind)
{
	return kind >= KMEM_PAGE_ALLOC && kind <= KMEM_PAGE_ALLOC_EXTFRAG;
}

/* The events record and top trace: allocations and frees (not the page allocator's others). */
static inline bool kmem_is_recorded(unsigned kind)
{
	return kmem_is_slab(kind) || kind == KMEM_PAGE_ALLOC || kind == KMEM_PAGE_FREE ||
	       kind == KMEM_PAGE_FREE_BATCHED;
}

#endif
