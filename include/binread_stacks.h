/*
 * binread_stacks.h - stacks paired with their events in a stream of binary
 * records (trace.dat, record's raw pages), and the events handed on in
 * order, each with its stack.
 *
 * The rule is the text's (text_stacks.h): a kernel_stack record belongs to
 * the latest event of its CPU still waiting for one (an interrupt nested
 * in the recording of a stack puts its own event and stack in between:
 * E1 E2 S2 S1); a CPU keeps its STACK_WAIT_MAX latest waiting events and
 * forgets them at lost events. Other events (rss_stat ...) take part, so
 * that their stacks go to nobody, and are not handed on. An event is
 * handed on once nothing can still give it a stack: it got one, it was
 * forgotten, or RECPAIR_HOLD records of its CPU came after it (the kernel
 * records a stack right after its event; one that never came will not),
 * and only after every event before it: the order is the stream's.
 * Not here: decoding records (tepkmem.h), what frames mean.
 */
#ifndef TA_BINREAD_STACKS_H
#define TA_BINREAD_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "event.h"
#include "text_parse.h"

#define RECPAIR_HOLD 4096	/* records of a CPU after which a waiting event is given up */

typedef void (*recpair_emit_fn)(void *ctx, const struct kmem_event *ev);

struct recpair_entry;
struct recpair_cpu;

struct recpair {
	struct trace_strings *strings;
	struct stack_counts *counts;	/* blocks, paired, orphans, with and without */
	bool stacks;			/* pair (WANT_STACK); else hand events on at once */
	recpair_emit_fn emit;
	void *ctx;
	struct recpair_entry *q;	/* the events not handed on yet, a ring */
	uint64_t head, tail;		/* sequence numbers: q[seq % cap] */
	uint64_t cap;
	struct recpair_cpu *cpus;
	uint32_t ncpus;
};

void recpair_init(struct recpair *rp, struct trace_strings *strings, struct stack_counts *counts,
		  bool stacks, recpair_emit_fn emit, void *ctx);
void recpair_release(struct recpair *rp);

/* A kmem event (or a lost-events marker, which also forgets its CPU's waiting events). */
void recpair_event(struct recpair *rp, const struct kmem_event *ev);

/* An event of another kind on cpu: it may take a stack, which is then dropped. */
void recpair_other(struct recpair *rp, int32_t cpu);

/* A stack record on cpu: frames[0..n), leaf first (n 0: an empty one, dropped). */
void recpair_stack(struct recpair *rp, int32_t cpu, const uint32_t *frames, uint32_t n);

/* The end: every event still held is handed on. */
void recpair_flush(struct recpair *rp);

#endif
