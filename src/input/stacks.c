/*
 * stacks.c - interning of frame-id sequences: one flat array of frames,
 * an offset per stack, an open-addressing index hashed with XXH3.
 */
#include <string.h>
#include <xxhash.h>

#include "error.h"
#include "stacks.h"

void stack_table_init(struct stack_table *t)
{
	memset(t, 0, sizeof(*t));
	t->nslots = 64;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
	t->cap = 64;
	t->start = xmalloc((t->cap + 1) * sizeof(*t->start));
	t->start[0] = 0;
}

void stack_table_release(struct stack_table *t)
{
	free(t->frames);
	free(t->start);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static uint32_t slot_of(const struct stack_table *t, const uint32_t *frames, uint32_t n)
{
	return (uint32_t)XXH3_64bits(frames, (size_t)n * sizeof(*frames)) & (t->nslots - 1);
}

static int same_stack(const struct stack_table *t, uint32_t id, const uint32_t *frames,
		      uint32_t n)
{
	uint32_t len;
	const uint32_t *f = stack_frames(t, id, &len);

	return len == n && memcmp(f, frames, (size_t)n * sizeof(*frames)) == 0;
}

static void grow_index(struct stack_table *t)
{
	uint32_t id;

	free(t->slots);
	t->nslots *= 2;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
	for (id = 0; id < t->count; id++) {
		uint32_t n;
		const uint32_t *f = stack_frames(t, id, &n);
		uint32_t i = slot_of(t, f, n);

		while (t->slots[i])
			i = (i + 1) & (t->nslots - 1);
		t->slots[i] = id + 1;
	}
}

static uint32_t append_stack(struct stack_table *t, const uint32_t *frames, uint32_t n)
{
	if (t->count == UINT32_MAX - 1)
		xmalloc(SIZE_MAX);	/* over 4 G stacks: out of memory in effect */
	if (t->nframes + n > t->frames_cap) {
		size_t cap = t->frames_cap ? t->frames_cap : 1024;

		while (cap < t->nframes + n)
			cap *= 2;
		t->frames = xrealloc(t->frames, cap * sizeof(*t->frames));
		t->frames_cap = cap;
	}
	if (t->count == t->cap) {
		t->cap *= 2;
		t->start = xrealloc(t->start, ((size_t)t->cap + 1) * sizeof(*t->start));
	}
	if (n)
		memcpy(t->frames + t->nframes, frames, (size_t)n * sizeof(*frames));
	t->nframes += n;
	t->start[t->count + 1] = t->nframes;
	return t->count++;
}

uint32_t stack_intern(struct stack_table *t, const uint32_t *frames, uint32_t n)
{
	uint32_t i = slot_of(t, frames, n), id;

	while (t->slots[i]) {
		id = t->slots[i] - 1;
		if (same_stack(t, id, frames, n))
			return id;
		i = (i + 1) & (t->nslots - 1);
	}
	id = append_stack(t, frames, n);
	t->slots[i] = id + 1;
	if ((uint64_t)t->count * 2 > t->nslots)
		grow_index(t);
	return id;
}

const char *stack_table_load(struct stack_table *t, const uint32_t *lengths, uint64_t count,
			     const uint32_t *frames, uint64_t n, uint32_t nframe_ids)
{
	uint64_t i, used = 0;

	for (i = 0; i < count; i++) {
		if (lengths[i] > n - used)
			return "its stacks have more frames than it holds";
		used += lengths[i];
	}
	if (used != n)
		return "its stacks and frames do not add up";
	for (i = 0; i < n; i++)
		if (frames[i] >= nframe_ids)
			return "a stack names a frame it does not have";
	used = 0;
	for (i = 0; i < count; i++) {
		if (stack_intern(t, frames + used, lengths[i]) != i)
			return "it holds the same stack twice";
		used += lengths[i];
	}
	return NULL;
}
