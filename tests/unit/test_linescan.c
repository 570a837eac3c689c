/*
 * test_linescan.c - the SSE2 and AVX2 separator scans give the bits of the
 * byte-at-a-time reference, on every length up to LINESCAN_MAX, on texts
 * thick with spaces and '=' and on random bytes; and the masks walk.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "linescan.h"

static void fill(char *s, size_t len, unsigned *seed, int thick)
{
	static const char some[] = "  ==ab0x9_ ";
	size_t i;

	for (i = 0; i < len; i++) {
		*seed = *seed * 1103515245u + 12345u;
		s[i] = thick ? some[(*seed >> 16) % (sizeof(some) - 1)] : (char)(*seed >> 16);
	}
}

static void same_bits_as_the_reference(void **state)
{
	static const enum linescan_impl impls[] = { LINESCAN_SSE2, LINESCAN_AVX2 };
	unsigned seed = 7;
	char *text = malloc(LINESCAN_MAX);	/* exact size: a load past it is an ASan error */
	size_t len, k;
	int round;

	(void)state;
	for (round = 0; round < 40; round++) {
		for (len = 0; len <= LINESCAN_MAX; len++) {
			struct separators want, got;

			fill(text + LINESCAN_MAX - len, len, &seed, round % 2);
			linescan_find(LINESCAN_SCALAR, text + LINESCAN_MAX - len, len, &want);
			for (k = 0; k < sizeof(impls) / sizeof(impls[0]); k++) {
				if (!linescan_available(impls[k]))
					continue;
				linescan_find(impls[k], text + LINESCAN_MAX - len, len, &got);
				assert_memory_equal(want.space, got.space, sizeof(want.space));
				assert_memory_equal(want.stop, got.stop, sizeof(want.stop));
			}
		}
	}
	free(text);
}

static void sse2_is_there_on_x86_64(void **state)
{
	(void)state;
#if defined(__x86_64__)
	assert_true(linescan_available(LINESCAN_SSE2));
	assert_int_not_equal(linescan_best(), LINESCAN_SCALAR);
#endif
	assert_true(linescan_available(LINESCAN_SCALAR));
}

static void the_walk_finds_each_separator(void **state)
{
	const char *t = "  call_site=f+0x1 ptr=0xff   (x) name=kmalloc-64";
	size_t len = strlen(t), at;
	struct separators s;

	(void)state;
	linescan_find(linescan_best(), t, len, &s);
	assert_int_equal(linescan_next_clear(s.space, 0, len), 2);
	assert_int_equal(linescan_next(s.stop, 2, len), 11);	/* '=' */
	assert_int_equal(linescan_next(s.space, 12, len), 17);
	at = linescan_next(s.stop, 18, len);
	assert_int_equal(at, 21);
	assert_int_equal(linescan_next(s.stop, 45, len), len);	/* none: the length */
	assert_int_equal(linescan_next_clear(s.space, len, len), len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_bits_as_the_reference),
		cmocka_unit_test(sse2_is_there_on_x86_64),
		cmocka_unit_test(the_walk_finds_each_separator),
	};

	return cmocka_run_group_tests_name("linescan", tests, NULL, NULL);
}
