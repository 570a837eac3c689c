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

/*
 * The next piece of s[0..n) (n > 0) as valid UTF-8: a character as it is,
 * or the escape of a byte that is none ("\0" for NUL, "\xNN"), written in
 * esc; *piece and *len say which. Returns the bytes of s it stands for.
 */
size_t utf8_next_piece(const char *s, size_t n, char esc[5], const char **piece, size_t *len);

/*
 * s[0..n) as valid UTF-8 into out (cap bytes, NUL-terminated): a valid
 * character as it is, NUL as "\0", any other C0 control, DEL or byte not
 * part of a valid sequence as "\xNN"; cut between characters. Its length.
 */
size_t utf8_clean(const char *s, size_t n, char *out, size_t cap);

/* Would utf8_clean leave s[0..n) as it is? */
bool utf8_is_clean(const char *s, size_t n);

#endif
