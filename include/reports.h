/*
 * reports.h - the report table: every report of a log (and of a tree) the
 * bare command and record write, each declared once: its name, its option
 * and help line, the shape of what it writes, what it needs of the run
 * and of the command line, and its writer. From it come the report
 * options of each command's option table, the checks of what needs what,
 * the list of outputs the file checks and the hints use, and the write
 * loop (pipeline.c). A new report is one entry here and its writer.
 *
 * Not here: the writers' formats (report.h, stats.h, ...) or the run.
 */
#ifndef TA_REPORTS_H
#define TA_REPORTS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* In the order they are written. */
enum report_id {
	REPORT_ACCOUNT,
	REPORT_CALLERS,
	REPORT_RINGS,
	REPORT_STATS,
	REPORT_SUMMARY,
	REPORT_OUTSTANDING,
	REPORT_PEAK,
	REPORT_LIFETIMES,
	REPORT_GROWTH,
	REPORT_PAGE,
	REPORT_SIZES,
	REPORT_LEDGER,
	REPORT_FOLDED,
	REPORT_FOLDED_PAGES,
	REPORT_FLAME,
	REPORT_PPROF,
	REPORT_OPENMETRICS,
	REPORT_TIMELINE,
	REPORT_PERFETTO,
	REPORT_HTML,
	REPORT_COUNT
};

/* What a report's file is. */
enum report_shape {
	SHAPE_TABLES,		/* text, CSV or JSON, as --format says */
	SHAPE_CHART,		/* PNG, or SVG or PDF by its name */
	SHAPE_CHART_OR_DATA,	/* a chart, or its data: FILE.csv, FILE.json, '-' */
	SHAPE_OWN,		/* a format of its own: folded lines, a profile, a page */
};

/* What a report needs of the command line; a usage error without it. */
enum report_requirement {
	REQUIRES_TREE = 1u << 0,	/* -k DIR */
	REQUIRES_LOG = 1u << 1,		/* -f LOG or --db-file DB (else without_log says so) */
	REQUIRES_KSNAPSHOT = 1u << 2,	/* -f of a kernel snapshot (ksnapshot.h), no other input */
};

struct report_run;	/* pipeline.h: the analysis and the options */
struct options;		/* options.h */
struct out_dest;	/* output.h */

struct report_decl {
	const char *name;		/* "account": as the outputs name it */
	char short_name;		/* its option's letter, or 0 */
	const char *long_name;		/* its option: "account-file" */
	const char *help;		/* its --help line */
	enum report_shape shape;
	unsigned needs;			/* enum analysis_need (request.h) of the run */
	unsigned requires;		/* enum report_requirement */
	bool top;			/* --top limits its rows */
	bool weighted;			/* --weight says what it weighs */
	const char *without_log;	/* REQUIRES_LOG: the usage error, naming its group */
	const char *hint;		/* its words in "this log also gives: ...", or NULL */
	/* its writer: a document of output.h in --format (tables), or a file of its own */
	void (*tables)(struct out_dest *o, const struct report_run *run);
	int (*write)(const struct report_run *run, const char *path, struct ta_error *err);
	/* of /proc/allocinfo snapshots (allocinfo.h): its writer, none when it needs events */
	void (*snapshot_tables)(struct out_dest *o, const struct report_run *run);
	int (*snapshot_write)(const struct report_run *run, const char *path, struct ta_error *err);
	/* of a kernel snapshot (ksnapshot.h): its writer; the only one such an input gives */
	void (*ksnapshot_tables)(struct out_dest *o, const struct report_run *run);
	/* or its own writer of them (the page) */
	int (*ksnapshot_write)(const struct report_run *run, const char *path, struct ta_error *err);
	/* does writing it to path draw with cairo? NULL: never */
	bool (*draws)(const char *path);
};

extern const struct report_decl report_table[REPORT_COUNT];

/* Can report id be made of allocinfo snapshots? */
bool report_of_snapshots(enum report_id id);

/* Is report id made of a kernel snapshot (and of nothing else)? */
bool report_of_kernel_snapshots(enum report_id id);
/* Is it a kernel snapshot's alone (--ledger), refused for anything else? */
bool report_needs_kernel_snapshot(enum report_id id);

/* Does any report opts asks for draw with cairo (chartfile.h)? */
bool reports_draw(const struct options *opts);


/* Write report id to path ('-': standard output), whole or not at all. */
int report_write(const struct report_run *run, enum report_id id, const char *path,
		 struct ta_error *err);

/* "-c", "--summary": how a message names report id's option. */
const char *report_option_name(enum report_id id, char *buf, size_t cap);

#endif
