/*
 * tepguard.h - a capture's event formats tried on libtraceevent in a child
 * process before this one parses them.
 *
 * libtraceevent 1.7 dereferences NULL on some damaged print formats (a '.'
 * after a string constant, found by fuzzing perf.data and trace.dat): a
 * damaged capture must give a message, not a crash, so the formats a read
 * will hand to the library are parsed first by a forked child, which dies
 * in its place. Not here: parsing them for real, or reading the files.
 */
#ifndef TA_TEPGUARD_H
#define TA_TEPGUARD_H

#include <stdbool.h>
#include <stddef.h>

struct tepguard_format {
	const char *text;
	size_t len;
	const char *system;
};

struct tepguard {
	struct tepguard_format *formats;
	size_t n, cap;
	const char *header_page;	/* the ring buffer's page format, or NULL */
	size_t header_page_len;
	int long_size;
	void **owned;			/* decompressed texts the formats point into */
	size_t nowned;
};

void tepguard_init(struct tepguard *g, int long_size);
void tepguard_release(struct tepguard *g);

/* A format to try; text must live as long as g (tepguard_own() it if need be). */
void tepguard_add(struct tepguard *g, const char *text, size_t len, const char *system);
void tepguard_header_page(struct tepguard *g, const char *text, size_t len);

/* g frees p (from malloc) with itself. */
void tepguard_own(struct tepguard *g, void *p);

/*
 * Whether libtraceevent parses every format of g without dying, tried in a
 * child process (its output thrown away). true when no child can be made:
 * the read then goes on unguarded. Formats that survived once in this
 * process (the same texts, by hash) are not tried again.
 */
bool tepguard_formats_survive(const struct tepguard *g);

/*
 * Whether the header_page format (if g has one) gives the size of a page's
 * commit word as the file's long size: libtracecmd takes that size for
 * every page it reads, and a header_page that says otherwise (or nothing
 * it can parse) makes it fail half-opened and crash in its own clean-up.
 * Parsed in this process: call it after tepguard_formats_survive.
 */
bool tepguard_header_page_agrees(const struct tepguard *g);

/*
 * In a child that tries a library on a file: let a fatal signal kill it
 * as a plain process (no sanitizer report, no fuzzer crash file), so that
 * the parent sees the signal.
 */
void tepguard_die_plainly(void);

#endif
