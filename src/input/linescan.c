/*
 * linescan.c - the separator masks of a line's fields (linescan.h): which
 * bytes are spaces and which are spaces or '='. Three ways that must give
 * the same bits: a byte at a time (the reference, and any machine that is
 * not x86-64), SSE2 (16 bytes per step, always there on x86-64) and AVX2
 * (32 per step, used when the CPU says it has it). The tests compare them
 * on every length and on random bytes.
 *
 * Not here: what a token means, or finding the line's end (memchr does
 * that as fast as anything here would).
 */
#include <string.h>

#include "linescan.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define HAVE_X86 1
#endif

static void clear_masks(struct separators *out)
{
	memset(out->space, 0, sizeof(out->space));
	memset(out->stop, 0, sizeof(out->stop));
}

/* The bits of one block at byte i: sp its spaces, eq its '=' signs. */
static inline void put_block(struct separators *out, size_t i, uint64_t sp, uint64_t eq)
{
	out->space[i >> 6] |= sp << (i & 63);
	out->stop[i >> 6] |= (sp | eq) << (i & 63);
}

static void find_scalar(const char *s, size_t len, struct separators *out)
{
	size_t i;

	clear_masks(out);
	for (i = 0; i < len; i++)
		put_block(out, i, s[i] == ' ', s[i] == '=');
}

#ifdef HAVE_X86
/* The block of n < step bytes at the end, copied so no load reads past it. */
static const char *padded_tail(const char *s, size_t n, char *pad, size_t step)
{
	memset(pad, 0, step);
	memcpy(pad, s, n);
	return pad;
}

static void find_sse2(const char *s, size_t len, struct separators *out)
{
	const __m128i space = _mm_set1_epi8(' '), equal = _mm_set1_epi8('=');
	char pad[16];
	size_t i;

	clear_masks(out);
	for (i = 0; i < len; i += 16) {
		const char *p = len - i >= 16 ? s + i : padded_tail(s + i, len - i, pad, 16);
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);

		put_block(out, i, (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, space)),
			  (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, equal)));
	}
}

__attribute__((target("avx2")))
static void find_avx2(const char *s, size_t len, struct separators *out)
{
	const __m256i space = _mm256_set1_epi8(' '), equal = _mm256_set1_epi8('=');
	char pad[32];
	size_t i;

	clear_masks(out);
	for (i = 0; i < len; i += 32) {
		const char *p = len - i >= 32 ? s + i : padded_tail(s + i, len - i, pad, 32);
		__m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);

		put_block(out, i, (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, space)),
			  (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, equal)));
	}
}
#endif

int linescan_available(enum linescan_impl impl)
{
	switch (impl) {
	case LINESCAN_SCALAR:
		return 1;
#ifdef HAVE_X86
	case LINESCAN_SSE2:
		return 1;
	case LINESCAN_AVX2:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2");
#endif
	default:
		return 0;
	}
}

enum linescan_impl linescan_best(void)
{
	if (linescan_available(LINESCAN_AVX2))
		return LINESCAN_AVX2;
	if (linescan_available(LINESCAN_SSE2))
		return LINESCAN_SSE2;
	return LINESCAN_SCALAR;
}

void linescan_find(enum linescan_impl impl, const char *s, size_t len, struct separators *out)
{
#ifdef HAVE_X86
	if (impl == LINESCAN_AVX2) {
		find_avx2(s, len, out);
		return;
	}
	if (impl == LINESCAN_SSE2) {
		find_sse2(s, len, out);
		return;
	}
#endif
	(void)impl;
	find_scalar(s, len, out);
}
