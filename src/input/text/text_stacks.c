/*
 * text_stacks.c - pairing stack blocks with events inside a chunk, line by
 * line, as the chunk is parsed; what the next chunk must settle is listed.
 */
#include <string.h>

#include "error.h"
#include "text_stacks.h"

#define CPU_SLOTS 8192		/* NR_CPUS at most; a larger [cpu] is damage */
#define NO_EVENT UINT32_MAX

enum block_kind { BLOCK_NONE, BLOCK_ENTRY, BLOCK_USER, BLOCK_CHAIN };

void stack_pairer_init(struct stack_pairer *sp, struct trace_strings *strings,
		       struct stack_counts *counts)
{
	memset(sp, 0, sizeof(*sp));
	sp->strings = strings;
	sp->counts = counts;
	sp->user_mark = STR_NONE;
	sp->chain_event = NO_EVENT;
	memset(sp->recent, 0xff, sizeof(sp->recent));
}

void stack_pairer_release(struct stack_pairer *sp)
{
	free(sp->cpus);
	free(sp->frames);
	free(sp->tails);
	free(sp->leads);
	free(sp->touched);
	memset(sp, 0, sizeof(*sp));
}

void stack_pairer_begin(struct stack_pairer *sp)
{
	sp->gen++;
	sp->ntails = sp->nleads = sp->ntouched = 0;
	sp->block = BLOCK_NONE;
	sp->nframes = 0;
	sp->after_event = false;
}

/* CPU_UNKNOWN (old logs without "[cpu]") gets a slot of its own. */
static uint32_t slot_of_cpu(int32_t cpu)
{
	if (cpu < 0)
		return CPU_SLOTS;
	return cpu < CPU_SLOTS ? (uint32_t)cpu : UINT32_MAX;
}

/* The CPU's state in this chunk (nothing waiting if it had no item yet), or NULL. */
static struct cpu_state *cpu_state(struct stack_pairer *sp, int32_t cpu)
{
	uint32_t slot = slot_of_cpu(cpu);
	struct cpu_state *st;

	if (slot == UINT32_MAX)
		return NULL;
	if (slot >= sp->ncpus) {
		uint32_t n = sp->ncpus ? sp->ncpus : 8;

		while (n <= slot)
			n *= 2;
		if (n > CPU_SLOTS + 1)
			n = CPU_SLOTS + 1;
		sp->cpus = xrealloc(sp->cpus, n * sizeof(*sp->cpus));
		memset(sp->cpus + sp->ncpus, 0, (n - sp->ncpus) * sizeof(*sp->cpus));
		sp->ncpus = n;
	}
	st = &sp->cpus[slot];
	if (st->gen != sp->gen) {
		st->gen = sp->gen;
		st->gap = false;
		st->nwait = 0;
		if (sp->ntouched == sp->touched_cap) {
			sp->touched_cap = sp->touched_cap ? sp->touched_cap * 2 : 16;
			sp->touched = xrealloc(sp->touched, sp->touched_cap * sizeof(*sp->touched));
		}
		sp->touched[sp->ntouched++] = slot;
	}
	return st;
}

static void push_frame(struct stack_pairer *sp, uint32_t id)
{
	if (sp->nframes == STACK_MAX_FRAMES) {
		sp->block_bad = true;
		return;
	}
	if (sp->nframes == sp->frames_cap) {
		sp->frames_cap = sp->frames_cap ? sp->frames_cap * 2 : 64;
		sp->frames = xrealloc(sp->frames, sp->frames_cap * sizeof(*sp->frames));
	}
	sp->frames[sp->nframes++] = id;
}

static void add_lead(struct stack_pairer *sp, int32_t cpu, uint32_t stack)
{
	if (sp->nleads == sp->leads_cap) {
		sp->leads_cap = sp->leads_cap ? sp->leads_cap * 2 : 16;
		sp->leads = xrealloc(sp->leads, sp->leads_cap * sizeof(*sp->leads));
	}
	sp->leads[sp->nleads].cpu = cpu;
	sp->leads[sp->nleads].stack = stack;
	sp->nleads++;
}

static void give_stack(struct stack_pairer *sp, uint32_t event, uint32_t stack,
		       struct kmem_event *events)
{
	if (event != NO_EVENT) {
		events[event].stack = stack;
		sp->counts->kmem_paired += stack != STACK_NONE;
	} else {
		sp->counts->other_paired += stack != STACK_NONE;
	}
}

/* Give a finished block's stack to whom it belongs. */
static void settle_stack(struct stack_pairer *sp, uint32_t stack, struct kmem_event *events)
{
	struct cpu_state *st;

	if (sp->block == BLOCK_CHAIN) {
		give_stack(sp, sp->block_event, stack, events);
		return;
	}
	st = cpu_state(sp, sp->block_cpu);
	if (!st) {
		sp->counts->orphans += stack != STACK_NONE;
	} else if (st->nwait) {
		give_stack(sp, st->wait[--st->nwait], stack, events);
	} else if (st->gap) {
		sp->counts->orphans += stack != STACK_NONE;
	} else {
		add_lead(sp, sp->block_cpu, stack);	/* its event, if any, is in the chunk before */
	}
}

static void close_block(struct stack_pairer *sp, struct kmem_event *events)
{
	uint32_t stack = STACK_NONE;

	if (sp->block == BLOCK_NONE)
		return;
	if (sp->block == BLOCK_USER) {
		sp->block = BLOCK_NONE;
		sp->nframes = 0;
		return;
	}
	if (sp->block == BLOCK_CHAIN && sp->nframes == 0 && !sp->block_bad) {
		sp->block = BLOCK_NONE;	/* user frames only, not kept: no stack */
		return;
	}
	sp->counts->blocks++;
	if (sp->block_bad || sp->nframes == 0)
		sp->counts->dropped++;
	else
		stack = stack_intern(&sp->strings->stacks, sp->frames, sp->nframes);
	settle_stack(sp, stack, events);
	sp->block = BLOCK_NONE;
	sp->nframes = 0;
}

static void open_block(struct stack_pairer *sp, uint8_t kind, int32_t cpu, uint32_t event)
{
	sp->block = kind;
	sp->block_cpu = cpu;
	sp->block_event = event;
	sp->block_bad = false;
	sp->block_user = false;
	sp->nframes = 0;
}

/*
 * The id of a frame: stacks repeat, so the frame the last block had at
 * this depth is compared first, which spares the hash on most frames.
 */
static uint32_t frame_id(struct stack_pairer *sp, const char *text, size_t len)
{
	const struct strtab *t = &sp->strings->frames;
	uint32_t depth = sp->nframes, id;

	if (depth < STACK_RECENT_DEPTH && sp->recent[depth] != STR_NONE) {
		id = sp->recent[depth];
		if (strtab_length(t, id) == len && memcmp(strtab_get(t, id), text, len) == 0)
			return id;
	}
	id = strtab_intern(&sp->strings->frames, text, len);
	if (depth < STACK_RECENT_DEPTH)
		sp->recent[depth] = id;
	return id;
}

static void add_frame(struct stack_pairer *sp, const struct parser *p, enum line_kind kind)
{
	if (sp->block == BLOCK_NONE) {
		if (!(p->frame_in_chain && sp->after_event)) {
			sp->counts->stray_frames++;
			return;
		}
		open_block(sp, BLOCK_CHAIN, CPU_UNKNOWN, sp->chain_event);
	}
	sp->after_event = false;
	if (sp->block == BLOCK_USER)
		return;
	if (p->frame_in_chain != (sp->block == BLOCK_CHAIN)) {
		sp->block_bad = true;	/* "=> f" lines in a callchain, or the reverse */
		return;
	}
	if (kind == LINE_BAD_FRAME) {
		sp->block_bad = true;
		return;
	}
	if (kind == LINE_USER_FRAME) {
		if (!(p->want & WANT_USER_FRAMES))
			return;
		if (!sp->block_user) {
			if (sp->user_mark == STR_NONE)
				sp->user_mark = strtab_intern(&sp->strings->frames, USER_FRAMES_MARK,
							      sizeof(USER_FRAMES_MARK) - 1);
			push_frame(sp, sp->user_mark);
			sp->block_user = true;
		}
	} else if (sp->block_user) {
		sp->block_bad = true;	/* a kernel frame below user frames */
		return;
	}
	push_frame(sp, frame_id(sp, p->frame, p->frame_len));
}

/* An event line: its CPU now has an event waiting; a callchain may follow. */
static void note_event(struct stack_pairer *sp, int32_t cpu, uint32_t event)
{
	struct cpu_state *st = cpu_state(sp, cpu);

	if (st) {
		if (st->nwait == STACK_WAIT_MAX) {	/* the oldest will not get one */
			memmove(st->wait, st->wait + 1, (STACK_WAIT_MAX - 1) * sizeof(*st->wait));
			st->nwait--;
		}
		st->wait[st->nwait++] = event;
	}
	sp->after_event = true;
	sp->chain_event = event;
}

/* A marker of lost events: no stack that comes next on that CPU is an earlier event's. */
static void note_gap(struct stack_pairer *sp, int32_t cpu)
{
	struct cpu_state *st = cpu_state(sp, cpu);

	if (st) {
		st->nwait = 0;
		st->gap = true;
	}
}

void stack_pairer_line(struct stack_pairer *sp, const struct parser *p, enum line_kind kind,
		       struct kmem_event *events, uint32_t nevents)
{
	if (kind == LINE_FRAME || kind == LINE_USER_FRAME || kind == LINE_BAD_FRAME) {
		if (kind == LINE_BAD_FRAME && sp->block == BLOCK_NONE && !sp->after_event) {
			sp->counts->stray_frames++;
			return;
		}
		add_frame(sp, p, kind);
		return;
	}
	close_block(sp, events);
	sp->after_event = false;
	switch (kind) {
	case LINE_STACK_ENTRY:
		open_block(sp, BLOCK_ENTRY, p->line_cpu, NO_EVENT);
		break;
	case LINE_USER_STACK_ENTRY:
		open_block(sp, BLOCK_USER, p->line_cpu, NO_EVENT);
		sp->counts->user_blocks++;
		break;
	case LINE_EVENT: {
		const struct kmem_event *ev = &events[nevents - 1];

		if (ev->kind == KMEM_LOST_EVENTS || ev->kind == KMEM_BUFFER_STARTED)
			note_gap(sp, ev->cpu);
		else
			note_event(sp, ev->cpu, nevents - 1);
		break;
	}
	case LINE_OTHER_EVENT:
		note_event(sp, p->line_cpu, NO_EVENT);
		break;
	default:
		break;
	}
}

void stack_pairer_end(struct stack_pairer *sp, struct kmem_event *events)
{
	uint32_t i, j;

	close_block(sp, events);
	sp->after_event = false;
	for (i = 0; i < sp->ntouched; i++) {
		const struct cpu_state *st = &sp->cpus[sp->touched[i]];

		for (j = 0; j < st->nwait; j++) {
			if (sp->ntails == sp->tails_cap) {
				sp->tails_cap = sp->tails_cap ? sp->tails_cap * 2 : 16;
				sp->tails = xrealloc(sp->tails, sp->tails_cap * sizeof(*sp->tails));
			}
			sp->tails[sp->ntails].cpu = sp->touched[i] == CPU_SLOTS
						    ? CPU_UNKNOWN : (int32_t)sp->touched[i];
			sp->tails[sp->ntails].event = st->wait[j];
			sp->tails[sp->ntails].taken = false;
			sp->ntails++;
		}
	}
}
