/*
 * text_linescan.h - where a line ends and where its spaces, '=' signs and
 * colons are, as bit masks found 16, 32 or 64 bytes at a time, so that the
 * parser finds the line's end, its timestamp, its event name and its
 * "key=value" tokens with a few bit operations instead of a loop (or a
 * memchr) per byte. One pass over the line's bytes gives all of it.
 */
#ifndef TA_TEXT_LINESCAN_H
#define TA_TEXT_LINESCAN_H

#include <stddef.h>
#include <stdint.h>

#define LINESCAN_MAX 512	/* lines up to this long fit the masks' own words */
#define LINESCAN_WORDS (LINESCAN_MAX / 64)
#define LINESCAN_NONE ((size_t)-1)
#define LINESCAN_SLACK 64	/* readable bytes linescan_line needs past what it is given */

/*
 * Bit i of word i / 64 of each mask: byte i of the line is a space; is a
 * space or '='; is ':'. Bits past len are 0. A line longer than
 * LINESCAN_MAX has its masks in heap words, grown as needed.
 */
struct line_masks {
	const uint64_t *space, *stop, *colon;
	uint64_t own[3][LINESCAN_WORDS];
	uint64_t *heap;		/* 3 * heap_words words, for long lines */
	size_t heap_words;
};

enum linescan_impl {
	LINESCAN_SCALAR,	/* a byte at a time: the reference */
	LINESCAN_SSE2,		/* 16 bytes at a time: every x86-64 */
	LINESCAN_AVX2,		/* 32 bytes at a time, when the CPU has it */
	LINESCAN_AVX512,	/* 64 bytes at a time, when the CPU has AVX-512 BW */
};

/* The fastest this machine runs (AVX-512 BW, else AVX2, else SSE2, else scalar). */
enum linescan_impl linescan_best(void);

/* Whether impl can run here. */
int linescan_available(enum linescan_impl impl);

void line_masks_init(struct line_masks *m);
void line_masks_release(struct line_masks *m);

/* The masks of s[0..len), any len; reads no byte past s + len. */
void linescan_find(enum linescan_impl impl, const char *s, size_t len, struct line_masks *m);

/*
 * The line at s: the position of its '\n' when one is within the first
 * min(avail, LINESCAN_MAX) bytes, with the masks of the bytes before it;
 * LINESCAN_NONE when not (the caller finds the end and uses
 * linescan_find). May read up to LINESCAN_SLACK bytes past s + avail.
 */
size_t linescan_line(enum linescan_impl impl, const char *s, size_t avail, struct line_masks *m);

/* linescan_line of one way, to be called without choosing the way each line. */
typedef size_t (*linescan_line_fn)(const char *s, size_t avail, struct line_masks *m);
linescan_line_fn linescan_line_way(enum linescan_impl impl);

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

/* The last position < before whose bit, flipped by flip, is set; or LINESCAN_NONE. */
static inline size_t linescan_last(const uint64_t *words, uint64_t flip, size_t before)
{
	size_t i;
	uint64_t x;

	if (before == 0)
		return LINESCAN_NONE;
	i = (before - 1) >> 6;
	x = (words[i] ^ flip) & (~0ull >> (63 - ((before - 1) & 63)));
	while (!x) {
		if (i == 0)
			return LINESCAN_NONE;
		x = words[--i] ^ flip;
	}
	return (i << 6) + 63 - (size_t)__builtin_clzll(x);
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

/* The last position < before whose bit is set, or LINESCAN_NONE. */
static inline size_t linescan_prev(const uint64_t *words, size_t before)
{
	return linescan_last(words, 0, before);
}

/* The last position < before whose bit is clear, or LINESCAN_NONE. */
static inline size_t linescan_prev_clear(const uint64_t *words, size_t before)
{
	return linescan_last(words, ~0ull, before);
}

#endif
