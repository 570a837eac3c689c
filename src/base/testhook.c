/*
 * testhook.c - TA_TEST_PAUSE: stop the process at a named point for a
 * test (testhook.h). Does nothing else, and nothing at all when unset.
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
