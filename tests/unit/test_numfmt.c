/*
 * test_numfmt.c - fmt_fixed against printf's own "%.Nf", byte for byte:
 * exact halves (which round to even), values just beside them, negative
 * zero and values rounding to zero, subnormals, integers near 2^53, the
 * times and percentages reports print, and a million random doubles of
 * every magnitude.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "numfmt.h"

static void same_as_printf(double v, int prec)
{
	char ours[NUMFMT_MAX], theirs[512];

	fmt_fixed(ours, sizeof(ours), v, prec);
	snprintf(theirs, sizeof(theirs), "%.*f", prec, v);
	if (strcmp(ours, theirs) != 0)
		fail_msg("%%.%df of %a: printf says %s, fmt_fixed %s", prec, v, theirs, ours);
}

static void every_precision(double v)
{
	int p;

	for (p = 0; p <= 9; p++) {
		same_as_printf(v, p);
		same_as_printf(-v, p);
	}
}

static void halves_round_to_even(void **state)
{
	static const double v[] = { 0.5, 1.5, 2.5, 0.125, 0.375, 2.675, 1.005, 0.0625,
				    1e-7, 5e-7, 0.0000005, 123456.5, 0.25, 0.75 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(*v); i++) {
		every_precision(v[i]);
		every_precision(nextafter(v[i], 0));
		every_precision(nextafter(v[i], 1e9));
	}
}

static void zeros_and_edges(void **state)
{
	(void)state;
	every_precision(0.0);
	every_precision(-0.0);
	every_precision(0.001);
	every_precision(4.9e-324);
	every_precision(2.2250738585072014e-308);
	every_precision(9007199254740991.0);
	every_precision(9007199254740992.0);	/* printf's own from here */
	every_precision(1e300);
	every_precision(NAN);
	every_precision(INFINITY);
}

static void report_values(void **state)
{
	uint64_t ns;

	(void)state;
	for (ns = 0; ns < 3000000000ull; ns += 999983)	/* times: ns since the start, in s */
		same_as_printf((double)ns / 1e9, 6);
	for (ns = 0; ns <= 100000; ns++)		/* percentages of integer counts */
		same_as_printf(100.0 * (double)ns / 100000.0, 2);
}

static void random_doubles(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	int i;

	(void)state;
	for (i = 0; i < 1000000; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* every magnitude from 2^-60 to 2^60, and any bits in the mantissa */
		v = ldexp((double)(x >> 11) / 9007199254740992.0, (int)(x % 121) - 60);
		same_as_printf(v, (int)(x >> 60) % 10);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(halves_round_to_even),
		cmocka_unit_test(zeros_and_edges),
		cmocka_unit_test(report_values),
		cmocka_unit_test(random_doubles),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
