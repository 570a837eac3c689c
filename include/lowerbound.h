/*
 * lowerbound.h - where a key goes in a sorted array: the index of the first
 * element not less than it (n when every element is), as C++'s
 * lower_bound; bsearch(3) says only whether one is equal. Not here: sorting.
 */
#ifndef TA_LOWERBOUND_H
#define TA_LOWERBOUND_H

#include <stddef.h>

/* base[0..n) of elements of size bytes, sorted by cmp (as qsort's, key first). */
size_t lower_bound(const void *key, const void *base, size_t n, size_t size,
		   int (*cmp)(const void *key, const void *element));

#endif
