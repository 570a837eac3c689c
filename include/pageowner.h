/*
 * pageowner.h - the kernel's page_owner files read as the page allocations
 * they record (CONFIG_PAGE_OWNER, booted with page_owner=on):
 *
 *   /sys/kernel/debug/page_owner, every allocated page block:
 *     "Page allocated via order O, mask 0xM(FLAGS), pid P, tgid T (COMM), ts NS ns"
 *     "PFN 0xN type MIGRATETYPE Block B type BLOCKTYPE Flags 0xF(FLAGS)"
 *     " func+0xoff/0xsize" ... (its stack, innermost first)
 *     (other lines a kernel adds: "Slab cache page", "Charged ... to memcg ...")
 *     ""
 *   /sys/kernel/debug/page_owner_stacks/show_stacks (6.10 and later), pages per stack:
 *     " func+0xoff/0xsize" ... then "nr_base_pages: N" then ""
 *   page_owner_stacks/show_handles (6.19 and later), pages per stackdepot handle:
 *     "handle: H" then "nr_base_pages: N" then ""
 *   page_owner_stacks/show_stacks_handles (6.19 and later), each stack's handle, no count:
 *     " func+0xoff/0xsize" ... then "handle: H" then ""
 *     (read by page_owner_read_handles, to name show_handles' stacks)
 *
 * Each page block becomes one KMEM_PAGE_ALLOC event (its order, pfn, gfp
 * flags, pid, comm, time, migratetype and stack), each stack of
 * show_stacks N order-0 events with made-up pfns (its pages are held, no
 * pfn is known): still allocated, never freed, so that every page report
 * counts what the dump holds. A record that is not of its form is an error
 * naming its line; a cut last record too.
 *
 * Not here: what the reports do with the events.
 */
#ifndef TA_PAGEOWNER_H
#define TA_PAGEOWNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "event.h"
#include "input.h"

/* The pfns given to show_stacks' pages: none a machine has (event.h). */
#define PAGE_OWNER_STACK_PFN_BASE KMEM_PFN_LIMIT

struct page_owner_facts {
	bool stacks_only;		/* show_stacks: pages per stack, no page of its own */
	bool by_handle;			/* show_handles: pages per stack handle */
	uint64_t records;		/* page blocks, or stacks */
	uint64_t pages;			/* base pages */
	uint64_t extra_lines;		/* "Slab cache page" and other lines passed over */
	uint64_t lines;
};

/* show_stacks_handles read: each stackdepot handle's stack (an id of s->stacks), by handle. */
struct page_owner_handles {
	struct handle_stack {
		uint32_t handle;
		uint32_t stack;
	} *e;
	size_t n, cap;
	uint64_t unknown;	/* show_handles' handles it did not name, summed over the files read */
};

void page_owner_handles_release(struct page_owner_handles *h);

/*
 * A show_stacks_handles file (in, named name) into h, its stacks interned
 * in s: 0, or -1 with err (a line not of the form, a handle given twice
 * with another stack, counts in it: then it is another file).
 */
int page_owner_read_handles(struct input *in, const char *name, struct trace_strings *s,
			    struct page_owner_handles *h, struct ta_error *err);

/* Do n first bytes begin as a page_owner dump, or as show_stacks? */
bool page_owner_is_dump(const unsigned char *head, size_t n);
bool page_owner_is_stacks(const unsigned char *head, size_t n);
bool page_owner_is_file(const unsigned char *head, size_t n);

/*
 * Read the open input (named name) to its end, each page allocation to
 * on_event(ctx, ev), its strings and stack interned in s: 0, or -1 with
 * err (a line not of the form, a cut record, a read error).
 */
/*
 * show_handles' counts are of the stacks handles names (NULL: none given,
 * and a show_handles file is an error saying what to give); a handle it
 * does not name is a stack of its own, one frame "(handle H)", counted in
 * handles->unknown.
 */
int page_owner_read(struct input *in, const char *name, struct trace_strings *s,
		    struct page_owner_handles *handles,
		    void (*on_event)(void *ctx, const struct kmem_event *ev), void *ctx,
		    struct page_owner_facts *facts, struct ta_error *err);

#endif
