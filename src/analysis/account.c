/*
 * account.c - the matching rules of DESIGN.md section 5, applied event by
 * event, keeping each call site's current bytes up to date as it goes so
 * that nothing has to be walked at the end.
 */
#include <string.h>

#include "account.h"
#include "error.h"

void account_init(struct account *a, unsigned families)
{
	memset(a, 0, sizeof(*a));
	a->families = families;
	ptrmap_init(&a->live);
}

void account_release(struct account *a)
{
	ptrmap_release(&a->live);
	ptrmap_rows_release(&a->shared);
	free(a->sites);
	free(a->reallocated);
	memset(a, 0, sizeof(*a));
}

static struct site_stats *site_of(struct account *a, uint32_t id)
{
	if (id >= a->nsites) {
		if (id >= a->sites_cap) {
			uint32_t cap = a->sites_cap ? a->sites_cap : 256;

			while (cap <= id)
				cap *= 2;
			a->sites = xrealloc(a->sites, cap * sizeof(*a->sites));
			a->sites_cap = cap;
		}
		memset(a->sites + a->nsites, 0, (id + 1 - a->nsites) * sizeof(*a->sites));
		a->nsites = id + 1;
	}
	return &a->sites[id];
}

const struct site_stats *account_site(const struct account *a, uint32_t id)
{
	if (id >= a->nsites || a->sites[id].alloc_count == 0)
		return NULL;
	return &a->sites[id];
}

static bool family_wanted(const struct account *a, unsigned kind)
{
	if (kmem_is_malloc_family(kind))
		return a->families & FAMILY_MALLOC;
	return a->families & FAMILY_CACHE;
}

/* The live object leaves: its bytes no longer count as current. */
static void release_live(struct account *a, const struct live_alloc *old, uint64_t ts_ns)
{
	struct site_stats *s = &a->sites[old->call_site];

	s->current_dynamic -= old->bytes_alloc;
	s->current_req -= old->bytes_req;
	if (a->watch)
		peak_watch_change(a->watch, old->call_site, -(int64_t)old->bytes_alloc, -1, ts_ns);
}

/* Site id's live object was allocated again: freed where no tracepoint saw it. */
static void count_reallocated(struct account *a, uint32_t id)
{
	if (id >= a->reallocated_cap) {
		uint32_t cap = a->reallocated_cap ? a->reallocated_cap : 256;

		while (cap <= id)
			cap *= 2;
		a->reallocated = xrealloc(a->reallocated, cap * sizeof(*a->reallocated));
		memset(a->reallocated + a->reallocated_cap, 0,
		       (cap - a->reallocated_cap) * sizeof(*a->reallocated));
		a->reallocated_cap = cap;
	}
	a->reallocated[id]++;
}

/* A successful allocation's counts, before its pointer is looked at. */
static void count_allocation(struct account *a, const struct kmem_event *ev)
{
	struct site_stats *s = site_of(a, ev->call_site);

	s->alloc_count++;
	s->total_dynamic += ev->bytes_alloc;
	s->total_req += ev->bytes_req;
	s->current_dynamic += ev->bytes_alloc;
	s->current_req += ev->bytes_req;
	if (s->current_dynamic > s->peak_dynamic)
		s->peak_dynamic = s->current_dynamic;
	a->totals.allocs++;
	a->totals.bytes_requested += ev->bytes_req;
	a->totals.bytes_allocated += ev->bytes_alloc;
	if (ev->node != NODE_ABSENT && ev->node != -1) {
		a->totals.node_allocs++;
		/* text logs carry no CPU-to-node map: every CPU counts as node 0 */
		a->totals.cross_node += ev->node != 0;
	}
}

/* Shared: the live object at an event's pointer, noted before its owner changes it. */
static void note_live(struct account *a, const struct live_alloc *old)
{
	a->noted.valid = true;
	a->noted.obj = *old;
	a->noted.obj.call_site = ptrmap_row(&a->shared, old);
}

/* Shared: the allocation its owner recorded just now takes its row here. */
static void apply_alloc_shared(struct account *a, const struct kmem_event *ev)
{
	const struct live_alloc *slot = ptrmap_find(a->shared.of, ev->ptr);

	if (a->noted.valid) {	/* as apply_alloc: counted, then the old one leaves */
		count_reallocated(a, a->noted.obj.call_site);
		release_live(a, &a->noted.obj, ev->ts_ns);
		a->totals.implicit_frees++;
	}
	if (slot)
		ptrmap_set_row(&a->shared, slot, ev->call_site);
	if (a->watch)
		peak_watch_change(a->watch, ev->call_site, ev->bytes_alloc, 1, ev->ts_ns);
}

static void apply_alloc(struct account *a, const struct kmem_event *ev)
{
	struct live_alloc *slot;
	int existed;

	if (ev->ptr == 0) {
		a->totals.failed_allocs++;
		return;
	}
	count_allocation(a, ev);
	if (a->shared.of) {
		apply_alloc_shared(a, ev);
		return;
	}
	slot = ptrmap_insert(&a->live, ev->ptr, &existed);
	if (existed) {
		count_reallocated(a, slot->call_site);
		release_live(a, slot, ev->ts_ns);
		a->totals.implicit_frees++;
	}
	slot->call_site = ev->call_site;
	slot->bytes_req = ev->bytes_req;
	slot->bytes_alloc = ev->bytes_alloc;
	slot->ts_ns = ev->ts_ns;
	slot->line = ev->line;
	slot->cpu = (int16_t)ev->cpu;
	slot->kind = ev->kind;
	if (a->watch)	/* after the implicit free of the pointer's last allocation */
		peak_watch_change(a->watch, ev->call_site, ev->bytes_alloc, 1, ev->ts_ns);
}

/* A free of slot, a live object (its row in call_site). */
static void free_live(struct account *a, const struct live_alloc *slot, const struct kmem_event *ev)
{
	release_live(a, slot, ev->ts_ns);
	if (a->lifetimes)
		lifetimes_add(a->lifetimes, slot->call_site,
			      ev->ts_ns > slot->ts_ns ? ev->ts_ns - slot->ts_ns : 0);
	a->sites[slot->call_site].free_count++;
	a->totals.frees++;
	a->totals.bytes_freed += slot->bytes_alloc;
	if (slot->cpu != ev->cpu && slot->cpu != CPU_UNKNOWN && ev->cpu != CPU_UNKNOWN) {
		a->sites[slot->call_site].pingpong++;
		a->totals.pingpong++;
	}
}

static void apply_free(struct account *a, const struct kmem_event *ev)
{
	struct live_alloc *slot;

	if (ev->ptr == 0) {
		a->totals.null_frees++;
		return;
	}
	slot = a->shared.of ? (a->noted.valid ? &a->noted.obj : NULL) : ptrmap_find(&a->live, ev->ptr);
	if (!slot) {
		a->totals.lost_frees++;
		return;
	}
	free_live(a, slot, ev);
	if (!a->shared.of)	/* a shared record is its owner's to remove */
		ptrmap_remove(&a->live, slot);
}

void account_share_live(struct account *a, const struct ptrmap *live)
{
	a->shared.of = live;
}

void account_before(struct account *a, const struct kmem_event *ev)
{
	const struct live_alloc *slot;

	if (!a->shared.of)
		return;
	a->noted.valid = false;
	if (!kmem_is_slab(ev->kind) || !family_wanted(a, ev->kind) || !ev->ptr)
		return;
	slot = ptrmap_find(a->shared.of, ev->ptr);
	if (slot)
		note_live(a, slot);
}

void account_pointer_came_back(struct account *a, const struct kmem_event *ev)
{
	struct live_alloc *slot;

	if (!kmem_is_slab_alloc(ev->kind) || !family_wanted(a, ev->kind) || !ev->ptr)
		return;
	slot = ptrmap_find(&a->live, ev->ptr);
	if (!slot)
		return;
	count_reallocated(a, slot->call_site);
	release_live(a, slot, ev->ts_ns);
	a->totals.implicit_frees++;
	ptrmap_remove(&a->live, slot);
}

bool account_counts_kind(const struct account *a, unsigned kind)
{
	return kmem_is_slab(kind) && family_wanted(a, kind);
}

void account_apply(struct account *a, const struct kmem_event *ev)
{
	if (!kmem_is_slab(ev->kind))
		return;
	if (!family_wanted(a, ev->kind)) {
		a->totals.filtered++;
		return;
	}
	if (kmem_is_slab_alloc(ev->kind))
		apply_alloc(a, ev);
	else
		apply_free(a, ev);
}

uint64_t account_live_bytes(const struct account *a)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < a->nsites; i++)
		sum += a->sites[i].current_dynamic;
	return sum;
}
