/*
 * cmdline.c - usage errors and strict option values, for every subcommand.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "chartfile.h"
#include "cmdline.h"
#include "options.h"

int usage_error(const char *usage, const char *help, const char *fmt, ...)
{
	va_list ap;

	fputs("trace_analyze: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fputs(usage, stderr);
	fprintf(stderr, "Try 'trace_analyze %s%s--help' for more information.\n", help,
		*help ? " " : "");
	return EXIT_USAGE;
}

/* Edits (insert, delete, replace, swap two neighbours) from a[0..n) to b[0..m), both < 64. */
static unsigned edit_distance(const char *a, size_t n, const char *b, size_t m)
{
	unsigned d[65][65];
	size_t i, j;

	for (i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (i = 1; i <= n; i++) {
		for (j = 1; j <= m; j++) {
			unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[n][m];
}

const char *nearest_long_option(const struct option *opts, const char *arg)
{
	const char *best = NULL;
	unsigned best_d = 3;	/* two edits at most */
	size_t n;

	if (strncmp(arg, "--", 2) != 0)
		return NULL;
	arg += 2;
	n = strcspn(arg, "=");
	if (n == 0 || n > 63)
		return NULL;
	for (; opts->name; opts++) {
		size_t m = strlen(opts->name);
		unsigned d;

		if (m > 63)
			continue;
		d = edit_distance(arg, n, opts->name, m);
		if (d < best_d && d < m / 2 + 1) {	/* not "--x" for "--o" */
			best_d = d;
			best = opts->name;
		}
	}
	return best;
}

int unknown_option(const char *usage, const char *help, const struct option *opts,
		   const char *arg)
{
	const char *near = nearest_long_option(opts, arg);

	if (near)
		return usage_error(usage, help, "unknown option '%s' (did you mean '--%s'?)", arg,
				   near);
	return usage_error(usage, help, "unknown option '%s'", arg);
}

bool chart_path_ok(const char *path)
{
	return chart_format_of_path(path) != CHART_UNKNOWN;
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

bool read_seconds(const char *s, uint64_t *ns)
{
	const uint64_t max_s = 10000000000ull;
	uint64_t secs = 0, frac = 0, scale = 1000000000ull;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		secs = secs * 10 + (uint64_t)(*p - '0');
		if (secs > max_s)
			return false;
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return false;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
		}
	}
	if (*p)
		return false;
	*ns = secs * 1000000000ull + frac;
	return true;
}

static const char *const group_names[] = { "callsite", "function", "origin", "cache", "dir",
					    "size-class" };
#define GROUP_COUNT (sizeof(group_names) / sizeof(group_names[0]))

int group_by_of_name(const char *s, unsigned allowed)
{
	unsigned i;

	for (i = 0; i < GROUP_COUNT; i++)
		if ((allowed & 1u << i) && strcmp(s, group_names[i]) == 0)
			return (int)i;
	return -1;
}

const char *group_by_name(int group)
{
	return group >= 0 && (unsigned)group < GROUP_COUNT ? group_names[group] : "?";
}

const char *group_by_list(unsigned allowed)
{
	static char list[64];
	size_t n = 0;
	unsigned i;

	list[0] = '\0';
	for (i = 0; i < GROUP_COUNT; i++)
		if (allowed & 1u << i)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", n ? ", " : "",
					      group_names[i]);
	return list;
}

bool read_thread_count(const char *s, int *out)
{
	uint64_t n;

	if (!read_count(s, 64, &n))
		return false;
	*out = (int)n;
	return true;
}

bool read_pid_list(const char *s, int *pids, size_t *n, size_t max)
{
	char one[32];

	while (*s) {
		size_t len = strcspn(s, ", ");
		uint64_t pid;

		if (len == 0 || len >= sizeof(one))
			return false;
		memcpy(one, s, len);
		one[len] = '\0';
		if (!read_count(one, 0x7fffffff, &pid) || pid == 0 || *n >= max)
			return false;
		pids[(*n)++] = (int)pid;
		s += len;
		s += strspn(s, ", ");
	}
	return true;
}
