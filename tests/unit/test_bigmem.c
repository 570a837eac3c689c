/*
 * test_bigmem.c - the big-array memory: zeroed when it comes, its contents
 * kept and the new part zeroed when it grows (in place or moved, across
 * page and huge-page sizes), whatever the kernel does with the advice.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sys/mman.h>

#include "bigmem.h"

static int all_zero(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void fill(unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 7 + 1);
}

static int still_filled(const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != (unsigned char)(i * 7 + 1))
			return 0;
	return 1;
}

static void comes_zeroed(void **state)
{
	static const size_t sizes[] = { 0, 1, 4095, 4096, 4097, 3u << 20, (5u << 20) + 3 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *p = bigmem_alloc(sizes[i]);

		assert_non_null(p);
		assert_true(all_zero(p, sizes[i]));
		fill(p, sizes[i]);
		bigmem_free(p, sizes[i]);
	}
	bigmem_free(NULL, 100);
}

/* 1.5x steps as the live table takes them, from nothing to past several huge pages */
static void grows_keeping_contents(void **state)
{
	unsigned char *p = NULL, *other;
	size_t len = 0, next = 1000;

	(void)state;
	other = bigmem_alloc(1u << 20);	/* a neighbour, so that growth must sometimes move */
	fill(other, 1u << 20);
	while (next < (12u << 20)) {
		p = bigmem_grow(p, len, next);
		assert_non_null(p);
		assert_true(still_filled(p, len));
		assert_true(all_zero(p + len, next - len));
		fill(p, next);
		len = next;
		next += next / 2 + 13;
	}
	assert_true(still_filled(other, 1u << 20));
	p = bigmem_grow(p, len, len);	/* the same size: nothing changes */
	assert_true(still_filled(p, len));
	bigmem_free(p, len);
	bigmem_free(other, 1u << 20);
}

#if defined(__SANITIZE_ADDRESS__)
#define FROM_MALLOC 1	/* bigmem.c's arrays come from malloc under ASan: no boundary to keep */
#else
#define FROM_MALLOC 0
#endif

/*
 * From 2 MiB up an array starts on a 2 MiB boundary, however it came to
 * that size (allocated so, grown in place, moved), so that the kernel can
 * give it huge pages all through; below, it is whole 4 KiB pages.
 */
static void large_arrays_start_on_a_huge_page_boundary(void **state)
{
	const uintptr_t huge = 2u << 20;
	unsigned char *p = NULL, *q, *blocker = NULL;
	size_t len = 0, next = 40000;

	(void)state;
	q = bigmem_alloc(3u << 20);
	assert_true(FROM_MALLOC || (uintptr_t)q % huge == 0);
	bigmem_free(q, 3u << 20);
	while (next < (40u << 20)) {
		p = bigmem_grow(p, len, next);
		assert_true(still_filled(p, len));
		assert_true(all_zero(p + len, next - len));
		assert_true(FROM_MALLOC || next < huge || (uintptr_t)p % huge == 0);
		fill(p, next);
		len = next;
		next += next / 2 + 13;
		if (!FROM_MALLOC && !blocker && len >= huge) {	/* a neighbour after it: the next growth moves */
			blocker = mmap(p + ((len + huge - 1) & ~(huge - 1)), 4096, PROT_READ,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
			assert_true(blocker != MAP_FAILED);
		}
	}
	bigmem_free(p, len);
	if (blocker)
		munmap(blocker, 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(comes_zeroed),
		cmocka_unit_test(grows_keeping_contents),
		cmocka_unit_test(large_arrays_start_on_a_huge_page_boundary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
