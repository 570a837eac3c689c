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

#include "binfile.h"
#include "commands.h"
#include "db.h"
#include "error.h"
#include "dirtree.h"
#include "options.h"
#include "outfile.h"
#include "parseopt.h"
#include "pathcheck.h"
#include "pipeline.h"
#include "timeline_chart.h"

static const char usage_line[] =
	"usage: trace_analyze [-k DIR|INDEX] [--system-map FILE] -f LOG|--db-file DB|LOG\n"
	"                     [--save-db DB] [-c FILE] [-o KEY]\n"
	"                     [--malloc | --cache] [--group-by callsite|function|origin|\n"
	"                                          cache|size-class|comm|pid|gfp|dir]\n"
	"                     [--comm NAME,...] [--pid P,...] [--gfp FLAG,...] [-b DIR]\n"
	"                     [-l FILE] [-r FILE [-a ATTR] [-i]] [--save-index FILE]\n"
	"                     [--summary FILE] [--stats FILE [--top N]] [--page FILE]\n"
	"                     [--outstanding FILE [--min-age S]] [--time START,END]\n"
	"                     [--folded FILE] [--folded-pages FILE] [--flame FILE]\n"
	"                     [--pprof FILE]\n"
	"                     [--weight bytes|live|waste|count] [--wrappers FILE]\n"
	"                     [--user-frames] [--page-size BYTES] [--timeline FILE]\n"
	"                     [--html FILE] [--strict-kernel] [--threads N]\n"
	"                     [--format text|csv|json] [-q]\n"
	"       trace_analyze -k DIR|INDEX [-b DIR] [-r FILE] [-c FILE] [--save-index FILE]\n";

static const struct po_command analyse_command = {
	.name = "",
	.usage = usage_line,
	.about = "Who allocates kernel memory, how much is wasted, what is still held:\n"
		 "an analysis of ftrace kmem event logs. A LOG given without -f is read as\n"
		 "-f LOG; a DB file given to -f is read as --db-file (it is known by its\n"
		 "magic bytes).\n",
	.arguments = true,
	.epilog = "Commands (each with its own --help):\n"
		  "  trace_analyze record [-o LOG] [-- CMD]  capture kmem events from this kernel\n"
		  "                                  (a tracefs instance of its own) and analyse them\n"
		  "  trace_analyze top               who allocates right now, refreshed live\n"
		  "  trace_analyze diff OLD NEW      what changed between two runs or two kernels\n"
		  "  trace_analyze check FILE...     check DB files and kernel indexes through\n"
		  "\n"
		  "Exit status: 0 success, 1 runtime failure, 2 usage error.\n"
		  "See trace_analyze(1) for what every number means.\n",
};



/* The groupings of the bare command's rows (dir is diff's). */
#define ANALYSE_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_ORIGIN | \
			1u << GROUP_CACHE | 1u << GROUP_DIR | 1u << GROUP_SIZE_CLASS | \
			1u << GROUP_COMM | 1u << GROUP_PID | 1u << GROUP_GFP)

static const char *const weight_names[] = { "bytes", "live", "waste", "count", NULL };

static int read_page_size(const struct po_option *o, const char *arg, struct ta_error *why)
{
	uint64_t n;

	if (!read_count(arg, 1ull << 30, &n) || n < 512 || (n & (n - 1)))
		return error_set(why, "--page-size wants a power of two from 512 to 1 GiB in "
				 "bytes, not '%s'", arg);
	*(uint64_t *)o->value = n;
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
		opts->has_time_start = n > 0;
		opts->has_time_end = comma && comma[1];
		ok = (opts->has_time_start || opts->has_time_end) &&
		     (!opts->has_time_start || read_seconds(start, &opts->time_start_ns)) &&
		     (!opts->has_time_end || read_seconds(comma + 1, &opts->time_end_ns));
	}
	if (!ok)
		return error_set(why, "--time wants START,END in seconds as the log prints them "
				 "(either may be left out), not '%s'", arg);
	if (opts->has_time_start && opts->has_time_end && opts->time_end_ns < opts->time_start_ns)
		return error_set(why, "--time '%s': the window ends before it starts (START,END)",
				 arg);
	return 0;
}

/*
 * The bare command's options over a. Record takes them too (for_record):
 * then -f and --db-file are refused (its log is the capture), and -o is
 * its output, so the sort key is --order-by alone.
 */
struct po_option *analysis_option_table(struct analysis_args *a, bool for_record)
{
	struct options *o = &a->opts;
	const struct po_option all[] = {
		OPT_GROUP("Input"),
		OPT_INPUT('f', "file", &o->log_path, "LOG",
			  "the kmem event log ('-' reads standard input); every text form is "
			  "read: tracefs trace/trace_pipe, trace-cmd report, perf script, old hex "
			  "call sites; gzip, xz and zstd files are decompressed"),
		OPT_KERNEL(&o->kernel),
		OPT_INPUT(0, "system-map", &o->system_map, "FILE",
			  "the System.map to resolve hex call sites with"),
		OPT_INPUT(0, "kallsyms", &o->kallsyms_path, "FILE",
			  "a /proc/kallsyms saved on the traced kernel: names the addresses of a "
			  "perf.data, of old logs, and of modules (after System.map)"),
		OPT_FLAG(0, "salvage", &o->salvage,
			 "read a perf.data that perf record did not finish (killed): its whole "
			 "records, with the running kernel's event formats"),
		OPT_INPUT(0, "db-file", &o->db_path, "DB",
			  "read a DB made with --save-db instead of a log: every report comes out "
			  "byte-identical"),
		OPT_GROUP("Account"),
		OPT_OUTPUT('c', "account-file", &o->account_path, "FILE",
			   "write the account file ('-' = standard output)"),
		OPT_CHOICE('o', "order-by", &o->order, "KEY", order_key_names, 0, "key",
			   "sort rows by KEY, descending (default current_dynamic; in record, -o is "
			   "the output log)"),
		OPT_MALLOC(&a->malloc_only),
		OPT_CACHE(&a->cache_only),
		OPT_GROUP_BY(&o->group_by, ANALYSE_GROUPS),
		OPT_CALL(0, "comm", &o->filters, "NAME[,NAME...]", read_comm_filter,
			 "only the allocations of these tasks (by name), and their frees by "
			 "any task"),
		OPT_CALL(0, "pid", &o->filters, "P[,P...]", read_pid_filter,
			 "only the allocations of these tasks (by pid), and their frees by any "
			 "task"),
		OPT_CALL(0, "gfp", &o->filters, "FLAG[,FLAG...]", read_gfp_filter,
			 "only the allocations whose gfp_flags hold one of these flags, and "
			 "their frees"),
		OPT_FORMAT(&o->format),
		OPT_GROUP("Beyond the account (FILE '-' = standard output)"),
		OPT_OUTPUT(0, "save-db", &o->save_db, "DB",
			   "also store the log's events in DB (a checksummed binary file) for fast "
			   "re-runs with --db-file"),
		OPT_OUTPUT(0, "summary", &o->summary_path, "FILE",
			   "totals as perf kmem stat (requested, allocated, freed, fragmentation, "
			   "ping-pong, cross-node), events, findings (double frees, mismatched "
			   "frees, time going back, lost events), slab caches"),
		OPT_OUTPUT(0, "stats", &o->stats_path, "FILE",
			   "per row: hits, bytes, per-hit bytes, frag%, total_waste (over all "
			   "allocations), ping-pong, peak live bytes"),
		OPT_OUTPUT(0, "outstanding", &o->outstanding_path, "FILE",
			   "what is still allocated at the end, by row: count, bytes, oldest and "
			   "median age"),
		OPT_SECONDS(0, "min-age", &o->min_age_ns, "SECONDS", 0, "seconds (e.g. 2.5)",
			    "--outstanding: leave out younger allocations"),
		OPT_OUTPUT(0, "page", &o->page_path, "FILE",
			   "page allocator: requests and KB by order and migratetype and by GFP "
			   "flags, alloc+freed / alloc-only / free-only, failures, live pages, "
			   "per-CPU refills and drains, extfrag events"),
		OPT_UINT(0, "top", &o->top, "N", 1, SIZE_MAX, "a number of rows",
			 "-c, --stats, --outstanding: the first N rows only (the account's "
			 "totals stay the log's); --timeline, --html: N series (default 8)"),
		OPT_CALL(0, "time", o, "START,END", read_time_window,
			 "only events in this time window (seconds as the log prints them; either "
			 "end may be left out)"),
		OPT_OUTPUT(0, "timeline", &o->timeline_path, "FILE",
			   "live bytes over the log's time, stacked per row (the N largest and "
			   "'other'), pages held on a second panel, lost events marked: PNG, or "
			   "SVG/PDF by the name; FILE.csv, FILE.json or '-': the samples as data"),
		OPT_OUTPUT(0, "html", &o->html_path, "FILE",
			   "one self-contained page: the answer first (live bytes, the rows that "
			   "hold most, findings, leak suspects), a sortable table of every row, the "
			   "timeline, the summary, with -k a zoomable sunburst, with stacks a "
			   "zoomable flame graph"),
		OPT_GROUP("Call chains (logs recorded with stack traces)"),
		OPT_OUTPUT(0, "folded", &o->folded_path, "FILE",
			   "slab allocations as folded stacks, for flamegraph.pl, speedscope, "
			   "inferno"),
		OPT_OUTPUT(0, "folded-pages", &o->folded_pages_path, "FILE",
			   "page allocations as folded stacks (bytes)"),
		OPT_OUTPUT(0, "flame", &o->flame_path, "FILE",
			   "a flame graph: PNG, or SVG/PDF by the name"),
		OPT_OUTPUT(0, "pprof", &o->pprof_path, "FILE",
			   "a heap profile (gzipped profile.proto: allocations and what is still "
			   "held, by call chain) for go tool pprof, speedscope, Pyroscope"),
		OPT_CHOICE(0, "weight", &o->weight, "WHAT", weight_names, 0, "",
			   "what --folded and --flame weigh: bytes_alloc (the default), live "
			   "(still held at the end), waste (of those), count"),
		OPT_WRAPPERS(&o->wrappers_path),
		OPT_USER_FRAMES(&o->user_frames),
		OPT_CALL(0, "page-size", &o->page_size, "BYTES", read_page_size,
			 "the page size for --folded-pages (default 4096)"),
		OPT_GROUP("Kernel tree (-k)"),
		OPT_BRANCH(&o->branch),
		OPT_OUTPUT('l', "callers-file", &o->callers_path, "FILE",
			   "one line per call site: current_dynamic, waste, and the object it is "
			   "defined in ('-' = standard output)"),
		OPT_RINGS_FILE(&o->rings_path),
		OPT_CHOICE('a', "rings-attr", &o->rings_attr, "ATTR", size_attr_names, 0, "",
			   "what the ringchart measures (default current_dynamic; static without a "
			   "log; current = static + current_dynamic)"),
		OPT_FLAG('i', "rings-show", &o->rings_show,
			 "open the ringchart in the desktop's viewer"),
		OPT_OUTPUT(0, "save-index", &o->save_index, "FILE",
			   "write the tree's index: -k FILE then needs no tree"),
		OPT_FLAG(0, "strict-kernel", &o->strict_kernel,
			 "a log whose call sites' sizes (/0xSIZE) disagree with the tree's "
			 "functions is an error, not a warning (a log of another build)"),
		OPT_GROUP("Other"),
		OPT_THREADS(&o->threads),
		OPT_QUIET(&o->quiet),
		OPT_HELP(),
		OPT_VERSION(),
		OPT_END(),
	};
	size_t n = sizeof(all) / sizeof(all[0]), i, k = 0;
	struct po_option *t = xcalloc(n, sizeof(*t));

	for (i = 0; i < n; i++) {
		struct po_option opt = all[i];

		if (for_record) {
			if (opt.kind == PO_HELP || opt.kind == PO_VERSION)
				continue;	/* record's own */
			if (opt.long_name && strcmp(opt.long_name, "pid") == 0)
				continue;	/* record's own: the tasks it records */
			if (opt.short_name == 'f' ||
			    (opt.long_name && (strcmp(opt.long_name, "db-file") == 0 ||
					       strcmp(opt.long_name, "salvage") == 0)))
				opt = (struct po_option)OPT_REFUSED(
					opt.short_name, opt.long_name,
					"record reads the running kernel, not a log; analyse a log "
					"with 'trace_analyze -f'");
			if (opt.short_name == 'o')
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
	a->opts.order = ORDER_CURRENT_DYNAMIC;	/* trace_analyze.py's default */
	a->opts.families = FAMILY_ALL;
	a->opts.rings_attr = -1;
	a->opts.page_size = 4096;
}

/* After the options are read: what the flags add up to. */
int analysis_args_finish(const struct po_command *cmd, struct analysis_args *a)
{
	if (a->malloc_only && a->cache_only)
		return po_usage_error(cmd, "%s", "--malloc and --cache exclude each other");
	if (a->malloc_only)
		a->opts.families = FAMILY_MALLOC;
	if (a->cache_only)
		a->opts.families = FAMILY_CACHE;
	return -1;
}

/* What needs what: a usage error rather than an option silently ignored. */
static int check_combinations(const struct po_command *cmd, struct options *opts)
{
	enum out_format data_format;

	bool need_tree = opts->branch || opts->callers_path || opts->rings_path ||
			 opts->save_index;

	if (need_tree && !opts->kernel)
		return po_usage_error(cmd, "%s", "-b, -l, -r and --save-index need a kernel tree (-k DIR)");
	if (opts->log_path && opts->db_path)
		return po_usage_error(cmd, "%s", "-f and --db-file exclude each other: the DB replaces the log");
	if (opts->save_db && !opts->log_path)
		return po_usage_error(cmd, "%s", "--save-db saves the events of a log: it needs -f LOG");
	if (!opts->log_path && !opts->db_path && !opts->kernel)
		return po_usage_error(cmd, "%s", "no log to read: give one with -f LOG ('-' for standard "
				   "input), or a kernel tree with -k DIR for its static footprint");
	if (!opts->log_path && !opts->db_path) {
		if (opts->callers_path)
			return po_usage_error(cmd, "%s", "-l lists call sites: it needs a log (-f LOG or --db-file DB)");
		if (opts->rings_attr >= 0 && opts->rings_attr != ATTR_STATIC)
			return po_usage_error(cmd, "--rings-attr %s needs a log (-f LOG or --db-file DB); without one "
					   "only 'static' can be drawn",
					   size_attr_name((enum size_attr)opts->rings_attr));
		opts->rings_attr = ATTR_STATIC;
		if (!opts->rings_path && !opts->account_path && !opts->save_index)
			opts->rings_path = "rings_static.png";	/* trace_analyze.py's default */
	} else if (opts->rings_attr < 0) {
		opts->rings_attr = ATTR_CURRENT_DYNAMIC;
	}
	if (opts->min_age_ns && !opts->outstanding_path)
		return po_usage_error(cmd, "%s", "--min-age filters --outstanding: give that too");
	if (opts->top && !opts->stats_path && !opts->outstanding_path && !opts->timeline_path &&
	    !opts->html_path && !opts->account_path)
		return po_usage_error(cmd, "%s", "--top limits -c, --stats, --outstanding, --timeline "
				     "and --html: give one of them");
	if (!opts->log_path && !opts->db_path &&
	    (opts->summary_path || opts->stats_path || opts->outstanding_path || opts->page_path ||
	     opts->has_time_start || opts->has_time_end))
		return po_usage_error(cmd, "%s", "--summary, --stats, --outstanding, --page and --time need a log "
				   "(-f LOG or --db-file DB)");
	if (!opts->log_path && !opts->db_path && (opts->timeline_path || opts->html_path))
		return po_usage_error(cmd, "%s", "--timeline and --html need a log (-f LOG or --db-file DB)");
	if (opts->timeline_path && !chart_path_ok(opts->timeline_path) &&
	    !timeline_data_format(opts->timeline_path, &data_format))
		return po_usage_error(cmd, "--timeline '%s': a chart is written as .png, .svg or .pdf, "
				     "the series as .csv or .json (or '-', CSV): name it so",
				     opts->timeline_path);
	if (opts->rings_show && !opts->rings_path)
		return po_usage_error(cmd, "%s", "-i shows the ringchart: it needs one (-r FILE)");
	if (opts->rings_path && !chart_path_ok(opts->rings_path))
		return po_usage_error(cmd, "-r '%s': a chart is written as .png, .svg or .pdf: name it so",
				     opts->rings_path);
	if (opts->flame_path && !chart_path_ok(opts->flame_path))
		return po_usage_error(cmd, "--flame '%s': a chart is written as .png, .svg or .pdf: name "
				     "it so", opts->flame_path);
	if (opts->group_by == GROUP_DIR && !opts->kernel)
		return po_usage_error(cmd, "%s", "--group-by dir places call sites in the tree's "
				     "directories: give the tree with -k DIR");
	if (opts->group_by == GROUP_CACHE && (opts->branch || opts->callers_path))
		return po_usage_error(cmd, "%s", "--group-by cache: slab caches are in no directory of the "
				     "tree (-b, -l)");
	if ((opts->group_by == GROUP_COMM || opts->group_by == GROUP_PID ||
	     opts->group_by == GROUP_GFP) && (opts->branch || opts->callers_path))
		return po_usage_error(cmd, "--group-by %s: tasks and GFP flags are in no directory "
				     "of the tree (-b, -l)", opts->group_by == GROUP_COMM ? "comm" :
				     opts->group_by == GROUP_PID ? "pid" : "gfp");
	if (opts->group_by == GROUP_SIZE_CLASS && (opts->branch || opts->callers_path))
		return po_usage_error(cmd, "%s", "--group-by size-class: size classes are in no directory "
				     "of the tree (-b, -l)");
	if (opts->weight != WEIGHT_BYTES && !opts->folded_path && !opts->flame_path)
		return po_usage_error(cmd, "%s", "--weight says what --folded and --flame weigh: give one "
				   "of them");
	if (opts->page_size != 4096 && !opts->folded_pages_path)
		return po_usage_error(cmd, "%s", "--page-size sizes --folded-pages: give that too");
	if (!opts->log_path && !opts->db_path &&
	    (opts->folded_path || opts->folded_pages_path || opts->flame_path || opts->pprof_path ||
	     opts->group_by == GROUP_ORIGIN))
		return po_usage_error(cmd, "%s", "--folded, --folded-pages, --flame, --pprof and "
				   "--group-by origin need a log (-f LOG or --db-file DB)");
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

	file_roles_init(&roles);
	po_add_files(table, &roles);
	if (o->kernel && stat(o->kernel, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(map, sizeof(map), "%s/System.map", o->kernel);
		snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", o->kernel);
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
	if (n == 1 && !o->log_path && !o->db_path) {
		o->log_path = args[0];
		return -1;
	}
	if (!o->log_path && !o->db_path)
		return po_usage_error(&analyse_command, "unexpected argument '%s': one log at a "
				      "time (-f LOG)", args[1]);
	return po_usage_error(&analyse_command, "unexpected argument '%s': the log is %s '%s' "
			      "already (one log at a time)", args[0],
			      o->log_path ? "-f" : "--db-file", o->log_path ? o->log_path : o->db_path);
}

/* -f DB: read as --db-file, which is what the user meant. */
static int take_a_db_given_as_log(struct options *o)
{
	if (!o->log_path || strcmp(o->log_path, "-") == 0 ||
	    !binfile_has_magic(o->log_path, DB_MAGIC))
		return -1;
	if (o->save_db)
		return po_usage_error(&analyse_command, "--save-db saves the events of a log: "
				      "'%s' is a DB file already", o->log_path);
	o->db_path = o->log_path;
	o->log_path = NULL;
	return -1;
}

int cmd_analyse(int argc, char **argv)
{
	struct analysis_args args;
	struct po_option *table;
	struct ta_error err;
	int status, rest;

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
	if (!args.opts.quiet) {
		fflush(stdout);
		outfile_say_written(stderr);
	}
	return EXIT_OK;
}
