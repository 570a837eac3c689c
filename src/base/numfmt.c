/*
 * numfmt.c - fixed-point doubles as printf prints them (numfmt.h).
 *
 * A double is m * 2^e exactly (m an integer below 2^53). Scaled by
 * 10^prec it is m * 10^prec * 2^e: below 2^83 for the values taken, so a
 * 128-bit integer holds it; a right shift by -e gives its integer part,
 * and the bits shifted out say whether it is above, below or exactly at
 * the half, as glibc's printf rounds (to even on an exact half). The
 * digits are then written with the point put in. Not here: exponents
 * ("%e"), shortest forms ("%g").
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "numfmt.h"

static const uint64_t pow10_table[10] = {
	1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
};

/* The digits of q, most significant first, at least min_digits (leading zeros). */
static size_t put_digits(char *out, unsigned __int128 q, size_t min_digits)
{
	char rev[48];
	size_t n = 0, i;

	do {
		rev[n++] = (char)('0' + (unsigned)(q % 10));
		q /= 10;
	} while (q);
	while (n < min_digits)
		rev[n++] = '0';
	for (i = 0; i < n; i++)
		out[i] = rev[n - 1 - i];
	return n;
}

/* round(|v| * 10^prec), half to even, from v's exact binary value. */
static unsigned __int128 scaled_and_rounded(double a, int prec)
{
	uint64_t bits, mant;
	int exp2;
	unsigned __int128 num, q, rem, half;

	memcpy(&bits, &a, sizeof(bits));
	mant = bits & ((1ull << 52) - 1);
	exp2 = (int)((bits >> 52) & 0x7ff);
	if (exp2) {
		mant |= 1ull << 52;
		exp2 -= 1075;
	} else {
		exp2 = -1074;	/* subnormal */
	}
	num = (unsigned __int128)mant * pow10_table[prec];
	if (exp2 >= 0)	/* an integer below 2^53: nothing to round */
		return num << exp2;
	if (-exp2 >= 100)	/* below 2^-17 once scaled: rounds to 0, never a half */
		return 0;
	q = num >> -exp2;
	rem = num - (q << -exp2);
	half = (unsigned __int128)1 << (-exp2 - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	return q;
}

size_t fmt_fixed(char *buf, size_t cap, double v, int prec)
{
	char tmp[NUMFMT_MAX];
	size_t n = 0, digits;
	unsigned __int128 q;

	if (!isfinite(v) || fabs(v) >= 9007199254740992.0 || prec < 0 || prec > 9 ||
	    cap < NUMFMT_MAX) {
		int k = snprintf(buf, cap, "%.*f", prec, v);

		return k < 0 ? 0 : (size_t)k < cap ? (size_t)k : cap - 1;
	}
	q = scaled_and_rounded(fabs(v), prec);
	if (signbit(v))
		tmp[n++] = '-';	/* printf keeps the sign of what rounds to zero, and of -0 */
	digits = put_digits(tmp + n, q, (size_t)prec + 1);
	if (prec) {	/* the point before the last prec digits */
		memmove(tmp + n + digits - (size_t)prec + 1, tmp + n + digits - (size_t)prec,
			(size_t)prec);
		tmp[n + digits - (size_t)prec] = '.';
		digits++;
	}
	n += digits;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return n;
}

bool read_count(const char *s, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (v > (max - (uint64_t)(*s - '0')) / 10)
			return false;	/* past max: not read as something else */
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*out = v;
	return true;
}
