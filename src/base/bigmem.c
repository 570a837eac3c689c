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

#define HUGE_PAGE ((size_t)2 << 20)

/*
 * A mapping is whole pages; 0 bytes still takes one. From a huge page up,
 * it is whole huge pages, and starts on one (aligned_mapping): the kernel
 * gives a 2 MiB page only to an aligned 2 MiB range that lies inside the
 * mapping when first touched, so an array that grows at its end, mapped
 * anywhere, was left on 4 KiB pages nearly all of it (the live table's
 * records: 2 of 17 MB on huge pages on a 2.79 GB log).
 */
static size_t mapped_length(size_t bytes)
{
	size_t page = bytes >= HUGE_PAGE ? HUGE_PAGE : 4096;

	if (bytes > SIZE_MAX / 2)
		die_out_of_memory(bytes);
	return bytes ? (bytes + page - 1) & ~(page - 1) : page;
}

/*
 * len bytes (whole huge pages) mapped at a huge page's boundary: a larger
 * map, trimmed; MAP_FAILED as mmap says it.
 */
static void *aligned_mapping(size_t len)
{
	size_t span = len + HUGE_PAGE;
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;

	if (p == MAP_FAILED)
		return MAP_FAILED;
	a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (a > p)
		munmap(p, (size_t)(a - p));
	munmap(a + len, (size_t)(p + span - (a + len)));
	return a;
}

void *bigmem_alloc(size_t bytes)
{
	size_t len = mapped_length(bytes);
	void *p = len >= HUGE_PAGE ? aligned_mapping(len)
				   : mmap(NULL, len, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die_out_of_memory(bytes);
	(void)madvise(p, len, MADV_HUGEPAGE);	/* before the first touch; a refusal is fine */
	return p;
}

void *bigmem_grow(void *p, size_t old_bytes, size_t new_bytes)
{
	size_t old_len = mapped_length(old_bytes), new_len = mapped_length(new_bytes);
	void *q, *to;

	if (!p)
		return bigmem_alloc(new_bytes);
	if (new_len == old_len)
		return p;
	if (new_len < HUGE_PAGE) {	/* pages past the old end are zero */
		q = mremap(p, old_len, new_len, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			die_out_of_memory(new_bytes);
		return q;
	}
	if (old_len >= HUGE_PAGE && mremap(p, old_len, new_len, 0) != MAP_FAILED)
		return p;	/* grown in place, on its boundary still */
	/* moved onto a boundary: its page tables move, never its bytes */
	to = aligned_mapping(new_len);
	if (to == MAP_FAILED)
		die_out_of_memory(new_bytes);
	q = mremap(p, old_len, new_len, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	if (q == MAP_FAILED)
		die_out_of_memory(new_bytes);
	(void)madvise(q, new_len, MADV_HUGEPAGE);
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
