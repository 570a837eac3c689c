/*
 * pages_pass.c - the page allocator's account (pages.h): --page, and the
 * origins of the pages when stacks are read. Its part of a DB: the
 * account, by gfp, CPU and origin key, and its live pages.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static int start_pages(struct analysis *a, struct ta_error *err)
{
	(void)err;
	pages_init(&a->pages);
	return 0;
}

static void count_page(struct analysis *a, const struct kmem_event *ev)
{
	if (!kmem_is_page(ev->kind))
		return;
	pages_apply(&a->pages, ev, analysis_runs(a, PASS_ORIGINS) && ev->kind == KMEM_PAGE_ALLOC
				   ? origin_key(&a->keys, STR_NONE, ev->stack) : STR_NONE);
}

static void release_pages(struct analysis *a)
{
	pages_release(&a->pages);
}

static void pages_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct page_stats);
	sizes[1] = sizeof(struct page_count);
	sizes[2] = sizeof(struct page_cpu);
	sizes[3] = sizeof(struct page_origin);
	sizes[4] = sizeof(struct live_page);
}

static void put_pages(struct db_blob *b, const struct analysis *a)
{
	const struct page_stats *p = &a->pages;
	struct page_stats counts = *p;

	/* its counts; the pointers and the live map are taken from what follows (and
	 * written as zeros: a file holds no address of the run that made it) */
	counts.by_gfp = NULL;
	counts.cpus = NULL;
	counts.by_key = NULL;
	memset(&counts.live, 0, sizeof(counts.live));
	db_put(b, &counts, sizeof(counts));
	db_put_array(b, p->by_gfp, p->ngfp, sizeof(*p->by_gfp));
	db_put_array(b, p->cpus, p->ncpus, sizeof(*p->cpus));
	db_put_array(b, p->by_key, p->nkeys, sizeof(*p->by_key));
	db_put_page_map(b, &p->live);
}

/*
 * The page allocator's account; in a run that reads no stacks it is made
 * as such a run makes it: no origin in it (any key id goes then).
 */
static bool take_pages(struct db_cursor *c, struct analysis *a)
{
	bool keys = analysis_runs(a, PASS_ORIGINS);
	uint32_t nkeys = keys ? origin_key_count(&a->keys) : UINT32_MAX;
	struct page_stats *p = &a->pages, saved;

	if (!db_take_into(c, &saved, sizeof(saved)))
		return false;
	saved.live = p->live;	/* initialised, empty: filled below */
	saved.by_gfp = db_take_array(c, sizeof(*saved.by_gfp), UINT32_MAX, &saved.ngfp);
	saved.cpus = db_take_array(c, sizeof(*saved.cpus), UINT32_MAX, &saved.ncpus);
	saved.by_key = db_take_array(c, sizeof(*saved.by_key), UINT32_MAX, &saved.nkeys);
	*p = saved;
	if (c->problem ||
	    !db_rows_within(c, p->by_gfp, p->ngfp, sizeof(*p->by_gfp), a->strings.gfps.count) ||
	    !db_rows_within(c, p->by_key, p->nkeys, sizeof(*p->by_key), nkeys) ||
	    !db_take_page_map(c, &p->live, nkeys, true))
		return false;
	if (!keys) {
		free(p->by_key);
		p->by_key = NULL;
		p->nkeys = 0;
		p->allocs_with_stack = 0;
		pagemap_set_ids(&p->live, STR_NONE);
	}
	return true;
}

static const struct pass_store pages_store = {
	.version = 2, .sizes = pages_sizes, .put = put_pages, .take = take_pages,
};

const struct analysis_pass pages_pass = {
	.name = "pages",
	.need = NEED_PAGE_ACCOUNT,
	.init = start_pages,
	.event = count_page,
	.release = release_pages,
	.store = &pages_store,
};
