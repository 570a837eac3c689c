/*
 * freshids.c - the strings and stacks a producer thread saw first, copied
 * into its batch and given global ids by the consumer (freshids.h).
 * Not here: when a batch is handed over, or by what lock.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "freshids.h"

struct strtab *trace_strings_table(struct trace_strings *s, int i)
{
	switch (i) {
	case 0:
		return &s->call_sites;
	case 1:
		return &s->caches;
	case 2:
		return &s->comms;
	case 3:
		return &s->gfps;
	default:
		return &s->frames;
	}
}

static const struct strtab *table_read(const struct trace_strings *s, int i)
{
	return trace_strings_table((struct trace_strings *)s, i);
}

void fresh_ids_begin(struct fresh_ids *f, const struct trace_strings *local)
{
	int t;

	f->len = 0;
	for (t = 0; t < FRESH_TABLES; t++) {
		f->first_id[t] = table_read(local, t)->count;
		f->count[t] = 0;
	}
	f->first_stack = local->stacks.count;
	f->nstacks = 0;
	f->stacks_len = 0;
}

static void copy_fresh_strings(struct fresh_ids *f, const struct trace_strings *local)
{
	int t;

	for (t = 0; t < FRESH_TABLES; t++) {
		const struct strtab *tab = table_read(local, t);
		uint32_t id;

		for (id = f->first_id[t]; id < tab->count; id++) {
			uint32_t n = strtab_length(tab, id);

			while (f->len + n + 1 > f->cap) {
				f->cap = f->cap ? f->cap * 2 : 4096;
				f->bytes = xrealloc(f->bytes, f->cap);
			}
			memcpy(f->bytes + f->len, strtab_get(tab, id), n + 1);
			f->len += n + 1;
			f->count[t]++;
		}
	}
}

static void copy_fresh_stacks(struct fresh_ids *f, const struct trace_strings *local)
{
	const struct stack_table *st = &local->stacks;
	uint32_t id;

	for (id = f->first_stack; id < st->count; id++) {
		uint32_t n;
		const uint32_t *fr = stack_frames(st, id, &n);

		while (f->stacks_len + 1 + n > f->stacks_cap) {
			f->stacks_cap = f->stacks_cap ? f->stacks_cap * 2 : 1024;
			f->stacks = xrealloc(f->stacks, f->stacks_cap * sizeof(*f->stacks));
		}
		f->stacks[f->stacks_len++] = n;
		memcpy(f->stacks + f->stacks_len, fr, n * sizeof(*fr));
		f->stacks_len += n;
		f->nstacks++;
	}
}

void fresh_ids_collect(struct fresh_ids *f, const struct trace_strings *local, bool stacks)
{
	copy_fresh_strings(f, local);
	if (stacks)
		copy_fresh_stacks(f, local);
}

void fresh_ids_release(struct fresh_ids *f)
{
	free(f->bytes);
	free(f->stacks);
	memset(f, 0, sizeof(*f));
}

static uint32_t *map_room(uint32_t **map, uint32_t *cap, uint32_t need)
{
	if (need > *cap) {
		*cap = need * 2;
		*map = xrealloc(*map, *cap * sizeof(uint32_t));
	}
	return *map;
}

void id_map_learn(struct id_map *m, const struct fresh_ids *f, struct trace_strings *global)
{
	const char *q = f->bytes;
	const uint32_t *st = f->stacks;
	uint32_t frames[STACK_MAX_FRAMES + 1];
	uint32_t *to, i, j;
	int t;

	for (t = 0; t < FRESH_TABLES; t++) {
		to = map_room(&m->to_global[t], &m->cap[t], f->first_id[t] + f->count[t]);
		for (i = 0; i < f->count[t]; i++) {
			size_t n = strlen(q);

			to[f->first_id[t] + i] = strtab_intern(trace_strings_table(global, t), q, n);
			q += n + 1;
		}
	}
	to = map_room(&m->stack_to_global, &m->stack_cap, f->first_stack + f->nstacks);
	for (i = 0; i < f->nstacks; i++) {
		uint32_t n = *st++;

		for (j = 0; j < n; j++)
			frames[j] = m->to_global[4][st[j]];
		st += n;
		to[f->first_stack + i] = stack_intern(&global->stacks, frames, n);
	}
}

void id_map_release(struct id_map *m)
{
	int t;

	for (t = 0; t < FRESH_TABLES; t++)
		free(m->to_global[t]);
	free(m->stack_to_global);
	memset(m, 0, sizeof(*m));
}
