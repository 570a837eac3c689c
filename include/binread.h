/*
 * binread.h - the capture tools' binary files read straight into kmem
 * events: trace-cmd's trace.dat (versions 6 and 7, compressed sections
 * too, through libtracecmd) and perf's perf.data (file mode, its
 * documented layout). Known by their magic bytes, never by name.
 *
 * Events come out in the order the tools' text forms (trace-cmd report,
 * perf script) print them, named as those print them (tepkmem.h), with
 * their stacks (a trace.dat's kernel_stack records paired as the text
 * pairs them, a perf.data's callchains), and numbered with the line they
 * would have in that text, so that a binary file and its text form give
 * the same reports. What each read says of itself (records, lost events,
 * CPUs) goes into the read_result the text reader fills.
 * Not here: accounting, reports, finding files.
 */
#ifndef TA_BINREAD_H
#define TA_BINREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "text_reader.h"
#include "formats.h"
#include "symbols.h"

enum binary_kind { BINARY_NONE, BINARY_TRACEDAT, BINARY_PERFDATA };

/* What the first n bytes of a file say it is, of the binary captures (formats.h). */
enum binary_kind binary_kind_of(const unsigned char *head, size_t n);
const char *binary_kind_name(enum binary_kind k);

struct binread_config {
	const char *name;		/* the file, for messages */
	struct trace_strings *strings;	/* where ids point */
	unsigned want;			/* enum parse_want */
	const struct symbol_table *syms;	/* -k/System.map (or --kallsyms alone), or NULL */
	const struct symbol_table *kallsyms;	/* --kallsyms after System.map, or NULL */
	bool running_kallsyms;		/* perf.data: /proc/kallsyms may be used if it matches */
	/* trace.dat: a /proc/modules saved with it (--modules), for its own kallsyms, or NULL */
	const char *modules_text;
	size_t modules_len;
	const char *modules_path;
	bool salvage;			/* perf.data a killed perf record left: read what is whole,
					   with the running kernel's event formats */
	bool usec_timestamps;		/* cut to microseconds, as the text forms print them
					   (TA_TEST_TIMESTAMPS=usec: tests compare with them) */
	int threads;			/* --threads: 1 reads on the calling thread; else a
					   reader thread decodes while it hands on (binpipe.c) */
	event_fn on_event;
	lookahead_fn on_lookahead;	/* may be NULL: as read_config's */
	void *ctx;
};

/* What a binary file said of itself, for the summary and the messages. */
struct binread_facts {
	enum binary_kind kind;
	int version;			/* trace.dat's; perf.data: 2 */
	uint64_t records;		/* event records read (samples for perf.data) */
	const char *symbols_from;	/* "the file's kallsyms", "System.map", ... or NULL */
	char os_release[80];		/* perf.data's HEADER_OSRELEASE, or "" */
	uint64_t lost_records;		/* perf.data: PERF_RECORD_LOST */
	bool salvaged;			/* perf.data read with --salvage: unfinished */
	uint64_t salvage_bytes_left;	/* of it, bytes at the end not a whole record */
};

/*
 * Read the file open on fd (a regular file: both formats are read at
 * random) into cfg->on_event. 0, or -1 with err saying what is wrong with
 * it (damaged, cut, an unknown version, no kmem event format).
 */
int binread(int fd, enum binary_kind kind, const struct binread_config *cfg,
	    struct read_result *out, struct binread_facts *facts, struct ta_error *err);
/* The same, all on the calling thread (binread() on two threads calls it on the reader's). */
int binread_here(int fd, enum binary_kind kind, const struct binread_config *cfg,
		 struct read_result *out, struct binread_facts *facts, struct ta_error *err);

/* The reader of each format, which binread() calls: tracedat.c, perfdata.c. */
int tracedat_read(int fd, const struct binread_config *cfg, struct read_result *out,
		  struct binread_facts *facts, struct ta_error *err);
int perfdata_read(int fd, const struct binread_config *cfg, struct read_result *out,
		  struct binread_facts *facts, struct ta_error *err);

#endif
