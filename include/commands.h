/*
 * commands.h - the subcommands main() dispatches to, git-style: each has
 * its own file in src/cmd/, option table, --help and man page section,
 * takes argv with its own name first, and returns the exit status.
 */
#ifndef TA_COMMANDS_H
#define TA_COMMANDS_H

/* trace_analyze [options]: the analysis, trace_analyze.py's options (analyse.c). */
int cmd_analyse(int argc, char **argv);

/* trace_analyze diff [options] OLD NEW: two runs or two kernels compared (diff.c). */
int cmd_diff(int argc, char **argv);

/* trace_analyze check FILE...: DB files and kernel indexes checked through (check.c). */
int cmd_check(int argc, char **argv);

/* trace_analyze record [options] [-- CMD]: a capture, then the analysis (record.c). */
int cmd_record(int argc, char **argv);

/* trace_analyze top [options]: who allocates now, refreshed live (top.c). */
int cmd_top(int argc, char **argv);

/*
 * The bare command's options, for subcommands that take them too (record):
 * getopt_long into opts (-1 to go on, else the exit status), then the
 * checks of what needs what and of which files may be written.
 */
#include <getopt.h>

struct options;
extern const struct option analyse_long_options[];
int analyse_parse_options(int argc, char **argv, struct options *opts);
int analyse_check_options(struct options *opts);

#endif
