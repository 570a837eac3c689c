/*
 * text_reader.h - the log's events, in log order, read and parsed on as many
 * threads as pay (DESIGN.md: "use both cores where it pays").
 *
 * Worker threads take chunks of whole lines from the input in turn and
 * parse them with parsers of their own (own string tables, no locks on the
 * hot path); the calling thread, one of the threads asked for, parses
 * chunks too while it has none to hand on, and receives the events in log
 * order, with string ids made global (numbered in order of first sight in
 * the log, so results never depend on thread timing) and absolute line
 * numbers.
 * With one thread the same steps run inline. Knows nothing of accounting.
 */
#ifndef TA_TEXT_READER_H
#define TA_TEXT_READER_H

#include "error.h"
#include "event.h"
#include "input.h"
#include "text_parse.h"

typedef void (*event_fn)(void *ctx, const struct kmem_event *ev);

#define LOOKAHEAD_FAR 16
#define LOOKAHEAD_NEAR 8

/*
 * Told of the events LOOKAHEAD_FAR and LOOKAHEAD_NEAR ahead of the one about
 * to be handed on (either NULL past the batch's end), so that the caller
 * can prefetch what they will touch: one call an event.
 */
typedef void (*lookahead_fn)(void *ctx, const struct kmem_event *far,
			     const struct kmem_event *near);

/* The lookahead of events[i] of n, when fn is set. */
static inline void look_ahead(lookahead_fn fn, void *ctx, const struct kmem_event *events,
			      size_t i, size_t n)
{
	if (fn)
		fn(ctx, i + LOOKAHEAD_FAR < n ? &events[i + LOOKAHEAD_FAR] : NULL,
		   i + LOOKAHEAD_NEAR < n ? &events[i + LOOKAHEAD_NEAR] : NULL);
}

typedef void (*progress_fn)(void *ctx, const struct input *in);

struct read_config {
	struct input *input;		/* opened */
	struct trace_strings *strings;	/* the global tables ids will point into */
	unsigned want;			/* enum parse_want */
	int threads;			/* threads, the calling one included; 0 = one per online CPU (max 4) */
	event_fn on_event;
	lookahead_fn on_lookahead;	/* may be NULL */
	progress_fn on_progress;	/* may be NULL; called after each chunk */
	void *ctx;
};

struct read_result {
	struct parse_stats stats;
	struct trace_header header;
	uint64_t first_malformed_line;	/* 0 if none */
	struct event_names other_events;	/* named when no kmem event was read */
};

/* Read the whole input; 0 at its end, -1 on a read error (err filled). */
int read_events(const struct read_config *cfg, struct read_result *out, struct ta_error *err);

#endif
