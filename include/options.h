/*
 * options.h - everything the command line says, in one struct, filled by
 * main() and read by the pipeline. No behaviour here.
 */
#ifndef TA_OPTIONS_H
#define TA_OPTIONS_H

#include <stdbool.h>

#include "output.h"
#include "report.h"

struct options {
	const char *log_path;		/* -f: a path, or "-" for stdin */
	const char *kernel;		/* -k: a built kernel tree */
	const char *system_map;		/* --system-map */
	const char *account_path;	/* -c: a path, or "-" for stdout */
	enum order_key order;		/* -o */
	unsigned families;		/* enum account_family: --malloc, --cache */
	bool group_by_function;		/* --group-by function */
	enum out_format format;		/* --format */
	bool quiet;			/* -q: no summary */
	int threads;			/* --threads: 0 = as many as pay */
};

#endif
