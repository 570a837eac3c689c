/*
 * diff.c - `trace_analyze diff OLD NEW`: what changed between two runs (two
 * logs, two DBs, or one of each) or, with --static, between two kernel
 * trees, laid out as bloat-o-meter lays out two kernels (diff.h).
 *
 * Each side is an analysis (engine.h) of its own, with its own kernel
 * tree when --old-kernel/--new-kernel say so; rows are keyed by function
 * (call-site offsets move when code changes), call site, origin, slab
 * cache or directory. --per and --per-second scale both sides; --fail-above
 * turns a growth into exit status 3 for CI; -r draws the change per
 * directory. Not here: the row arithmetic (report/rowdiff.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "allocgroups.h"
#include "allocinfo.h"
#include "allocreport.h"
#include "rowview.h"
#include "engine.h"
#include "callsite.h"
#include "formats.h"
#include "parseopt.h"
#include "commands.h"
#include "db.h"
#include "rowdiff.h"
#include "dirtree.h"
#include "kindex.h"
#include "outfile.h"
#include "pathcheck.h"
#include "ringchart.h"

static const char usage_line[] =
	"usage: trace_analyze diff [-k DIR|INDEX | --old-kernel D --new-kernel D]\n"
	"                          [--group-by function|callsite|origin|cache|dir|module|file]\n"
	"                          [-b DIR]\n"
	"                          [-o FIGURE] [--malloc | --cache] [--per N | --per-second]\n"
	"                          [--fail-above BYTES|PCT%] [-r FILE] [-c FILE]\n"
	"                          [--format text|csv|json] [--wrappers FILE] [--user-frames]\n"
	"                          [--threads N] [-q] OLD NEW\n"
	"       trace_analyze diff --static [-b DIR] [--fail-above BYTES|PCT%]\n"
	"                          [-c FILE] [--format ...] OLD NEW\n";

static const struct po_command diff_command = {
	.name = "diff",
	.usage = usage_line,
	.about = "What changed between two runs, or two kernels, as bloat-o-meter shows it:\n"
		 "one row per name with old, new, delta and delta%, sorted by |delta|,\n"
		 "names found on one side only marked added or removed, unchanged ones left\n"
		 "out, then the totals. OLD and NEW are kmem logs (any text form; '-' reads\n"
		 "standard input, for one side) or DB files (--save-db), or two /proc/allocinfo\n"
		 "snapshots (live bytes per site, function, file, dir or module); with --static,\n"
		 "two kernel trees, kernel indexes, or ELF files (objects, vmlinux).\n",
	.epilog = "Exit status: 0 success, 1 runtime failure, 2 usage error, 3 the total grew\n"
		  "more than --fail-above allows.\n"
		  "See trace_analyze(1), DIFF.\n",
	.arguments = true,
};

#define diff_usage(...) po_usage_error(&diff_command, __VA_ARGS__)

/* What diff's rows can be: all but the size classes. */
#define DIFF_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_ORIGIN | \
		     1u << GROUP_CACHE | 1u << GROUP_DIR | 1u << GROUP_MODULE | 1u << GROUP_FILE)

/* What the rows of two allocinfo snapshots can be. */
#define SNAPSHOT_DIFF_GROUPS (1u << GROUP_CALLSITE | 1u << GROUP_FUNCTION | 1u << GROUP_FILE | \
			      1u << GROUP_DIR | 1u << GROUP_MODULE)

struct diff_options {
	const char *paths[2];
	const char *kernel;
	const char *kernels[2];		/* --old-kernel, --new-kernel */
	enum group_by group_by;
	const char *branch;
	enum order_key figure;
	unsigned families;
	bool malloc_only, cache_only;
	uint64_t per;			/* --per N; 0: none */
	bool per_second;
	bool has_gate, gate_pct;
	double gate;			/* --fail-above */
	const char *rings_path;
	const char *output_path;
	enum out_format format;
	int threads;
	bool statics;
	const char *wrappers;
	bool user_frames;
	bool quiet;
	bool snapshots;			/* both sides /proc/allocinfo snapshots (allocinfo.h) */
};

static int read_limit(const struct po_option *o, const char *arg, struct ta_error *why);

/* "10000" bytes, or "5%" (decimal, two places at most) of the old total. */
static bool parse_limit(const char *s, struct diff_options *d)
{
	size_t n = strlen(s);
	uint64_t v;

	if (n > 1 && s[n - 1] == '%') {
		char copy[64];
		uint64_t ns;

		if (n - 1 >= sizeof(copy))
			return false;
		memcpy(copy, s, n - 1);
		copy[n - 1] = '\0';
		if (!read_seconds(copy, &ns))	/* the same decimal grammar */
			return false;
		d->gate = (double)ns / 1e9;
		d->gate_pct = true;
	} else {
		if (!read_count(s, UINT64_MAX, &v))
			return false;
		d->gate = (double)v;
		d->gate_pct = false;
	}
	d->has_gate = true;
	return true;
}

/*
 * Two allocinfo snapshots: live bytes (or allocations, -o alloc_count) per
 * site, function, file, directory or module; -b and -r need no tree.
 */
static int check_snapshot_diff(const struct diff_options *d)
{
	int i;

	for (i = 0; i < 2; i++)
		if (strcmp(d->paths[i], "-") && input_kind_of_path(d->paths[i]) != INPUT_ALLOCINFO)
			return diff_usage("'%s' is an allocinfo snapshot and '%s' is not: diff "
					  "compares two of a kind", d->paths[!i], d->paths[i]);
	if (!(SNAPSHOT_DIFF_GROUPS & (1u << d->group_by)))
		return diff_usage("allocinfo snapshots' sites are grouped by callsite, function, "
				  "file, dir or module, not %s", po_group_names[d->group_by]);
	if (d->figure != ORDER_CURRENT_DYNAMIC && d->figure != ORDER_ALLOC_COUNT)
		return diff_usage("%s", "allocinfo snapshots compare live bytes (-o "
				  "current_dynamic) or live allocations (-o alloc_count)");
	if (d->per || d->per_second || d->families != FAMILY_ALL)
		return diff_usage("%s", "allocinfo snapshots have no allocations or time to scale "
				  "by (--per, --per-second) and no families (--malloc, --cache)");
	return -1;
}

static int check_diff_combinations(const struct diff_options *d)
{
	if (d->statics) {
		if (d->kernel || d->kernels[0] || d->kernels[1] || d->per || d->per_second ||
		    d->rings_path || d->families != FAMILY_ALL)
			return diff_usage("%s", "--static compares two trees: -k, --old-kernel, "
					  "--new-kernel, --per, --per-second, -r, --malloc and "
					  "--cache do not apply");
		return -1;
	}
	if (strcmp(d->paths[0], "-") == 0 && strcmp(d->paths[1], "-") == 0)
		return diff_usage("%s", "only one side can be standard input");
	if (d->snapshots)
		return check_snapshot_diff(d);
	if (d->group_by == GROUP_FILE)
		return diff_usage("%s", "--group-by file groups allocinfo snapshots' sites: a kmem "
				  "log's call sites carry no source file");
	if (d->rings_path && !chart_path_ok(d->rings_path))
		return diff_usage("-r '%s': a chart is written as .png, .svg or .pdf: name it so",
				  d->rings_path);
	if (d->per && d->per_second)
		return diff_usage("%s", "--per and --per-second exclude each other");
	if (d->kernel && (d->kernels[0] || d->kernels[1]))
		return diff_usage("%s", "-k gives both sides one tree: use --old-kernel and "
				  "--new-kernel instead, not with it");
	if (d->group_by == GROUP_DIR && !d->kernel && !(d->kernels[0] && d->kernels[1]))
		return diff_usage("%s", "--group-by dir needs the kernel tree of both sides (-k, "
				  "or --old-kernel and --new-kernel)");
	if ((d->branch || d->rings_path) && !d->kernel && !(d->kernels[0] && d->kernels[1]))
		return diff_usage("%s", "-b and -r need the kernel tree of both sides (-k, or "
				  "--old-kernel and --new-kernel)");
	if (d->group_by == GROUP_CACHE && (d->branch || d->rings_path))
		return diff_usage("%s", "--group-by cache: slab caches are in no directory of the "
				  "tree (-b, -r)");
	if (d->figure == ORDER_PEAK && d->group_by != GROUP_CALLSITE)
		return diff_usage("%s", "-o peak is a call site's own: use --group-by callsite");
	return -1;
}

/* No output may overwrite an input, as for the analysis. */
static int check_diff_files(const struct po_option *table, const struct diff_options *d)
{
	struct file_roles roles;
	struct ta_error err;
	int i;

	file_roles_init(&roles);
	for (i = 0; i < 2; i++)
		file_roles_add_input(&roles, i ? "NEW" : "OLD", d->paths[i]);
	po_add_files(table, &roles);
	if (file_roles_check(&roles, &err) < 0) {
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
		return EXIT_USAGE;
	}
	return -1;
}

static int read_limit(const struct po_option *o, const char *arg, struct ta_error *why)
{
	if (!parse_limit(arg, o->value))
		return error_set(why, "--fail-above wants bytes (10000) or a percentage (2.5%%), "
				 "not '%s'", arg);
	return 0;
}

static struct po_option *diff_option_table(struct diff_options *d)
{
	const struct po_option t[] = {
		OPT_GROUP("Sides"),
		OPT_KERNEL(&d->kernel),
		OPT_INPUT(0, "old-kernel", &d->kernels[0], "DIR|INDEX",
			  "the tree of the OLD side, when the sides are two builds"),
		OPT_INPUT(0, "new-kernel", &d->kernels[1], "DIR|INDEX",
			  "the tree of the NEW side"),
		OPT_FLAG(0, "static", &d->statics,
			 "compare two trees, indexes or ELF files: symbols as bloat-o-meter, "
			 "objects, directories and sections (text, data, rodata, bss)"),
		OPT_GROUP("Rows"),
		OPT_GROUP_BY(&d->group_by, DIFF_GROUPS),
		OPT_BRANCH(&d->branch),
		OPT_CHOICE('o', "order-by", &d->figure, "FIGURE", order_key_names, 0, "figure",
			   "what is compared (default current_dynamic)"),
		OPT_MALLOC(&d->malloc_only),
		OPT_CACHE(&d->cache_only),
		OPT_UINT(0, "per", &d->per, "N", 1, UINT64_MAX, "a number of allocations",
			 "both sides scaled to N allocations"),
		OPT_FLAG(0, "per-second", &d->per_second,
			 "both sides divided by their log's duration"),
		OPT_CALL(0, "fail-above", d, "LIMIT", read_limit,
			 "exit 3 when the total grows by more than LIMIT bytes (or count), or LIMIT% "
			 "of the old total"),
		OPT_WRAPPERS(&d->wrappers),
		OPT_USER_FRAMES(&d->user_frames),
		OPT_GROUP("Outputs"),
		OPT_OUTPUT('c', "account-file", &d->output_path, "FILE",
			   "where the table goes (default: standard output)"),
		OPT_FORMAT(&d->format),
		OPT_RINGS_FILE(&d->rings_path),
		OPT_GROUP("Other"),
		OPT_THREADS(&d->threads),
		OPT_QUIET(&d->quiet),
		OPT_HELP(),
		OPT_END(),
	};
	struct po_option *copy = xmalloc(sizeof(t));

	memcpy(copy, t, sizeof(t));
	return copy;
}

static int parse_diff_options(int argc, char **argv, struct diff_options *d)
{
	struct po_option *table;
	int status, rest, i;

	memset(d, 0, sizeof(*d));
	d->group_by = GROUP_FUNCTION;
	d->figure = ORDER_CURRENT_DYNAMIC;
	table = diff_option_table(d);
	status = po_parse(&diff_command, table, argc, argv, &rest);
	if (status < 0 && argc - rest != 2)
		status = diff_usage("%s", argc - rest < 2
				    ? "diff compares two sides: give OLD and NEW"
				    : "diff compares two sides: more than OLD and NEW given");
	if (status < 0) {
		d->paths[0] = argv[rest];
		d->paths[1] = argv[rest + 1];
		if (d->malloc_only && d->cache_only)
			status = diff_usage("%s", "--malloc and --cache exclude each other");
	}
	d->families = d->malloc_only ? FAMILY_MALLOC : d->cache_only ? FAMILY_CACHE : FAMILY_ALL;
	for (i = 0; status < 0 && !d->statics && i < 2; i++)
		if (input_kind_of_path(d->paths[i]) == INPUT_KSNAPSHOT)
			status = diff_usage("'%s' is a kernel snapshot: diff compares kmem logs, DBs "
					    "and allocinfo snapshots (two kernel snapshots: "
					    "trace_analyze -f OLD NEW --ledger - gives each line's change)",
					    d->paths[i]);
	if (status < 0 && !d->statics)
		d->snapshots = input_kind_of_path(d->paths[0]) == INPUT_ALLOCINFO ||
			       input_kind_of_path(d->paths[1]) == INPUT_ALLOCINFO;
	if (status < 0)
		status = check_diff_combinations(d);
	if (status < 0)
		status = check_diff_files(table, d);
	free(table);
	return status;
}

/* ---- one side ------------------------------------------------------------------------ */

struct side {
	const char *path;
	struct analysis_request req;
	struct analysis a;
	bool loaded;
	struct diff_entry *entries;
	size_t count, cap;
	struct strtab names;		/* the rows' names, owned here */
	double total;
	double scale;			/* figures are multiplied by it */
	uint64_t allocs;		/* of the analysis, kept when it is released */
	double seconds;
	struct strtab builtin;		/* snapshots: the built-in sites' keys */
	struct strtab inaccurate;	/* snapshots: the rows that said accurate:no */
};

/* -r: each side's figure per place in the tree, kept once a side is released. */
struct places {
	struct strtab paths;
	double *values[2];
	size_t caps[2];
};

static bool is_db_file(const char *path)
{
	return input_kind_of_path(path) == INPUT_DB;	/* else opening it as a log says why */
}

static const char *side_name(int i)
{
	return i ? "NEW" : "OLD";
}

/* Hex call sites no System.map of this side resolves: the wrong (or no) kernel. */
static int check_call_sites_resolve(const struct side *s, int i, struct ta_error *err)
{
	const struct analysis *a = &s->a;
	const struct strtab *cs = &a->strings.call_sites;
	uint64_t addr, bare = 0, unresolved = 0;
	uint32_t id;

	for (id = 0; id < a->account.nsites; id++) {
		if (!account_site(&a->account, id) ||
		    !callsite_is_address(strtab_get(cs, id), strtab_length(cs, id), &addr))
			continue;
		bare++;
		if (!a->syms.count || !symbols_lookup(&a->syms, addr))
			unresolved++;
	}
	if (bare && !a->syms.count)
		return error_set(err, "%s '%s' names its call sites by address: give its kernel's "
				 "tree with -k or %s, or the functions of the two sides cannot be "
				 "matched", side_name(i), s->path, i ? "--new-kernel" : "--old-kernel");
	if (unresolved * 2 > bare && bare)
		return error_set(err, "%s '%s': %llu of its %llu call site addresses are in no "
				 "function of '%s': is it that side's kernel?", side_name(i), s->path,
				 (unsigned long long)unresolved, (unsigned long long)bare,
				 a->map_path ? a->map_path : "the System.map");
	return 0;
}

static int load_side(struct side *s, const struct diff_options *d, int i, struct ta_error *err)
{
	struct analysis_request *o = &s->req;

	memset(s, 0, sizeof(*s));
	s->path = d->paths[i];
	strtab_init(&s->names);
	strtab_init(&s->builtin);
	strtab_init(&s->inaccurate);
	if (is_db_file(s->path))
		o->db_path = s->path;
	else
		o->log_path = s->path;
	o->kernel = d->kernels[i] ? d->kernels[i] : d->kernel;
	o->group_by = d->group_by == GROUP_DIR && !d->snapshots ? GROUP_CALLSITE : d->group_by;
	o->families = d->families;
	o->order = ORDER_CURRENT_DYNAMIC;
	o->threads = d->threads;
	o->quiet = true;
	o->wrappers_path = d->wrappers;
	o->user_frames = d->user_frames;
	if (d->group_by == GROUP_DIR || d->rings_path || d->branch)
		o->needs |= NEED_OBJECTS;	/* call sites placed in the tree */
	if (d->per_second)
		o->needs |= NEED_EVENTS;	/* a DB's timestamps */
	o->branch = d->branch;
	analysis_init(&s->a, o);
	s->loaded = true;
	if (analysis_load_kernel(&s->a, err) < 0 || analysis_read(&s->a, err) < 0)
		return -1;
	if (d->snapshots != s->a.have_snapshots)
		return error_set(err, "'%s' is %san allocinfo snapshot and '%s' is %s: diff compares "
				 "two of a kind", s->path, s->a.have_snapshots ? "" : "not ",
				 d->paths[!i], s->a.have_snapshots ? "not" : "one");
	return s->a.have_snapshots ? 0 : check_call_sites_resolve(s, i, err);
}

static void release_side(struct side *s)
{
	if (s->loaded)
		analysis_release(&s->a);
	free(s->entries);
	strtab_release(&s->names);
	strtab_release(&s->builtin);
	strtab_release(&s->inaccurate);
}

static double figure_of(const struct site_stats *st, enum order_key k)
{
	switch (k) {
	case ORDER_TOTAL_DYNAMIC:
	case ORDER_BYTES:
		return (double)st->total_dynamic;
	case ORDER_ALLOC_COUNT:
	case ORDER_HIT:
		return (double)st->alloc_count;
	case ORDER_FREE_COUNT:
		return (double)st->free_count;
	case ORDER_WASTE:
		return (double)site_waste(st);
	case ORDER_FRAG:
		return fragmentation_pct(st->total_req, st->total_dynamic);
	case ORDER_PINGPONG:
		return (double)st->pingpong;
	case ORDER_PEAK:
		return (double)st->peak_dynamic;
	case ORDER_TOTAL_WASTE:
		return (double)site_total_waste(st);
	case ORDER_CURRENT_DYNAMIC:
	default:
		return (double)st->current_dynamic;
	}
}

static void add_entry(struct side *s, const char *name, size_t len, double value)
{
	uint32_t id = strtab_intern(&s->names, name, len);

	if (id >= s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;

		while (cap <= id)
			cap *= 2;
		s->entries = xrealloc(s->entries, cap * sizeof(*s->entries));
		memset(s->entries + s->cap, 0, (cap - s->cap) * sizeof(*s->entries));
		s->cap = cap;
	}
	if (id == s->count)
		s->count++;
	s->entries[id].value += value;
}

/* The directory (or object) just below top that holds node, or DIR_NONE. */
/*
 * A row whose figure is 0 on a side is not there for that figure (a
 * function that held nothing at the end is not "added" to current_dynamic);
 * a percentage of 0 is a value, though.
 */
static void drop_zero_rows(struct side *s, const struct diff_options *d)
{
	size_t i, n = 0;

	if (d->figure == ORDER_FRAG)
		return;
	for (i = 0; i < s->count; i++)
		if (s->entries[i].value != 0)
			s->entries[n++] = s->entries[i];
	s->count = n;
}

/*
 * The side's rows: the analysis's rows (grouped as asked), or, by dir,
 * the call sites summed into the directory or object just below -b.
 */
static void collect_rows(struct side *s, const struct diff_options *d)
{
	struct account_rows rows;
	struct site_stats sum;
	char path[4096];
	size_t i;

	memset(&sum, 0, sizeof(sum));
	analysis_rows(&s->a, &rows);
	for (i = 0; i < rows.count; i++) {
		const struct account_row *r = &rows.rows[i];

		sum.total_dynamic += r->s.total_dynamic;
		sum.total_req += r->s.total_req;
		if (d->group_by != GROUP_DIR) {
			add_entry(s, r->caller, strlen(r->caller), figure_of(&r->s, d->figure));
			continue;
		}
		uint32_t top = s->a.branch, node = dirtree_child_toward(&s->a.dirs, r->place, top);
		size_t n;

		if (node == DIR_NONE)
			continue;	/* a row outside -b */
		n = dirtree_path(&s->a.dirs, node, path, sizeof(path));
		add_entry(s, path, n, figure_of(&r->s, d->figure));
	}
	for (i = 0; i < s->count; i++) {
		s->entries[i].name = strtab_get(&s->names, (uint32_t)i);
		if (d->figure != ORDER_FRAG)
			s->total += s->entries[i].value;
	}
	drop_zero_rows(s, d);
	if (d->figure == ORDER_FRAG)	/* the side's own, not a sum of percentages */
		s->total = fragmentation_pct(sum.total_req, sum.total_dynamic);
	account_rows_release(&rows);
}

static void finish_side(struct side *s, double total, bool use_total);

/*
 * A snapshot side's rows: live bytes (or allocations) by the key asked;
 * the rows that said accurate:no, and the built-in sites (to tell whether
 * both sides are one kernel), kept.
 */
static void collect_snapshot_rows(struct side *s, const struct diff_options *d)
{
	const struct alloc_series *a = &s->a.snapshots;
	struct alloc_rows rows;
	uint32_t i;

	alloc_rows_build(&rows, a, alloc_key_for(d->group_by), d->branch);
	for (i = 0; i < rows.n; i++) {
		const struct alloc_row_sum *r = &rows.rows[i];
		const char *name = strtab_get(&rows.names, r->name);

		add_entry(s, name, strlen(name), (double)(d->figure == ORDER_ALLOC_COUNT ? r->calls
											 : r->bytes));
		if (r->inaccurate)
			strtab_intern(&s->inaccurate, name, strlen(name));
	}
	for (i = 0; i < a->nsites; i++)
		if (a->listed_in[i] == a->snapshots && a->sites[i].module == STR_NONE)
			strtab_intern(&s->builtin, strtab_get(&a->keys, i), strtab_length(&a->keys, i));
	finish_side(s, 0, false);
	drop_zero_rows(s, d);
	alloc_rows_release(&rows);
}

/* Two snapshots of different kernels list different built-in sites: said, not fatal. */
static void warn_of_another_kernel(const struct side sides[2])
{
	uint32_t i, only[2] = { 0, 0 };
	int k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < sides[k].builtin.count; i++)
			only[k] += strtab_find(&sides[!k].builtin, strtab_get(&sides[k].builtin, i),
					       strtab_length(&sides[k].builtin, i)) == STR_NONE;
	if (only[0] || only[1])
		fprintf(stderr, "trace_analyze: warning: the two snapshots list different built-in "
			"sites (%u only in '%s', %u only in '%s'): not the same kernel build? Rows "
			"of moved lines show as removed and added\n", only[0], sides[0].path,
			only[1], sides[1].path);
}

/* Rows that said accurate:no on either side: a list "inaccurate" of their names. */
static void list_inaccurate(struct out_doc *doc, const struct side sides[2])
{
	struct out_block *b;
	struct strtab all;
	uint32_t i;
	int k;

	strtab_init(&all);
	for (k = 0; k < 2; k++)
		for (i = 0; i < sides[k].inaccurate.count; i++)
			strtab_intern(&all, strtab_get(&sides[k].inaccurate, i),
				      strtab_length(&sides[k].inaccurate, i));
	if (all.count) {
		b = out_list(doc, "inaccurate", "rows a side says accurate:no of (their figures "
			     "are not exact, their changes are)");
		for (i = 0; i < all.count; i++)
			out_item_str(doc, b, "row", "row", strtab_get(&all, i));
	}
	strtab_release(&all);
}

/* value added to the place node's path in paths, *values grown to hold its id. */
static void add_at_place(const struct dirtree *dirs, uint32_t node, struct strtab *paths,
			 double **values, size_t *cap, double value)
{
	char path[4096];
	size_t n = dirtree_path(dirs, node, path, sizeof(path));
	uint32_t id = strtab_intern(paths, path, n);

	if (id >= *cap) {
		size_t c = *cap ? *cap * 2 : 256;

		while (c <= id)
			c *= 2;
		*values = xrealloc(*values, c * sizeof(**values));
		memset(*values + *cap, 0, (c - *cap) * sizeof(**values));
		*cap = c;
	}
	(*values)[id] += value;
}

/* A snapshot side's figure per place (-r): each site's where the engine placed it. */
static void snapshot_figures_by_place(const struct side *s, const struct diff_options *d,
				      struct strtab *paths, double **values, size_t *cap)
{
	const struct alloc_series *a = &s->a.snapshots;
	uint32_t k;

	for (k = 0; k < a->nsites; k++) {
		if (!s->a.site_place || s->a.site_place[k] == DIR_NONE ||
		    !alloc_site_in_branch(a, k, d->branch))
			continue;
		add_at_place(&s->a.dirs, s->a.site_place[k], paths, values, cap,
			     (double)(d->figure == ORDER_ALLOC_COUNT ? a->calls[k] : a->bytes[k]));
	}
}

static double duration_of(const struct analysis *a)
{
	return a->last_ns > a->first_ns ? (double)(a->last_ns - a->first_ns) / 1e9 : 0;
}

/* --per N, --per-second: what to multiply a side's figures by. */
static int find_scale(struct side *s, const struct diff_options *d, int i, struct ta_error *err)
{
	double allocs = (double)s->a.account.totals.allocs, secs = duration_of(&s->a);

	s->scale = 1;
	if (d->figure == ORDER_FRAG)
		return 0;	/* a percentage: nothing to scale */
	if (d->per) {
		if (allocs == 0)
			return error_set(err, "%s '%s' has no allocation to scale --per to",
					 side_name(i), s->path);
		s->scale = (double)d->per / allocs;
	} else if (d->per_second) {
		if (secs <= 0)
			return error_set(err, "%s '%s' lasts no time (its events have one timestamp "
					 "or none): it cannot be scaled --per-second", side_name(i),
					 s->path);
		s->scale = 1 / secs;
	}
	return 0;
}

static void scale_side(struct side *s)
{
	size_t i;

	if (s->scale == 1)
		return;
	for (i = 0; i < s->count; i++)
		s->entries[i].value *= s->scale;
	s->total *= s->scale;
}

/* ---- output ---------------------------------------------------------------------------- */

static const char *group_noun(enum group_by g)
{
	switch (g) {
	case GROUP_CALLSITE:
		return "callsite";
	case GROUP_ORIGIN:
		return "origin";
	case GROUP_CACHE:
		return "cache";
	case GROUP_DIR:
		return "directory";
	case GROUP_MODULE:
		return "module";
	case GROUP_FILE:
		return "file";
	case GROUP_FUNCTION:
	default:
		return "function";
	}
}

static void describe_sides(struct out_doc *doc, struct side sides[2], const struct diff_options *d)
{
	struct out_block *b = out_list(doc, "sides", NULL);
	char text[4200], scaling[128];
	int i;

	for (i = 0; i < 2; i++) {
		if (d->snapshots)
			snprintf(text, sizeof(text), "'%s': allocinfo, %llu allocations live",
				 sides[i].path, (unsigned long long)sides[i].allocs);
		else
			snprintf(text, sizeof(text), "'%s': %llu allocations, %.6f s", sides[i].path,
				 (unsigned long long)sides[i].allocs, sides[i].seconds);
		out_item_str(doc, b, i ? "new" : "old", i ? "new" : "old", text);
	}
	snprintf(text, sizeof(text), "%s by %s", order_key_name(d->figure), group_noun(d->group_by));
	out_item_str(doc, b, "figure", "figure", text);
	if (d->per)
		snprintf(scaling, sizeof(scaling), "per %llu allocations (old x%.6g, new x%.6g)",
			 (unsigned long long)d->per, sides[0].scale, sides[1].scale);
	else if (d->per_second)
		snprintf(scaling, sizeof(scaling), "per second of log (old x%.6g, new x%.6g)",
			 sides[0].scale, sides[1].scale);
	else
		snprintf(scaling, sizeof(scaling), "none: raw figures");
	out_item_str(doc, b, "scaling", "scaling", scaling);
}

static int write_doc(const struct out_doc *doc, const struct diff_options *d,
		     struct ta_error *err)
{
	const char *path = d->output_path ? d->output_path : "-";
	struct outfile out;
	struct out_dest o;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	out_dest_init(&o, outfile_stream(&out), path, d->format, d->quiet, err);
	out_emit(&o, doc);
	if (o.rc < 0) {
		outfile_abort(&out);
		return -1;
	}
	return outfile_commit(&out, false, err);
}

/* A figure as a person reads it: whole numbers whole (618659000, not 6.18659e+08). */
static const char *plain_number(double v, char *buf, size_t cap)
{
	if (v > -1e18 && v < 1e18 && v == (double)(long long)v)
		snprintf(buf, cap, "%lld", (long long)v);
	else
		snprintf(buf, cap, "%.6g", v);	/* a fraction, or beyond any memory */
	return buf;
}

/* --fail-above: did the total grow by more? Says so on stderr, unless -q. */
static bool over_the_gate(const struct diff_result *r, const struct diff_options *d,
			  const char *figure)
{
	double delta = r->new_total - r->old_total, pct = diff_total_pct(r);
	char by[64], gate[64];
	bool over;

	if (!d->has_gate)
		return false;
	if (d->gate_pct)
		over = delta > 0 && (pct != pct || pct > d->gate);
	else
		over = delta > d->gate;
	if (over && !d->quiet)
		fprintf(stderr, "trace_analyze: diff: %s grew by %s (%+.2f%%), more than "
			"--fail-above %s%s allows\n", figure, plain_number(delta, by, sizeof(by)),
			pct == pct ? pct : 100.0, plain_number(d->gate, gate, sizeof(gate)),
			d->gate_pct ? "%" : "");
	return over;
}

static void figures_by_place(const struct side *s, const struct diff_options *d,
			     struct strtab *paths, double **values, size_t *cap);
static int diff_delta_chart(const struct diff_options *d, const struct side sides[2],
			    const struct places *pl, struct ta_error *err);

/* ---- the run ---------------------------------------------------------------------------------- */

static int diff_runs(const struct diff_options *d, int *gate)
{
	struct side sides[2];
	struct diff_result result;
	struct diff_labels labels = { "rows", group_noun(d->group_by),
				      d->group_by == GROUP_DIR ? "dir" : group_noun(d->group_by),
				      d->figure != ORDER_FRAG && !d->per && !d->per_second, false };
	struct diff_side ds[2];
	struct out_doc doc;
	struct ta_error err;
	struct places pl;
	int i, rc = -1;

	memset(sides, 0, sizeof(sides));
	memset(&pl, 0, sizeof(pl));
	strtab_init(&pl.paths);
	for (i = 0; i < 2; i++) {
		if (load_side(&sides[i], d, i, &err) < 0 || find_scale(&sides[i], d, i, &err) < 0)
			goto out;
		if (d->snapshots)
			collect_snapshot_rows(&sides[i], d);
		else
			collect_rows(&sides[i], d);
		if (d->rings_path && d->snapshots)
			snapshot_figures_by_place(&sides[i], d, &pl.paths, &pl.values[i],
						  &pl.caps[i]);
		else if (d->rings_path)
			figures_by_place(&sides[i], d, &pl.paths, &pl.values[i], &pl.caps[i]);
		/* what is needed is kept: the side's memory goes before the next is read */
		sides[i].allocs = sides[i].a.account.totals.allocs;
		if (d->snapshots)
			for (uint32_t k = 0; k < sides[i].a.snapshots.nsites; k++)
				if (sides[i].a.snapshots.listed_in[k] == sides[i].a.snapshots.snapshots)
					sides[i].allocs += sides[i].a.snapshots.calls[k];
		sides[i].seconds = duration_of(&sides[i].a);
		analysis_release(&sides[i].a);
		sides[i].loaded = false;
		scale_side(&sides[i]);
		ds[i].rows = sides[i].entries;
		ds[i].count = sides[i].count;
		ds[i].total = sides[i].total;
	}
	diff_compute(&result, &ds[0], &ds[1]);
	if (d->snapshots && !d->quiet)
		warn_of_another_kernel(sides);
	out_doc_init(&doc, "diff");
	if (d->per || d->per_second)	/* scaled figures: what scales them comes first */
		describe_sides(&doc, sides, d);
	diff_add_to_doc(&doc, &result, &labels, d->format);
	if (!d->per && !d->per_second)	/* raw: bloat-o-meter's lines first, as it prints them */
		describe_sides(&doc, sides, d);
	if (d->snapshots)
		list_inaccurate(&doc, sides);
	rc = write_doc(&doc, d, &err);
	out_doc_release(&doc);
	if (rc == 0 && d->rings_path)
		rc = diff_delta_chart(d, sides, &pl, &err);
	if (rc == 0)
		*gate = over_the_gate(&result, d, order_key_name(d->figure));
	diff_result_release(&result);
out:
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
	}
	for (i = 0; i < 2; i++)
		release_side(&sides[i]);
	strtab_release(&pl.paths);
	free(pl.values[0]);
	free(pl.values[1]);
	return rc;
}

static int diff_static(const struct diff_options *d, int *gate);

int cmd_diff(int argc, char **argv)
{
	struct diff_options d;
	int status = parse_diff_options(argc, argv, &d), gate = 0;

	if (status >= 0)
		return status;
	if ((d.statics ? diff_static(&d, &gate) : diff_runs(&d, &gate)) < 0)
		return EXIT_RUNTIME;
	if (!d.quiet) {
		fflush(stdout);
		outfile_say_written(stderr);
	}
	return gate ? EXIT_GATE : EXIT_OK;
}

/* ---- the delta ringchart --------------------------------------------------------------- */

/* The side's figure per place in the tree ("fs/ext4/inode.o", "(unknown)"). */
static void figures_by_place(const struct side *s, const struct diff_options *d,
			     struct strtab *paths, double **values, size_t *cap)
{
	struct account_rows rows;
	size_t i;

	analysis_rows(&s->a, &rows);
	for (i = 0; i < rows.count; i++) {
		const struct account_row *r = &rows.rows[i];

		if (r->place == DIR_NONE)
			continue;
		add_at_place(&s->a.dirs, r->place, paths, values, cap,
			     figure_of(&r->s, d->figure) * s->scale);
	}
	account_rows_release(&rows);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return strcmp(path, "-") == 0 ? "standard input" : slash ? slash + 1 : path;
}

/* The node for path under parent, made if new (a path's components one by one). */
static uint32_t ring_path(struct ring_tree *t, const char *path)
{
	char part[4096];
	uint32_t node = 0;
	const char *p = path;

	while (*p) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		uint32_t c;

		if (n >= sizeof(part))
			n = sizeof(part) - 1;
		memcpy(part, p, n);
		part[n] = '\0';
		for (c = t->nodes[node].first_child; c != RING_NONE; c = t->nodes[c].next_sibling)
			if (strcmp(t->nodes[c].label, part) == 0)
				break;
		if (c == RING_NONE)
			c = ring_tree_add(t, node, part, 0, !slash);
		node = c;
		p += n + (slash ? 1 : 0);
	}
	return node;
}

static int diff_delta_chart(const struct diff_options *d, const struct side sides[2],
			    const struct places *pl, struct ta_error *err)
{
	const struct strtab *paths = &pl->paths;
	double *const *values = pl->values;
	const size_t *caps = pl->caps;
	struct ring_tree t;
	struct outfile out;
	char title[1024];
	size_t i;
	int rc;

	ring_tree_init(&t);
	t.signed_values = true;
	ring_tree_add(&t, RING_NONE, "change", 0, false);
	for (i = 0; i < paths->count; i++) {
		double o = i < caps[0] ? values[0][i] : 0, n = i < caps[1] ? values[1][i] : 0;
		int64_t delta = (int64_t)llround(n - o);
		uint32_t node;

		if (delta == 0)
			continue;
		node = ring_path(&t, strtab_get(paths, (uint32_t)i));
		for (; node != RING_NONE; node = t.nodes[node].parent) {
			t.nodes[node].value += (uint64_t)(delta < 0 ? -delta : delta);
			t.nodes[node].delta += delta;
		}
	}
	snprintf(title, sizeof(title), "Change of %s%s by directory: '%s' to '%s'",
		 order_key_name(d->figure),
		 d->per ? " (scaled per allocations)" : d->per_second ? " (per second)" : "",
		 base_name(sides[0].path), base_name(sides[1].path));
	rc = outfile_open(&out, d->rings_path, err);
	if (rc == 0) {
		rc = ringchart_write(&t, title, d->rings_path, outfile_stream(&out), err);
		rc = outfile_finish(&out, rc, err);
	}
	ring_tree_release(&t);
	return rc;
}

/* ---- --static ------------------------------------------------------------------------------- */

struct tree_side {
	const char *path;
	struct kernel_tree tree;
	struct dirtree dirs;
	bool has_dirs;
	struct side symbols, objects, directories;	/* only their rows are used */
	uint64_t sections[KSEC_COUNT];
};

static int load_tree(struct tree_side *s, const char *path, struct ta_error *err)
{
	struct stat st;

	s->path = path;
	ktree_init(&s->tree);
	if (stat(path, &st) < 0)
		return error_set_errno(err, errno, "cannot open kernel tree '%s'", path);
	if (S_ISDIR(st.st_mode)) {
		if (ktree_walk(&s->tree, path, err) < 0)
			return -1;
		if (s->tree.counts.objects == 0)
			return error_set(err, "kernel tree '%s' has no objects: is it built? (looked "
					 "for .o files with a .c or .S source beside them)", path);
	} else if (kindex_is_index(path)) {
		if (kindex_load(&s->tree, path, err) < 0)
			return -1;
		if (!s->tree.has_nmsyms)
			return error_set(err, "kernel index '%s' was made by an older trace_analyze: "
					 "it lacks the symbol table diff --static compares; make it "
					 "again with --save-index", path);
	} else if (ktree_read_file(&s->tree, path, err) < 0) {	/* an object, a vmlinux */
		return -1;
	}
	dirtree_build(&s->dirs, &s->tree);
	s->has_dirs = true;
	return 0;
}

/* Is path ("fs/ext4/inode.o", "fs/ext4") -b itself or under it? */
static bool path_in_branch(const char *path, const char *branch)
{
	size_t n;

	if (!branch)
		return true;
	while (branch[0] == '.' && branch[1] == '/')
		branch += 2;
	n = strlen(branch);
	while (n && branch[n - 1] == '/')
		n--;
	return strncmp(path, branch, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static bool object_in_branch(const struct kernel_tree *t, uint32_t object, const char *branch)
{
	return path_in_branch(ktree_string(t, t->objects[object].path), branch);
}

/* Symbols (functions and data, same names summed as bloat-o-meter does), objects, dirs. */
/* Symbols bloat-o-meter leaves out: generated ones, the banner, the version magic. */
static bool left_out_by_bloat_o_meter(const char *name)
{
	static const char *const prefixes[] = { "__mod_", "__se_sys", "__se_compat_sys",
						"__addressable_" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return strcmp(name, "linux_banner") == 0 || strcmp(name, "vermagic") == 0;
}

/*
 * A symbol's name as bloat-o-meter compares it: every ".NUMBER" gcc adds
 * (statics' "buf.0", "f.isra.0", "f.constprop.0.isra.0") taken out, so
 * that a static renumbered by another function's going stays one row.
 */
static size_t bloat_o_meter_name(const char *name, char *out, size_t cap)
{
	size_t n = 0;

	while (*name && n + 1 < cap) {
		if (name[0] == '.' && name[1] >= '0' && name[1] <= '9') {
			for (name++; *name >= '0' && *name <= '9'; name++)
				;
			continue;
		}
		out[n++] = *name++;
	}
	out[n] = '\0';
	return n;
}

static void collect_tree_rows(struct tree_side *s, const char *branch)
{
	const struct kernel_tree *t = &s->tree;
	char path[4096];
	size_t i;
	uint32_t n;

	strtab_init(&s->symbols.names);
	strtab_init(&s->objects.names);
	strtab_init(&s->directories.names);
	for (i = 0; i < t->nnmsyms; i++) {	/* bloat-o-meter's symbols, summed by its name */
		const char *name = ktree_string(t, t->nmsyms[i].name);

		if (!object_in_branch(t, t->nmsyms[i].object, branch) ||
		    left_out_by_bloat_o_meter(name))
			continue;
		add_entry(&s->symbols, path, bloat_o_meter_name(name, path, sizeof(path)),
			  (double)t->nmsyms[i].size);
	}
	for (i = 0; i < t->nobjects; i++) {
		const char *p = ktree_string(t, t->objects[i].path);
		int k;

		if (!object_in_branch(t, (uint32_t)i, branch))
			continue;
		add_entry(&s->objects, p, strlen(p), (double)kobject_static(&t->objects[i]));
		for (k = 0; k < KSEC_COUNT; k++)
			s->sections[k] += t->objects[i].size[k];
	}
	for (n = 1; n < s->dirs.count; n++) {
		size_t len;

		if (!dir_node_is_directory(&s->dirs, n))
			continue;
		len = dirtree_path(&s->dirs, n, path, sizeof(path));
		if (!path_in_branch(path, branch))
			continue;
		add_entry(&s->directories, path, len, (double)dir_node_static(&s->dirs.nodes[n]));
	}
}

/* Names and totals as the diff wants them: its rows, their sum (or total if given). */
static void finish_side(struct side *s, double total, bool use_total)
{
	size_t i;

	s->total = 0;
	for (i = 0; i < s->count; i++) {
		s->entries[i].name = strtab_get(&s->names, (uint32_t)i);
		s->total += s->entries[i].value;
	}
	if (use_total)
		s->total = total;
}

static void side_view(const struct side *s, struct diff_side *v)
{
	v->rows = s->entries;
	v->count = s->count;
	v->total = s->total;
}

static void release_tree_side(struct tree_side *s)
{
	if (s->has_dirs)
		dirtree_release(&s->dirs);
	ktree_release(&s->tree);
	free(s->symbols.entries);
	free(s->objects.entries);
	free(s->directories.entries);
	strtab_release(&s->symbols.names);
	strtab_release(&s->objects.names);
	strtab_release(&s->directories.names);
}

/* The static size under -b: of the branch's node, or of the whole tree. */
static double branch_static(const struct tree_side *s, const char *branch)
{
	uint32_t node = branch ? dirtree_find(&s->dirs, branch) : 0;

	return node == DIR_NONE ? 0 : (double)dir_node_static(&s->dirs.nodes[node]);
}

static void add_section_diff(struct out_doc *doc, const struct tree_side sides[2],
			     enum out_format format, struct diff_result *r)
{
	struct diff_entry e[2][KSEC_COUNT];
	struct diff_side v[2];
	struct diff_labels l = { "sections", "section", NULL, true, true };
	int i, k;

	for (i = 0; i < 2; i++) {
		v[i].rows = e[i];
		v[i].count = KSEC_COUNT;
		v[i].total = 0;
		for (k = 0; k < KSEC_COUNT; k++) {
			e[i][k].name = ksection_name((enum ksection)k);
			e[i][k].value = (double)sides[i].sections[k];
			v[i].total += e[i][k].value;
		}
	}
	diff_compute(r, &v[0], &v[1]);
	diff_add_to_doc(doc, r, &l, format);
}

static int diff_static(const struct diff_options *d, int *gate)
{
	struct tree_side sides[2];
	struct diff_result sym, obj, dir, sec;
	struct diff_labels ls = { "symbols", "symbol", NULL, true, true },
			   lo = { "objects", "object", NULL, true, true },
			   ld = { "directories", "directory", NULL, true, true };
	struct diff_side v[2];
	struct out_doc doc;
	struct ta_error err;
	int i, rc = -1;

	memset(sides, 0, sizeof(sides));
	for (i = 0; i < 2; i++) {
		if (load_tree(&sides[i], d->paths[i], &err) < 0)
			goto out;
		if (d->branch && dirtree_find(&sides[i].dirs, d->branch) == DIR_NONE) {
			error_set(&err, "branch '%s' is not in kernel tree '%s'", d->branch,
				  d->paths[i]);
			goto out;
		}
		collect_tree_rows(&sides[i], d->branch);
		finish_side(&sides[i].symbols, 0, false);
		finish_side(&sides[i].objects, 0, false);
		finish_side(&sides[i].directories, branch_static(&sides[i], d->branch), true);
	}
	out_doc_init(&doc, "diff-static");
	for (i = 0; i < 2; i++)
		side_view(&sides[i].symbols, &v[i]);
	diff_compute(&sym, &v[0], &v[1]);
	diff_sort_as_bloat_o_meter(&sym);
	diff_add_to_doc(&doc, &sym, &ls, d->format);
	for (i = 0; i < 2; i++)
		side_view(&sides[i].objects, &v[i]);
	diff_compute(&obj, &v[0], &v[1]);
	diff_add_to_doc(&doc, &obj, &lo, d->format);
	for (i = 0; i < 2; i++)
		side_view(&sides[i].directories, &v[i]);
	diff_compute(&dir, &v[0], &v[1]);
	diff_add_to_doc(&doc, &dir, &ld, d->format);
	add_section_diff(&doc, sides, d->format, &sec);
	rc = write_doc(&doc, d, &err);
	if (rc == 0)
		*gate = over_the_gate(&obj, d, "the static size");
	out_doc_release(&doc);
	diff_result_release(&sym);
	diff_result_release(&obj);
	diff_result_release(&dir);
	diff_result_release(&sec);
out:
	if (rc < 0) {
		fflush(stdout);
		fprintf(stderr, "trace_analyze: error: %s\n", err.msg);
	}
	for (i = 0; i < 2; i++)
		release_tree_side(&sides[i]);
	return rc;
}
