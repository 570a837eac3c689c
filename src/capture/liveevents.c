/*
 * liveevents.c - a capture's items into kmem events (liveevents.h): each
 * record decoded by tepkmem.h, a loss made a lost-events marker, and all
 * paired with their stacks by binread_stacks.h, counted as a log's lines are.
 * Not here: reading the capture, or the accounts.
 */
#include <string.h>

#include "liveevents.h"

void live_events_init(struct live_events *l, struct capture *c, struct trace_strings *strings,
		      unsigned want, bool stacks, struct parse_stats *stats,
		      recpair_emit_fn emit, void *ctx)
{
	memset(l, 0, sizeof(*l));
	l->stats = stats;
	tepkmem_init(&l->k, capture_tep(c), strings, want, capture_resolve, c);
	recpair_init(&l->pair, strings, &stats->stacks, stacks, emit, ctx);
}

/* A lost-events marker for a page the kernel said followed a loss. */
static void take_loss(struct live_events *l, const struct capture_item *it)
{
	struct kmem_event ev;

	kmem_event_init(&ev, KMEM_LOST_EVENTS);
	ev.line = l->line + 1;
	ev.cpu = it->cpu;
	ev.pfn = it->lost > 0 ? (uint64_t)it->lost : 0;
	l->stats->events[KMEM_LOST_EVENTS]++;
	l->stats->lost_events += ev.pfn;
	recpair_event(&l->pair, &ev);
}

/* A record decoded and paired; the number of frames of a stack record. */
static uint32_t take_record(struct live_events *l, const struct capture_item *it)
{
	struct kmem_event ev;
	const uint32_t *frames;
	uint32_t n = 0;

	switch (tepkmem_decode(&l->k, it->rec, &ev)) {
	case TEPKMEM_EVENT:
		ev.line = l->line + 1;
		l->stats->events[ev.kind]++;
		if (kmem_is_page(ev.kind) && !(l->k.want & WANT_PAGE))
			recpair_other(&l->pair, it->cpu);
		else
			recpair_event(&l->pair, &ev);
		break;
	case TEPKMEM_STACK:
		frames = tepkmem_stack(&l->k, &n);
		recpair_stack(&l->pair, it->cpu, frames, n);
		return n;
	case TEPKMEM_MALFORMED:
		l->stats->malformed++;
		recpair_other(&l->pair, it->cpu);
		break;
	default:
		l->stats->other_events++;
		recpair_other(&l->pair, it->cpu);
		break;
	}
	return 0;
}

void live_events_take(struct live_events *l, const struct capture_item *it, size_t lines)
{
	uint32_t frames = 0;

	if (it->rec)
		frames = take_record(l, it);
	else
		take_loss(l, it);
	if (!lines)
		lines = 1 + frames;	/* an event line; a stack's entry and a line per frame */
	if (it->is_stack)
		l->stats->stack_lines += lines;
	l->stats->lines += lines;
	l->line += lines;
}

void live_events_flush(struct live_events *l)
{
	recpair_flush(&l->pair);
}

void live_events_release(struct live_events *l)
{
	recpair_release(&l->pair);
	tepkmem_release(&l->k);
}
