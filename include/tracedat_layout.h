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

/* The trace.dat of this version open on fd (read at random: a regular file). */
enum dat_layout datlayout_check(int fd, int version);

#endif
