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

/* trace_analyze snapshot -o DIR: the kernel's memory files at one moment (snapshot.c). */
int cmd_snapshot(int argc, char **argv);

/*
 * The bare command's options, for the subcommands that take them too
 * (record): its option table over an analysis_args (for_record: without
 * -f and --db-file, -o not --order-by), the flags summed up after parsing,
 * then the checks of what needs what and of which files may be written.
 * Each returns -1 to go on, else the exit status (a usage error printed).
 */
#include <stdbool.h>

#include "options.h"
#include "parseopt.h"

struct analysis_args {
	struct options opts;
	bool malloc_only, cache_only;
};

void analysis_args_init(struct analysis_args *a);
struct po_option *analysis_option_table(struct analysis_args *a, bool for_record);
int analysis_args_finish(const struct po_command *cmd, struct analysis_args *a);
int analysis_args_check(const struct po_command *cmd, const struct po_option *table,
			struct analysis_args *a);

#endif
