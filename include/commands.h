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

#endif
