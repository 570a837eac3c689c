/*
 * tickorder.c - one tick's events applied in an order in which they pair
 * (tickorder.h). Not here: liveness, or what applying an event does.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "tickorder.h"

void tick_order_init(struct tick_order *t, int (*is_live)(void *, const struct kmem_event *),
		     void (*apply)(void *, const struct kmem_event *), void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->is_live = is_live;
	t->apply = apply;
	t->ctx = ctx;
}

void tick_order_release(struct tick_order *t)
{
	free(t->ev);
	free(t->next);
	free(t->heads);
	memset(t, 0, sizeof(*t));
}

/* Would ev pair now: a free of a live pointer, an allocation of one not live, anything else? */
static bool pairs_now(const struct tick_order *t, const struct kmem_event *ev)
{
	int live;

	if (!ev->ptr || ev->cpu == CPU_UNKNOWN ||
	    (!kmem_is_slab_free(ev->kind) && !kmem_is_slab_alloc(ev->kind)))
		return true;
	live = t->is_live(t->ctx, ev);
	return live < 0 || (live == 1) == kmem_is_slab_free(ev->kind);
}

/* Each CPU's first event of the tick, and each event's next one of its CPU. */
static size_t find_heads(struct tick_order *t)
{
	size_t i, h, nheads = 0;

	if (t->links_cap < t->n) {
		t->links_cap = t->cap;
		t->next = xrealloc(t->next, t->links_cap * sizeof(*t->next));
		t->heads = xrealloc(t->heads, t->links_cap * sizeof(*t->heads));
	}
	for (i = t->n; i-- > 0;) {
		for (h = 0; h < nheads && t->ev[t->heads[h]].cpu != t->ev[i].cpu; h++)
			;
		t->next[i] = h < nheads ? t->heads[h] : t->n;
		if (h == nheads)
			nheads++;
		t->heads[h] = i;
	}
	return nheads;
}

/* Which head to take: the print order's first, unless it would not pair (see tickorder.h). */
static size_t choose(struct tick_order *t, size_t nheads, size_t *follow)
{
	size_t h, first = nheads, fit = nheads;

	if (*follow < nheads && t->heads[*follow] < t->n &&
	    pairs_now(t, &t->ev[t->heads[*follow]]))
		return *follow;
	*follow = nheads;
	for (h = 0; h < nheads; h++) {
		if (t->heads[h] >= t->n)
			continue;
		if (first == nheads || t->heads[h] < t->heads[first])
			first = h;
	}
	if (pairs_now(t, &t->ev[t->heads[first]]))
		return first;
	for (h = 0; h < nheads; h++)
		if (t->heads[h] < t->n && pairs_now(t, &t->ev[t->heads[h]]) &&
		    (fit == nheads || t->heads[h] < t->heads[fit]))
			fit = h;
	if (fit == nheads)
		return first;
	*follow = fit;		/* that CPU's run goes on while it pairs */
	return fit;
}

void tick_order_flush(struct tick_order *t)
{
	size_t nheads, taken, h, follow, i, earliest;

	if (!t->several_cpus) {	/* one CPU's events: their order is the one they happened in */
		for (i = 0; i < t->n; i++)
			t->apply(t->ctx, &t->ev[i]);
		t->n = 0;
		return;
	}
	t->several_cpus = false;
	nheads = find_heads(t);
	follow = nheads;
	for (taken = 0; taken < t->n; taken++) {
		h = choose(t, nheads, &follow);
		i = t->heads[h];
		for (earliest = 0; earliest < nheads; earliest++)
			if (t->heads[earliest] < i)
				break;
		if (earliest < nheads && kmem_is_slab(t->ev[i].kind))
			t->reordered++;	/* taken before an event printed earlier */
		t->apply(t->ctx, &t->ev[i]);
		t->heads[h] = t->next[i];
	}
	t->n = 0;
}

void tick_order_push(struct tick_order *t, const struct kmem_event *ev)
{
	if (t->n && (ev->ts_ns != t->ev[0].ts_ns || !ev->ts_ns))
		tick_order_flush(t);
	if (!ev->ts_ns) {	/* no clock: no tick to order within */
		t->apply(t->ctx, ev);
		return;
	}
	if (t->n && ev->cpu != t->ev[0].cpu)
		t->several_cpus = true;
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->ev = xrealloc(t->ev, t->cap * sizeof(*t->ev));
	}
	t->ev[t->n++] = *ev;
}
