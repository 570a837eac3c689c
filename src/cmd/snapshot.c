/*
 * snapshot.c - trace_analyze snapshot -o DIR: the kernel's memory files at
 * one moment, copied into a folder that --ledger reads (snapshot_take.h),
 * with no tracing. --interval S --count N takes a series, DIR/1 ... DIR/N.
 * Not here: what is copied and how (snapshot_take.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "parseopt.h"
#include "snapshot_take.h"
#include "testhook.h"

static const struct po_command snapshot_command = {
	.name = "snapshot",
	.usage = "usage: trace_analyze snapshot -o DIR [--interval S --count N] [-q]\n",
	.about = "Copy the kernel's memory files at one moment into the folder DIR, as\n"
		 "/proc and /sys/fs/cgroup name them: meminfo, slabinfo, vmallocinfo,\n"
		 "allocinfo, vmstat, zoneinfo, buddyinfo, modules, and cgroup/PATH/\n"
		 "memory.stat and memory.current of every cgroup v2 group; and a file\n"
		 "'snapshot' with the time, host, kernel release, boot id and what could\n"
		 "not be read and why. Nothing is traced. 'trace_analyze -f DIR --ledger -'\n"
		 "then says where the memory went.\n",
	.epilog = "Exit status: 0 taken (what could not be read is listed in DIR/snapshot), 1 no\n"
		  "/proc/meminfo or the folder could not be written, 2 usage.\n",
};

/* Sleep s seconds, whole, whatever signals come (none is handled here). */
static void wait_seconds(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static int take_one(const char *dir, const char *root, bool quiet)
{
	struct snapshot_taken got;
	struct ta_error err;

	if (snapshot_take(dir, root, &got, &err) < 0) {
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	if (!quiet)
		fprintf(stderr, "trace_analyze: snapshot '%s': %u files of /proc, %u cgroup%s, %llu "
			"bytes; %u not read (see %s/snapshot)\n", dir, got.files, got.cgroups,
			got.cgroups == 1 ? "" : "s", (unsigned long long)got.bytes, got.missing,
			dir);
	return EXIT_OK;
}

int cmd_snapshot(int argc, char **argv)
{
	const char *dir = NULL, *root = test_snapshot_root();
	uint64_t interval_ns = 0;
	size_t count = 0, i;
	bool quiet = false;
	const struct po_option table[] = {
		OPT_TEXT('o', "output", &dir, "DIR", "the folder to copy into (made; an existing "
			 "one must be empty)"),
		OPT_SECONDS(0, "interval", &interval_ns, "S", 0, "seconds (e.g. 2.5)",
			    "with --count: a series, one snapshot every S seconds"),
		OPT_UINT(0, "count", &count, "N", 1, 100000, "a number from 1 to 100000",
			 "with --interval: N snapshots, into DIR/1 ... DIR/N"),
		OPT_QUIET(&quiet),
		OPT_HELP(),
		OPT_END(),
	};
	int rest, status = po_parse(&snapshot_command, table, argc, argv, &rest);

	if (status >= 0)
		return status;
	if (rest < argc)
		return po_usage_error(&snapshot_command, "unexpected argument '%s'", argv[rest]);
	if (!dir)
		return po_usage_error(&snapshot_command, "%s", "name the folder: -o DIR");
	if ((interval_ns != 0) != (count != 0))
		return po_usage_error(&snapshot_command, "%s", "--interval and --count go together: "
				      "a series of N snapshots, one every S seconds");
	if (!count)
		return take_one(dir, root, quiet);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "trace_analyze: error: cannot make '%s': %s\n", dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	for (i = 1; i <= count; i++) {
		char sub[4096];

		snprintf(sub, sizeof(sub), "%s/%zu", dir, i);
		status = take_one(sub, root, quiet);
		if (status != EXIT_OK)
			return status;
		if (i < count)
			wait_seconds((double)interval_ns / 1e9);
	}
	return EXIT_OK;
}
