/*
 * testhook.c - TA_TEST_PAUSE: stop the process at a named point for a
 * test; TA_TEST_GB: the size record's "passed N GB" warning counts in;
 * TA_TEST_LINESCAN: the parser's way of scanning lines (testhook.h).
 * Nothing else, and nothing at all when unset.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "testhook.h"

/* Is point one of the comma-separated names in list? */
static int is_listed(const char *list, const char *point)
{
	size_t n = strlen(point);

	while (*list) {
		size_t len = strcspn(list, ",");

		if (len == n && strncmp(list, point, n) == 0)
			return 1;
		list += len + (list[len] == ',');
	}
	return 0;
}

void test_pause_point(const char *point)
{
	static const char *wanted;
	static int looked;

	if (!looked) {
		wanted = getenv("TA_TEST_PAUSE");
		looked = 1;
	}
	if (wanted && is_listed(wanted, point))
		raise(SIGSTOP);
}

long long test_gigabyte(void)
{
	static long long gb;

	if (!gb) {
		const char *v = getenv("TA_TEST_GB");
		long long n = v ? atoll(v) : 0;

		gb = n > 0 ? n : 1000000000ll;
	}
	return gb;
}

int test_linescan(void)
{
	static const char *const names[] = { "scalar", "sse2", "avx2" };
	const char *v = getenv("TA_TEST_LINESCAN");
	int i;

	for (i = 0; v && i < 3; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	return -1;
}
