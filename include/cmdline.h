/*
 * cmdline.h - what every subcommand's option parsing shares: the usage
 * error (exit 2) and strict readers of option values.
 *
 * Numbers are decimal and in range, or the option is refused: "0x10",
 * "1e3", "  5", "5s" and a count past its type's range are usage errors,
 * never a silently different value. Not here: any option table.
 */
#ifndef TA_CMDLINE_H
#define TA_CMDLINE_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses. */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* a file, a DB, a write failed */
	EXIT_USAGE = 2,		/* the command line is wrong */
	EXIT_GATE = 3,		/* diff --fail-above: the growth is over the limit */
};

/*
 * Print "trace_analyze: error: <fmt...>", then usage, then the hint to
 * --help (of the subcommand named by help, "" for the bare command), on
 * stderr. Returns EXIT_USAGE.
 */
int usage_error(const char *usage, const char *help, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The usage error for an unknown option arg: with "did you mean '--x'?"
 * when one of opts' long names is within two edits of it (a typo), so
 * that --acount-file points at --account-file. Returns EXIT_USAGE.
 */
int unknown_option(const char *usage, const char *help, const struct option *opts,
		   const char *arg);

/* The long option within two edits of arg ("--name" or "--name=value"), or NULL. */
const char *nearest_long_option(const struct option *opts, const char *arg);

/* Does a chart path name a format charts are written in: .png, .svg, .pdf (or /dev/null)? */
bool chart_path_ok(const char *path);

/* "12" -> 12; false unless decimal digits only and <= max. */
bool read_count(const char *s, uint64_t max, uint64_t *out);

/* "2.5" seconds -> nanoseconds; false unless digits[.digits] and <= 1e10 s. */
bool read_seconds(const char *s, uint64_t *ns);

/* "12,34 56": process ids appended to pids[*n], max in all; false on a bad one. */
bool read_pid_list(const char *s, int *pids, size_t *n, size_t max);

/*
 * --group-by: "callsite", "function", "origin", "cache", "dir", "size-class" -> enum
 * group_by (options.h), or -1 when s is none of them or not among those
 * allowed (a mask of 1 << GROUP_x).
 */
int group_by_of_name(const char *s, unsigned allowed);

/* The name of a grouping as --group-by takes it. */
const char *group_by_name(int group);

/* The names allowed, "callsite, function, ..." for a usage error. */
const char *group_by_list(unsigned allowed);

/* --threads: 0 (as many as pay) to 64. */
bool read_thread_count(const char *s, int *out);

#endif
