/*
 * utf8.h - names made valid UTF-8 where they come in (symbols, file names,
 * a capture's strings), and cut only between characters: every output
 * (protobuf, XML, JSON, cairo) then takes them as they are. An invalid
 * byte shows as "\xNN", a NUL as "\0", so two names never merge and none is
 * cut short. Not here: escaping for one format (output.c does that).
 */
#ifndef TA_UTF8_H
#define TA_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* The length of the valid character at s[0..n) (not a control), or 0. */
size_t utf8_char_len(const char *s, size_t n);

/* The longest prefix of s[0..n) of at most max bytes that ends between characters. */
size_t utf8_cut(const char *s, size_t n, size_t max);

/* n, less a last character cut short (after a truncating snprintf). */
size_t utf8_trim(const char *s, size_t n);

/*
 * s[0..n) as valid UTF-8 into out (cap bytes, NUL-terminated): a valid
 * character as it is, NUL as "\0", any other C0 control, DEL or byte not
 * part of a valid sequence as "\xNN"; cut between characters. Its length.
 */
size_t utf8_clean(const char *s, size_t n, char *out, size_t cap);

/* Would utf8_clean leave s[0..n) as it is? */
bool utf8_is_clean(const char *s, size_t n);

#endif
