/*
 * text_linescan.c - a line's end and its separator masks (text_linescan.h), 64
 * bytes per step. Four ways that must give the same bits: a byte at a
 * time (the reference, and any machine that is not x86-64), SSE2 (four
 * 16-byte loads a step, always there on x86-64), AVX2 (two 32-byte loads)
 * and AVX-512 BW (one 64-byte load whose compares give the masks
 * themselves), the last two used when the CPU says it has them. The
 * tests compare them on every length and on random bytes.
 *
 * Not here: what a token means; lines over LINESCAN_MAX bytes are found
 * by the caller (memchr), then scanned here into heap words.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "text_linescan.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define HAVE_X86 1
#endif

/* What one 64-byte block holds: bit i for byte i. */
struct block_bits {
	uint64_t newline, space, equal, colon;
};

static inline struct block_bits block_scalar(const char *s)
{
	struct block_bits b = { 0, 0, 0, 0 };
	int i;

	for (i = 0; i < 64; i++) {
		b.newline |= (uint64_t)(s[i] == '\n') << i;
		b.space |= (uint64_t)(s[i] == ' ') << i;
		b.equal |= (uint64_t)(s[i] == '=') << i;
		b.colon |= (uint64_t)(s[i] == ':') << i;
	}
	return b;
}

#ifdef HAVE_X86
static inline uint64_t bits16(__m128i v, char c)
{
	return (uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)));
}

static inline uint64_t bits64_sse2(const __m128i v[4], char c)
{
	return bits16(v[0], c) | bits16(v[1], c) << 16 | bits16(v[2], c) << 32 |
	       bits16(v[3], c) << 48;
}

static inline struct block_bits block_sse2(const char *s)
{
	__m128i v[4];
	struct block_bits b;
	int i;

	for (i = 0; i < 4; i++)
		v[i] = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));
	b.newline = bits64_sse2(v, '\n');
	b.space = bits64_sse2(v, ' ');
	b.equal = bits64_sse2(v, '=');
	b.colon = bits64_sse2(v, ':');
	return b;
}

__attribute__((target("avx2")))
static inline uint64_t bits64_avx2(__m256i lo, __m256i hi, char c)
{
	const __m256i k = _mm256_set1_epi8(c);

	return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, k)) |
	       (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, k)) << 32;
}

__attribute__((target("avx2")))
static inline struct block_bits block_avx2(const char *s)
{
	__m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)s);
	__m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(s + 32));
	struct block_bits b;

	b.newline = bits64_avx2(lo, hi, '\n');
	b.space = bits64_avx2(lo, hi, ' ');
	b.equal = bits64_avx2(lo, hi, '=');
	b.colon = bits64_avx2(lo, hi, ':');
	return b;
}

/* A compare into a mask register is the 64 bits itself: no movemask, no shift. */
__attribute__((target("avx512bw")))
static inline struct block_bits block_avx512(const char *s)
{
	__m512i v = _mm512_loadu_si512((const void *)s);
	struct block_bits b;

	b.newline = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n'));
	b.space = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(' '));
	b.equal = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('='));
	b.colon = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(':'));
	return b;
}
#endif

void line_masks_init(struct line_masks *m)
{
	memset(m, 0, sizeof(*m));
}

void line_masks_release(struct line_masks *m)
{
	free(m->heap);
	m->heap = NULL;
	m->heap_words = 0;
}

/* Point the masks at words enough for len bytes. */
static uint64_t *words_for(struct line_masks *m, size_t len, size_t *nwords)
{
	uint64_t *w;

	*nwords = (len + 63) / 64;
	if (*nwords <= LINESCAN_WORDS) {
		w = &m->own[0][0];
		*nwords = LINESCAN_WORDS;
	} else {
		if (*nwords > m->heap_words) {
			free(m->heap);
			m->heap_words = *nwords;
			m->heap = xmalloc(3 * *nwords * sizeof(*m->heap));
		}
		w = m->heap;
	}
	m->space = w;
	m->stop = w + *nwords;
	m->colon = w + 2 * *nwords;
	return w;
}

static inline void put_block(struct line_masks *m, size_t word, struct block_bits b,
			     uint64_t keep)
{
	((uint64_t *)m->space)[word] = b.space & keep;
	((uint64_t *)m->stop)[word] = (b.space | b.equal) & keep;
	((uint64_t *)m->colon)[word] = b.colon & keep;
}

/* The scans, one body for each way of reading a block (inlined into each). */
#define SCAN_FIND(block)							\
	do {									\
		char pad[64];							\
		size_t nwords, i;						\
									\
		words_for(m, len, &nwords);					\
		for (i = 0; i + 64 <= len; i += 64)				\
			put_block(m, i / 64, block(s + i), ~0ull);		\
		if (i < len) {							\
			memset(pad, 0, sizeof(pad));				\
			memcpy(pad, s + i, len - i);				\
			put_block(m, i / 64, block(pad), ~0ull);		\
		}								\
	} while (0)

#define SCAN_LINE(block)							\
	do {									\
		size_t lim = avail < LINESCAN_MAX ? avail : LINESCAN_MAX, i;	\
									\
		m->space = m->own[0];						\
		m->stop = m->own[1];						\
		m->colon = m->own[2];						\
		for (i = 0; i < lim; i += 64) {				\
			struct block_bits b = block(s + i);			\
									\
			if (b.newline) {					\
				size_t n = i + (size_t)__builtin_ctzll(b.newline); \
									\
				if (n >= lim)					\
					return LINESCAN_NONE;			\
				put_block(m, i / 64, b, (1ull << (n - i)) - 1);	\
				return n;					\
			}							\
			put_block(m, i / 64, b, ~0ull);			\
		}								\
		return LINESCAN_NONE;						\
	} while (0)

/* A way's two scans, find_WAY and line_WAY, from its block reader (attrs: its target). */
#define SCAN_WAY(way, attrs)							\
	attrs static void find_##way(const char *s, size_t len, struct line_masks *m) \
	{									\
		SCAN_FIND(block_##way);						\
	}									\
	attrs static size_t line_##way(const char *s, size_t avail, struct line_masks *m) \
	{									\
		SCAN_LINE(block_##way);						\
	}

SCAN_WAY(scalar, )
#ifdef HAVE_X86
SCAN_WAY(sse2, )
SCAN_WAY(avx2, __attribute__((target("avx2"))))
SCAN_WAY(avx512, __attribute__((target("avx512bw"))))
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
	case LINESCAN_AVX512:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx512bw");
#endif
	default:
		return 0;
	}
}

enum linescan_impl linescan_best(void)
{
	if (linescan_available(LINESCAN_AVX512))
		return LINESCAN_AVX512;
	if (linescan_available(LINESCAN_AVX2))
		return LINESCAN_AVX2;
	if (linescan_available(LINESCAN_SSE2))
		return LINESCAN_SSE2;
	return LINESCAN_SCALAR;
}

void linescan_find(enum linescan_impl impl, const char *s, size_t len, struct line_masks *m)
{
#ifdef HAVE_X86
	if (impl == LINESCAN_AVX512) {
		find_avx512(s, len, m);
		return;
	}
	if (impl == LINESCAN_AVX2) {
		find_avx2(s, len, m);
		return;
	}
	if (impl == LINESCAN_SSE2) {
		find_sse2(s, len, m);
		return;
	}
#endif
	(void)impl;
	find_scalar(s, len, m);
}

size_t linescan_line(enum linescan_impl impl, const char *s, size_t avail, struct line_masks *m)
{
	return linescan_line_way(impl)(s, avail, m);
}

linescan_line_fn linescan_line_way(enum linescan_impl impl)
{
#ifdef HAVE_X86
	if (impl == LINESCAN_AVX512)
		return line_avx512;
	if (impl == LINESCAN_AVX2)
		return line_avx2;
	if (impl == LINESCAN_SSE2)
		return line_sse2;
#endif
	(void)impl;
	return line_scalar;
}
