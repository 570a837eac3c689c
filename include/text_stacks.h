/*
 * text_stacks.h - which stack belongs to which event, within one chunk of
 * lines (DESIGN.md section 9).
 *
 * A tracefs "<stack trace>" entry (or trace-cmd's kernel_stack event)
 * belongs to the latest event of the same CPU that has no stack yet: not
 * to the line above it, since the merged output interleaves CPUs, and not
 * always to the CPU's previous item either: an interrupt that comes while
 * an event's stack is being recorded puts its own event and stack in
 * between (E1, E2, S2, S1). So each CPU keeps the events still waiting
 * for a stack, latest first; a stack takes the latest. A CPU forgets all
 * but its STACK_WAIT_MAX latest (nesting is never deeper), and all of them
 * at a lost-events marker. A perf callchain is the block of tab-indented
 * frames right under its event. Other events (rss_stat, sched_*) take
 * part, so that their stacks are never given to a kmem event, and are
 * then dropped.
 *
 * A chunk is paired on its own; what only the next chunk can settle is
 * left in two lists: the events still waiting at its end (tails), and the
 * stack entries that came when no event of their CPU was waiting (leads).
 * The reader gives the next chunk's leads the previous chunk's tails,
 * latest first (text_reader.c). Stacks are interned in the chunk parser's own
 * tables. Not here: what frames mean.
 */
#ifndef TA_TEXT_STACKS_H
#define TA_TEXT_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "text_parse.h"

#define STACK_MAX_FRAMES 4096	/* a deeper "stack" is damage: dropped and counted */
#define STACK_WAIT_MAX 16	/* events of a CPU that may still get a stack */
#define STACK_RECENT_DEPTH 64	/* frames remembered by depth, to skip hashing */
#define USER_FRAMES_MARK "--"	/* the frame between kernel and user frames (--user-frames) */

/* An event still waiting for its stack at the end of a chunk, in log order. */
struct stack_tail {
	int32_t cpu;
	uint32_t event;		/* index in the chunk's events, or UINT32_MAX: not a kmem event */
	bool taken;		/* by a lead of the next chunk */
};

/* A stack entry that came when no event of its CPU was waiting in the chunk. */
struct stack_lead {
	int32_t cpu;
	uint32_t stack;		/* chunk-local stack id, or STACK_NONE: dropped */
};

struct cpu_state {
	uint32_t gen;		/* the chunk it was last set in */
	bool gap;		/* a lost-events marker: earlier events cannot be its */
	uint8_t nwait;
	uint32_t wait[STACK_WAIT_MAX];	/* waiting events, oldest first (UINT32_MAX: other) */
};

struct stack_pairer {
	struct trace_strings *strings;	/* where stacks and frames are interned */
	struct cpu_state *cpus;
	uint32_t ncpus;
	uint32_t gen;
	/* the block being read */
	uint8_t block;		/* enum block_kind */
	int32_t block_cpu;
	uint32_t block_event;	/* a callchain's event, or UINT32_MAX */
	bool block_bad, block_user;
	uint32_t *frames;
	uint32_t nframes, frames_cap;
	/* the last event line, which a callchain may follow */
	bool after_event;
	uint32_t chain_event;
	uint32_t user_mark;	/* frame id of USER_FRAMES_MARK, or STR_NONE */
	uint32_t recent[STACK_RECENT_DEPTH];	/* the last block's frame ids by depth */
	uint32_t *touched;	/* CPU slots set in this chunk */
	uint32_t ntouched, touched_cap;
	/* what the chunk leaves to the next one */
	struct stack_tail *tails;
	uint32_t ntails, tails_cap;
	struct stack_lead *leads;
	uint32_t nleads, leads_cap;
	struct stack_counts *counts;	/* the chunk parser's statistics */
};

void stack_pairer_init(struct stack_pairer *sp, struct trace_strings *strings,
		       struct stack_counts *counts);
void stack_pairer_release(struct stack_pairer *sp);

/* Start a chunk: no CPU has an item in it yet. */
void stack_pairer_begin(struct stack_pairer *sp);

/*
 * One line as parse_line classified it; events[] is the chunk's event
 * array so far, and for LINE_EVENT the line's event is events[nevents-1].
 */
void stack_pairer_line(struct stack_pairer *sp, const struct parser *p, enum line_kind kind,
		       struct kmem_event *events, uint32_t nevents);

/* End the chunk: close the open block, list the tails. */
void stack_pairer_end(struct stack_pairer *sp, struct kmem_event *events);

#endif
