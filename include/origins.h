/*
 * origins.h - allocations keyed by who really made them: each distinct
 * (call site, stack) pair of an allocation gets a key, and a second
 * account (account.h, the same matching rules) counts by key. Reports
 * then merge keys by origin function (--group-by origin), by stack
 * (--outstanding's leaks by stack, --folded, --flame), or keep them.
 *
 * Keys are few (distinct call chains, not events). A page allocation has
 * no call site: its key is (STR_NONE, stack). Not here: what a frame
 * means (callchain.h), output.
 */
#ifndef TA_ORIGINS_H
#define TA_ORIGINS_H

#include <stdint.h>

#include "callchain.h"
#include "strtab.h"

struct origin_keys {
	struct strtab pairs;	/* 8 bytes each: call site id, stack id */
};

void origin_keys_init(struct origin_keys *k);
void origin_keys_release(struct origin_keys *k);

/* The key of (call_site, stack), adding it if new. */
uint32_t origin_key(struct origin_keys *k, uint32_t call_site, uint32_t stack);

static inline uint32_t origin_key_count(const struct origin_keys *k)
{
	return k->pairs.count;
}

/* The call site and stack of key id. */
void origin_key_parts(const struct origin_keys *k, uint32_t id, uint32_t *call_site,
		      uint32_t *stack);

/* Rows by origin function: a row_namer (report.h) over keys. */
struct origin_namer {
	const struct origin_keys *keys;
	const struct callchains *chains;
};

size_t origin_row_name(const void *ctx, uint32_t id, char *out, size_t cap);

#endif
