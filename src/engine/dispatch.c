/*
 * dispatch.c - each event of a run on its way to the passes: into the
 * tick's pairing order, saved (--save-db), through the time window and
 * the task filters (--comm, --pid, --gfp, --module: their frees follow
 * their allocations), then to the running passes' hooks (pass.h); and
 * which fields the run needs parsed. Knows no pass by name.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "engine_local.h"
#include "callsite.h"

/* --time: markers carry no timestamp and are always kept. */
static bool in_time_window(const struct analysis_request *o, const struct kmem_event *ev)
{
	if (!o->has_time_start && !o->has_time_end)
		return true;
	if (ev->kind == KMEM_LOST_EVENTS || ev->kind == KMEM_BUFFER_STARTED)
		return true;
	return (!o->has_time_start || ev->ts_ns >= o->time_start_ns) &&
	       (!o->has_time_end || ev->ts_ns <= o->time_end_ns);
}

/* The log's own span, of every event read, kept or not (--time's warning, --peak-at's check). */
static void note_log_span(struct analysis *r, const struct kmem_event *ev)
{
	if (ev->ts_ns) {
		if (!r->log_first_ns || ev->ts_ns < r->log_first_ns)
			r->log_first_ns = ev->ts_ns;
		if (ev->ts_ns > r->log_last_ns)
			r->log_last_ns = ev->ts_ns;
	}
}

/* --time: is ev in the window? */
static bool kept_by_window(struct analysis *r, const struct kmem_event *ev)
{
	note_log_span(r, ev);
	if (in_time_window(r->req, ev))
		return true;
	r->outside_window++;
	return false;
}

/* Does the allocation match --comm, --pid and --gfp (each given: any of its values)? */
static bool allocation_matches(struct analysis *r, const struct kmem_event *ev)
{
	const struct task_filters *f = &r->req->filters;
	const char *comm = ev->comm != STR_NONE ? strtab_get(&r->strings.comms, ev->comm) : "";
	const char *gfp = ev->gfp != STR_NONE ? strtab_get(&r->strings.gfps, ev->gfp) : "";
	bool ok;
	size_t i;

	for (ok = !f->ncomm, i = 0; !ok && i < f->ncomm; i++)
		ok = strcmp(comm, f->comm[i]) == 0;
	if (!ok)
		return false;
	for (ok = !f->npid, i = 0; !ok && i < f->npid; i++)
		ok = ev->pid == f->pid[i];
	if (!ok)
		return false;
	for (ok = !f->ngfp, i = 0; !ok && i < f->ngfp; i++) {
		size_t n = strlen(f->gfp[i]);
		const char *p;

		for (p = gfp; !ok && (p = strstr(p, f->gfp[i])); p += n)
			ok = (p == gfp || p[-1] == '|') && (p[n] == '\0' || p[n] == '|');
	}
	if (ok && f->ncgroup) {
		enum cgroup_via via = CGROUP_VIA_NONE;
		const char *path = ev->pid >= 0 ? task_cgroup_of(&r->tasks, ev->pid, ev->ts_ns, &via)
						 : NULL;

		if (kmem_is_slab_alloc(ev->kind))
			r->cgroup_via[via]++;
		for (ok = false, i = 0; path && !ok && i < f->ncgroup; i++)
			ok = cgroup_is_within(path, f->cgroup[i]);
	}
	if (ok && f->nmodule) {
		char module[64];

		if (ev->call_site == STR_NONE)
			snprintf(module, sizeof(module), "(no call site)");
		else
			callsite_module(strtab_get(&r->strings.call_sites, ev->call_site),
					strtab_length(&r->strings.call_sites, ev->call_site), &r->syms,
					module, sizeof(module));
		for (ok = false, i = 0; !ok && i < f->nmodule; i++)
			ok = strcmp(module, f->module[i]) == 0;
	}
	return ok;
}

/*
 * --comm, --pid, --gfp: an allocation that does not match is left out and
 * its pointer (a page's pfn) remembered, so that its free, by whatever
 * task, is left out too rather than counted as a lost free; the frees of
 * the kept allocations are never filtered (what a task allocates, others
 * free).
 */
static bool kept_by_filters(struct analysis *r, const struct kmem_event *ev)
{
	bool page = kmem_is_page(ev->kind);
	uint64_t key = page ? ev->pfn | 1ull << 63 : ev->ptr;
	struct live_alloc *gone;
	int existed;

	if (ev->kind == KMEM_PAGE_ALLOC || kmem_is_slab_alloc(ev->kind)) {
		if (!key || (page && ev->pfn == 0))
			return allocation_matches(r, ev);
		gone = ptrmap_find(&r->filtered_out, key);
		if (allocation_matches(r, ev)) {
			if (gone)	/* the pointer, freed unseen, is one of ours now */
				ptrmap_remove(&r->filtered_out, gone);
			return true;
		}
		ptrmap_insert(&r->filtered_out, key, &existed);
		r->filtered_allocs++;
		/* a kept object there was freed unseen: as the unfiltered account says */
		account_pointer_came_back(&r->account, ev);
		if (analysis_runs(r, PASS_ORIGINS))
			account_pointer_came_back(&r->by_key, ev);
		if (analysis_runs(r, PASS_EVENT_KEYS))
			account_pointer_came_back(&r->by_cache, ev);
		return false;
	}
	if (ev->kind == KMEM_PAGE_FREE || kmem_is_slab_free(ev->kind)) {
		gone = key ? ptrmap_find(&r->filtered_out, key) : NULL;
		if (!gone)
			return true;
		ptrmap_remove(&r->filtered_out, gone);
		r->filtered_frees++;
		return false;
	}
	return true;	/* markers, batched page frees, per-CPU drains... */
}

/*
 * tickorder.h's question: is ev's pointer live? Every slab event's, whatever
 * the filters keep: the account's live map when it sees them all, else a
 * map of its own (so the order is the same with --malloc, --comm or --time).
 */
int run_pointer_is_live(void *ctx, const struct kmem_event *ev)
{
	const struct analysis *r = ctx;
	const struct ptrmap *live = r->have_order_live ? &r->order_live : &r->account.live;

	return ptrmap_find(live, ev->ptr) != NULL;
}

/* The order's own live map: what every slab event does to it. */
static void track_order_liveness(struct analysis *r, const struct kmem_event *ev)
{
	struct live_alloc *slot;
	int existed;

	if (!ev->ptr || !kmem_is_slab(ev->kind))
		return;
	if (kmem_is_slab_alloc(ev->kind)) {
		ptrmap_insert(&r->order_live, ev->ptr, &existed)->call_site = 0;
	} else if ((slot = ptrmap_find(&r->order_live, ev->ptr)) != NULL) {
		ptrmap_remove(&r->order_live, slot);
	}
}

/* Every event, in the log's order, through the tick's ordering (tickorder.h). */
void run_consume_event(void *ctx, const struct kmem_event *ev)
{
	tick_order_push(&((struct analysis *)ctx)->ticks, ev);
}

/*
 * Each event in pairing order: saved (--save-db: a DB holds them in that
 * order, its accounts of every family agree with the log's), then kept or
 * not by the filters and the time window, into the running passes (pass.h).
 */
void run_consume_ordered(void *ctx, const struct kmem_event *ev)
{
	struct analysis *r = ctx;
	unsigned i;

	if (r->saving && !r->save_failed &&
	    db_writer_add(r->saving, ev, &r->save_error) < 0)
		r->save_failed = true;
	if (r->have_order_live)
		track_order_liveness(r, ev);
	for (i = 0; i < r->nevery; i++)	/* facts of the log, whatever is kept */
		r->every[i](r, ev);

	if (analysis_time_window_set(r->req)) {
		if (!kept_by_window(r, ev))
			return;
	} else if (r->req->has_peak_at) {
		note_log_span(r, ev);
	}
	if (r->have_filters && !kept_by_filters(r, ev))
		return;
	r->in_window[ev->kind]++;
	if (ev->ts_ns) {
		if (!r->first_ns || ev->ts_ns < r->first_ns)
			r->first_ns = ev->ts_ns;
		if (ev->ts_ns > r->last_ns)
			r->last_ns = ev->ts_ns;
	}
	for (i = 0; i < r->nbefore; i++)
		r->before[i](r, ev);
	for (i = 0; i < r->non_event; i++)
		r->on_event[i](r, ev);
}

/* Does a report need every event, rather than the accounts a DB keeps? */
bool run_needs_event_stream(const struct analysis_request *o)
{
	return analysis_needs_findings(o) || (o->needs & NEED_EVENTS) ||
	       o->has_time_start ||
	       o->has_time_end || analysis_needs_stacks(o) || group_is_by_event_field(o->group_by) ||
	       task_filters_set(&o->filters) ||
	       analysis_needs_timeline(o);
}

/* The optional fields the reports asked for need parsed. */
unsigned run_fields_wanted(const struct analysis_request *o)
{
	unsigned want = o->user_frames ? WANT_USER_FRAMES : 0;

	if (o->save_db)
		return WANT_ALL | want;
	if (analysis_needs_stacks(o))	/* page events too: their stacks are theirs, not another's */
		want |= WANT_STACK | WANT_PAGE;
	if (o->needs & (NEED_PAGES | NEED_PAGE_ACCOUNT))
		want |= WANT_PAGE;
	if (o->group_by == GROUP_CACHE)
		want |= WANT_CACHE_NAME;
	if (o->group_by == GROUP_COMM || o->group_by == GROUP_PID || o->filters.ncomm ||
	    o->filters.npid || o->group_by == GROUP_CGROUP || o->filters.ncgroup)
		want |= WANT_COMM;
	if (o->filters.ngfp)
		want |= WANT_GFP;
	if (o->group_by == GROUP_GFP)
		want |= WANT_GFP;
	/* findings: caches, and page events for the timestamps' order; the timeline: its
	 * slices span every event, pages' too, and its reclaimable counts need the caches'
	 * names, whichever report reads it, alone or beside others */
	if (analysis_needs_findings(o) || analysis_needs_timeline(o))
		want |= WANT_CACHE_NAME | WANT_PAGE;
	if (o->has_time_start || o->has_time_end)
		want |= WANT_PAGE;	/* to count them in the window */
	if (o->needs & NEED_GFP)
		want |= WANT_GFP;
	return want;
}
