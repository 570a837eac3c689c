/*
 * sizes_pass.c - the slab allocations the account counts, by requested
 * size (sizes.h), for --sizes. Its state is its own (no member of struct
 * analysis); no part of a DB: a run from a DB replays the events for it.
 */
#include "engine.h"
#include "sizes.h"

static void count_size(struct analysis *a, const struct kmem_event *ev)
{
	if (kmem_is_slab_alloc(ev->kind) && ev->ptr && account_counts_kind(&a->account, ev->kind))
		size_histogram_add(analysis_pass_state(a, PASS_SIZES), ev->bytes_req,
				   ev->bytes_alloc);
}

const struct analysis_pass sizes_pass = {
	.name = "sizes",
	.need = NEED_SIZES,
	.state_size = sizeof(struct size_histogram),
	.event = count_size,
};
