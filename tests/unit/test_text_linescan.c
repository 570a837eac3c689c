/*
 * test_text_linescan.c - the SSE2, AVX2 and AVX-512 scans give the bits of the
 * byte-at-a-time reference, on every length up to past LINESCAN_MAX (the
 * heap words), on texts thick with separators and on random bytes; a
 * line's end is found where memchr finds it, and never past what the
 * caller gave; and the masks walk both ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "text_linescan.h"

static const enum linescan_impl impls[] = { LINESCAN_SSE2, LINESCAN_AVX2, LINESCAN_AVX512 };
#define NIMPLS (sizeof(impls) / sizeof(impls[0]))

static void fill(char *s, size_t len, unsigned *seed, int thick)
{
	static const char some[] = "  ==::ab0x9_ ";
	size_t i;

	for (i = 0; i < len; i++) {
		*seed = *seed * 1103515245u + 12345u;
		s[i] = thick ? some[(*seed >> 16) % (sizeof(some) - 1)] : (char)(*seed >> 16);
		if (s[i] == '\n')
			s[i] = 'n';
	}
}

/* The masks of a and b agree on a line of len bytes. */
static void assert_same_masks(const struct line_masks *a, const struct line_masks *b, size_t len)
{
	size_t words = (len + 63) / 64;

	if (words == 0)
		return;
	assert_memory_equal(a->space, b->space, words * sizeof(uint64_t));
	assert_memory_equal(a->stop, b->stop, words * sizeof(uint64_t));
	assert_memory_equal(a->colon, b->colon, words * sizeof(uint64_t));
}

static void same_bits_as_the_reference(void **state)
{
	const size_t most = LINESCAN_MAX + 200;
	unsigned seed = 7;
	char *text = malloc(most);	/* exact size: a load past it is an ASan error */
	struct line_masks want, got;
	size_t len, k;
	int round;

	(void)state;
	line_masks_init(&want);
	line_masks_init(&got);
	for (round = 0; round < 12; round++) {
		for (len = 0; len <= most; len++) {
			fill(text + most - len, len, &seed, round % 2);
			linescan_find(LINESCAN_SCALAR, text + most - len, len, &want);
			for (k = 0; k < NIMPLS; k++) {
				if (!linescan_available(impls[k]))
					continue;
				linescan_find(impls[k], text + most - len, len, &got);
				assert_same_masks(&want, &got, len);
			}
		}
	}
	line_masks_release(&want);
	line_masks_release(&got);
	free(text);
}

/*
 * A line of len bytes then '\n', given with avail bytes (and the slack
 * after them): its end when within min(avail, LINESCAN_MAX), with the
 * masks linescan_find gives; LINESCAN_NONE otherwise, even when a '\n'
 * lies in the slack.
 */
static void the_line_end_and_its_masks(void **state)
{
	unsigned seed = 11;
	struct line_masks want, got;
	size_t len, avail, k;

	(void)state;
	line_masks_init(&want);
	line_masks_init(&got);
	for (len = 0; len < LINESCAN_MAX + 70; len++) {
		for (avail = len > 3 ? len - 3 : 0; avail <= len + 5; avail++) {
			char *buf = malloc(avail + LINESCAN_SLACK);
			size_t expect = len < avail && len < LINESCAN_MAX ? len : LINESCAN_NONE;

			fill(buf, avail + LINESCAN_SLACK, &seed, 1);
			if (len < avail + LINESCAN_SLACK)
				buf[len] = '\n';
			linescan_find(LINESCAN_SCALAR, buf, len, &want);
			for (k = 0; k <= NIMPLS; k++) {
				enum linescan_impl impl = k < NIMPLS ? impls[k] : LINESCAN_SCALAR;

				if (!linescan_available(impl))
					continue;
				assert_int_equal(linescan_line(impl, buf, avail, &got), expect);
				if (expect != LINESCAN_NONE)
					assert_same_masks(&want, &got, len);
				/* the way the parser calls it, chosen once */
				assert_int_equal(linescan_line_way(impl)(buf, avail, &got), expect);
				if (expect != LINESCAN_NONE)
					assert_same_masks(&want, &got, len);
			}
			free(buf);
		}
	}
	line_masks_release(&want);
	line_masks_release(&got);
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
	const char *t = "  call_site=f+0x1 ptr=0xff   (x) name=kmalloc-64: x";
	size_t len = strlen(t), at;
	struct line_masks m;

	(void)state;
	line_masks_init(&m);
	linescan_find(linescan_best(), t, len, &m);
	assert_int_equal(linescan_next_clear(m.space, 0, len), 2);
	assert_int_equal(linescan_next(m.stop, 2, len), 11);	/* '=' */
	assert_int_equal(linescan_next(m.space, 12, len), 17);
	at = linescan_next(m.stop, 18, len);
	assert_int_equal(at, 21);
	assert_int_equal(linescan_next(m.stop, 50, len), len);	/* none: the length */
	assert_int_equal(linescan_next_clear(m.space, len, len), len);
	assert_int_equal(linescan_next(m.colon, 0, len), 48);
	assert_int_equal(linescan_prev(m.space, 48), 32);	/* before "name=" */
	assert_int_equal(linescan_prev_clear(m.space, 28), 25);	/* the 'f' of 0xff */
	assert_int_equal(linescan_prev(m.space, 2), 1);
	assert_int_equal(linescan_prev_clear(m.space, 2), LINESCAN_NONE);
	assert_int_equal(linescan_prev(m.colon, 48), LINESCAN_NONE);
	assert_int_equal(linescan_prev(m.space, 0), LINESCAN_NONE);
	line_masks_release(&m);
}

/* The walks cross words: a separator 300 bytes back, in the heap words of a long line. */
static void the_walk_crosses_words(void **state)
{
	char t[1200];
	struct line_masks m;

	(void)state;
	memset(t, 'a', sizeof(t));
	t[5] = ' ';
	t[1100] = ':';
	line_masks_init(&m);
	linescan_find(linescan_best(), t, sizeof(t), &m);
	assert_int_equal(linescan_prev(m.space, 1100), 5);
	assert_int_equal(linescan_next(m.colon, 6, sizeof(t)), 1100);
	assert_int_equal(linescan_next(m.space, 6, sizeof(t)), sizeof(t));
	assert_int_equal(linescan_prev_clear(m.space, 6), 4);
	line_masks_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_bits_as_the_reference),
		cmocka_unit_test(the_line_end_and_its_masks),
		cmocka_unit_test(sse2_is_there_on_x86_64),
		cmocka_unit_test(the_walk_finds_each_separator),
		cmocka_unit_test(the_walk_crosses_words),
	};

	return cmocka_run_group_tests_name("linescan", tests, NULL, NULL);
}
