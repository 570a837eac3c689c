/*
 * bigmem.h - memory for big arrays that are read at random (the live
 * pointer table): anonymous mappings that ask the kernel for 2 MiB pages
 * and grow in place or move with mremap, never by a copy.
 *
 * With 4 KiB pages, a lookup anywhere in tens of MB of index and records
 * missed the TLB nearly every time; transparent huge pages (madvise mode,
 * Debian's default) cut two threads' time by about 6% on a 2.86 GB log.
 * A kernel without them changes nothing but speed. Under AddressSanitizer
 * the arrays come from malloc, so that its red zones still guard them.
 * Not for small or short-lived buffers: each array is a mapping of its own.
 */
#ifndef TA_BIGMEM_H
#define TA_BIGMEM_H

#include <stddef.h>

/* bytes of zeroed memory; exits 1 with the usual message when there is none. */
void *bigmem_alloc(size_t bytes);

/*
 * p (old_bytes long, from bigmem_alloc, or NULL) made new_bytes >= old_bytes
 * long: its contents kept, the rest zeroed; it may move.
 */
void *bigmem_grow(void *p, size_t old_bytes, size_t new_bytes);

/* Give back p of bytes (NULL: nothing). */
void bigmem_free(void *p, size_t bytes);

/*
 * The whole pages inside [data, data + len) of a mapping given back to the
 * kernel (MADV_DONTNEED): a file's map read once no longer counts in the
 * process's memory, and reads a page again from the file if it is touched.
 */
void pages_give_back(const void *data, size_t len);

#endif
