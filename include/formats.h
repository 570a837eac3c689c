/*
 * formats.h - what an input is, from its first bytes: one entry per format
 * trace_analyze reads (a kmem log's text, a DB, a trace.dat, a perf.data,
 * /proc/allocinfo snapshots, a kernel snapshot), each with its probe, asked in one place by
 * every command. A DB is known by its own bytes (it is read in place); the
 * others by their content, decompressed.
 *
 * Not here: reading any of them (input.h, binread.h, db.h, allocinfo.h).
 */
#ifndef TA_FORMATS_H
#define TA_FORMATS_H

#include <stdbool.h>
#include <stddef.h>

#define DB_MAGIC "TAKMEMDB"
#define TRACEDAT_MAGIC "\027\010\104tracing"
#define PERFDATA_MAGIC "PERFILE2"

/* How many first bytes the probes read. */
#define INPUT_PROBE_BYTES 256

enum input_kind {
	INPUT_TEXT,		/* a kmem log: whatever no other probe claims */
	INPUT_DB,		/* --save-db's file */
	INPUT_TRACEDAT,		/* trace-cmd's trace.dat */
	INPUT_PERFDATA,		/* perf record's perf.data */
	INPUT_ALLOCINFO,	/* /proc/allocinfo snapshots (or a directory of them) */
	INPUT_KSNAPSHOT,	/* a kernel snapshot: a folder with meminfo, or /proc/meminfo */
	INPUT_PAGEOWNER,	/* page_owner's dump or show_stacks (pageowner.h) */
	INPUT_KMEMLEAK,		/* kmemleak's report (kmemleak.h) */
	INPUT_KIND_COUNT
};

struct input_format {
	enum input_kind kind;
	const char *name;	/* as messages say it: "trace.dat" */
	bool raw;		/* probed on the file's own bytes only: never compressed */
	bool (*probe)(const unsigned char *head, size_t n);
};

/* The formats, probed in this order; the text last, which takes anything. */
extern const struct input_format input_formats[INPUT_KIND_COUNT];

/* What n first bytes say: a raw (undecompressed) head may be any format, a decompressed one not a DB. */
enum input_kind input_kind_of_head(const unsigned char *head, size_t n, bool raw);

/*
 * What the file or directory at path is: a directory with a meminfo file
 * is a kernel snapshot; one whose first file (by versionsort) is an
 * allocinfo snapshot is a series of them; a file by its own first
 * bytes, then by its content decompressed. Standard input ("-"), a file
 * that cannot be read or a directory of anything else: INPUT_TEXT (opening
 * it as a log says why).
 */
enum input_kind input_kind_of_path(const char *path);

const char *input_kind_name(enum input_kind kind);

#endif
