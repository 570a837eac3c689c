/*
 * tepoverrides.h - how libtraceevent parses while a trace.dat is opened.
 *
 * libtracecmd hands libtraceevent every event format of the recording
 * machine and its whole kallsyms; this program defines tep_parse_event()
 * and tep_parse_kallsyms() itself (tepoverrides.c says why) and, between
 * tep_overrides_open() and tep_overrides_end() on one thread, parses only
 * the kmem and ftrace formats and puts the kallsyms into a symbol table.
 * Outside, and on other threads, the library's own functions run.
 */
#ifndef TA_TEPOVERRIDES_H
#define TA_TEPOVERRIDES_H

#include "symbols.h"

/* A trace.dat is opened on this thread: its kallsyms into kallsyms. */
void tep_overrides_open(struct symbol_table *kallsyms);

/* An open tried in a probing child: the formats as above, no kallsyms. */
void tep_overrides_probe(void);

/* Done: the library's own functions again. */
void tep_overrides_end(void);

#endif
