/*
 * main.c - which command: "trace_analyze diff ..." and the other
 * subcommands go to their own file; anything else is the bare analysis,
 * trace_analyze.py's command line, exactly as it always was.
 */
#include <string.h>

#include "commands.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "diff", cmd_diff },
	{ "check", cmd_check },
	{ "record", cmd_record },
	{ "top", cmd_top },
	{ "snapshot", cmd_snapshot },
};

int main(int argc, char **argv)
{
	size_t i;

	if (argc > 1)
		for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
			if (strcmp(argv[1], commands[i].name) == 0)
				return commands[i].run(argc - 1, argv + 1);
	return cmd_analyse(argc, argv);
}
