/*
 * sizes.h - how big the objects asked for are: slab allocations counted
 * by requested size in power-of-two bins (1, 2, 3-4, 5-8, ..., up to
 * 2^32), with the bytes asked for and the bytes the allocator gave, so
 * that the waste of each size range shows (--sizes). Fed by its pass;
 * no I/O, no naming of call sites.
 */
#ifndef TA_SIZES_H
#define TA_SIZES_H

#include <stddef.h>
#include <stdint.h>

#define SIZE_BINS 34	/* 0 bytes, then (2^(k-2), 2^(k-1)] for k = 1 ... 33 */

struct size_bin {
	uint64_t allocs;
	uint64_t bytes_req;	/* asked for */
	uint64_t bytes_alloc;	/* given */
};

struct size_histogram {
	struct size_bin bins[SIZE_BINS];
	uint64_t allocs;	/* all of them */
};

/* The bin of an allocation of bytes bytes. */
unsigned size_bin_of(uint32_t bytes);

/* The smallest and largest sizes bin k holds. */
void size_bin_bounds(unsigned k, uint64_t *low, uint64_t *high);

/* Count one allocation. */
void size_histogram_add(struct size_histogram *h, uint32_t bytes_req, uint32_t bytes_alloc);

#endif
