/*
 * cmdline.c - usage errors and strict option values, for every subcommand.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cmdline.h"

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

bool read_thread_count(const char *s, int *out)
{
	uint64_t n;

	if (!read_count(s, 64, &n))
		return false;
	*out = (int)n;
	return true;
}
