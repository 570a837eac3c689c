/*
 * analyse.c - the bare command, trace_analyze.py's: its option table
 * (parseopt.h) into one struct options, the checks of what needs what and
 * of which files may be written, then the pipeline, then the one place
 * where its errors are printed. Record takes the same table. Nothing else.
 *
 * Exit status: 0 success, 1 runtime failure, 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "allocinfo.h"
#include "binfile.h"
#include "commands.h"
#include "db.h"
#include "error.h"
#include "dirtree.h"
#include "engine.h"
#include "formats.h"
#include "options.h"
#include "outfile.h"
#include "parseopt.h"
#include "pathcheck.h"
#include "pipeline.h"
#include "reports.h"
#include "timeline_chart.h"

static const char usage_line[] =
	"usage: trace_analyze [-k DIR|INDEX] [--system-map FILE] [--kallsyms FILE]\n"
	"                     [--modules FILE] -f LOG|--db-file DB|LOG [--salvage]\n"
	"                     [--save-db DB] [-c FILE] [-o KEY]\n"
	"                     [--malloc | --cache] [--group-by callsite|function|origin|\n"
	"                                 cache|size-class|comm|pid|gfp|dir|module|file|cgroup]\n"
	"                     [--comm NAME,...] [--pid P,...] [--gfp FLAG,...]\n"
	"                     [--module NAME,...] [--cgroup PATH] [--cgroup-map FILE]\n"
	"                     [--forks FILE] [--kmemleak REPORT] [--page-owner DUMP]\n"
	"                     [--stack-handles FILE]\n"
	"                     [-b DIR]\n"
	"                     [-l FILE] [-r FILE [-a ATTR] [-i]] [--save-index FILE]\n"
	"                     [--summary FILE] [--stats FILE [--top N]] [--page FILE]\n"
	"                     [--sizes FILE] [--ledger FILE]\n"
	"                     [--outstanding FILE [--min-age S]] [--peak FILE [--peak-at T]]\n"
	"                     [--lifetimes FILE] [--growth FILE] [--time START,END]\n"
	"                     [--folded FILE] [--folded-pages FILE] [--flame FILE]\n"
	"                     [--pprof FILE] [--openmetrics FILE [--min-bytes N]]\n"
	"                     [--weight bytes|live|waste|count] [--wrappers FILE]\n"
	"                     [--user-frames] [--page-size BYTES] [--timeline FILE]\n"
	"                     [--html FILE] [--perfetto FILE] [--strict-kernel] [--threads N]\n"
	"                     [--allocinfo SNAPSHOT] [--format text|csv|json|ndjson]\n"
	"                     [--tag host,kernel,boot,time[=VALUE]] [-q]\n"
	"       trace_analyze -k DIR|INDEX [-b DIR] [-r FILE] [-c FILE] [--save-index FILE]\n"
	"       trace_analyze [-c FILE] [--summary FILE] [--growth FILE] [--timeline FILE]\n"
	"                     [--pprof FILE] [--html FILE] [-r FILE] [-b DIR] SNAPSHOT...\n"
	"       trace_analyze -f DIR [DIR...] --ledger FILE [--top N] [--page-size BYTES]\n";

static const struct po_command analyse_command = {
	.name = "",
	.usage = usage_line,
	.about = "Who allocates kernel memory, how much is wasted, what is still held:\n"
		 "an analysis of ftrace kmem event logs. A LOG given without -f is read as\n"
		 "-f LOG; a DB file given to -f is read as --db-file (it is known by its\n"
		 "magic bytes). /proc/allocinfo snapshots (known by their first line) are\n"
		 "read instead of a log: one, several in time order, or a directory of them;\n"
		 "so are kernel snapshots (folders as 'trace_analyze snapshot' writes them, or\n"
		 "/proc/meminfo, slabinfo...): one, or several of one boot, for --ledger;\n"
		 "page_owner's dump or show_stacks, as the page allocations they hold (several\n"
		 "in time order: --growth per stack's origin); and\n"
		 "kmemleak's report, as its unreferenced objects.\n",
	.arguments = true,
	.epilog = "Commands (each with its own --help):\n"
		  "  trace_analyze record [-o LOG] [-- CMD]  capture kmem events from this kernel\n"
		  "                                  (a tracefs instance of its own) and analyse them\n"
		  "  trace_analyze top               who allocates right now, refreshed live\n"
		  "  trace_analyze diff OLD NEW      what changed between two runs or two kernels\n"
		  "  trace_analyze check FILE...     check DB files and kernel indexes through\n"
		  "  trace_analyze snapshot -o DIR   the kernel's memory files at one moment, for\n"
		  "                                  --ledger (no tracing)\n"
		  "\n"
		  "Exit status: 0 success, 1 runtime failure, 2 usage error.\n"
		  "See trace_analyze(1) for what every number means.\n",
};



/* The groupings of the bare command's rows (dir is diff's). */
#define ANALYSE_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_ORIGIN | \
			1u << GROUP_CACHE | 1u << GROUP_DIR | 1u << GROUP_SIZE_CLASS | \
			1u << GROUP_COMM | 1u << GROUP_PID | 1u << GROUP_GFP | 1u << GROUP_MODULE | \
			1u << GROUP_FILE | 1u << GROUP_CGROUP)

/* The groupings of an allocinfo snapshot's sites. */
#define SNAPSHOT_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_FILE | \
			 1u << GROUP_DIR | 1u << GROUP_MODULE)

static const char *const weight_names[] = { "bytes", "live", "waste", "count", NULL };

/* A report's option, as the report table declares it. */
#define OPT_REPORT(id, paths) OPT_OUTPUT(report_table[id].short_name, report_table[id].long_name, \
					 &(paths)[id], "FILE", report_table[id].help)

static int read_page_size(const struct po_option *o, const char *arg, struct ta_error *why)
{
	uint64_t n;

	if (!read_count(arg, 1ull << 30, &n) || n < 512 || (n & (n - 1)))
		return error_set(why, "--page-size wants a power of two from 512 to 1 GiB in "
				 "bytes, not '%s'", arg);
	*(uint64_t *)o->value = n;
	return 0;
}

/*
 * --tag host,kernel=6.12.8,boot,time: the columns each row of a CSV or
 * NDJSON report carries; a name alone takes the input's own value (a
 * snapshot's stamp, a trace.dat's release: pipeline.c), NAME=VALUE sets
 * it. Kept in the order host, kernel, boot_id, time.
 */
static int read_tags(const struct po_option *opt, const char *arg, struct ta_error *why)
{
	static const char *const names[] = { "host", "kernel", "boot", "time" };
	static const char *const columns[] = { "host", "kernel", "boot_id", "time" };
	struct options *o = opt->value;
	char value[OUT_TAGS_MAX][256];
	bool given[OUT_TAGS_MAX] = { false }, bare[OUT_TAGS_MAX] = { false };
	size_t i;

	while (*arg) {
		size_t len = strcspn(arg, ","), name_len = strcspn(arg, ",=");

		for (i = 0; i < OUT_TAGS_MAX; i++)
			if (strlen(names[i]) == name_len && memcmp(arg, names[i], name_len) == 0)
				break;
		if (i == OUT_TAGS_MAX)
			return error_set(why, "--tag takes host, kernel, boot and time (each alone, "
					 "or NAME=VALUE), not '%.*s'", (int)name_len, arg);
		if (given[i])
			return error_set(why, "--tag names '%s' twice", names[i]);
		given[i] = true;
		bare[i] = name_len == len;
		if (!bare[i] && (len - name_len - 1 == 0 || len - name_len - 1 >= sizeof(value[i])))
			return error_set(why, "--tag %s= wants a value of 1 to 255 bytes", names[i]);
		snprintf(value[i], sizeof(value[i]), "%.*s", bare[i] ? 0 : (int)(len - name_len - 1),
			 arg + name_len + 1);
		for (const char *c = value[i]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return error_set(why, "--tag %s=: a value of printable text, no "
						 "control character", names[i]);
		arg += len + (arg[len] == ',');
	}
	memset(&o->tags, 0, sizeof(o->tags));
	for (i = 0; i < OUT_TAGS_MAX; i++) {
		if (!given[i])
			continue;
		o->tag_from_input[o->tags.n] = bare[i];
		o->tags.key[o->tags.n] = columns[i];
		memcpy(o->tags.value[o->tags.n], value[i], sizeof(value[i]));
		o->tags.n++;
	}
	if (!o->tags.n)
		return error_set(why, "%s", "--tag wants host, kernel, boot or time");
	return 0;
}

/* "a,b,c" into up to TASK_FILTER_MAX names of fewer than 64 bytes; -1 on a bad list. */
static int read_name_list(const char *arg, char (*names)[64], size_t *count)
{
	size_t n = *count;

	while (*arg) {
		size_t len = strcspn(arg, ",");

		if (!len || len >= 64 || n == TASK_FILTER_MAX)
			return -1;
		memcpy(names[n], arg, len);
		names[n][len] = '\0';
		n++;
		arg += len + (arg[len] == ',');
	}
	if (n == *count)
		return -1;
	*count = n;
	return 0;
}

static int read_comm_filter(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct task_filters *f = o->value;

	if (read_name_list(arg, f->comm, &f->ncomm) < 0)
		return error_set(why, "--comm wants task names (NAME or NAME,NAME,...; %d at "
				 "most, each under 64 bytes), not '%s'", TASK_FILTER_MAX, arg);
	return 0;
}

static int read_gfp_filter(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct task_filters *f = o->value;

	if (read_name_list(arg, f->gfp, &f->ngfp) < 0)
		return error_set(why, "--gfp wants GFP flags as the log prints them (FLAG or "
				 "FLAG,FLAG,...: GFP_KERNEL, __GFP_ACCOUNT ...), not '%s'", arg);
	return 0;
}

static int read_module_filter(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct task_filters *f = o->value;

	if (read_name_list(arg, f->module, &f->nmodule) < 0)
		return error_set(why, "--module wants module names (NAME or NAME,NAME,...: ext4, "
				 "vmlinux for built-in code; %d at most), not '%s'", TASK_FILTER_MAX,
				 arg);
	return 0;
}

static int read_cgroup_filter(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct task_filters *f = o->value;
	size_t n = strlen(arg);

	if (arg[0] != '/' || n >= sizeof(f->cgroup[0]) || f->ncgroup == TASK_FILTER_MAX)
		return error_set(why, "--cgroup wants a cgroup's path as /proc/PID/cgroup prints it "
				 "(/, /a, /system.slice/x.service; under 256 bytes, %d at most), not "
				 "'%s'", TASK_FILTER_MAX, arg);
	memcpy(f->cgroup[f->ncgroup++], arg, n + 1);
	return 0;
}

static int read_pid_filter(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct task_filters *f = o->value;
	struct po_pids pids;
	struct po_option as_pids = *o;
	size_t i;

	memset(&pids, 0, sizeof(pids));
	as_pids.value = &pids;
	if (po_read_pids(&as_pids, arg, why) < 0)
		return -1;
	for (i = 0; i < pids.count && f->npid < TASK_FILTER_MAX; i++)
		f->pid[f->npid++] = pids.pid[i];
	return 0;
}

/* --peak-at TIME: seconds as the log prints them. */
static int read_peak_at(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct options *opts = o->value;

	if (!read_seconds(arg, &opts->req.peak_at_ns))
		return error_set(why, "--peak-at wants a time in seconds as the log prints them, "
				 "not '%s'", arg);
	opts->req.has_peak_at = true;
	return 0;
}

/* --time "START,END", "START,", ",END" or "START", into the struct options. */
static int read_time_window(const struct po_option *o, const char *arg, struct ta_error *why)
{
	struct options *opts = o->value;
	const char *comma = strchr(arg, ',');
	char start[64];
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);
	bool ok = n < sizeof(start);

	if (ok) {
		memcpy(start, arg, n);
		start[n] = '\0';
		opts->req.has_time_start = n > 0;
		opts->req.has_time_end = comma && comma[1];
		ok = (opts->req.has_time_start || opts->req.has_time_end) &&
		     (!opts->req.has_time_start || read_seconds(start, &opts->req.time_start_ns)) &&
		     (!opts->req.has_time_end || read_seconds(comma + 1, &opts->req.time_end_ns));
	}
	if (!ok)
		return error_set(why, "--time wants START,END in seconds as the log prints them "
				 "(either may be left out), not '%s'", arg);
	if (opts->req.has_time_start && opts->req.has_time_end && opts->req.time_end_ns < opts->req.time_start_ns)
		return error_set(why, "--time '%s': the window ends before it starts (START,END)",
				 arg);
	return 0;
}

/*
 * The bare command's options over a. Record takes them too (for_record), as
 * each entry says (po_for_record): -f, --db-file and --salvage are refused
 * (its log is the capture), --pid is record's own, and -o is its output,
 * so the sort key is --order-by alone.
 */
struct po_option *analysis_option_table(struct analysis_args *a, bool for_record)
{
	struct options *o = &a->opts;
	const struct po_option all[] = {
		OPT_GROUP("Input"),
		po_for_record((struct po_option)OPT_INPUT('f', "file", &o->req.log_path, "LOG",
			  "the kmem event log ('-' reads standard input); every text form is "
			  "read: tracefs trace/trace_pipe, trace-cmd report, perf script, old hex "
			  "call sites; gzip, xz and zstd files are decompressed"), PO_RECORD_REFUSES),
		OPT_KERNEL(&o->req.kernel),
		OPT_INPUT(0, "system-map", &o->req.system_map, "FILE",
			  "the System.map to resolve hex call sites with"),
		OPT_INPUT(0, "kallsyms", &o->req.kallsyms_path, "FILE",
			  "a /proc/kallsyms saved on the traced kernel: names the addresses of a "
			  "perf.data, of old logs, and of modules (after System.map)"),
		OPT_INPUT(0, "modules", &o->req.modules_path, "FILE",
			  "a /proc/modules saved beside that kallsyms: an address is named after "
			  "a module's symbol only inside that module's code"),
		po_for_record((struct po_option)OPT_INPUT(0, "allocinfo", &o->req.allocinfo_path,
			  "SNAPSHOT", "a /proc/allocinfo snapshot of the same boot: the account (-c) "
			  "shows, per function, module or directory, what it says is live beside "
			  "what the trace saw"), PO_RECORD_HAS_ITS_OWN),
		po_for_record((struct po_option)OPT_FLAG(0, "salvage", &o->req.salvage,
			 "read a perf.data that perf record did not finish (killed): its whole "
			 "records, with the running kernel's event formats"), PO_RECORD_REFUSES),
		po_for_record((struct po_option)OPT_INPUT(0, "db-file", &o->req.db_path, "DB",
			  "read a DB made with --save-db instead of a log: every report comes out "
			  "byte-identical"), PO_RECORD_REFUSES),
		OPT_GROUP("Account"),
		OPT_REPORT(REPORT_ACCOUNT, o->report_path),
		po_for_record((struct po_option)OPT_CHOICE('o', "order-by", &o->req.order, "KEY",
							   order_key_names, 0, "key",
			   "sort rows by KEY, descending (default current_dynamic; in record, -o is "
			   "the output log)"), PO_RECORD_LONG_ONLY),
		OPT_MALLOC(&a->malloc_only),
		OPT_CACHE(&a->cache_only),
		OPT_GROUP_BY(&o->req.group_by, ANALYSE_GROUPS),
		OPT_CALL(0, "comm", &o->req.filters, "NAME[,NAME...]", read_comm_filter,
			 "only the allocations of these tasks (by name), and their frees by "
			 "any task"),
		po_for_record((struct po_option)OPT_CALL(0, "pid", &o->req.filters, "P[,P...]",
							 read_pid_filter,
			 "only the allocations of these tasks (by pid), and their frees by any "
			 "task"), PO_RECORD_HAS_ITS_OWN),
		OPT_CALL(0, "module", &o->req.filters, "NAME[,NAME...]", read_module_filter,
			 "only the allocations of call sites in these modules (vmlinux: built-in "
			 "code), and their frees"),
		OPT_CALL(0, "gfp", &o->req.filters, "FLAG[,FLAG...]", read_gfp_filter,
			 "only the allocations whose gfp_flags hold one of these flags, and "
			 "their frees"),
		OPT_CALL(0, "cgroup", &o->req.filters, "PATH", read_cgroup_filter,
			 "only the allocations of tasks in this cgroup or below it (as "
			 "--cgroup-map says), and their frees; may be given again"),
		po_for_record((struct po_option)OPT_INPUT(0, "cgroup-map", &o->req.cgroup_map_path,
			  "FILE", "each task's cgroup, for --group-by cgroup and --cgroup: lines "
			  "pid, comm, /proc/PID/cgroup's line, tab separated (a snapshot's pids; "
			  "default: LOG.snapshot-end/pids when there)"), PO_RECORD_REFUSES),
		po_for_record((struct po_option)OPT_INPUT(0, "kmemleak", &o->req.kmemleak_path,
			  "REPORT", "kmemleak's report of the same boot: --summary says which of "
			  "its objects the trace saw allocated and never freed"), PO_RECORD_REFUSES),
		po_for_record((struct po_option)OPT_INPUT(0, "page-owner", &o->req.page_owner_path,
			  "DUMP", "page_owner's dump of the same boot: --page says which of the "
			  "trace's pages still held it holds, by pfn, and what it holds besides"),
			  PO_RECORD_REFUSES),
		po_for_record((struct po_option)OPT_INPUT(0, "stack-handles", &o->req.stack_handles_path,
			  "FILE", "page_owner_stacks/show_stacks_handles (6.19): names the stacks "
			  "of show_handles files read with -f"), PO_RECORD_REFUSES),
		po_for_record((struct po_option)OPT_INPUT(0, "forks", &o->req.forks_path, "FILE",
			  "a log of sched_process_fork events: a task gone before the map was "
			  "taken has its parent's cgroup (the log's own fork events are read too)"),
			  PO_RECORD_REFUSES),
		OPT_FORMAT(&o->format),
		po_for_record((struct po_option)OPT_CALL(0, "tag", o, "LIST", read_tags,
			 "CSV and NDJSON rows (and JSON's \"tags\") carry host, kernel, boot_id, "
			 "time: each of host, kernel, boot, time alone takes the input's own (a "
			 "snapshot's stamp), NAME=VALUE sets it"), PO_RECORD_REFUSES),
		OPT_GROUP("Beyond the account (FILE '-' = standard output)"),
		OPT_OUTPUT(0, "save-db", &o->req.save_db, "DB",
			   "also store the log's events in DB (a checksummed binary file) for fast "
			   "re-runs with --db-file"),
		OPT_REPORT(REPORT_SUMMARY, o->report_path),
		OPT_REPORT(REPORT_STATS, o->report_path),
		OPT_REPORT(REPORT_OUTSTANDING, o->report_path),
		OPT_SECONDS(0, "min-age", &o->min_age_ns, "SECONDS", 0, "seconds (e.g. 2.5)",
			    "--outstanding: leave out younger allocations"),
		OPT_REPORT(REPORT_PEAK, o->report_path),
		OPT_CALL(0, "peak-at", o, "TIME", read_peak_at,
			 "--peak: what each row held at TIME (seconds as the log prints them) "
			 "instead of at the peak"),
		OPT_REPORT(REPORT_LIFETIMES, o->report_path),
		OPT_REPORT(REPORT_GROWTH, o->report_path),
		OPT_REPORT(REPORT_PAGE, o->report_path),
		OPT_REPORT(REPORT_SIZES, o->report_path),
		OPT_REPORT(REPORT_LEDGER, o->report_path),
		OPT_UINT(0, "top", &o->top, "N", 1, SIZE_MAX, "a number of rows",
			 "-c, --stats, --outstanding: the first N rows only (the account's "
			 "totals stay the log's); --timeline, --html: N series (default 8)"),
		OPT_CALL(0, "time", o, "START,END", read_time_window,
			 "only events in this time window (seconds as the log prints them; either "
			 "end may be left out)"),
		OPT_REPORT(REPORT_TIMELINE, o->report_path),
		OPT_REPORT(REPORT_HTML, o->report_path),
		OPT_REPORT(REPORT_PERFETTO, o->report_path),
		OPT_GROUP("Call chains (logs recorded with stack traces)"),
		OPT_REPORT(REPORT_FOLDED, o->report_path),
		OPT_REPORT(REPORT_FOLDED_PAGES, o->report_path),
		OPT_REPORT(REPORT_FLAME, o->report_path),
		OPT_REPORT(REPORT_PPROF, o->report_path),
		OPT_GROUP("For Prometheus (node_exporter's textfile collector)"),
		OPT_REPORT(REPORT_OPENMETRICS, o->report_path),
		OPT_UINT(0, "min-bytes", &o->min_bytes, "N", 1, INT64_MAX, "a number of bytes",
			 "--openmetrics: series below N go to the family's 'other'"),
		OPT_CHOICE(0, "weight", &o->weight, "WHAT", weight_names, 0, "",
			   "what --folded and --flame weigh: bytes_alloc (the default), live "
			   "(still held at the end), waste (of those), count"),
		OPT_WRAPPERS(&o->req.wrappers_path),
		OPT_USER_FRAMES(&o->req.user_frames),
		OPT_CALL(0, "page-size", &o->page_size, "BYTES", read_page_size,
			 "the page size for --folded-pages, and of --ledger's slabinfo and "
			 "vmallocinfo page counts (default 4096)"),
		OPT_GROUP("Kernel tree (-k)"),
		OPT_BRANCH(&o->req.branch),
		OPT_REPORT(REPORT_CALLERS, o->report_path),
		OPT_REPORT(REPORT_RINGS, o->report_path),
		OPT_CHOICE('a', "rings-attr", &o->rings_attr, "ATTR", size_attr_names, 0, "",
			   "what the ringchart measures (default current_dynamic; static without a "
			   "log; current = static + current_dynamic)"),
		OPT_FLAG('i', "rings-show", &o->rings_show,
			 "open the ringchart in the desktop's viewer"),
		OPT_OUTPUT(0, "save-index", &o->save_index, "FILE",
			   "write the tree's index: -k FILE then needs no tree"),
		OPT_FLAG(0, "strict-kernel", &o->req.strict_kernel,
			 "a log whose call sites' sizes (/0xSIZE) disagree with the tree's "
			 "functions is an error, not a warning (a log of another build)"),
		OPT_GROUP("Other"),
		OPT_THREADS(&o->req.threads),
		OPT_QUIET(&o->req.quiet),
		OPT_HELP(),
		OPT_VERSION(),
		OPT_END(),
	};
	size_t n = sizeof(all) / sizeof(all[0]), i, k = 0;
	struct po_option *t = xcalloc(n, sizeof(*t));

	for (i = 0; i < n; i++) {
		struct po_option opt = all[i];

		if (for_record) {
			if (opt.kind == PO_HELP || opt.kind == PO_VERSION ||
			    opt.for_record == PO_RECORD_HAS_ITS_OWN)
				continue;	/* record's own */
			if (opt.for_record == PO_RECORD_REFUSES)
				opt = (struct po_option)OPT_REFUSED(
					opt.short_name, opt.long_name,
					"record reads the running kernel, not a log; analyse a log "
					"with 'trace_analyze -f'");
			if (opt.for_record == PO_RECORD_LONG_ONLY)
				opt.short_name = 0;	/* -o is record's log */
			if (opt.kind == PO_GROUP && strcmp(opt.help, "Input") == 0)
				opt.help = "Analysis (as 'trace_analyze -f LOG' takes them)";
		}
		t[k++] = opt;
	}
	return t;
}

/* Defaults before the options are read. */
void analysis_args_init(struct analysis_args *a)
{
	memset(a, 0, sizeof(*a));
	a->opts.req.order = ORDER_CURRENT_DYNAMIC;	/* trace_analyze.py's default */
	a->opts.req.families = FAMILY_ALL;
	a->opts.rings_attr = -1;
	a->opts.page_size = 4096;
}

/* After the options are read: what the flags add up to. */
int analysis_args_finish(const struct po_command *cmd, struct analysis_args *a)
{
	if (a->malloc_only && a->cache_only)
		return po_usage_error(cmd, "%s", "--malloc and --cache exclude each other");
	if (a->malloc_only)
		a->opts.req.families = FAMILY_MALLOC;
	if (a->cache_only)
		a->opts.req.families = FAMILY_CACHE;
	return -1;
}

/*
 * "-c, --stats and --html": the options of the reports pick() chooses, as
 * a message lists them ("-l, -r" without and_last, for a list it goes on).
 */
static const char *report_options(bool (*pick)(const struct report_decl *d), bool and_last,
				  char *buf, size_t cap)
{
	size_t i, n = 0, k = 0, at = 0;
	char name[64];

	for (i = 0; i < REPORT_COUNT; i++)
		n += pick(&report_table[i]);
	buf[0] = '\0';
	for (i = 0; i < REPORT_COUNT && at < cap; i++) {
		if (!pick(&report_table[i]))
			continue;
		k++;
		at += (size_t)snprintf(buf + at, cap - at, "%s%s",
				       k == 1 ? "" : k == n && and_last ? " and " : ", ",
				       report_option_name((enum report_id)i, name, sizeof(name)));
	}
	return buf;
}

static bool needs_tree(const struct report_decl *d)
{
	return d->requires & REQUIRES_TREE;
}

static bool takes_top(const struct report_decl *d)
{
	return d->top;
}

static bool is_weighted(const struct report_decl *d)
{
	return d->weighted;
}

/* Does any report pick() chooses appear in opts? */
static bool asks_for(const struct options *opts, bool (*pick)(const struct report_decl *d))
{
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && pick(&report_table[i]))
			return true;
	return false;
}

/* What the report table says each report needs of the command line. */
static int check_reports(const struct po_command *cmd, const struct options *opts)
{
	bool have_log = opts->req.log_path || opts->req.db_path;
	char name[64];
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++) {
		const struct report_decl *d = &report_table[i];
		const char *path = opts->report_path[i];

		if (!path)
			continue;
		if ((d->requires & REQUIRES_LOG) && !have_log)
			return po_usage_error(cmd, "%s", d->without_log);
		if (d->shape == SHAPE_CHART && !chart_path_ok(path))
			return po_usage_error(cmd, "%s '%s': a chart is written as .png, .svg or .pdf: "
					      "name it so", report_option_name((enum report_id)i, name,
									sizeof(name)), path);
	}
	return -1;
}

/*
 * -f of allocinfo snapshots: the reports the table says they give, their
 * groupings, no event filter; -r, -b and --group-by dir need no tree (a
 * site's source path says where it is).
 */
static int check_snapshot_combinations(const struct po_command *cmd, struct options *opts)
{
	char name[64];
	size_t i;

	if (opts->report_path[REPORT_LEDGER])
		return po_usage_error(cmd, "'%s' is an allocinfo snapshot: --ledger needs a kernel "
				      "snapshot, a folder with meminfo (allocinfo beside it gives the "
				      "ledger its sites) or /proc/meminfo", opts->req.log_path);
	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && !report_of_snapshots((enum report_id)i))
			return po_usage_error(cmd, "'%s' is an allocinfo snapshot: %s needs a kmem "
					      "log's events", opts->req.log_path,
					      report_option_name((enum report_id)i, name,
								 sizeof(name)));
	if (!(SNAPSHOT_GROUPS & (1u << opts->req.group_by)))
		return po_usage_error(cmd, "'%s' is an allocinfo snapshot: its sites are grouped by "
				      "callsite, function, file, dir or module, not %s",
				      opts->req.log_path, po_group_names[opts->req.group_by]);
	if (opts->req.allocinfo_path)
		return po_usage_error(cmd, "'%s' is an allocinfo snapshot already: --allocinfo "
				      "puts one beside a kmem log", opts->req.log_path);
	if (task_filters_set(&opts->req.filters) || opts->req.has_time_start ||
	    opts->req.has_time_end || opts->req.save_db)
		return po_usage_error(cmd, "'%s' is an allocinfo snapshot: it has no events to filter "
				      "(--comm, --pid, --gfp, --module, --time) or save (--save-db)",
				      opts->req.log_path);
	if (opts->save_index && !opts->req.kernel)
		return po_usage_error(cmd, "%s", "--save-index needs a kernel tree (-k DIR)");
	if (opts->rings_attr >= 0 && opts->rings_attr != ATTR_CURRENT_DYNAMIC &&
	    opts->rings_attr != ATTR_STATIC && opts->rings_attr != ATTR_CURRENT)
		return po_usage_error(cmd, "'%s' is an allocinfo snapshot: its ringchart draws live "
				      "bytes (--rings-attr current_dynamic; with -k, static or "
				      "current, static + live)", opts->req.log_path);
	if ((opts->rings_attr == ATTR_STATIC || opts->rings_attr == ATTR_CURRENT) &&
	    !opts->req.kernel)
		return po_usage_error(cmd, "--rings-attr %s draws the tree's static footprint: give "
				      "the tree with -k DIR", size_attr_name((enum size_attr)
									     opts->rings_attr));
	if (opts->rings_attr < 0)
		opts->rings_attr = ATTR_CURRENT_DYNAMIC;
	if (opts->rings_show && !opts->report_path[REPORT_RINGS])
		return po_usage_error(cmd, "%s", "-i shows the ringchart: it needs one (-r FILE)");
	return check_reports(cmd, opts);
}

/* Is path a regular file or a folder (not a pipe, not missing)? */
static bool is_file_or_folder(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode));
}

/* A file of the series given twice (one snapshot twice is no series): its path, or NULL. */
static const char *series_file_given_twice(const struct options *opts)
{
	size_t i, j;

	for (i = 0; i < opts->req.nmore_logs; i++) {
		struct stat a, b;

		for (j = 0; j <= i; j++) {
			const char *other = j ? opts->req.more_logs[j - 1] : opts->req.log_path;

			if (stat(other, &a) == 0 && stat(opts->req.more_logs[i], &b) == 0 &&
			    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
				return opts->req.more_logs[i];
		}
	}
	return NULL;
}

/*
 * -f of several page_owner files (dumps or show_stacks, in time order):
 * --growth per stack's origin over them, the last one's other reports.
 */
static int check_page_owner_series(const struct po_command *cmd, const struct options *opts)
{
	const char *twice = series_file_given_twice(opts);
	size_t i;

	if (twice)
		return po_usage_error(cmd, "'%s' is given twice: a series is of page_owner files "
				      "taken one after another", twice);
	for (i = 0; i < opts->req.nmore_logs; i++)
		if (!is_file_or_folder(opts->req.more_logs[i]) ||
		    input_kind_of_path(opts->req.more_logs[i]) != INPUT_PAGEOWNER)
			return po_usage_error(cmd, "'%s' is no page_owner file: a series after '%s' is "
					      "of page_owner dumps or show_stacks files, in time order",
					      opts->req.more_logs[i], opts->req.log_path);
	if (opts->req.save_db)
		return po_usage_error(cmd, "%s", "--save-db keeps one input's events: a series of "
				      "page_owner files is read again from its files");
	return -1;
}

/* -f of a kernel snapshot (a folder with meminfo, or meminfo): --ledger, nothing of a log's. */
static int check_kernel_snapshot_combinations(const struct po_command *cmd, struct options *opts)
{
	char name[64];
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && !report_of_kernel_snapshots((enum report_id)i))
			return po_usage_error(cmd, "'%s' is a kernel snapshot: %s needs a kmem log's "
					      "events or allocinfo (a kernel snapshot gives --ledger and --html)",
					      opts->req.log_path,
					      report_option_name((enum report_id)i, name,
								 sizeof(name)));
	if (series_file_given_twice(opts))
		return po_usage_error(cmd, "'%s' is given twice: a series is of snapshots taken one "
				      "after another", series_file_given_twice(opts));
	for (i = 0; i < opts->req.nmore_logs; i++)
		if (is_file_or_folder(opts->req.more_logs[i]) &&
		    input_kind_of_path(opts->req.more_logs[i]) != INPUT_KSNAPSHOT)
			return po_usage_error(cmd, "'%s' is no kernel snapshot: a series after '%s' is "
					      "of folders as trace_analyze snapshot writes them (or of "
					      "/proc/meminfo files), in time order",
					      opts->req.more_logs[i], opts->req.log_path);
	if (task_filters_set(&opts->req.filters) || opts->req.has_time_start ||
	    opts->req.has_time_end || opts->req.save_db || opts->req.allocinfo_path ||
	    opts->req.group_by != GROUP_CALLSITE || opts->req.branch)
		return po_usage_error(cmd, "'%s' is a kernel snapshot: it has no events or sites to "
				      "filter, group or place (--comm, --pid, --gfp, --module, --time, "
				      "--group-by, -b), save (--save-db) or put beside "
				      "(--allocinfo)", opts->req.log_path);
	return check_reports(cmd, opts);
}

/*
 * The first filter given that cannot apply to an allocinfo snapshot beside
 * the trace (its tags carry a module and a source path, which --module and
 * -b do filter, but no task, gfp flags, allocator family or time), or NULL.
 */
static const char *beside_refuses(const struct analysis_request *req)
{
	if (req->filters.ncomm)
		return "--comm";
	if (req->filters.npid)
		return "--pid";
	if (req->filters.ngfp)
		return "--gfp";
	if (req->families == FAMILY_MALLOC)
		return "--malloc";
	if (req->families == FAMILY_CACHE)
		return "--cache";
	if (req->has_time_start || req->has_time_end)
		return "--time";
	return NULL;
}

/* --ledger of a log: the snapshots record took beside it, start then end: found? */
static bool find_snapshots_beside(struct options *opts)
{
	static const char *const at[] = { "start", "end" };
	const char *log = opts->req.log_path;
	struct stat st;
	size_t i;

	if (!log || strcmp(log, "-") == 0 || stat(log, &st) < 0 || S_ISDIR(st.st_mode))
		return false;
	opts->req.nksnap_beside = 0;
	for (i = 0; i < 2; i++) {
		char *dir = opts->ksnap_beside[opts->req.nksnap_beside];

		snprintf(dir, sizeof(opts->ksnap_beside[0]), "%s.snapshot-%s", log, at[i]);
		if (input_kind_of_path(dir) == INPUT_KSNAPSHOT)
			opts->req.ksnap_beside[opts->req.nksnap_beside++] = dir;
	}
	return opts->req.nksnap_beside > 0;
}

/*
 * The pids files of the snapshots record took beside the log, the end's
 * first (the start's for the tasks gone by then): found?
 */
static bool find_map_beside(struct options *opts)
{
	static const char *const at[] = { "end", "start" };
	const char *log = opts->req.log_path, **map = &opts->req.cgroup_map_path;
	struct stat st;
	size_t i;

	if (!log || strcmp(log, "-") == 0 || input_kind_of_path(log) == INPUT_DB)
		return false;
	for (i = 0; i < 2; i++) {
		snprintf(opts->cgroup_map_beside[i], sizeof(opts->cgroup_map_beside[i]),
			 "%s.snapshot-%s/pids", log, at[i]);
		if (stat(opts->cgroup_map_beside[i], &st) == 0 && S_ISREG(st.st_mode)) {
			*map = opts->cgroup_map_beside[i];
			map = &opts->req.cgroup_map_more;
		}
	}
	return opts->req.cgroup_map_path != NULL;
}

/* --group-by cgroup and --cgroup need each task's cgroup; --cgroup-map and --forks serve them. */
static int check_cgroup_map(const struct po_command *cmd, struct options *opts)
{
	bool wanted = opts->req.group_by == GROUP_CGROUP || opts->req.filters.ncgroup;

	if (wanted && strcmp(cmd->name, "record") == 0)
		return po_usage_error(cmd, "%s reads a recorded log's tasks: record it (-o LOG), then "
				      "trace_analyze -f LOG %s (each task's cgroup is taken at the end, "
				      "beside the log)", opts->req.filters.ncgroup ? "--cgroup" :
				      "--group-by cgroup", opts->req.filters.ncgroup ? "--cgroup PATH"
				      : "--group-by cgroup");
	if (!wanted && (opts->req.cgroup_map_path || opts->req.forks_path))
		return po_usage_error(cmd, "%s", "--cgroup-map and --forks say each task's cgroup: "
				      "for --group-by cgroup or --cgroup");
	if (wanted && !opts->req.cgroup_map_path && !find_map_beside(opts))
		return po_usage_error(cmd, "%s needs each task's cgroup: --cgroup-map FILE (lines "
				      "pid TAB comm TAB /proc/PID/cgroup's line, as a snapshot's pids "
				      "file), or a log recorded with its snapshots beside it",
				      opts->req.filters.ncgroup ? "--cgroup" : "--group-by cgroup");
	return -1;
}

/* What needs what: a usage error rather than an option silently ignored. */
static int check_combinations(const struct po_command *cmd, struct options *opts)
{
	const char *timeline = opts->report_path[REPORT_TIMELINE];
	bool have_log = opts->req.log_path || opts->req.db_path;
	enum out_format data_format;
	char list[256];
	int status;
	size_t i;

	if (opts->tags.n && opts->format == FORMAT_TEXT && !opts->report_path[REPORT_PPROF] &&
	    !opts->report_path[REPORT_OPENMETRICS])
		return po_usage_error(cmd, "%s", "--tag marks the rows of CSV, NDJSON and JSON "
				      "reports, --pprof's samples and --openmetrics' series: give "
				      "--format csv, ndjson or json, --pprof FILE or --openmetrics FILE");
	if (opts->min_bytes && !opts->report_path[REPORT_OPENMETRICS])
		return po_usage_error(cmd, "%s", "--min-bytes cuts --openmetrics' series: give that "
				      "too");
	if (opts->tags.n && !opts->req.log_path && !opts->req.db_path)
		return po_usage_error(cmd, "%s", "--tag marks a log's or a snapshot's reports: "
				      "give one with -f");
	if (opts->req.log_path && input_kind_of_path(opts->req.log_path) == INPUT_ALLOCINFO)
		return check_snapshot_combinations(cmd, opts);
	if (opts->req.log_path && input_kind_of_path(opts->req.log_path) == INPUT_KSNAPSHOT)
		return check_kernel_snapshot_combinations(cmd, opts);
	if ((opts->req.kmemleak_path || opts->req.page_owner_path) && opts->req.log_path &&
	    (input_kind_of_path(opts->req.log_path) == INPUT_KMEMLEAK ||
	     input_kind_of_path(opts->req.log_path) == INPUT_PAGEOWNER))
		return po_usage_error(cmd, "'%s' is %s: %s goes beside a kmem trace of the same boot",
				      opts->req.log_path,
				      input_kind_of_path(opts->req.log_path) == INPUT_KMEMLEAK
				      ? "kmemleak's report" : "page_owner's file",
				      opts->req.kmemleak_path ? "--kmemleak" : "--page-owner");
	if (opts->req.kmemleak_path && !opts->report_path[REPORT_SUMMARY] &&
	    !opts->report_path[REPORT_HTML] && !opts->report_path[REPORT_OUTSTANDING])
		return po_usage_error(cmd, "%s", "--kmemleak adds kmemleak's objects to the summary "
				      "and the leak suspects: give --summary FILE (or --html FILE, "
				      "--outstanding FILE)");
	if (opts->req.stack_handles_path &&
	    !(opts->req.log_path && input_kind_of_path(opts->req.log_path) == INPUT_PAGEOWNER))
		return po_usage_error(cmd, "%s", "--stack-handles names the stacks of page_owner's "
				      "show_handles: give them with -f");
	if (opts->req.page_owner_path && !opts->report_path[REPORT_PAGE])
		return po_usage_error(cmd, "%s", "--page-owner adds page_owner's pages to the page "
				      "report: give --page FILE");
	if (opts->report_path[REPORT_LEDGER] && strcmp(cmd->name, "record") == 0)
		return po_usage_error(cmd, "%s", "--ledger: record takes its kernel snapshots at its "
				      "start and end beside the log; read them after it with "
				      "trace_analyze -f LOG --ledger -");
	for (i = 0; i < REPORT_COUNT; i++)	/* a log; a pipe or a missing file: the run says */
		if (opts->report_path[i] && report_needs_kernel_snapshot((enum report_id)i) &&
		    (opts->req.db_path || (opts->req.log_path &&
					   is_file_or_folder(opts->req.log_path))) &&
		    !find_snapshots_beside(opts))
			return po_usage_error(cmd, "%s", report_table[i].without_log);
	if (opts->req.allocinfo_path && !opts->report_path[REPORT_ACCOUNT])
		return po_usage_error(cmd, "%s", "--allocinfo adds allocinfo's figures to the "
				      "account: give -c FILE");
	if (opts->req.allocinfo_path && opts->req.group_by != GROUP_CALLSITE &&
	    opts->req.group_by != GROUP_FUNCTION && opts->req.group_by != GROUP_MODULE &&
	    opts->req.group_by != GROUP_DIR)
		return po_usage_error(cmd, "--allocinfo compares by function (--group-by callsite "
				      "or function), module or dir, not %s",
				      po_group_names[opts->req.group_by]);
	if (opts->req.modules_path && !opts->req.kallsyms_path &&
	    !(opts->req.log_path && input_kind_of_path(opts->req.log_path) == INPUT_TRACEDAT))
		return po_usage_error(cmd, "%s", "--modules says where the modules of a saved kallsyms "
				      "lay: give that kallsyms too (--kallsyms FILE), or a trace.dat, "
				      "whose kallsyms are inside it");
	if (opts->req.allocinfo_path) {
		const char *which = beside_refuses(&opts->req);

		if (which)
			return po_usage_error(cmd, "--allocinfo: %s filters the trace only: an allocinfo "
					      "tag has no %s; leave it out, or compare the filtered "
					      "trace with -c alone", which,
					      strcmp(which, "--time") == 0 ? "time (its bytes are "
					      "live since boot)" : strcmp(which, "--malloc") == 0 ||
					      strcmp(which, "--cache") == 0 ? "allocator family "
					      "(slab, page or vmalloc alike)" : "task or gfp flags");
	}
	if (opts->req.nmore_logs && opts->req.log_path &&
	    input_kind_of_path(opts->req.log_path) == INPUT_PAGEOWNER &&
	    (status = check_page_owner_series(cmd, opts)) >= 0)
		return status;
	if (opts->req.nmore_logs && !(opts->req.log_path &&
				      input_kind_of_path(opts->req.log_path) == INPUT_PAGEOWNER) &&
	    opts->log_is_argument)
		return po_usage_error(cmd, "unexpected argument '%s': one log at a time (-f LOG)",
				      opts->req.more_logs[0]);
	if (opts->req.nmore_logs && input_kind_of_path(opts->req.log_path) != INPUT_PAGEOWNER)
		return po_usage_error(cmd, "unexpected argument '%s': the log is -f '%s' already (one "
				      "log at a time)", opts->req.more_logs[0], opts->req.log_path);
	if (opts->req.group_by == GROUP_FILE && strcmp(opts->req.log_path ? opts->req.log_path
						      : "", "-"))
		return po_usage_error(cmd, "%s", "--group-by file groups an allocinfo snapshot's "
				      "sites: a kmem log's call sites carry no source file");
	if ((asks_for(opts, needs_tree) || opts->req.branch || opts->save_index) &&
	    !opts->req.kernel)
		return po_usage_error(cmd, "-b, %s and --save-index need a kernel tree (-k DIR)",
				      report_options(needs_tree, false, list, sizeof(list)));
	if (opts->req.log_path && opts->req.db_path)
		return po_usage_error(cmd, "%s", "-f and --db-file exclude each other: the DB replaces the log");
	if (opts->req.save_db && !opts->req.log_path)
		return po_usage_error(cmd, "%s", "--save-db saves the events of a log: it needs -f LOG");
	if (!have_log && !opts->req.kernel)
		return po_usage_error(cmd, "%s", "no log to read: give one with -f LOG ('-' for standard "
				   "input), or a kernel tree with -k DIR for its static footprint");
	if (!have_log) {
		if (opts->report_path[REPORT_CALLERS])
			return po_usage_error(cmd, "%s", report_table[REPORT_CALLERS].without_log);
		if (opts->rings_attr >= 0 && opts->rings_attr != ATTR_STATIC)
			return po_usage_error(cmd, "--rings-attr %s needs a log (-f LOG or --db-file DB); without one "
					   "only 'static' can be drawn",
					   size_attr_name((enum size_attr)opts->rings_attr));
		opts->rings_attr = ATTR_STATIC;
		if (!options_ask_for_an_output(opts))	/* trace_analyze.py's default */
			opts->report_path[REPORT_RINGS] = "rings_static.png";
	} else if (opts->rings_attr < 0) {
		opts->rings_attr = ATTR_CURRENT_DYNAMIC;
	}
	if (opts->req.has_peak_at && !opts->report_path[REPORT_PEAK])
		return po_usage_error(cmd, "%s", "--peak-at says when --peak looks: give that too");
	if (opts->min_age_ns && !opts->report_path[REPORT_OUTSTANDING])
		return po_usage_error(cmd, "%s", "--min-age filters --outstanding: give that too");
	if (opts->top && !asks_for(opts, takes_top))
		return po_usage_error(cmd, "--top limits %s: give one of them",
				      report_options(takes_top, true, list, sizeof(list)));
	if (!have_log && (opts->req.has_time_start || opts->req.has_time_end))
		return po_usage_error(cmd, "%s", report_table[REPORT_STATS].without_log);
	if (!have_log && opts->req.group_by == GROUP_ORIGIN)
		return po_usage_error(cmd, "%s", report_table[REPORT_FOLDED].without_log);
	if ((status = check_reports(cmd, opts)) >= 0)
		return status;
	if (timeline && !chart_path_ok(timeline) && !timeline_data_format(timeline, &data_format))
		return po_usage_error(cmd, "--timeline '%s': a chart is written as .png, .svg or .pdf, "
				     "the series as .csv or .json (or '-', CSV): name it so", timeline);
	if (opts->rings_show && !opts->report_path[REPORT_RINGS])
		return po_usage_error(cmd, "%s", "-i shows the ringchart: it needs one (-r FILE)");
	if (opts->req.group_by == GROUP_DIR && !opts->req.kernel)
		return po_usage_error(cmd, "%s", "--group-by dir places call sites in the tree's "
				     "directories: give the tree with -k DIR");
	if (opts->req.group_by == GROUP_CACHE && (opts->req.branch || opts->report_path[REPORT_CALLERS]))
		return po_usage_error(cmd, "%s", "--group-by cache: slab caches are in no directory of the "
				     "tree (-b, -l)");
	if ((opts->req.group_by == GROUP_COMM || opts->req.group_by == GROUP_PID ||
	     opts->req.group_by == GROUP_GFP) && (opts->req.branch || opts->report_path[REPORT_CALLERS]))
		return po_usage_error(cmd, "--group-by %s: tasks and GFP flags are in no directory "
				     "of the tree (-b, -l)", opts->req.group_by == GROUP_COMM ? "comm" :
				     opts->req.group_by == GROUP_PID ? "pid" : "gfp");
	if (opts->req.group_by == GROUP_CGROUP && (opts->req.branch || opts->report_path[REPORT_CALLERS]))
		return po_usage_error(cmd, "%s", "--group-by cgroup: cgroups are in no directory of "
				      "the tree (-b, -l)");
	status = check_cgroup_map(cmd, opts);
	if (status >= 0)
		return status;
	if (opts->req.group_by == GROUP_SIZE_CLASS && (opts->req.branch || opts->report_path[REPORT_CALLERS]))
		return po_usage_error(cmd, "%s", "--group-by size-class: size classes are in no directory "
				     "of the tree (-b, -l)");
	if (opts->weight != WEIGHT_BYTES && !asks_for(opts, is_weighted))
		return po_usage_error(cmd, "--weight says what %s weigh: give one of them",
				      report_options(is_weighted, true, list, sizeof(list)));
	if (opts->page_size != 4096 && !opts->report_path[REPORT_FOLDED_PAGES])
		return po_usage_error(cmd, "%s", "--page-size sizes --folded-pages: give that too");
	return -1;
}

/*
 * No output may overwrite an input or another output: checked before
 * anything is read or written. The table's files, and what -k DIR reads
 * (the tree's System.map and vmlinux); -k FILE is an index.
 */
static int check_files(const struct po_option *table, const struct options *o)
{
	char map[4096], vmlinux[4096];
	struct file_roles roles;
	struct ta_error err;
	struct stat st;
	size_t i;

	file_roles_init(&roles);
	po_add_files(table, &roles);
	for (i = 0; i < o->req.nmore_logs; i++)	/* a series' folders and files */
		file_roles_add_input(&roles, "-f", o->req.more_logs[i]);
	for (i = 0; i < o->req.nksnap_beside; i++)	/* record's snapshots beside the log */
		file_roles_add_input(&roles, "--ledger", o->req.ksnap_beside[i]);
	if (o->req.kernel && stat(o->req.kernel, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(map, sizeof(map), "%s/System.map", o->req.kernel);
		snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", o->req.kernel);
		file_roles_add_input(&roles, "-k", map);
		file_roles_add_input(&roles, "-k", vmlinux);
	}
	if (file_roles_check(&roles, &err) < 0) {
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return EXIT_USAGE;	/* a usage error, but the usage text would not help */
	}
	if (file_roles_check_directories(&roles, &err) < 0) {
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return EXIT_RUNTIME;	/* as if the writer had found it, before the log is read */
	}
	return -1;
}

int analysis_args_check(const struct po_command *cmd, const struct po_option *table,
			struct analysis_args *a)
{
	int status = check_combinations(cmd, &a->opts);

	return status >= 0 ? status : check_files(table, &a->opts);
}

/*
 * "trace_analyze kmem.log": one argument and no -f or --db-file is the log
 * (as the subcommands take their files); anything else a usage error.
 */
static int take_the_log_argument(struct options *o, int n, char **args)
{
	if (n == 0)
		return -1;
	if (n == 1 && !o->req.log_path && !o->req.db_path) {
		o->req.log_path = args[0];
		return -1;
	}
	if (!o->req.db_path) {	/* several: allocinfo snapshots in time order (checked later) */
		if (!o->req.log_path) {
			o->req.log_path = args[0];
			o->log_is_argument = true;
			args++;
			n--;
		}
		o->req.more_logs = args;
		o->req.nmore_logs = (size_t)n;
		return -1;
	}
	if (!o->req.log_path && !o->req.db_path)
		return po_usage_error(&analyse_command, "unexpected argument '%s': one log at a "
				      "time (-f LOG)", args[1]);
	return po_usage_error(&analyse_command, "unexpected argument '%s': the log is %s '%s' "
			      "already (one log at a time)", args[0],
			      o->req.log_path ? "-f" : "--db-file", o->req.log_path ? o->req.log_path : o->req.db_path);
}

/* -f DB: read as --db-file, which is what the user meant. */
static int take_a_db_given_as_log(struct options *o)
{
	if (!o->req.log_path || input_kind_of_path(o->req.log_path) != INPUT_DB)
		return -1;
	if (o->req.save_db)
		return po_usage_error(&analyse_command, "--save-db saves the events of a log: "
				      "'%s' is a DB file already", o->req.log_path);
	o->req.db_path = o->req.log_path;
	o->req.log_path = NULL;
	return -1;
}

/*
 * Does a DB keep what report d reads (by call site, the whole log)? Every
 * pass its needs turn on keeps a part (pass.h): "kept"; else "replayed".
 */
static const char *kept_by_a_db(const struct report_decl *d)
{
	struct analysis_request q;
	int id;

	memset(&q, 0, sizeof(q));
	q.needs = d->needs;
	q.families = FAMILY_ALL;
	q.group_by = GROUP_CALLSITE;
	for (id = 0; id < PASS_COUNT; id++)
		if (pass_wanted((enum pass_id)id, &q) && !analysis_pass((enum pass_id)id)->store)
			return "replayed";
	return "kept";
}

/*
 * --reports-helper (as --completion-helper): the report table, a line per
 * report, "NAME OPTION SHAPE NEEDS SNAPSHOTS|- KEPT|REPLAYED" (NEEDS: tree,
 * log, ksnapshot or -; the last: whether a DB keeps what it reads), for the tests that
 * name every report: they take the list from here, not from a copy of it.
 */
static int print_reports(void)
{
	static const char *const shapes[] = {
		[SHAPE_TABLES] = "tables", [SHAPE_CHART] = "chart",
		[SHAPE_CHART_OR_DATA] = "chart-or-data", [SHAPE_OWN] = "own",
	};
	char option[64], name[64], *p;
	int id;

	for (id = 0; id < REPORT_COUNT; id++) {
		const struct report_decl *d = &report_table[id];

		snprintf(name, sizeof(name), "%s", d->name);
		while ((p = strchr(name, ' ')))	/* one field: "flame-graph" */
			*p = '-';
		if (d->short_name)
			snprintf(option, sizeof(option), "-%c", d->short_name);
		else
			snprintf(option, sizeof(option), "--%s", d->long_name);
		printf("%s %s %s %s %s %s\n", name, option, shapes[d->shape],
		       d->requires & REQUIRES_TREE ? "tree" : d->requires & REQUIRES_KSNAPSHOT
		       ? "ksnapshot" : d->requires & REQUIRES_LOG ? "log" : "-",
		       report_of_snapshots((enum report_id)id) ? "snapshots" : "-", kept_by_a_db(d));
	}
	return EXIT_OK;
}

int cmd_analyse(int argc, char **argv)
{
	struct analysis_args args;
	struct po_option *table;
	struct ta_error err;
	int status, rest;

	if (argc == 2 && strcmp(argv[1], "--reports-helper") == 0)
		return print_reports();
	analysis_args_init(&args);
	table = analysis_option_table(&args, false);
	status = po_parse(&analyse_command, table, argc, argv, &rest);
	if (status < 0)
		status = take_the_log_argument(&args.opts, argc - rest, argv + rest);
	if (status < 0)
		status = take_a_db_given_as_log(&args.opts);
	if (status < 0)
		status = analysis_args_finish(&analyse_command, &args);
	if (status < 0)
		status = analysis_args_check(&analyse_command, table, &args);
	free(table);
	if (status >= 0)
		return status;
	if (pipeline_run(&args.opts, &err) < 0) {
		fflush(stdout);
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	if (!args.opts.req.quiet) {
		fflush(stdout);
		outfile_say_written(stderr);
	}
	return EXIT_OK;
}
