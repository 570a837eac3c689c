/*
 * origins_pass.c - allocations by origin key (call site, stack): who is
 * behind the allocator and its wrappers (origins.h, callchain.h), for
 * --group-by origin and the reports that read stacks. Its part of a DB:
 * the keys, then their account.
 */
#include "engine.h"

static bool wants_stacks(const struct analysis_request *q)
{
	return analysis_needs_stacks(q);
}

static int start_origins(struct analysis *a, struct ta_error *err)
{
	if (callchains_init(&a->chains, &a->strings, &a->syms, a->req->wrappers_path, err) < 0)
		return -1;
	origin_keys_init(&a->keys);
	account_init(&a->by_key, a->req->families);
	if (analysis_needs_slab_origins(a->req) && analysis_account_shareable(a, &a->by_key))
		account_share_live(&a->by_key, &a->account.live);
	return 0;
}

static void origin_before_account(struct analysis *a, const struct kmem_event *ev)
{
	account_before(&a->by_key, ev);
}

/* The slab account by origin, unless only the pages' origins are asked for (--page): it stays empty. */
static void count_origin(struct analysis *a, const struct kmem_event *ev)
{
	if (kmem_is_slab(ev->kind) && analysis_needs_slab_origins(a->req))
		count_by_origin(&a->by_key, &a->keys, ev);
}

/* The stacks' origins named; wrappers given that no stack showed are said. */
static void finish_origins(struct analysis *a)
{
	callchains_update(&a->chains);
	if (a->req->wrappers_path)
		callchains_warn_unmatched_wrappers(&a->chains, a->req->wrappers_path);
}

static void release_origins(struct analysis *a)
{
	callchains_release(&a->chains);
	origin_keys_release(&a->keys);
	account_release(&a->by_key);
}

static void origins_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct live_alloc);
	sizes[1] = sizeof(struct site_stats);
	sizes[2] = sizeof(struct account_totals);
}

static void put_origins(struct db_blob *b, const struct analysis *a)
{
	uint32_t i, n = origin_key_count(&a->keys);

	db_put_u64(b, n);
	for (i = 0; i < n; i++) {
		uint32_t pair[2];

		origin_key_parts(&a->keys, i, &pair[0], &pair[1]);
		db_put(b, pair, sizeof(pair));
	}
	db_put_account(b, &a->by_key);
}

static bool take_keys(struct db_cursor *c, struct origin_keys *k, const struct trace_strings *s)
{
	uint64_t n = db_take_u64(c), i;

	if (n > (uint64_t)(c->end - c->p) / 8)
		return db_fail(c, "its saved origin keys are cut short");
	for (i = 0; i < n && !c->problem; i++) {
		uint32_t pair[2];

		db_take_into(c, pair, sizeof(pair));
		if ((pair[0] >= s->call_sites.count && pair[0] != STR_NONE) ||
		    (pair[1] != STACK_NONE && pair[1] >= s->stacks.count) ||
		    origin_key(k, pair[0], pair[1]) != i)
			return db_fail(c, "its saved origin keys name what it has not");
	}
	return !c->problem;
}

static bool take_origins(struct db_cursor *c, struct analysis *a)
{
	return take_keys(c, &a->keys, &a->strings) &&
	       db_take_account(c, &a->by_key, origin_key_count(&a->keys));
}

static const struct pass_store origins_store = {
	.version = 1, .sizes = origins_sizes, .put = put_origins, .take = take_origins,
};

const struct analysis_pass origins_pass = {
	.name = "origins",
	.need = NEED_STACKS,
	.wanted = wants_stacks,
	.init = start_origins,
	.before = origin_before_account,
	.event = count_origin,
	.finish = finish_origins,
	.release = release_origins,
	.store = &origins_store,
};
