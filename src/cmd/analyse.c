/*
 * analyse.c - the bare command, trace_analyze.py's: getopt_long into one
 * struct options, the checks of what needs what and of which files may be
 * written, then the pipeline, then the one place where its errors are
 * printed. Nothing else.
 *
 * Exit status: 0 success, 1 runtime failure, 2 usage error.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmdline.h"
#include "commands.h"
#include "error.h"
#include "options.h"
#include "pathcheck.h"
#include "pipeline.h"

#ifndef TA_VERSION
#define TA_VERSION "0.1"
#endif

static const char usage_line[] =
	"usage: trace_analyze [-k DIR|INDEX] [--system-map FILE] -f LOG|--db-file DB\n"
	"                     [--save-db DB] [-c FILE] [-o KEY]\n"
	"                     [--malloc | --cache] [--group-by callsite|function|origin|\n"
	"                                          cache|size-class|dir]\n"
	"                     [-b DIR]\n"
	"                     [-l FILE] [-r FILE [-a ATTR] [-i]] [--save-index FILE]\n"
	"                     [--summary FILE] [--stats FILE [--top N]] [--page FILE]\n"
	"                     [--outstanding FILE [--min-age S]] [--time START,END]\n"
	"                     [--folded FILE] [--folded-pages FILE] [--flame FILE]\n"
	"                     [--weight bytes|live|waste|count] [--wrappers FILE]\n"
	"                     [--timeline FILE] [--html FILE] [--strict-kernel]\n"
	"                     [--format text|csv|json] [-q]\n"
	"       trace_analyze -k DIR|INDEX [-b DIR] [-r FILE] [-c FILE] [--save-index FILE]\n";

static void print_help(void)
{
	fputs(usage_line, stdout);
	fputs("\n"
	      "Who allocates kernel memory, how much is wasted, what is still held:\n"
	      "an analysis of ftrace kmem event logs.\n"
	      "\n"
	      "Input:\n"
	      "  -f, --file LOG            kmem event log ('-' reads standard input); every\n"
	      "                            text form is read: tracefs trace/trace_pipe,\n"
	      "                            trace-cmd report, perf script, old hex call sites;\n"
	      "                            gzip, xz and zstd files are decompressed\n"
	      "  -k, --kernel DIR|INDEX    built kernel tree (or its index, --save-index):\n"
	      "                            its System.map resolves hex call sites, its\n"
	      "                            objects place call sites in directories; with\n"
	      "                            no log, the static footprint is reported\n"
	      "      --system-map FILE     System.map to resolve hex call sites with\n"
	      "      --db-file DB          read a DB made with --save-db instead of a log:\n"
	      "                            every report comes out byte-identical\n"
	      "      --save-db DB          also store the log's events in DB (a checksummed\n"
	      "                            binary file) for fast re-runs\n"
	      "\n"
	      "Account:\n"
	      "  -c, --account-file FILE   write the account file ('-' = standard output)\n"
	      "  -o, --order-by KEY        sort rows by KEY, descending: current_dynamic\n"
	      "                            (default), total_dynamic, alloc_count,\n"
	      "                            free_count, waste, frag, hit, bytes, pingpong,\n"
	      "                            peak\n"
	      "      --malloc              only kmalloc, kmalloc_node and kfree events\n"
	      "      --cache               only kmem_cache_alloc(_node) and kmem_cache_free\n"
	      "      --group-by WHAT       'callsite' (default: function+0xoffset),\n"
	      "                            'function' (offsets of a function merged), or\n"
	      "                            'origin' (who is behind the allocator and its\n"
	      "                            wrappers, from the log's stack traces), or\n"
	      "                            'cache' (the slab cache), or 'size-class'\n"
	      "                            (kmalloc-8 ... kmalloc-8k by bytes_alloc),\n"
	      "                            or 'dir' (with -k: the directory under -b,\n"
	      "                            or the top level); also for --stats\n"
	      "                            and --outstanding\n"
	      "      --format FORMAT       text (default: trace_analyze.py's layout), csv\n"
	      "                            or json, for the account and every report\n"
	      "\n"
	      "Beyond the account (FILE '-' = standard output):\n"
	      "      --summary FILE        totals as perf kmem stat (requested, allocated,\n"
	      "                            freed, fragmentation, ping-pong, cross-node),\n"
	      "                            events, findings (double frees, mismatched frees,\n"
	      "                            time going back, lost events), slab caches\n"
	      "      --stats FILE          per call site: hits, bytes, per-hit bytes, frag%,\n"
	      "                            total_waste (over all allocations), ping-pong,\n"
	      "                            peak live bytes; -o also takes frag, hit, bytes,\n"
	      "                            pingpong, peak, total_waste\n"
	      "      --outstanding FILE    what is still allocated at the end, by call site:\n"
	      "                            count, bytes, oldest and median age\n"
	      "      --min-age SECONDS     --outstanding: leave out younger allocations\n"
	      "      --page FILE           page allocator: requests and KB by order and\n"
	      "                            migratetype and by GFP flags, alloc+freed /\n"
	      "                            alloc-only / free-only, failures, live pages,\n"
	      "                            per-CPU refills and drains, extfrag events\n"
	      "      --top N               --stats, --outstanding: the first N rows only;\n"
	      "                            --timeline, --html: N series (default 8)\n"
	      "      --time START,END      only events in this time window (seconds as the\n"
	      "                            log prints them; either end may be left out)\n"
	      "      --timeline FILE       live bytes over the log's time, stacked per row\n"
	      "                            (the N largest and 'other'), pages held on a\n"
	      "                            second panel, lost events marked: PNG, or\n"
	      "                            SVG/PDF by the name\n"
	      "      --html FILE           one self-contained page: summary, findings, a\n"
	      "                            sortable table of every row, the timeline,\n"
	      "                            with -k a zoomable sunburst, with stacks a\n"
	      "                            zoomable flame graph\n"
	      "\n"
	      "Call chains (logs recorded with stack traces):\n"
	      "      --folded FILE         slab allocations as folded stacks, for\n"
	      "                            flamegraph.pl, speedscope, inferno\n"
	      "      --folded-pages FILE   page allocations as folded stacks (bytes)\n"
	      "      --flame FILE          a flame graph: PNG, or SVG/PDF by the name\n"
	      "      --weight WHAT         what --folded and --flame weigh: bytes\n"
	      "                            (bytes_alloc, default), live (still held at\n"
	      "                            the end), waste (of those), count\n"
	      "      --wrappers FILE       more functions that allocate for their caller\n"
	      "                            (one name a line), besides the built-in list\n"
	      "      --user-frames         keep perf's user-space frames after the kernel's\n"
	      "      --page-size BYTES     page size for --folded-pages (default 4096)\n"
	      "\n"
	      "Kernel tree (-k):\n"
	      "  -b, --start-branch DIR    only call sites (or static sizes) under DIR of\n"
	      "                            the tree, e.g. fs/ext2 or drivers/\n"
	      "  -l, --callers-file FILE   one line per call site: current_dynamic, waste,\n"
	      "                            and the object it is defined in ('-' = stdout)\n"
	      "  -r, --rings-file FILE     ringchart of the directory tree: PNG, or SVG/PDF\n"
	      "                            by the file name (static-only default:\n"
	      "                            rings_static.png)\n"
	      "  -a, --rings-attr ATTR     what the ringchart measures: current_dynamic\n"
	      "                            (default), total_dynamic, waste, static, or\n"
	      "                            current (static + current_dynamic)\n"
	      "  -i, --rings-show          open the ringchart in the desktop's viewer\n"
	      "      --save-index FILE     write the tree's index: -k FILE then needs no tree\n"
	      "      --strict-kernel       a log whose call sites' sizes (/0xSIZE) disagree\n"
	      "                            with the tree's functions is an error, not a\n"
	      "                            warning (a log of another build)\n"
	      "\n"
	      "Other:\n"
	      "      --threads N           parser threads (default 0: one per CPU, at most 4)\n"
	      "  -q, --quiet               no summary on standard error\n"
	      "  -h, --help                this help\n"
	      "  -V, --version             the version\n"
	      "\n"
	      "Commands (each with its own --help):\n"
	      "  trace_analyze record [-o LOG] [-- CMD]  capture kmem events from this kernel\n"
	      "                                  (a tracefs instance of its own) and analyse them\n"
	      "  trace_analyze top               who allocates right now, refreshed live\n"
	      "  trace_analyze diff OLD NEW      what changed between two runs or two kernels\n"
	      "  trace_analyze check FILE...     check DB files and kernel indexes through\n"
	      "\n"
	      "Exit status: 0 success, 1 runtime failure, 2 usage error.\n"
	      "See trace_analyze(1) for what every number means.\n",
	      stdout);
}

enum long_only {
	OPT_SYSTEM_MAP = 256,
	OPT_MALLOC,
	OPT_CACHE,
	OPT_GROUP_BY,
	OPT_THREADS,
	OPT_FORMAT,
	OPT_SAVE_INDEX,
	OPT_DB_FILE,
	OPT_SAVE_DB,
	OPT_SUMMARY,
	OPT_STATS,
	OPT_OUTSTANDING,
	OPT_MIN_AGE,
	OPT_TOP,
	OPT_TIME,
	OPT_PAGE,
	OPT_WRAPPERS,
	OPT_USER_FRAMES,
	OPT_FOLDED,
	OPT_FOLDED_PAGES,
	OPT_FLAME,
	OPT_WEIGHT,
	OPT_PAGE_SIZE,
	OPT_TIMELINE,
	OPT_HTML,
	OPT_STRICT_KERNEL,
};

const struct option analyse_long_options[] = {
	{ "file", required_argument, NULL, 'f' },
	{ "kernel", required_argument, NULL, 'k' },
	{ "system-map", required_argument, NULL, OPT_SYSTEM_MAP },
	{ "account-file", required_argument, NULL, 'c' },
	{ "order-by", required_argument, NULL, 'o' },
	{ "malloc", no_argument, NULL, OPT_MALLOC },
	{ "cache", no_argument, NULL, OPT_CACHE },
	{ "group-by", required_argument, NULL, OPT_GROUP_BY },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "start-branch", required_argument, NULL, 'b' },
	{ "callers-file", required_argument, NULL, 'l' },
	{ "rings-file", required_argument, NULL, 'r' },
	{ "rings-attr", required_argument, NULL, 'a' },
	{ "rings-show", no_argument, NULL, 'i' },
	{ "save-index", required_argument, NULL, OPT_SAVE_INDEX },
	{ "db-file", required_argument, NULL, OPT_DB_FILE },
	{ "save-db", required_argument, NULL, OPT_SAVE_DB },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	{ "stats", required_argument, NULL, OPT_STATS },
	{ "outstanding", required_argument, NULL, OPT_OUTSTANDING },
	{ "min-age", required_argument, NULL, OPT_MIN_AGE },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "page", required_argument, NULL, OPT_PAGE },
	{ "wrappers", required_argument, NULL, OPT_WRAPPERS },
	{ "user-frames", no_argument, NULL, OPT_USER_FRAMES },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "folded-pages", required_argument, NULL, OPT_FOLDED_PAGES },
	{ "flame", required_argument, NULL, OPT_FLAME },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "page-size", required_argument, NULL, OPT_PAGE_SIZE },
	{ "timeline", required_argument, NULL, OPT_TIMELINE },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "strict-kernel", no_argument, NULL, OPT_STRICT_KERNEL },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

#define analyse_usage(...) usage_error(usage_line, "", __VA_ARGS__)

/* The groupings of the bare command's rows (dir is diff's). */
#define ANALYSE_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_ORIGIN | \
			1u << GROUP_CACHE | 1u << GROUP_DIR | 1u << GROUP_SIZE_CLASS)

static bool parse_count(const char *s, size_t *out)
{
	uint64_t n;

	if (!read_count(s, SIZE_MAX, &n) || n < 1)
		return false;
	*out = (size_t)n;
	return true;
}

static int stack_weight_of_name(const char *s)
{
	static const char *const names[] = { "bytes", "live", "waste", "count" };
	int i;

	for (i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

static bool parse_page_size(const char *s, uint64_t *out)
{
	uint64_t n;

	if (!read_count(s, 1ull << 30, &n) || n < 512 || (n & (n - 1)))
		return false;
	*out = n;
	return true;
}

/* "START,END", "START,", ",END" or "START". */
static bool parse_time_window(const char *arg, struct options *o)
{
	const char *comma = strchr(arg, ',');
	char start[64];
	size_t n = comma ? (size_t)(comma - arg) : strlen(arg);

	if (n >= sizeof(start))
		return false;
	memcpy(start, arg, n);
	start[n] = '\0';
	o->has_time_start = n > 0;
	o->has_time_end = comma && comma[1];
	if (!o->has_time_start && !o->has_time_end)
		return false;
	if (o->has_time_start && !read_seconds(start, &o->time_start_ns))
		return false;
	if (o->has_time_end && !read_seconds(comma + 1, &o->time_end_ns))
		return false;
	return true;
}

/* What needs what: a usage error rather than an option silently ignored. */
static int check_combinations(struct options *opts)
{
	bool need_tree = opts->branch || opts->callers_path || opts->rings_path ||
			 opts->save_index;

	if (need_tree && !opts->kernel)
		return analyse_usage("%s", "-b, -l, -r and --save-index need a kernel tree (-k DIR)");
	if (opts->log_path && opts->db_path)
		return analyse_usage("%s", "-f and --db-file exclude each other: the DB replaces the log");
	if (opts->save_db && !opts->log_path)
		return analyse_usage("%s", "--save-db saves the events of a log: it needs -f LOG");
	if (!opts->log_path && !opts->db_path && !opts->kernel)
		return analyse_usage("%s", "no log to read: give one with -f LOG ('-' for standard "
				   "input), or a kernel tree with -k DIR for its static footprint");
	if (!opts->log_path && !opts->db_path) {
		if (opts->callers_path)
			return analyse_usage("%s", "-l lists call sites: it needs a log (-f LOG or --db-file DB)");
		if (opts->rings_attr >= 0 && opts->rings_attr != ATTR_STATIC)
			return analyse_usage("--rings-attr %s needs a log (-f LOG or --db-file DB); without one "
					   "only 'static' can be drawn",
					   size_attr_name((enum size_attr)opts->rings_attr));
		opts->rings_attr = ATTR_STATIC;
		if (!opts->rings_path && !opts->account_path && !opts->save_index)
			opts->rings_path = "rings_static.png";	/* trace_analyze.py's default */
	} else if (opts->rings_attr < 0) {
		opts->rings_attr = ATTR_CURRENT_DYNAMIC;
	}
	if (opts->min_age_ns && !opts->outstanding_path)
		return analyse_usage("%s", "--min-age filters --outstanding: give that too");
	if (opts->top && !opts->stats_path && !opts->outstanding_path && !opts->timeline_path &&
	    !opts->html_path)
		return analyse_usage("%s", "--top limits --stats, --outstanding, --timeline and "
				     "--html: give one of them");
	if (!opts->log_path && !opts->db_path &&
	    (opts->summary_path || opts->stats_path || opts->outstanding_path || opts->page_path ||
	     opts->has_time_start || opts->has_time_end))
		return analyse_usage("%s", "--summary, --stats, --outstanding, --page and --time need a log "
				   "(-f LOG or --db-file DB)");
	if (!opts->log_path && !opts->db_path && (opts->timeline_path || opts->html_path))
		return analyse_usage("%s", "--timeline and --html need a log (-f LOG or --db-file DB)");
	if (opts->timeline_path && !chart_path_ok(opts->timeline_path))
		return analyse_usage("--timeline '%s': a chart is written as .png, .svg or .pdf: "
				     "name it so", opts->timeline_path);
	if (opts->rings_show && !opts->rings_path)
		return analyse_usage("%s", "-i shows the ringchart: it needs one (-r FILE)");
	if (opts->rings_path && !chart_path_ok(opts->rings_path))
		return analyse_usage("-r '%s': a chart is written as .png, .svg or .pdf: name it so",
				     opts->rings_path);
	if (opts->flame_path && !chart_path_ok(opts->flame_path))
		return analyse_usage("--flame '%s': a chart is written as .png, .svg or .pdf: name "
				     "it so", opts->flame_path);
	if (opts->group_by == GROUP_DIR && !opts->kernel)
		return analyse_usage("%s", "--group-by dir places call sites in the tree's "
				     "directories: give the tree with -k DIR");
	if (opts->group_by == GROUP_CACHE && (opts->branch || opts->callers_path))
		return analyse_usage("%s", "--group-by cache: slab caches are in no directory of the "
				     "tree (-b, -l)");
	if (opts->group_by == GROUP_SIZE_CLASS && (opts->branch || opts->callers_path))
		return analyse_usage("%s", "--group-by size-class: size classes are in no directory "
				     "of the tree (-b, -l)");
	if (opts->weight != WEIGHT_BYTES && !opts->folded_path && !opts->flame_path)
		return analyse_usage("%s", "--weight says what --folded and --flame weigh: give one "
				   "of them");
	if (opts->page_size != 4096 && !opts->folded_pages_path)
		return analyse_usage("%s", "--page-size sizes --folded-pages: give that too");
	if (!opts->log_path && !opts->db_path &&
	    (opts->folded_path || opts->folded_pages_path || opts->flame_path ||
	     opts->group_by == GROUP_ORIGIN))
		return analyse_usage("%s", "--folded, --folded-pages, --flame and --group-by origin "
				   "need a log (-f LOG or --db-file DB)");
	return -1;
}

/*
 * No output may overwrite an input or another output: checked before
 * anything is read or written. -k DIR reads the tree's System.map and
 * vmlinux; -k FILE is an index.
 */
static int check_files(const struct options *o)
{
	char map[4096], vmlinux[4096];
	struct file_roles roles;
	struct ta_error err;
	struct stat st;

	file_roles_init(&roles);
	if (!o->log_from_fd)
		file_roles_add_input(&roles, "-f", o->log_path);
	file_roles_add_output(&roles, "-o", o->record_log);
	file_roles_add_input(&roles, "--db-file", o->db_path);
	file_roles_add_input(&roles, "--system-map", o->system_map);
	file_roles_add_input(&roles, "--wrappers", o->wrappers_path);
	if (o->kernel && stat(o->kernel, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(map, sizeof(map), "%s/System.map", o->kernel);
		snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", o->kernel);
		file_roles_add_input(&roles, "-k", map);
		file_roles_add_input(&roles, "-k", vmlinux);
	} else {
		file_roles_add_input(&roles, "-k", o->kernel);
	}
	file_roles_add_output(&roles, "-c", o->account_path);
	file_roles_add_output(&roles, "-l", o->callers_path);
	file_roles_add_output(&roles, "-r", o->rings_path);
	file_roles_add_output(&roles, "--save-db", o->save_db);
	file_roles_add_output(&roles, "--save-index", o->save_index);
	file_roles_add_output(&roles, "--summary", o->summary_path);
	file_roles_add_output(&roles, "--stats", o->stats_path);
	file_roles_add_output(&roles, "--outstanding", o->outstanding_path);
	file_roles_add_output(&roles, "--page", o->page_path);
	file_roles_add_output(&roles, "--folded", o->folded_path);
	file_roles_add_output(&roles, "--folded-pages", o->folded_pages_path);
	file_roles_add_output(&roles, "--flame", o->flame_path);
	file_roles_add_output(&roles, "--timeline", o->timeline_path);
	file_roles_add_output(&roles, "--html", o->html_path);
	if (file_roles_check(&roles, &err) < 0) {
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return 2;	/* a usage error, but the usage text would not help */
	}
	return -1;
}

/* Fill opts from argv; returns -1 to go on, else the exit status. */
int analyse_parse_options(int argc, char **argv, struct options *opts)
{
	int c, key;
	bool malloc_only = false, cache_only = false;

	memset(opts, 0, sizeof(*opts));
	opts->order = ORDER_CURRENT_DYNAMIC;	/* trace_analyze.py's default */
	opts->families = FAMILY_ALL;
	opts->rings_attr = -1;
	opts->page_size = 4096;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:k:c:o:b:l:r:a:iqhV", analyse_long_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			opts->log_path = optarg;
			break;
		case 'k':
			opts->kernel = optarg;
			break;
		case OPT_SYSTEM_MAP:
			opts->system_map = optarg;
			break;
		case 'c':
			opts->account_path = optarg;
			break;
		case 'o':
			key = order_key_of_name(optarg);
			if (key < 0)
				return analyse_usage("unknown --order-by key '%s' (%s)", optarg,
						     order_key_list());
			opts->order = (enum order_key)key;
			break;
		case OPT_MALLOC:
			malloc_only = true;
			break;
		case OPT_CACHE:
			cache_only = true;
			break;
		case OPT_GROUP_BY:
			key = group_by_of_name(optarg, ANALYSE_GROUPS);
			if (key < 0)
				return analyse_usage("unknown --group-by value '%s' (%s)", optarg,
						     group_by_list(ANALYSE_GROUPS));
			opts->group_by = (enum group_by)key;
			break;
		case OPT_WRAPPERS:
			opts->wrappers_path = optarg;
			break;
		case OPT_USER_FRAMES:
			opts->user_frames = true;
			break;
		case OPT_FOLDED:
			opts->folded_path = optarg;
			break;
		case OPT_FOLDED_PAGES:
			opts->folded_pages_path = optarg;
			break;
		case OPT_FLAME:
			opts->flame_path = optarg;
			break;
		case OPT_TIMELINE:
			opts->timeline_path = optarg;
			break;
		case OPT_HTML:
			opts->html_path = optarg;
			break;
		case OPT_STRICT_KERNEL:
			opts->strict_kernel = true;
			break;
		case OPT_WEIGHT:
			key = stack_weight_of_name(optarg);
			if (key < 0)
				return analyse_usage("unknown --weight '%s' (bytes, live, waste, count)",
						   optarg);
			opts->weight = (enum stack_weight)key;
			break;
		case OPT_PAGE_SIZE:
			if (!parse_page_size(optarg, &opts->page_size))
				return analyse_usage("--page-size wants a power of two from 512 to 1 GiB "
						   "in bytes, not '%s'", optarg);
			break;
		case OPT_FORMAT:
			key = out_format_of_name(optarg);
			if (key < 0)
				return analyse_usage("unknown --format '%s' (text, csv, json)", optarg);
			opts->format = (enum out_format)key;
			break;
		case OPT_THREADS:
			if (!read_thread_count(optarg, &opts->threads))
				return analyse_usage("--threads wants a number from 0 to 64, not '%s'",
						   optarg);
			break;
		case 'b':
			opts->branch = optarg;
			break;
		case 'l':
			opts->callers_path = optarg;
			break;
		case 'r':
			opts->rings_path = optarg;
			break;
		case 'a':
			key = size_attr_of_name(optarg);
			if (key < 0)
				return analyse_usage("unknown --rings-attr '%s' (static, current, "
						   "current_dynamic, total_dynamic, waste)", optarg);
			opts->rings_attr = key;
			break;
		case 'i':
			opts->rings_show = true;
			break;
		case OPT_SAVE_INDEX:
			opts->save_index = optarg;
			break;
		case OPT_DB_FILE:
			opts->db_path = optarg;
			break;
		case OPT_SAVE_DB:
			opts->save_db = optarg;
			break;
		case OPT_SUMMARY:
			opts->summary_path = optarg;
			break;
		case OPT_STATS:
			opts->stats_path = optarg;
			break;
		case OPT_OUTSTANDING:
			opts->outstanding_path = optarg;
			break;
		case OPT_PAGE:
			opts->page_path = optarg;
			break;
		case OPT_MIN_AGE:
			if (!read_seconds(optarg, &opts->min_age_ns))
				return analyse_usage("--min-age wants seconds (e.g. 2.5), not '%s'", optarg);
			break;
		case OPT_TOP:
			if (!parse_count(optarg, &opts->top))
				return analyse_usage("--top wants a number of rows, not '%s'", optarg);
			break;
		case OPT_TIME:
			if (parse_time_window(optarg, opts) && opts->has_time_start &&
			    opts->has_time_end && opts->time_end_ns < opts->time_start_ns)
				return analyse_usage("--time '%s': the window ends before it starts "
						     "(START,END)", optarg);
			if (!parse_time_window(optarg, opts))
				return analyse_usage("--time wants START,END in seconds as the log prints "
						   "them (either may be left out), not '%s'", optarg);
			break;
		case 'q':
			opts->quiet = true;
			break;
		case 'h':
			print_help();
			return 0;
		case 'V':
			printf("trace_analyze %s\n", TA_VERSION);
			return 0;
		case ':':
			return analyse_usage("option '%s' needs a value", argv[optind - 1]);
		default:
			return unknown_option(usage_line, "", analyse_long_options, argv[optind - 1]);
		}
	}
	if (optind < argc)
		return analyse_usage("unexpected argument '%s'", argv[optind]);
	if (malloc_only && cache_only)
		return analyse_usage("%s", "--malloc and --cache exclude each other");
	if (malloc_only)
		opts->families = FAMILY_MALLOC;
	if (cache_only)
		opts->families = FAMILY_CACHE;
	return -1;
}

int analyse_check_options(struct options *opts)
{
	int status = check_combinations(opts);

	return status >= 0 ? status : check_files(opts);
}

int cmd_analyse(int argc, char **argv)
{
	struct options opts;
	struct ta_error err;
	int status = analyse_parse_options(argc, argv, &opts);

	if (status < 0)
		status = analyse_check_options(&opts);
	if (status >= 0)
		return status;
	if (pipeline_run(&opts, &err) < 0) {
		fflush(stdout);
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
