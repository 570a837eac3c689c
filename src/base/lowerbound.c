/*
 * lowerbound.c - the first element of a sorted array not less than a key
 * (lowerbound.h).
 */
#include "lowerbound.h"

size_t lower_bound(const void *key, const void *base, size_t n, size_t size,
		   int (*cmp)(const void *key, const void *element))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp(key, (const char *)base + mid * size) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
