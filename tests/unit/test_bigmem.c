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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(comes_zeroed),
		cmocka_unit_test(grows_keeping_contents),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
