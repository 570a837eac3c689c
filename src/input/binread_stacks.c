/*
 * binread_stacks.c - pairing stack records with events in a binary record stream
 * (binread_stacks.h): a ring of the events not handed on yet, and per CPU the
 * sequence numbers of those still waiting for a stack, latest last.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "binread_stacks.h"
#include "text_stacks.h"

#define CPUS_MAX 8192		/* NR_CPUS at most; events of a larger CPU are not paired */

struct recpair_entry {
	struct kmem_event ev;
	bool kmem;		/* else another event, only there to take its stack */
	bool waiting;		/* in its CPU's waiting list */
	uint64_t cpu_seq;	/* its CPU's record count when it came */
};

struct recpair_cpu {
	uint64_t wait[STACK_WAIT_MAX];	/* sequence numbers, oldest first */
	uint8_t nwait;
	bool gap;		/* lost events: stacks with nothing waiting are orphans */
	uint64_t records;
};

void recpair_init(struct recpair *rp, struct trace_strings *strings, struct stack_counts *counts,
		  bool stacks, recpair_emit_fn emit, void *ctx)
{
	memset(rp, 0, sizeof(*rp));
	rp->strings = strings;
	rp->counts = counts;
	rp->stacks = stacks;
	rp->emit = emit;
	rp->ctx = ctx;
}

void recpair_release(struct recpair *rp)
{
	free(rp->q);
	free(rp->cpus);
	memset(rp, 0, sizeof(*rp));
}

static struct recpair_cpu *cpu_of(struct recpair *rp, int32_t cpu)
{
	if (cpu < 0 || cpu >= CPUS_MAX)
		return NULL;
	if ((uint32_t)cpu >= rp->ncpus) {
		uint32_t n = rp->ncpus ? rp->ncpus : 8;

		while (n <= (uint32_t)cpu)
			n *= 2;
		rp->cpus = xrealloc(rp->cpus, n * sizeof(*rp->cpus));
		memset(rp->cpus + rp->ncpus, 0, (n - rp->ncpus) * sizeof(*rp->cpus));
		rp->ncpus = n;
	}
	return &rp->cpus[cpu];
}

static struct recpair_entry *entry(struct recpair *rp, uint64_t seq)
{
	return &rp->q[seq % rp->cap];
}

static void hand_on(struct recpair *rp, const struct kmem_event *ev)
{
	if (rp->stacks && ev->kind != KMEM_LOST_EVENTS && ev->kind != KMEM_BUFFER_STARTED) {
		if (ev->stack == STACK_NONE)
			rp->counts->events_without++;
		else
			rp->counts->events_with++;
	}
	rp->emit(rp->ctx, ev);
}

/* Drop the CPU's oldest waiting event from its list (it can get no stack now). */
static void forget_oldest(struct recpair *rp, struct recpair_cpu *c)
{
	entry(rp, c->wait[0])->waiting = false;
	memmove(c->wait, c->wait + 1, (size_t)(c->nwait - 1) * sizeof(c->wait[0]));
	c->nwait--;
}

/* Hand on the events at the head that nothing can still give a stack. */
static void hand_on_settled(struct recpair *rp)
{
	while (rp->head < rp->tail) {
		struct recpair_entry *e = entry(rp, rp->head);

		if (e->waiting) {
			struct recpair_cpu *c = cpu_of(rp, e->ev.cpu);

			if (!c || c->records - e->cpu_seq < RECPAIR_HOLD)
				return;
			forget_oldest(rp, c);	/* the head is its CPU's oldest waiting */
		}
		if (e->kmem)
			hand_on(rp, &e->ev);
		rp->head++;
	}
}

static void grow(struct recpair *rp)
{
	uint64_t cap = rp->cap ? rp->cap * 2 : 1024, s;
	struct recpair_entry *q = xmalloc(cap * sizeof(*q));

	for (s = rp->head; s < rp->tail; s++)
		q[s % cap] = rp->q[s % rp->cap];
	free(rp->q);
	rp->q = q;
	rp->cap = cap;
}

/* Queue an event (kmem or not) waiting for its stack on its CPU. */
static void queue(struct recpair *rp, const struct kmem_event *ev, bool kmem)
{
	struct recpair_cpu *c = cpu_of(rp, ev->cpu);
	struct recpair_entry *e;

	if (c)
		c->records++;
	if (rp->tail - rp->head == rp->cap)
		grow(rp);
	e = entry(rp, rp->tail);
	e->ev = *ev;
	e->kmem = kmem;
	e->waiting = c != NULL;
	e->cpu_seq = c ? c->records : 0;
	if (c) {
		if (c->nwait == STACK_WAIT_MAX)
			forget_oldest(rp, c);
		c->wait[c->nwait++] = rp->tail;
		c->gap = false;
	}
	rp->tail++;
	hand_on_settled(rp);
}

void recpair_event(struct recpair *rp, const struct kmem_event *ev)
{
	struct recpair_cpu *c;

	if (!rp->stacks) {
		hand_on(rp, ev);
		return;
	}
	if (ev->kind == KMEM_LOST_EVENTS || ev->kind == KMEM_BUFFER_STARTED) {
		c = cpu_of(rp, ev->cpu);
		if (c) {
			while (c->nwait)
				forget_oldest(rp, c);
			c->gap = true;
		}
		if (rp->tail - rp->head == rp->cap)
			grow(rp);
		entry(rp, rp->tail)->ev = *ev;
		entry(rp, rp->tail)->kmem = true;
		entry(rp, rp->tail)->waiting = false;
		rp->tail++;
		hand_on_settled(rp);
		return;
	}
	queue(rp, ev, true);
}

void recpair_other(struct recpair *rp, int32_t cpu)
{
	struct kmem_event ev;

	if (!rp->stacks)
		return;
	kmem_event_init(&ev, KMEM_NONE);
	ev.cpu = cpu;
	queue(rp, &ev, false);
}

void recpair_stack(struct recpair *rp, int32_t cpu, const uint32_t *frames, uint32_t n)
{
	struct recpair_cpu *c;
	uint32_t stack = STACK_NONE;

	if (!rp->stacks)
		return;
	rp->counts->blocks++;
	if (n == 0 || n > STACK_MAX_FRAMES)
		rp->counts->dropped++;
	else
		stack = stack_intern(&rp->strings->stacks, frames, n);
	c = cpu_of(rp, cpu);
	if (c)
		c->records++;
	if (!c || !c->nwait) {
		rp->counts->orphans += stack != STACK_NONE;
	} else {
		struct recpair_entry *e = entry(rp, c->wait[--c->nwait]);

		e->waiting = false;
		if (e->kmem) {
			e->ev.stack = stack;
			rp->counts->kmem_paired += stack != STACK_NONE;
		} else {
			rp->counts->other_paired += stack != STACK_NONE;
		}
	}
	hand_on_settled(rp);
}

void recpair_flush(struct recpair *rp)
{
	uint32_t i;

	for (i = 0; i < rp->ncpus; i++)
		rp->cpus[i].nwait = 0;
	for (; rp->head < rp->tail; rp->head++) {
		struct recpair_entry *e = entry(rp, rp->head);

		if (e->kmem)
			hand_on(rp, &e->ev);
	}
}
