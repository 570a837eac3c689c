/*
 * testhook.c - TA_TEST_PAUSE: stop the process at a named point for a
 * test; TA_TEST_GB: the size record's "passed N GB" warning counts in;
 * TA_TEST_LINESCAN: the parser's way of scanning lines; TA_TEST_DRAW_INLINE:
 * pictures drawn on the calling thread alone; TA_TEST_INSTANCES:
 * a file the tracefs instances made are named in; TA_TEST_ALLOCINFO: the
 * file read as /proc/allocinfo (testhook.h).
 * Nothing else, and nothing at all when unset.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

const char *test_slab_dir(void)
{
	const char *v = getenv("TA_TEST_SLAB_DIR");

	return v && *v ? v : "/sys/kernel/slab";
}

const char *test_modules_path(void)
{
	const char *v = getenv("TA_TEST_MODULES");

	return v && *v ? v : "/proc/modules";
}

const char *test_allocinfo_path(void)
{
	const char *v = getenv("TA_TEST_ALLOCINFO");

	return v && *v ? v : "/proc/allocinfo";
}

int test_linescan(void)
{
	static const char *const names[] = { "scalar", "sse2", "avx2", "avx512" };
	const char *v = getenv("TA_TEST_LINESCAN");
	int i;

	for (i = 0; v && i < 4; i++)
		if (strcmp(v, names[i]) == 0)
			return i;
	return -1;
}

bool test_no_replay(void)
{
	const char *v = getenv("TA_TEST_NO_REPLAY");

	return v && *v && strcmp(v, "0") != 0;
}

bool test_later_part(const char *name)
{
	const char *v = getenv("TA_TEST_LATER_PART");

	return v && strcmp(v, name) == 0;
}

const char *test_snapshot_root(void)
{
	const char *v = getenv("TA_TEST_SNAPSHOT_ROOT");

	return v ? v : "";
}

bool test_draw_inline(void)
{
	const char *v = getenv("TA_TEST_DRAW_INLINE");

	return v && *v && strcmp(v, "0") != 0;
}

void test_note_instance(const char *name)
{
	const char *path = getenv("TA_TEST_INSTANCES");
	char line[256];
	int fd, n;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s\n", name);
	if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) < 0)
		n = 0;	/* a test hook: the test sees the name missing */
	close(fd);
}
