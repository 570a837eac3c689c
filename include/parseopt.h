/*
 * parseopt.h - one declaration per option, as git's parse-options: each
 * command lists its options once in an array of struct po_option (long and
 * short name, kind of value, where it goes, its help line, its group), and
 * from that array come the getopt_long table, the --help text (grouped,
 * aligned, the same look in every command), the strict value checks and
 * their messages, the did-you-mean for a misspelt long option, the files
 * the collision check sees, and the shell completion.
 *
 * Options several commands take are declared once, below (OPT_QUIET,
 * OPT_FORMAT, ...), and included by each command that takes them, so that
 * they mean and check the same everywhere. A short option means one thing
 * in every command, with one exception kept on purpose: -o is --order-by in
 * the bare command (trace_analyze.py's) and the output file in record (as
 * in perf record and trace-cmd record).
 *
 * Numbers are decimal and in range, or the option is refused: "0x10",
 * "1e3", "  5", "5s" and a count past its range are usage errors, never a
 * silently different value. Not here: what needs what between options
 * (each command checks that), what a value means.
 */
#ifndef TA_PARSEOPT_H
#define TA_PARSEOPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "numfmt.h"
#include "output.h"
#include "pathcheck.h"

/* Exit statuses. */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* a file, a DB, a write failed */
	EXIT_USAGE = 2,		/* the command line is wrong */
	EXIT_GATE = 3,		/* diff --fail-above: the growth is over the limit */
};

enum po_kind {
	PO_END = 0,
	PO_GROUP,	/* a heading of --help: help is its title */
	PO_FLAG,	/* bool *value = true */
	PO_SET,		/* int *value = min (a flag that chooses a value) */
	PO_TEXT,	/* const char **value: the argument as given */
	PO_INPUT,	/* const char **value: a file read (the collision check's input) */
	PO_OUTPUT,	/* const char **value: a file written (the collision check's output) */
	PO_UINT,	/* a decimal integer in [min, max] into *value of size bytes */
	PO_SECONDS,	/* "2.5" seconds into uint64_t *value, in ns, at least min ns */
	PO_CHOICE,	/* one of names[] (those in allowed) into int *value: its index */
	PO_CALL,	/* call(o, arg, why) reads the value; -1 with why: a usage error */
	PO_REFUSED,	/* not taken by this command: help is the reason (a usage error) */
	PO_HELP,	/* -h, --help */
	PO_VERSION,	/* -V, --version */
};

struct po_option;
typedef int (*po_call_fn)(const struct po_option *o, const char *arg, struct ta_error *why);

/* What record, which takes the bare command's table, does with one of its options. */
enum po_record_use {
	PO_RECORD_TAKES,	/* as it is */
	PO_RECORD_REFUSES,	/* a usage error: it reads a log, record the running kernel */
	PO_RECORD_HAS_ITS_OWN,	/* record's own option of that name is another */
	PO_RECORD_LONG_ONLY,	/* its letter is record's for something else */
};

struct po_option {
	enum po_kind kind;
	int short_name;		/* 0: none */
	const char *long_name;	/* NULL: none (a PO_GROUP) */
	void *value;
	const char *argh;	/* the value's name in --help: "FILE", "N" */
	const char *help;	/* one line, wrapped by --help */
	const char *wants;	/* PO_UINT, PO_SECONDS: "a number of rows" in "--top wants ..." */
	uint64_t min, max;	/* PO_UINT; PO_SECONDS: min; PO_SET: the value */
	unsigned size;		/* PO_UINT: sizeof *value */
	const char *const *names;	/* PO_CHOICE: NULL-terminated */
	unsigned allowed;	/* PO_CHOICE: a mask of the names allowed, 0: all */
	const char *noun;	/* PO_CHOICE: "key" in "unknown --order-by key 'x' (...)" */
	po_call_fn call;	/* PO_CALL */
	bool hidden_value;	/* PO_CHOICE: the names are not listed in --help */
	const char *const *name_help;	/* PO_CHOICE: what each name means, by name: --help
					   says it of the allowed names only, after help */
	enum po_record_use for_record;	/* the bare command's option in record's table */
};

/* ---- declaring options ---- */

/* opt, with what record does with it (po_record_use). */
static inline struct po_option po_for_record(struct po_option opt, enum po_record_use use)
{
	opt.for_record = use;
	return opt;
}

#define OPT_END() { .kind = PO_END }
#define OPT_GROUP(title) { .kind = PO_GROUP, .help = (title) }
#define OPT_FLAG(s, l, var, h) \
	{ .kind = PO_FLAG, .short_name = (s), .long_name = (l), .value = (var), .help = (h) }
#define OPT_SET(s, l, var, val, h) { .kind = PO_SET, .short_name = (s), .long_name = (l), \
	.value = (var), .min = (uint64_t)(val), .help = (h) }
#define OPT_TEXT(s, l, var, a, h) { .kind = PO_TEXT, .short_name = (s), .long_name = (l), \
	.value = (var), .argh = (a), .help = (h) }
#define OPT_INPUT(s, l, var, a, h) { .kind = PO_INPUT, .short_name = (s), .long_name = (l), \
	.value = (var), .argh = (a), .help = (h) }
#define OPT_OUTPUT(s, l, var, a, h) { .kind = PO_OUTPUT, .short_name = (s), .long_name = (l), \
	.value = (var), .argh = (a), .help = (h) }
#define OPT_UINT(s, l, var, a, lo, hi, w, h) { .kind = PO_UINT, .short_name = (s), \
	.long_name = (l), .value = (var), .argh = (a), .min = (lo), .max = (hi), \
	.size = sizeof(*(var)), .wants = (w), .help = (h) }
#define OPT_SECONDS(s, l, var, a, lo, w, h) { .kind = PO_SECONDS, .short_name = (s), \
	.long_name = (l), .value = (var), .argh = (a), .min = (lo), .wants = (w), .help = (h) }
#define OPT_CHOICE(s, l, var, a, nm, mask, n, h) { .kind = PO_CHOICE, .short_name = (s), \
	.long_name = (l), .value = (var), .argh = (a), .names = (nm), .allowed = (mask), \
	.noun = (n), .help = (h) }
#define OPT_CALL(s, l, var, a, fn, h) { .kind = PO_CALL, .short_name = (s), \
	.long_name = (l), .value = (var), .argh = (a), .call = (fn), .help = (h) }
#define OPT_REFUSED(s, l, why) { .kind = PO_REFUSED, .short_name = (s), .long_name = (l), \
	.help = (why) }
#define OPT_HELP() { .kind = PO_HELP, .short_name = 'h', .long_name = "help", \
	.help = "this help" }
#define OPT_VERSION() { .kind = PO_VERSION, .short_name = 'V', .long_name = "version", \
	.help = "the version" }

/* ---- the options several commands take, declared once ---- */

extern const char *const po_group_names[];	/* enum group_by */
extern const char *const po_group_help[];	/* what each makes a row, by enum group_by */
extern const char *const po_events_names[];	/* enum capture_events - 1 */

#define OPT_QUIET(var) OPT_FLAG('q', "quiet", (var), "no summary or progress on standard error")
#define OPT_FORMAT(var) { .kind = PO_CHOICE, .long_name = "format", .value = (var), \
	.argh = "FORMAT", .names = out_format_names, .noun = "", .hidden_value = true, \
	.help = "text (the default: trace_analyze.py's layout), csv, json or ndjson (JSON Lines: " \
		"an object a row), for every report" }
#define OPT_THREADS(var) OPT_UINT(0, "threads", (var), "N", 0, 64, "a number from 0 to 64", \
	"parser threads (default 0: one per CPU, at most 4; a trace.dat or perf.data: 2)")
#define OPT_KERNEL(var) OPT_INPUT('k', "kernel", (var), "DIR|INDEX", \
	"the built kernel tree (or its index, --save-index): its System.map resolves hex " \
	"call sites, its objects place call sites in directories")
#define OPT_BRANCH(var) OPT_TEXT('b', "start-branch", (var), "DIR", \
	"only rows (or static sizes) under DIR of the kernel tree, e.g. fs/ext2 or drivers/")
#define OPT_GROUP_BY(var, mask) { .kind = PO_CHOICE, .long_name = "group-by", .value = (var), \
	.argh = "WHAT", .names = po_group_names, .allowed = (mask), .noun = "value", \
	.help = "what a row is:", .name_help = po_group_help }
#define OPT_MALLOC(var) OPT_FLAG(0, "malloc", (var), \
	"only kmalloc, kmalloc_node and kfree events")
#define OPT_CACHE(var) OPT_FLAG(0, "cache", (var), \
	"only kmem_cache_alloc(_node) and kmem_cache_free events")
#define OPT_WRAPPERS(var) OPT_INPUT(0, "wrappers", (var), "FILE", \
	"more functions that allocate for their caller (one name or glob a line), " \
	"besides the built-in list")
#define OPT_USER_FRAMES(var) OPT_FLAG(0, "user-frames", (var), \
	"keep perf's user-space frames after the kernel's")
#define OPT_RINGS_FILE(var) OPT_OUTPUT('r', "rings-file", (var), "FILE", \
	"a ringchart of the directory tree: PNG, or SVG/PDF by the file name")
#define OPT_BUFFER_KB(var) OPT_UINT(0, "buffer-kb", (var), "N", 4, 1u << 22, \
	"kB per CPU from 4 to 4194304", "the trace buffer per CPU in kB (default 8192); " \
	"more if events are lost")
#define OPT_EVENTS(var) { .kind = PO_CHOICE, .long_name = "events", .value = (var), \
	.argh = "SET", .names = po_events_names, .noun = "", .hidden_value = true, \
	.help = "slab (kmalloc, kfree, kmem_cache_*), page (mm_page_alloc, mm_page_free*) " \
	"or all" }
#define OPT_PID(var) OPT_CALL(0, "pid", (var), "P[,P...]", po_read_pids, \
	"the allocations of these tasks and the children they fork, and every task's " \
	"frees of them (may be given again)")
#define OPT_STACKS(var) OPT_FLAG(0, "stacks", (var), \
	"record a stack trace with every event (origins, --folded, --flame)")

/* ---- a command ---- */

struct po_command {
	const char *name;	/* "" for the bare command, else the subcommand's */
	const char *usage;	/* "usage: trace_analyze ...\n" and its other lines */
	const char *about;	/* the paragraph --help prints after the usage */
	const char *epilog;	/* what --help prints after the options */
	bool arguments;		/* takes arguments after its options (files, CMD) */
	bool stop_at_argument;	/* options end at the first argument (record's CMD) */
};

/*
 * Parse argv[1..argc) by the table (argv[0] is the command's name). -1 to
 * go on, with *rest the index of the first argument; else the exit status:
 * 0 after --help or --version was printed, EXIT_USAGE after a usage error
 * was printed.
 */
int po_parse(const struct po_command *cmd, const struct po_option *table, int argc,
	     char **argv, int *rest);

/* Print "trace_analyze: error: <fmt>", the usage and the --help hint; EXIT_USAGE. */
int po_usage_error(const struct po_command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The --help text. */
void po_print_help(FILE *f, const struct po_command *cmd, const struct po_option *table);

/* Every file option given, as an input or an output of the collision check. */
void po_add_files(const struct po_option *table, struct file_roles *roles);

/* The option's name as messages give it: "-c" when it has a short name, else "--save-db". */
const char *po_option_label(const struct po_option *o, char *buf, size_t size);

/* A new table: a's options then b's (neither's PO_END); free() it. */
struct po_option *po_concat(const struct po_option *a, const struct po_option *b);

/* ---- value readers, for commands' own checks and callbacks ---- */

/* read_count (numfmt.h): "12" -> 12, false unless decimal digits only and <= max. */

/* "2.5" seconds -> nanoseconds; false unless digits[.digits] and <= 1e10 s. */
bool read_seconds(const char *s, uint64_t *ns);

/* Does a chart path name a format charts are written in: .png, .svg, .pdf (or /dev/null)? */
bool chart_path_ok(const char *path);

/* The name of a grouping as --group-by takes it. */
const char *group_by_name(int group);

/* The names in a mask of names[], "a, b, c", for messages. */
const char *po_name_list(const char *const *names, unsigned allowed, char *buf, size_t size);

/* --events: the enum capture_events of the choice read (PO_CHOICE's index), or dflt if none. */
unsigned po_events_of_choice(int choice, unsigned dflt);

/* PO_CALL reader of the capture commands' --pid (struct po_pids *). */
#define PO_PIDS_MAX 64
struct po_pids {
	int pid[PO_PIDS_MAX];
	size_t count;
};
int po_read_pids(const struct po_option *o, const char *arg, struct ta_error *why);

#endif
