/*
 * strtab.c - string interning: an arena of NUL-terminated strings and an
 * open-addressing index of ids hashed with xxHash (XXH3).
 */
#include <string.h>
#include <xxhash.h>

#include "error.h"
#include "strtab.h"

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof(*t));
	t->nslots = 64;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
}

void strtab_release(struct strtab *t)
{
	free(t->arena);
	free(t->offset);
	free(t->length);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

static uint32_t slot_of(const struct strtab *t, const char *s, size_t len)
{
	return (uint32_t)XXH3_64bits(s, len) & (t->nslots - 1);
}

static int same_string(const struct strtab *t, uint32_t id, const char *s, size_t len)
{
	return t->length[id] == len && memcmp(t->arena + t->offset[id], s, len) == 0;
}

uint32_t strtab_find(const struct strtab *t, const char *s, size_t len)
{
	uint32_t i = slot_of(t, s, len);

	while (t->slots[i]) {
		uint32_t id = t->slots[i] - 1;

		if (same_string(t, id, s, len))
			return id;
		i = (i + 1) & (t->nslots - 1);
	}
	return STR_NONE;
}

static void grow_index(struct strtab *t)
{
	uint32_t id;

	free(t->slots);
	t->nslots *= 2;
	t->slots = xcalloc(t->nslots, sizeof(*t->slots));
	for (id = 0; id < t->count; id++) {
		const char *s = t->arena + t->offset[id];
		uint32_t i = slot_of(t, s, t->length[id]);

		while (t->slots[i])
			i = (i + 1) & (t->nslots - 1);
		t->slots[i] = id + 1;
	}
}

static uint32_t append_string(struct strtab *t, const char *s, size_t len)
{
	uint32_t id = t->count;

	if (t->count == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 64;
		t->offset = xrealloc(t->offset, t->cap * sizeof(*t->offset));
		t->length = xrealloc(t->length, t->cap * sizeof(*t->length));
	}
	if (t->arena_len + len + 1 > UINT32_MAX || t->count == UINT32_MAX - 1)
		xmalloc(SIZE_MAX);	/* reports out of memory and exits */
	while (t->arena_len + len + 1 > t->arena_cap) {
		t->arena_cap = t->arena_cap ? t->arena_cap * 2 : 4096;
		t->arena = xrealloc(t->arena, t->arena_cap);
	}
	memcpy(t->arena + t->arena_len, s, len);
	t->arena[t->arena_len + len] = '\0';
	t->offset[id] = (uint32_t)t->arena_len;
	t->length[id] = (uint32_t)len;
	t->arena_len += len + 1;
	t->count++;
	return id;
}

uint32_t strtab_intern(struct strtab *t, const char *s, size_t len)
{
	uint32_t i = slot_of(t, s, len);
	uint32_t id;

	while (t->slots[i]) {
		id = t->slots[i] - 1;
		if (same_string(t, id, s, len))
			return id;
		i = (i + 1) & (t->nslots - 1);
	}
	id = append_string(t, s, len);
	t->slots[i] = id + 1;
	if ((uint64_t)t->count * 2 > t->nslots)
		grow_index(t);
	return id;
}

const char *strtab_load_packed(struct strtab *t, const char *s, size_t len, uint64_t count)
{
	size_t at = 0;
	uint64_t id;

	if (count && (!s || len == 0 || s[len - 1] != '\0'))
		return "a string table is cut short";
	for (id = 0; id < count; id++) {
		size_t n;

		if (at >= len)
			return "a string table is cut short";
		n = strlen(s + at);
		if (strtab_intern(t, s + at, n) != id)
			return "a string table repeats a string";
		at += n + 1;
	}
	if (at != len)
		return "a string table has bytes past its strings";
	return NULL;
}
