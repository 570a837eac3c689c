/*
 * utf8.c - validating and cutting UTF-8 (shortest forms only, no
 * surrogates, up to U+10FFFF) and the one escape every name gets.
 */
#include <stdio.h>
#include <string.h>

#include "utf8.h"

static size_t char_len(const unsigned char *s, size_t n)
{
	unsigned c = s[0];
	size_t len, i;
	unsigned cp;

	if (c < 0x80)
		return c >= 0x20 && c != 0x7f ? 1 : 0;
	if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; }
	else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; }
	else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; }
	else return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

size_t utf8_char_len(const char *s, size_t n)
{
	return n ? char_len((const unsigned char *)s, n) : 0;
}

bool utf8_is_clean(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		if ((k = char_len((const unsigned char *)s + i, n - i)) == 0)
			return false;
		i += k;
	}
	return true;
}

size_t utf8_cut(const char *s, size_t n, size_t max)
{
	size_t i;

	if (n <= max)
		return n;
	for (i = max; i > 0 && i + 3 > max && ((unsigned char)s[i] & 0xc0) == 0x80; i--)
		;
	return i;
}

size_t utf8_next_piece(const char *s, size_t n, char esc[5], const char **piece, size_t *len)
{
	size_t k = char_len((const unsigned char *)s, n);

	if (k) {
		*piece = s;
		*len = k;
		return k;
	}
	if (s[0] == '\0')
		memcpy(esc, "\\0", 3);
	else
		snprintf(esc, 5, "\\x%02x", (unsigned char)s[0]);
	*piece = esc;
	*len = strlen(esc);
	return 1;
}

size_t utf8_clean(const char *s, size_t n, char *out, size_t cap)
{
	size_t i = 0, at = 0, len;
	const char *piece;
	char esc[5];

	if (!cap)
		return 0;
	while (i < n) {
		size_t took = utf8_next_piece(s + i, n - i, esc, &piece, &len);

		if (at + len > cap - 1)
			break;
		memcpy(out + at, piece, len);
		at += len;
		i += took;
	}
	out[at] = '\0';
	return at;
}
