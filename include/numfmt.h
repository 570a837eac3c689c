/*
 * numfmt.h - a double in fixed point, byte for byte as printf's "%.Nf"
 * prints it (glibc: the exact binary value, rounded half to even), an
 * order of magnitude faster: reports print tens of thousands of them.
 * And the other way: a decimal count read exactly, or refused.
 * Not here: locales (the program runs in the C locale's numbers).
 */
#ifndef TA_NUMFMT_H
#define TA_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NUMFMT_MAX 340	/* room for any finite double at 9 digits, as printf writes it */

/*
 * v as "%.*f" with prec digits (0..9) into buf (cap >= NUMFMT_MAX):
 * its length. Not finite or beyond 2^53 in size: printf itself.
 */
size_t fmt_fixed(char *buf, size_t cap, double v, int prec);

/* "12" -> 12; false unless decimal digits only and <= max. */
bool read_count(const char *s, uint64_t max, uint64_t *out);

#endif
