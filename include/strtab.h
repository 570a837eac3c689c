/*
 * strtab.h - interned strings with dense ids.
 *
 * Call sites, slab cache names, task names and GFP strings repeat millions
 * of times in a log but take few distinct values; each is stored once and
 * named by a small integer id (0, 1, 2, ... in order of first sight), so
 * events carry no strings and per-id tables can be plain arrays.
 * Not thread-safe; not a general map (no removal).
 */
#ifndef TA_STRTAB_H
#define TA_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#define STR_NONE UINT32_MAX	/* "no string": field absent */

struct strtab {
	char *arena;		/* the strings, each NUL-terminated */
	size_t arena_len, arena_cap;
	uint32_t *offset;	/* id -> offset in arena */
	uint32_t *length;	/* id -> length */
	uint32_t count, cap;
	uint32_t *slots;	/* hash index: id + 1, 0 = empty */
	uint32_t nslots;	/* power of two */
};

void strtab_init(struct strtab *t);
void strtab_release(struct strtab *t);

/* The id of s[0..len), adding it if new. */
uint32_t strtab_intern(struct strtab *t, const char *s, size_t len);

/* The id of s[0..len), or STR_NONE if it was never interned. */
uint32_t strtab_find(const struct strtab *t, const char *s, size_t len);

/*
 * Fill t (empty) from count NUL-terminated strings packed in s[0..len),
 * as a binary file stores a table: they must get ids 0, 1, 2, ... in
 * order. NULL on success, else what is wrong with them.
 */
const char *strtab_load_packed(struct strtab *t, const char *s, size_t len, uint64_t count);

static inline const char *strtab_get(const struct strtab *t, uint32_t id)
{
	return t->arena + t->offset[id];
}

static inline uint32_t strtab_length(const struct strtab *t, uint32_t id)
{
	return t->length[id];
}

#endif
