/*
 * origins.c - (call site, stack) keys, and the origin name of a key.
 */
#include <string.h>

#include "origins.h"

void origin_keys_init(struct origin_keys *k)
{
	strtab_init(&k->pairs);
}

void origin_keys_release(struct origin_keys *k)
{
	strtab_release(&k->pairs);
}

uint32_t origin_key(struct origin_keys *k, uint32_t call_site, uint32_t stack)
{
	uint32_t pair[2] = { call_site, stack };

	return strtab_intern(&k->pairs, (const char *)pair, sizeof(pair));
}

void origin_key_parts(const struct origin_keys *k, uint32_t id, uint32_t *call_site,
		      uint32_t *stack)
{
	uint32_t pair[2];

	memcpy(pair, strtab_get(&k->pairs, id), sizeof(pair));
	*call_site = pair[0];
	*stack = pair[1];
}

size_t origin_row_name(const void *ctx, uint32_t id, char *out, size_t cap)
{
	const struct origin_namer *n = ctx;
	uint32_t call_site, stack;

	origin_key_parts(n->keys, id, &call_site, &stack);
	return callchains_origin(n->chains, call_site, stack, out, cap);
}
