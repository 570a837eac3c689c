/*
 * error.h - one place to carry a failure up to the caller that reports it.
 *
 * Functions that can fail take a struct ta_error * and return -1 after
 * filling it; only main() prints it, as "trace_analyze: error: <msg>".
 * This module does not print, exit or decide what is fatal.
 */
#ifndef TA_ERROR_H
#define TA_ERROR_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct ta_error {
	char msg[1024];
};

/* Fill err with a printf-style message; always returns -1. */
int error_set(struct ta_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Same, with ": <strerror(errnum)>" appended, as the OS reason goes last. */
int error_set_errno(struct ta_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Print "trace_analyze: warning: <msg>" on stderr (never fatal). */
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Allocation that cannot fail: on exhaustion prints an error and exits 1. */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/*
 * p, an array of *len elements of size bytes, grown (doubling, from 64)
 * so that element index exists, the new elements zeroed; *len updated.
 */
void *xgrow_zeroed(void *p, uint32_t *len, uint32_t index, size_t size);
/* Print "out of memory allocating <size> bytes" and exit 1. */
void die_out_of_memory(size_t size) __attribute__((noreturn));
/* "s" after a count other than 1: "%llu event%s", n, plural(n) */
static inline const char *plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}
/* open_memstream(3) that cannot fail (a report written into memory). */
FILE *xopen_memstream(char **buf, size_t *len);

#endif
