/*
 * event_keys_pass.c - allocations by a field of the event itself
 * (--group-by cache, size-class, comm, pid, gfp, module: regroup.h), and
 * the kmem_cache_alloc events that name no cache. No part of a DB: a run
 * grouped so replays the events.
 */
#include "engine.h"

static bool grouped_by_event_field(const struct analysis_request *q)
{
	return group_is_by_event_field(q->group_by);
}

static int start_event_keys(struct analysis *a, struct ta_error *err)
{
	static const enum event_key key_of[] = {
		[GROUP_CACHE] = KEY_CACHE, [GROUP_SIZE_CLASS] = KEY_SIZE_CLASS,
		[GROUP_COMM] = KEY_COMM, [GROUP_PID] = KEY_PID, [GROUP_GFP] = KEY_GFP,
		[GROUP_MODULE] = KEY_MODULE, [GROUP_CGROUP] = KEY_CGROUP,
	};

	(void)err;
	a->cache_key = key_of[a->req->group_by];
	strtab_init(&a->cache_keys);
	account_init(&a->by_cache, a->req->families);
	if (analysis_account_shareable(a, &a->by_cache))
		account_share_live(&a->by_cache, &a->account.live);
	return 0;
}

static void event_key_before_account(struct analysis *a, const struct kmem_event *ev)
{
	account_before(&a->by_cache, ev);
}

static void count_event_key(struct analysis *a, const struct kmem_event *ev)
{
	struct event_key_context ctx = {
		&a->syms, &a->tasks, a->req->filters.ncgroup ? NULL : a->cgroup_via,
	};

	if (!kmem_is_slab(ev->kind))
		return;
	count_by_event_key(&a->by_cache, &a->cache_keys, &a->strings, ev, a->cache_key, &ctx);
	if (a->cache_key == KEY_CACHE && ev->cache == STR_NONE &&
	    kmem_is_cache_family(ev->kind) && kmem_is_slab_alloc(ev->kind))
		a->unnamed_cache_allocs++;
}

static void release_event_keys(struct analysis *a)
{
	strtab_release(&a->cache_keys);
	account_release(&a->by_cache);
}

const struct analysis_pass event_keys_pass = {
	.name = "event-keys",
	.wanted = grouped_by_event_field,
	.init = start_event_keys,
	.before = event_key_before_account,
	.event = count_event_key,
	.release = release_event_keys,
};
