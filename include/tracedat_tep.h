/*
 * tracedat_tep.h - the tep handle libtracecmd 3.1 makes of a trace.dat
 * (tracecmd_alloc_fd, tracecmd_read_headers, the CPU count of
 * tracecmd_init_data), made instead from the parts the layout check found
 * (struct dat_meta): the file's byte order and long size, the header page,
 * the kmem and ftrace formats (the only ones parsed, as tepoverrides.c has
 * libtracecmd parse), the saved command lines, and the kallsyms into a
 * symbol table read with libtraceevent's rule. Opening with libtracecmd,
 * after a child tried it first in case it died, read every part twice and
 * parsed the headers of all 2,000 formats: 40% of the time of reading a
 * 76 MB capture. Walkable files only: their pages are not libtracecmd's
 * to read either.
 * Not here: the pages, the layout check, formats tried in a child (tepguard.h).
 */
#ifndef TA_TRACEDAT_TEP_H
#define TA_TRACEDAT_TEP_H

#include "symbols.h"
#include "tracedat_layout.h"

struct tep_handle;

/* fly's file mapped at map: its tep (tep_free() it), kallsyms filled; NULL if none can be made. */
struct tep_handle *dat_tep_of_parts(const unsigned char *map, const struct dat_flyrecord *fly,
				    struct symbol_table *kallsyms);

#endif
