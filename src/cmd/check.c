/*
 * check.c - `trace_analyze check FILE...`: is a DB file or kernel index
 * whole? Every section's checksum, every account and every event record
 * of a DB; every section of an index.
 *
 * Reports read only the sections they need (a damaged events section
 * does not stop an account made from the saved one), so this is where a
 * file is checked through before it is archived or shared. One line per
 * good file on stdout, one error per damaged one; exit 1 if any is.
 * Not here: repairing anything.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "db.h"
#include "engine.h"
#include "kindex.h"
#include "ktree.h"

static const struct po_command check_command = {
	.name = "check",
	.usage = "usage: trace_analyze check [-q] FILE...\n",
	.about = "Check DB files (--save-db) and kernel indexes (--save-index) through:\n"
		 "every section's checksum, and for a DB every account and event record.\n"
		 "A report reads only the sections it needs, so a damaged part can go\n"
		 "unnoticed until a report needs it; check before archiving or sharing.\n",
	.epilog = "Exit status: 0 all good, 1 a file is damaged or unreadable, 2 usage.\n",
	.arguments = true,
	.stop_at_argument = true,
};

static int check_db(const char *path, bool quiet, struct ta_error *err)
{
	struct trace_strings strings;
	struct db db;
	int rc;

	trace_strings_init(&strings);
	rc = db_open(&db, path, &strings, err);
	if (rc == 0) {
		rc = db_check_all(&db, &strings, err);
		if (rc == 0)
			rc = analysis_check_db_parts(path, err);
		if (rc == 0 && !quiet)
			printf("%s: good: DB file %u.%u made from '%s': %u sections, %llu events, "
			       "%llu lines\n", path, db.file.major, db.file.minor, db.source,
			       db.file.nsections, (unsigned long long)db.nevents,
			       (unsigned long long)db.stats.lines);
		db_close(&db);
	}
	trace_strings_release(&strings);
	return rc;
}

static int check_index(const char *path, bool quiet, struct ta_error *err)
{
	struct kernel_tree t;
	int rc;

	ktree_init(&t);
	rc = kindex_load(&t, path, err);
	if (rc == 0 && !quiet)
		printf("%s: good: kernel index of '%s': %zu objects, %zu functions\n", path,
		       t.name, t.nobjects, t.nfuncs);
	ktree_release(&t);
	return rc;
}

int cmd_check(int argc, char **argv)
{
	bool quiet = false;
	const struct po_option table[] = {
		OPT_FLAG('q', "quiet", &quiet, "print nothing for good files"),
		OPT_HELP(),
		OPT_END(),
	};
	int i, rest, status = po_parse(&check_command, table, argc, argv, &rest);

	if (status >= 0)
		return status;
	if (rest >= argc)
		return po_usage_error(&check_command, "no file to check");
	status = EXIT_OK;
	for (i = rest; i < argc; i++) {
		struct ta_error err;
		int rc = kindex_is_index(argv[i]) ? check_index(argv[i], quiet, &err)
						  : check_db(argv[i], quiet, &err);

		if (rc < 0) {
			fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
			status = EXIT_RUNTIME;
		}
	}
	return status;
}
