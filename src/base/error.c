/*
 * error.c - error messages carried up to main, warnings, and allocation
 * wrappers that exit on out-of-memory (there is nothing useful to do then).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

int error_set(struct ta_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int error_set_errno(struct ta_error *err, int errnum, const char *fmt, ...)
{
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof(err->msg) - len, ": %s", strerror(errnum));
	return -1;
}

void warn(const char *fmt, ...)
{
	va_list ap;

	fputs("trace_analyze: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void die_out_of_memory(size_t size)
{
	fprintf(stderr, "trace_analyze: error: out of memory allocating %zu bytes\n", size);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die_out_of_memory(size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die_out_of_memory(n * size);
	return p;
}

void *xrealloc(void *old, size_t size)
{
	void *p = realloc(old, size ? size : 1);

	if (!p)
		die_out_of_memory(size);
	return p;
}

void *xgrow_zeroed(void *p, uint32_t *len, uint32_t index, size_t size)
{
	uint32_t n = *len ? *len : 64;

	if (index < *len)
		return p;
	while (n <= index)
		n *= 2;
	p = xrealloc(p, (size_t)n * size);
	memset((char *)p + (size_t)*len * size, 0, (size_t)(n - *len) * size);
	*len = n;
	return p;
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}

FILE *xopen_memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		die_out_of_memory(BUFSIZ);
	return f;
}
