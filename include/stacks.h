/*
 * stacks.h - call chains interned once: a stack is a sequence of frame
 * ids (leaf first, as the log prints them) and gets a dense id, like a
 * string of strtab.h. A log repeats the same few thousand chains millions
 * of times, so memory grows with distinct stacks, never with events.
 *
 * Frames themselves are strings (trace_strings.frames): the function as
 * printed, its "+0xoff/0xsize" dropped, or a bare hex address to resolve
 * later. What a frame means (allocator, wrapper, origin) is callchain.h's.
 * Not thread-safe; no removal.
 */
#ifndef TA_STACKS_H
#define TA_STACKS_H

#include <stddef.h>
#include <stdint.h>

#define STACK_NONE UINT32_MAX

struct stack_table {
	uint32_t *frames;	/* every stack's frame ids, one after the other */
	size_t nframes, frames_cap;
	uint64_t *start;	/* id -> index of its first frame; start[count] = nframes */
	uint32_t count, cap;
	uint32_t *slots;	/* hash index: id + 1, 0 = empty */
	uint32_t nslots;	/* power of two */
};

void stack_table_init(struct stack_table *t);
void stack_table_release(struct stack_table *t);

/* The id of the stack frames[0..n), adding it if new. */
uint32_t stack_intern(struct stack_table *t, const uint32_t *frames, uint32_t n);

/* The frames of stack id, leaf first; *n gets their number. */
static inline const uint32_t *stack_frames(const struct stack_table *t, uint32_t id, uint32_t *n)
{
	*n = (uint32_t)(t->start[id + 1] - t->start[id]);
	return t->frames + t->start[id];
}

/*
 * Fill t (empty) from a binary file's copy: count stacks whose frame
 * counts are lengths[0..count) and whose frames follow in frames[0..n).
 * NULL on success, else what is wrong (a frame id >= nframe_ids, sizes
 * that do not add up).
 */
const char *stack_table_load(struct stack_table *t, const uint32_t *lengths, uint64_t count,
			     const uint32_t *frames, uint64_t n, uint32_t nframe_ids);

#endif
