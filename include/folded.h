/*
 * folded.h - allocations as folded stacks (DESIGN.md section 9), the input
 * of flamegraph.pl, speedscope and inferno, and of the flame graph drawn
 * by flame.h: one line per distinct stack, its frames from the outermost
 * to the innermost joined by ';', a space, and a positive integer weight.
 *
 * Allocations are summed over origin keys (origins.h) that fold to the
 * same line; lines come out sorted by their text, so the file is the same
 * whatever the order of the log or the thread count. Lines of weight 0
 * are left out. Not here: drawing, what frames mean.
 */
#ifndef TA_FOLDED_H
#define TA_FOLDED_H

#include <stdint.h>
#include <stdio.h>

#include "account.h"
#include "callchain.h"
#include "options.h"
#include "origins.h"
#include "pages.h"

struct folded {
	struct strtab lines;	/* the folded stacks, without weights */
	uint64_t *weight;	/* line id -> weight */
	uint32_t cap;
};

void folded_init(struct folded *fo);
void folded_release(struct folded *fo);

/* Slab allocations of the account by key, weighed as w says. */
void folded_add_slab(struct folded *fo, const struct account *by_key,
		     const struct origin_keys *keys, const struct callchains *c,
		     enum stack_weight w);

/* Page allocations, weighed in bytes: pages * page_size. */
void folded_add_pages(struct folded *fo, const struct page_stats *p,
		      const struct origin_keys *keys, const struct callchains *c,
		      uint64_t page_size);

/* The line ids of weight > 0, sorted by text; *n gets their number. */
uint32_t *folded_sorted(const struct folded *fo, uint32_t *n);

/* "frames weight\n" per line, sorted. */
void folded_write(FILE *f, const struct folded *fo);

/* "bytes allocated", "bytes still held at the end", ... for titles. */
const char *stack_weight_meaning(enum stack_weight w);

#endif
