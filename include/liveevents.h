/*
 * liveevents.h - a capture's items (capture.h) made kmem events, decoded
 * (tepkmem.h) and paired with their stacks (binread_stacks.h) as a log's are, for
 * every command that reads the running kernel: record's analysis (the
 * engine) and top. The one place live records are decoded.
 *
 * Not here: what the events mean (the accounts), or the capture itself.
 */
#ifndef TA_LIVEEVENTS_H
#define TA_LIVEEVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "capture.h"
#include "text_parse.h"
#include "binread_stacks.h"
#include "tepkmem.h"

struct live_events {
	struct tepkmem k;
	struct recpair pair;
	struct parse_stats *stats;	/* events, lines, lost, malformed, others counted here */
	uint64_t line;			/* the lines of the capture's log so far */
};

/*
 * Start decoding c's items into kmem events with the fields of want
 * (text_parse.h), handed to emit(ctx, ev) in order, each with its stack when
 * stacks; counted into stats (with the stack pairing's counts).
 */
void live_events_init(struct live_events *l, struct capture *c, struct trace_strings *strings,
		      unsigned want, bool stacks, struct parse_stats *stats,
		      recpair_emit_fn emit, void *ctx);

/*
 * One item: a record or a loss. lines: what it made in the capture's log
 * (0 when there is none: then as it would, a line and one per frame), so
 * that events carry the log's line numbers.
 */
void live_events_take(struct live_events *l, const struct capture_item *it, size_t lines);

/* Hand on what waits for its stack (at the end). */
void live_events_flush(struct live_events *l);

void live_events_release(struct live_events *l);

#endif
