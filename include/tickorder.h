/*
 * tickorder.h - events of one tick of the log's clock, put in an order in
 * which they pair.
 *
 * A text log prints microseconds: two CPUs' events of the same microsecond
 * are printed in an order that need not be the one they happened in. Each
 * CPU's events keep their order; across CPUs, the tick's events are taken
 * in the printed order while they pair (a free of a live pointer, an
 * allocation of one that is not, any other event). When the next printed
 * one would not (a free of a pointer not live, an allocation of a live
 * one), the first event of another CPU that pairs is taken instead, and
 * that CPU's events go on while they pair; then the printed order again.
 * Nothing moves across ticks, and a tick that pairs in its printed order
 * (the slab's free and re-allocation of one pointer) stays as it is.
 * DESIGN section 5.
 *
 * Not here: what liveness is (the caller's is_live) or what the events do.
 */
#ifndef TA_TICKORDER_H
#define TA_TICKORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

struct tick_order {
	struct kmem_event *ev;		/* the tick's events, in the log's order */
	size_t n, cap;
	bool several_cpus;		/* the tick's events are of more than one CPU */
	size_t *next, *heads;		/* each event's next of its CPU; each CPU's next */
	size_t links_cap;
	uint64_t reordered;		/* slab events taken before one printed earlier */
	/* is ev's pointer live now? 1, 0, or -1 unknown (then ev pairs, whatever it is) */
	int (*is_live)(void *ctx, const struct kmem_event *ev);
	void (*apply)(void *ctx, const struct kmem_event *ev);
	void *ctx;
};

void tick_order_init(struct tick_order *t, int (*is_live)(void *, const struct kmem_event *),
		     void (*apply)(void *, const struct kmem_event *), void *ctx);
void tick_order_release(struct tick_order *t);

/* Take ev; the tick before it, once ev starts a new one, is applied in pairing order. */
void tick_order_push(struct tick_order *t, const struct kmem_event *ev);

/* Apply what is held (at the end of the log). */
void tick_order_flush(struct tick_order *t);

#endif
