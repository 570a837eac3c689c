/*
 * snapshot.c - trace_analyze snapshot -o DIR: the kernel's memory files at
 * one moment, copied into a folder that --ledger reads (snapshot_take.h),
 * with no tracing. --interval S --count N takes a series, DIR/1 ... DIR/N.
 * --openmetrics FILE writes what they say as metric families (metrics.h),
 * rewritten every S seconds with --interval alone: an exporter for
 * node_exporter's textfile collector. Not here: what is copied and how
 * (snapshot_take.c), the families (metrics.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "commands.h"
#include "ksnapshot.h"
#include "metrics.h"
#include "outfile.h"
#include "parseopt.h"
#include "snapshot_take.h"
#include "testhook.h"

static const struct po_command snapshot_command = {
	.name = "snapshot",
	.usage = "usage: trace_analyze snapshot -o DIR [--interval S --count N] [-q]\n"
		 "       trace_analyze snapshot --openmetrics FILE [--interval S [--count N]]\n"
		 "                              [--top N] [--min-bytes N] [-q]\n",
	.about = "Copy the kernel's memory files at one moment into the folder DIR, as\n"
		 "/proc and /sys/fs/cgroup name them: meminfo, slabinfo, vmallocinfo,\n"
		 "allocinfo, vmstat, zoneinfo, buddyinfo, modules, and cgroup/PATH/\n"
		 "memory.stat and memory.current of every cgroup v2 group; and a file\n"
		 "'snapshot' with the time, host, kernel release, boot id and what could\n"
		 "not be read and why. Nothing is traced. 'trace_analyze -f DIR --ledger -'\n"
		 "then says where the memory went.\n"
		 "With --openmetrics FILE, the same files are read where they are and FILE\n"
		 "gets what they say as OpenMetrics (the ledger, each cgroup's kernel memory,\n"
		 "allocinfo's sites), labelled with the host, kernel and boot id, written whole\n"
		 "and renamed into place; with --interval S alone, again every S seconds until\n"
		 "stopped: point node_exporter's --collector.textfile.directory at FILE's\n"
		 "folder.\n",
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

/* The families of the kernel's files now (read live, or from dir just taken) into path. */
static int write_metrics(const char *path, const char *dir, const char *root,
			 const struct om_limits *lim, bool quiet)
{
	struct kernel_snapshot k;
	struct out_tags tags;
	struct outfile out;
	struct ta_error err;
	int rc;

	ksnapshot_init(&k);
	rc = dir ? ksnapshot_read_folder(&k, dir, &err) : ksnapshot_read_live(&k, root, &err);
	if (rc == 0)
		rc = outfile_open(&out, path, &err);
	if (rc == 0) {
		metrics_tags_of_stamp(&k, &tags);
		rc = outfile_finish(&out, metrics_write_kernel_snapshot(outfile_stream(&out), &k,
									4096, &tags, lim, &err),
				    &err);
	}
	if (rc == 0 && !quiet && k.live_unreadable)
		fprintf(stderr, "trace_analyze: %u of the kernel's files could not be read (not "
			"root?): their families are left out of '%s'\n", k.live_unreadable, path);
	ksnapshot_release(&k);
	if (rc < 0)
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
	return rc < 0 ? EXIT_RUNTIME : EXIT_OK;
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
	const char *dir = NULL, *root = test_snapshot_root(), *metrics = NULL;
	uint64_t interval_ns = 0, min_bytes = 0;
	size_t count = 0, top = 0, i;
	bool quiet = false;
	int failed = EXIT_OK;
	const struct po_option table[] = {
		OPT_TEXT('o', "output", &dir, "DIR", "the folder to copy into (made; an existing "
			 "one must be empty)"),
		OPT_SECONDS(0, "interval", &interval_ns, "S", 0, "seconds (e.g. 2.5)",
			    "with --count: a series, one snapshot every S seconds; with "
			    "--openmetrics alone: every S seconds until stopped"),
		OPT_UINT(0, "count", &count, "N", 1, 100000, "a number from 1 to 100000",
			 "with --interval: N snapshots, into DIR/1 ... DIR/N"),
		OPT_OUTPUT(0, "openmetrics", &metrics, "FILE", "what the files say as OpenMetrics "
			   "(for node_exporter's textfile collector), written whole"),
		OPT_UINT(0, "top", &top, "N", 1, SIZE_MAX, "a number of series",
			 "--openmetrics: N series a family, the rest as 'other'"),
		OPT_UINT(0, "min-bytes", &min_bytes, "N", 1, INT64_MAX, "a number of bytes",
			 "--openmetrics: series below N go to the family's 'other'"),
		OPT_QUIET(&quiet),
		OPT_HELP(),
		OPT_END(),
	};
	int rest, status = po_parse(&snapshot_command, table, argc, argv, &rest);

	if (status >= 0)
		return status;
	if (rest < argc)
		return po_usage_error(&snapshot_command, "unexpected argument '%s'", argv[rest]);
	if (!dir && !metrics)
		return po_usage_error(&snapshot_command, "%s", "name the folder: -o DIR (or the "
				      "metrics' file: --openmetrics FILE)");
	if ((top || min_bytes) && !metrics)
		return po_usage_error(&snapshot_command, "%s", "--top and --min-bytes cut "
				      "--openmetrics' series: give that too");
	if (count && !interval_ns)
		return po_usage_error(&snapshot_command, "%s", "--interval and --count go together: "
				      "a series of N snapshots, one every S seconds");
	if (interval_ns && !count && !(metrics && !dir))
		return po_usage_error(&snapshot_command, "%s", "--interval and --count go together: "
				      "a series of N snapshots, one every S seconds (--interval "
				      "alone: --openmetrics FILE rewritten until stopped)");
	if (metrics && !dir) {	/* the exporter: read where they are, every S seconds */
		struct om_limits lim = { top, (int64_t)min_bytes };

		for (i = 1; !count || i <= count; i++) {
			if (write_metrics(metrics, NULL, root, &lim, quiet) != EXIT_OK)
				failed = EXIT_RUNTIME;	/* the file before stays; the next may do */
			if (!interval_ns || (count && i == count))
				break;
			wait_seconds((double)interval_ns / 1e9);
		}
		return failed;
	}
	if (!count) {
		struct om_limits lim = { top, (int64_t)min_bytes };

		status = take_one(dir, root, quiet);
		return status == EXIT_OK && metrics ? write_metrics(metrics, dir, root, &lim, quiet)
						   : status;
	}
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
