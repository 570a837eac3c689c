/*
 * bigmem.c - big randomly-read arrays in mappings of their own, with 2 MiB
 * pages asked for (madvise MADV_HUGEPAGE) and growth by mremap. Not here:
 * what the arrays hold, or any choice of their size.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bigmem.h"
#include "error.h"

#if defined(__SANITIZE_ADDRESS__)
#define BIGMEM_FROM_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIGMEM_FROM_MALLOC 1
#endif
#endif

#ifdef BIGMEM_FROM_MALLOC

void *bigmem_alloc(size_t bytes)
{
	return xcalloc(1, bytes);
}

void *bigmem_grow(void *p, size_t old_bytes, size_t new_bytes)
{
	char *q = xrealloc(p, new_bytes);

	if (new_bytes > old_bytes)
		memset(q + old_bytes, 0, new_bytes - old_bytes);
	return q;
}

void bigmem_free(void *p, size_t bytes)
{
	(void)bytes;
	free(p);
}

#else

/* A mapping is whole pages; 0 bytes still takes one. */
static size_t mapped_length(size_t bytes)
{
	size_t page = 4096;

	if (bytes > SIZE_MAX / 2)
		die_out_of_memory(bytes);
	return bytes ? (bytes + page - 1) & ~(page - 1) : page;
}

void *bigmem_alloc(size_t bytes)
{
	size_t len = mapped_length(bytes);
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die_out_of_memory(bytes);
	(void)madvise(p, len, MADV_HUGEPAGE);	/* before the first touch; a refusal is fine */
	return p;
}

void *bigmem_grow(void *p, size_t old_bytes, size_t new_bytes)
{
	size_t old_len = mapped_length(old_bytes), new_len = mapped_length(new_bytes);
	void *q;

	if (!p)
		return bigmem_alloc(new_bytes);
	if (new_len == old_len)
		return p;
	/* the mapping keeps its huge-page advice; pages past the old end are zero */
	q = mremap(p, old_len, new_len, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		die_out_of_memory(new_bytes);
	return q;
}

void bigmem_free(void *p, size_t bytes)
{
	if (p)
		munmap(p, mapped_length(bytes));
}

#endif

void pages_give_back(const void *data, size_t len)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)data + page - 1) & ~(page - 1);
	uintptr_t b = ((uintptr_t)data + len) & ~(page - 1);

	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}
