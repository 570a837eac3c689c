/*
 * sizes.c - slab allocations by requested size in power-of-two bins
 * (sizes.h). Sums are 64-bit: 2^32 allocations of 4 GiB each would not
 * wrap them.
 */
#include "sizes.h"

unsigned size_bin_of(uint32_t bytes)
{
	unsigned k = 1;

	if (!bytes)
		return 0;
	while (k < 33 && ((uint64_t)1 << (k - 1)) < bytes)
		k++;
	return k;
}

void size_bin_bounds(unsigned k, uint64_t *low, uint64_t *high)
{
	if (k == 0) {
		*low = *high = 0;
		return;
	}
	*high = (uint64_t)1 << (k - 1);
	*low = k == 1 ? 1 : (*high >> 1) + 1;
}

void size_histogram_add(struct size_histogram *h, uint32_t bytes_req, uint32_t bytes_alloc)
{
	struct size_bin *b = &h->bins[size_bin_of(bytes_req)];

	b->allocs++;
	b->bytes_req += bytes_req;
	b->bytes_alloc += bytes_alloc;
	h->allocs++;
}
