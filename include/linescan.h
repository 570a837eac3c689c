/*
 * linescan.h - where the spaces and '=' signs of a line's fields are, as
 * bit masks found 16 or 32 bytes at a time, so that the parser walks its
 * "key=value" tokens with a few bit operations instead of a loop per byte.
 */
#ifndef TA_LINESCAN_H
#define TA_LINESCAN_H

#include <stddef.h>
#include <stdint.h>

#define LINESCAN_MAX 256	/* longer field texts are walked byte by byte */
#define LINESCAN_WORDS (LINESCAN_MAX / 64)

/* Bit i of word i / 64: byte i of the text is a space; is '=' or a space. */
struct separators {
	uint64_t space[LINESCAN_WORDS];
	uint64_t stop[LINESCAN_WORDS];
};

enum linescan_impl {
	LINESCAN_SCALAR,	/* a byte at a time: the reference */
	LINESCAN_SSE2,		/* 16 bytes at a time: every x86-64 */
	LINESCAN_AVX2,		/* 32 bytes at a time, when the CPU has it */
};

/* The fastest this machine runs (AVX2, else SSE2, else scalar). */
enum linescan_impl linescan_best(void);

/* Whether impl can run here. */
int linescan_available(enum linescan_impl impl);

/* The masks of s[0..len), len <= LINESCAN_MAX; bits past len are 0. */
void linescan_find(enum linescan_impl impl, const char *s, size_t len, struct separators *out);

/* The first position >= from whose bit, flipped by flip (0 or ~0), is set; or len. */
static inline size_t linescan_first(const uint64_t *words, uint64_t flip, size_t from, size_t len)
{
	size_t i = from >> 6, nwords = (len + 63) >> 6;
	uint64_t x;

	if (from >= len)
		return len;
	x = (words[i] ^ flip) & (~0ull << (from & 63));
	while (!x) {
		if (++i >= nwords)
			return len;
		x = words[i] ^ flip;
	}
	from = (i << 6) + (size_t)__builtin_ctzll(x);
	return from < len ? from : len;
}

/* The first position >= from whose bit is set in words, or len if none. */
static inline size_t linescan_next(const uint64_t *words, size_t from, size_t len)
{
	return linescan_first(words, 0, from, len);
}

/* The first position >= from whose bit is clear (a byte not a space), or len. */
static inline size_t linescan_next_clear(const uint64_t *words, size_t from, size_t len)
{
	return linescan_first(words, ~0ull, from, len);
}

#endif
