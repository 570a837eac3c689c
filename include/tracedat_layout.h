/*
 * tracedat_layout.h - a trace.dat's layout checked before libtracecmd reads it:
 * every size and offset within the file, each CPU's first page, and the
 * event formats tried on libtraceevent in a child (tracedat_layout.c says why).
 * Not here: reading the events.
 */
#ifndef TA_TRACEDAT_LAYOUT_H
#define TA_TRACEDAT_LAYOUT_H

enum dat_layout {
	DAT_LAYOUT_OK,
	DAT_LAYOUT_DAMAGED,	/* a size or offset past the end, a bad first page... */
	DAT_FORMATS_CRASH,	/* libtraceevent dies parsing its event formats */
	DAT_HEADER_PAGE_BAD,	/* header_page does not describe the file's pages */
};

#include <stdbool.h>
#include <stdint.h>

/*
 * Where the top buffer keeps each CPU's pages, when they can be walked in
 * place (tracedat_pages.h): not compressed, CPUs numbered as listed, and
 * no option that moves or scales timestamps (date, offset, time shift,
 * guest, TSC-to-ns), so that the pages' times are trace-cmd report's.
 */
/* A part of the file: where its bytes are. */
struct dat_text {
	uint64_t off, len;
};

/* An event format libtraceevent is to parse, and its system ("kmem" or "ftrace"). */
struct dat_format {
	struct dat_text text;
	const char *system;	/* a constant */
};

/*
 * What a tep handle needs of a walkable file's metadata, as libtracecmd
 * would hand it over: the header page's format, the kmem and ftrace
 * formats (the only ones parsed: tepoverrides.h), the kallsyms and the
 * saved command lines, each once, uncompressed in the file; the CPU count.
 */
struct dat_meta {
	bool has_header_page, has_kallsyms, has_cmdlines;
	bool repeated;		/* a part given twice: libtracecmd's reading, not ours */
	struct dat_text header_page, kallsyms, cmdlines;
	struct dat_format *formats;
	size_t nformats, formats_cap;
	uint64_t cpus;		/* v6's count, or v7's CPUCOUNT option (0: none) */
};

struct dat_flyrecord {
	bool walkable;		/* its pages are not checked yet: the walk checks each */
	bool ts_changed;	/* an option that changes timestamps was seen */
	bool top_seen;
	uint32_t page_size;
	unsigned long_size;
	int ncpus;
	uint64_t *offset, *size;	/* per CPU: its pages in the file */
	struct dat_meta meta;
};

/*
 * A ring-buffer page (n bytes of it in the file) as the kernel writes it:
 * a timestamp, a commit word of long_size bytes (the data's size, and
 * flags), the data, then the count of lost events when the flags say it
 * is stored there; all within the page. A page that breaks the rule is a
 * damaged file's (libtraceevent's kbuffer would read past it).
 */
bool dat_page_ok(const unsigned char *page, uint64_t n, uint32_t page_size, unsigned long_size);

/* The trace.dat of this version open on fd (read at random: a regular file); fly may be NULL. */
enum dat_layout datlayout_check(int fd, int version, struct dat_flyrecord *fly);
void dat_flyrecord_release(struct dat_flyrecord *fly);

#endif
