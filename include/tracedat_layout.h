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
struct dat_flyrecord {
	bool walkable;
	bool ts_changed;	/* an option that changes timestamps was seen */
	bool top_seen;
	uint32_t page_size;
	unsigned long_size;
	int ncpus;
	uint64_t *offset, *size;	/* per CPU: its pages in the file */
};

/* The trace.dat of this version open on fd (read at random: a regular file); fly may be NULL. */
enum dat_layout datlayout_check(int fd, int version, struct dat_flyrecord *fly);
void dat_flyrecord_release(struct dat_flyrecord *fly);

#endif
