/*
 * pipeline.c - the bare command's run: an analysis (analysis.h) of the log
 * and the tree, then every report the options ask for, each written whole
 * or not at all. Holds no parsing or counting logic of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "account.h"
#include "callchain.h"
#include "callsite.h"
#include "db.h"
#include "dirtree.h"
#include "findings.h"
#include "flame.h"
#include "html.h"
#include "folded.h"
#include "input.h"
#include "kindex.h"
#include "outfile.h"
#include "kreport.h"
#include "origins.h"
#include "pages.h"
#include "ktree.h"
#include "parse.h"
#include "analysis.h"
#include "binread.h"
#include "pagereport.h"
#include "pprof.h"
#include "pipeline.h"
#include "reader.h"
#include "stackpair.h"
#include "report.h"
#include "ringchart.h"
#include "ringview.h"
#include "stats.h"
#include "symbols.h"
#include "timeline_chart.h"

/* The timeline's rows as the reports name and cut them (--group-by, -b). */
static void timeline_rows_of(const struct analysis *r, struct timeline_rows *rows)
{
	struct row_filter kept, keys;
	struct namers n;

	analysis_rows_account(r, &n);
	analysis_branch_filters(r, &kept, &keys);
	timeline_rows_build(rows, &r->timeline, &n.namer, &kept);
}

/* What a row of the account is, as --group-by names it: CSV's group_by column. */
static const char *grouping_name(enum group_by g)
{
	static const char *const names[] = {
		[GROUP_CALLSITE] = "callsite", [GROUP_FUNCTION] = "function",
		[GROUP_ORIGIN] = "origin", [GROUP_CACHE] = "cache", [GROUP_DIR] = "dir",
		[GROUP_SIZE_CLASS] = "size-class", [GROUP_COMM] = "comm", [GROUP_PID] = "pid",
		[GROUP_GFP] = "gfp",
	};

	return (unsigned)g < sizeof(names) / sizeof(names[0]) ? names[g] : NULL;
}

/* Write one report to path ('-' = standard output) in format with write(o, r), whole or not at all. */
static int write_report_as(const struct analysis *r, const char *path, enum out_format format,
			   void (*write)(struct out_dest *o, const struct analysis *r),
			   struct ta_error *err)
{
	struct outfile out;
	struct out_dest o;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	out_dest_init(&o, outfile_stream(&out), path, format, r->opts->quiet, err);
	o.group_by = grouping_name(r->opts->group_by);
	write(&o, r);
	if (o.rc < 0) {
		outfile_abort(&out);
		return -1;
	}
	return outfile_commit(&out, false, err);
}

/* The same in the format --format says. */
static int write_report(const struct analysis *r, const char *path,
			void (*write)(struct out_dest *o, const struct analysis *r), struct ta_error *err)
{
	return write_report_as(r, path, r->opts->format, write, err);
}

static void write_account_rows(struct out_dest *o, const struct analysis *r)
{
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_account(o, &rows, r->opts->top);
	account_rows_release(&rows);
}

static void write_callers_rows(struct out_dest *o, const struct analysis *r)
{
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_callers(o, &rows, &r->dirs);
	account_rows_release(&rows);
}

static void write_stats_rows(struct out_dest *o, const struct analysis *r)
{
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_stats(o, &rows, r->opts->top);
	account_rows_release(&rows);
}

/* The allocations from reclaimable caches by the rows' ids: when the rows are call sites or functions. */
static const struct reclaim_counts *rows_reclaim(const struct analysis *r)
{
	struct namers n;

	return r->have_timeline && analysis_rows_account(r, &n) == &r->account ? &r->reclaim : NULL;
}

static void write_summary_file(struct out_dest *o, const struct analysis *r)
{
	struct timeline_rows growth;
	struct row_filter kept, keys;
	struct namers n;
	struct parse_stats window;
	struct summary_report s = {
		.source = r->facts.made_from ? r->facts.made_from : r->facts.source,
		.stats = &r->read.stats,
		.header = &r->read.header,
		.totals = &r->account.totals,
		.live_bytes = account_live_bytes(&r->account),
		.binary_kind = r->have_binary ? binary_kind_name(r->binary.kind) : NULL,
		.families = r->opts->families,
		.findings = &r->findings,
		.caches = &r->strings.caches,
		.first_ns = r->first_ns,
		.last_ns = r->last_ns,
		.growth = &growth,
		.rows = analysis_rows_account(r, &n),
		.namer = &n.namer,
		.reclaim = rows_reclaim(r),
		.reclaimable_list = r->read.header.reclaimable,
		.rows_are_caches = r->opts->group_by == GROUP_CACHE,
		.branch = r->opts->branch && r->have_dirs ? r->opts->branch : NULL,
		.rows_kept = &kept,
	};

	analysis_branch_filters(r, &kept, &keys);

	if (analysis_time_window_set(r->opts)) {	/* count the events of the window only */
		window = r->read.stats;
		memcpy(window.events, r->in_window, sizeof(window.events));
		s.stats = &window;
	}
	timeline_rows_of(r, &growth);
	write_summary_report(o, &s);
	timeline_rows_release(&growth);
}

static void write_outstanding_file(struct out_dest *o, const struct analysis *r)
{
	struct timeline_rows growth;
	struct namers n;
	struct outstanding_query q = {
		.account = analysis_rows_account(r, &n),
		.reclaim = rows_reclaim(r),
		.reclaimable_list = r->read.header.reclaimable,
		.rows_are_caches = r->opts->group_by == GROUP_CACHE,
		.namer = &n.namer,
		.start_ns = r->first_ns,
		.end_ns = r->last_ns,
		.min_age_ns = r->opts->min_age_ns,
		.top = r->opts->top,
	};

	if (r->have_keys && r->read.stats.stacks.events_with) {
		q.by_key = &r->by_key;
		q.keys = &r->keys;
		q.chains = &r->chains;
	}
	analysis_branch_filters(r, &q.rows_kept, &q.keys_kept);
	timeline_rows_of(r, &growth);
	q.growth = &growth;
	write_outstanding(o, &q);
	timeline_rows_release(&growth);
}

static void write_page_file(struct out_dest *o, const struct analysis *r)
{
	struct origin_namer on = { &r->keys, &r->chains };
	struct row_namer origins = { origin_row_name, &on };

	write_pages(o, &r->pages, &r->strings.gfps, r->have_keys ? &origins : NULL);
}

/* Is path the only output asked for (the summary on stderr aside)? */
static bool only_output(const struct options *o, const char *path)
{
	const char *outputs[] = {
		o->account_path, o->callers_path, o->rings_path, o->stats_path, o->summary_path,
		o->outstanding_path, o->page_path, o->folded_path, o->folded_pages_path,
		o->flame_path, o->timeline_path, o->html_path, o->save_db, o->pprof_path,
	};
	size_t i;

	for (i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (outputs[i] && outputs[i] != path)
			return false;
	return true;
}

/*
 * --folded, --folded-pages: frames;frames weight lines. A file with no line
 * would make flamegraph.pl fail ("No stack counts found"): it is not
 * written, with a note, or an error when it was the only output asked for.
 */
static int write_folded_report(const struct analysis *r, const char *path, bool pages,
			       struct ta_error *err)
{
	const char *what = pages ? "page allocation" : "slab allocation";
	struct outfile out;
	struct folded fo;
	uint32_t n;
	int rc;

	folded_init(&fo);
	if (pages)
		folded_add_pages(&fo, &r->pages, &r->keys, &r->chains, r->opts->page_size);
	else
		folded_add_slab(&fo, &r->by_key, &r->keys, &r->chains, r->opts->weight);
	free(folded_sorted(&fo, &n));
	if (n == 0) {
		folded_release(&fo);
		if (only_output(r->opts, path))
			return error_set(err, "'%s' not written: the log has no %s to fold",
					 path, what);
		if (!r->opts->quiet)
			fprintf(stderr, "trace_analyze: note: '%s' not written: the log has no %s "
				"to fold\n", path, what);
		return 0;
	}
	if (outfile_open(&out, path, err) < 0) {
		folded_release(&fo);
		return -1;
	}
	folded_write(outfile_stream(&out), &fo);
	folded_release(&fo);
	rc = outfile_commit(&out, false, err);
	return rc;
}

static int write_flame_graph(const struct analysis *r, struct ta_error *err)
{
	const struct options *o = r->opts;
	struct outfile out;
	struct folded fo;
	char title[1024];
	int rc;

	if (outfile_open(&out, o->flame_path, err) < 0)
		return -1;
	folded_init(&fo);
	folded_add_slab(&fo, &r->by_key, &r->keys, &r->chains, o->weight);
	snprintf(title, sizeof(title), "%s%s of '%s', by call chain",
		 stack_weight_meaning(o->weight),
		 o->families == FAMILY_MALLOC ? " (kmalloc only)" :
		 o->families == FAMILY_CACHE ? " (kmem_cache only)" : "", analysis_log_name(r));
	title[0] = (char)(title[0] - 'a' + 'A');
	rc = flame_write(&fo, title, o->weight == WEIGHT_COUNT ? "allocations" : "bytes",
			 o->flame_path, outfile_stream(&out), err);
	folded_release(&fo);
	rc = outfile_finish(&out, rc, err);
	return rc;
}

/* --pprof: the allocations by call chain as a gzipped heap profile. */
static int write_pprof_profile(const struct analysis *r, struct ta_error *err)
{
	struct pprof_source src = {
		.by_key = &r->by_key,
		.keys = &r->keys,
		.chains = &r->chains,
		.tree = r->have_ktree ? &r->ktree : NULL,
		.duration_ns = r->last_ns > r->first_ns ? r->last_ns - r->first_ns : 0,
	};
	struct outfile out;
	int rc;

	if (outfile_open(&out, r->opts->pprof_path, err) < 0)
		return -1;
	rc = pprof_write(outfile_stream(&out), &src, err);
	return outfile_finish(&out, rc, err);
}

/* "by call site", "by origin", ... as the rows are grouped */
static const char *rows_noun(const struct options *o)
{
	switch (o->group_by) {
	case GROUP_FUNCTION:
		return "by function";
	case GROUP_ORIGIN:
		return "by origin";
	case GROUP_CACHE:
		return "by slab cache";
	case GROUP_SIZE_CLASS:
		return "by kmalloc size class";
	case GROUP_COMM:
		return "by task name";
	case GROUP_PID:
		return "by task";
	case GROUP_GFP:
		return "by GFP flags";
	case GROUP_DIR:
		return "by directory";
	default:
		return "by call site";
	}
}

static size_t timeline_rows_shown(const struct options *o)
{
	return o->top ? o->top : TIMELINE_DEFAULT_ROWS;
}

/* --timeline FILE.csv, FILE.json or '-': the samples as data. */
static void write_timeline_samples(struct out_dest *o, const struct analysis *r)
{
	struct timeline_rows rows;
	struct out_doc d;

	timeline_rows_of(r, &rows);
	out_doc_init(&d, "timeline");
	timeline_rows_report(&d, &rows, timeline_rows_shown(r->opts));
	out_emit(o, &d);
	out_doc_release(&d);
	timeline_rows_release(&rows);
}

static int write_timeline_chart(const struct analysis *r, struct ta_error *err)
{
	const struct options *o = r->opts;
	enum out_format format;
	struct timeline_rows rows;
	struct outfile out;
	char title[1024];
	int rc;

	if (timeline_data_format(o->timeline_path, &format))	/* '-' in JSON with --format json */
		return write_report_as(r, o->timeline_path, strcmp(o->timeline_path, "-") == 0 &&
				       o->format == FORMAT_JSON ? FORMAT_JSON : format,
				       write_timeline_samples, err);
	if (outfile_open(&out, o->timeline_path, err) < 0)
		return -1;
	timeline_rows_of(r, &rows);
	snprintf(title, sizeof(title), "Live bytes of '%s' over time, %s%s", analysis_log_name(r),
		 rows_noun(o), o->families == FAMILY_MALLOC ? " (kmalloc only)" :
		 o->families == FAMILY_CACHE ? " (kmem_cache only)" : "");
	rc = timeline_chart_write(&rows, timeline_rows_shown(o), title, o->timeline_path,
				  outfile_stream(&out), err);
	timeline_rows_release(&rows);
	rc = outfile_finish(&out, rc, err);
	return rc;
}

/* ---- --html ---- */

/* A report's text, written by write(f, r) into memory. */
struct memory_text {
	char *text;
	size_t len;
};

static void write_to_memory(struct memory_text *m, const struct analysis *r,
			    void (*write)(struct out_dest *o, const struct analysis *r))
{
	FILE *f = xopen_memstream(&m->text, &m->len);
	struct out_dest o;

	out_dest_init(&o, f, NULL, r->opts->format, true, NULL);
	o.group_by = grouping_name(r->opts->group_by);
	write(&o, r);
	fclose(f);
}

static void write_tree_json(struct out_dest *o, const struct analysis *r)
{
	write_dirtree_json(o->f, &r->dirs, r->branch);
}

static void write_folded_json(struct out_dest *o, const struct analysis *r)
{
	FILE *f = o->f;
	struct folded fo;
	uint32_t *order, n, i;

	folded_init(&fo);
	folded_add_slab(&fo, &r->by_key, &r->keys, &r->chains, WEIGHT_BYTES);
	order = folded_sorted(&fo, &n);
	fputs("{\"weight\":", f);
	out_json_string(f, stack_weight_meaning(WEIGHT_BYTES));
	fputs(",\"lines\":[", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n[" : "\n[", f);
		out_json_string(f, strtab_get(&fo.lines, order[i]));
		fprintf(f, ",%llu]", (unsigned long long)fo.weight[order[i]]);
	}
	fputs("]}\n", f);
	free(order);
	folded_release(&fo);
}

static void write_timeline_json(struct out_dest *o, const struct analysis *r)
{
	FILE *f = o->f;
	struct timeline_rows rows;

	timeline_rows_of(r, &rows);
	timeline_rows_write_json(f, &rows, timeline_rows_shown(r->opts));
	timeline_rows_release(&rows);
}

/* The timeline as --timeline draws it, in SVG, into memory. */
static int timeline_svg(const struct analysis *r, struct memory_text *m, struct ta_error *err)
{
	struct timeline_rows rows;
	char title[1024];
	FILE *f = xopen_memstream(&m->text, &m->len);
	int rc;

	timeline_rows_of(r, &rows);
	snprintf(title, sizeof(title), "Live bytes over time, %s", rows_noun(r->opts));
	rc = timeline_chart_write(&rows, timeline_rows_shown(r->opts), title, "timeline.svg", f, err);
	timeline_rows_release(&rows);
	fclose(f);
	return rc;
}

enum { PIECE_SUMMARY, PIECE_ACCOUNT, PIECE_STATS, PIECE_CALLERS, PIECE_TREE, PIECE_FOLDED,
       PIECE_TIMELINE, PIECE_COUNT };

static int write_html_report(const struct analysis *r, struct ta_error *err)
{
	static const char *const ids[PIECE_COUNT] = { "summary", "account", "stats", "callers",
						       "tree", "folded", "timeline" };
	struct options json_opts = *r->opts;
	struct analysis as_json = *r;	/* the same analysis, its reports in JSON, every row */
	struct memory_text text[PIECE_COUNT], svg = { NULL, 0 };
	struct html_piece pieces[PIECE_COUNT];
	struct outfile out;
	int i, rc = -1;

	memset(text, 0, sizeof(text));
	json_opts.format = FORMAT_JSON;
	json_opts.top = 0;
	as_json.opts = &json_opts;
	write_to_memory(&text[PIECE_SUMMARY], &as_json, write_summary_file);
	write_to_memory(&text[PIECE_ACCOUNT], &as_json, write_account_rows);
	write_to_memory(&text[PIECE_STATS], &as_json, write_stats_rows);
	if (r->have_dirs) {
		write_to_memory(&text[PIECE_CALLERS], &as_json, write_callers_rows);
		write_to_memory(&text[PIECE_TREE], &as_json, write_tree_json);
	}
	if (r->have_keys && r->read.stats.stacks.events_with)
		write_to_memory(&text[PIECE_FOLDED], &as_json, write_folded_json);
	write_to_memory(&text[PIECE_TIMELINE], r, write_timeline_json);
	if (timeline_svg(r, &svg, err) < 0)
		goto out;
	for (i = 0; i < PIECE_COUNT; i++) {
		pieces[i].id = ids[i];
		pieces[i].text = text[i].text;
		pieces[i].len = text[i].len;
	}
	if (outfile_open(&out, r->opts->html_path, err) < 0)
		goto out;
	html_write_page(outfile_stream(&out), analysis_log_name(r), pieces, PIECE_COUNT, svg.text,
			svg.len);
	rc = outfile_commit(&out, false, err);
out:
	for (i = 0; i < PIECE_COUNT; i++)
		free(text[i].text);
	free(svg.text);
	return rc;
}

static void write_static_footprint(struct out_dest *o, const struct analysis *r)
{
	write_static_table(o, &r->dirs, r->branch);
}

/* "current_dynamic of 'boot.log' (kmalloc only), branch 'fs'" */
static void chart_title(const struct analysis *r, char *out, size_t cap)
{
	const struct options *o = r->opts;
	enum size_attr a = (enum size_attr)o->rings_attr;
	size_t n;

	if (o->log_path || o->db_path)
		n = (size_t)snprintf(out, cap, "%s%s of '%s'%s", size_attr_name(a),
				     a == ATTR_CURRENT ? " (static + current_dynamic)" :
				     a == ATTR_WASTE ? " (current_dynamic - current_req)" : "",
				     analysis_log_name(r),
				     o->families == FAMILY_MALLOC ? " (kmalloc only)" :
				     o->families == FAMILY_CACHE ? " (kmem_cache only)" : "");
	else
		n = (size_t)snprintf(out, cap, "static footprint of '%s'", r->ktree.name);
	if (o->branch && n < cap)
		snprintf(out + n, cap - n, ", branch '%s'", o->branch);
}

static int show_chart(const char *path)
{
	const char *viewer = getenv("VIEWER");
	pid_t pid;

	if (!getenv("DISPLAY") && !getenv("WAYLAND_DISPLAY")) {
		warn("cannot show '%s': no display (DISPLAY and WAYLAND_DISPLAY are unset)", path);
		return 0;
	}
	if (!viewer || !*viewer)
		viewer = "xdg-open";
	pid = fork();
	if (pid == 0) {
		execlp(viewer, viewer, path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0)
		warn("cannot show '%s': %s", path, strerror(errno));
	return 0;
}

static int write_chart(const struct analysis *r, struct ta_error *err)
{
	struct ring_tree view;
	struct outfile out;
	char title[1024];
	int rc;

	if (outfile_open(&out, r->opts->rings_path, err) < 0)
		return -1;
	dirtree_ring_view(&r->dirs, r->branch, (enum size_attr)r->opts->rings_attr, &view);
	chart_title(r, title, sizeof(title));
	rc = ringchart_write(&view, title, r->opts->rings_path, outfile_stream(&out), err);
	ring_tree_release(&view);
	rc = outfile_finish(&out, rc, err);
	if (rc == 0 && r->opts->rings_show)
		show_chart(r->opts->rings_path);
	return rc;
}

static void write_run_summary(const struct analysis *r)
{
	struct run_summary sum = {
		.source = r->facts.source,
		.made_from = r->facts.made_from,
		.compression = r->facts.compression,
		.compressed_bytes = r->facts.compressed_bytes,
		.stats = &r->read.stats,
		.header = &r->read.header,
		.first_malformed_line = r->read.first_malformed_line,
		.totals = &r->account.totals,
		.families = r->opts->families,
		.overlong_lines = r->facts.input.overlong_lines,
		.truncated_last_line = r->facts.input.truncated_last_line != 0,
		.seconds = analysis_clock() - r->started,
		.stacks = analysis_needs_stacks(r->opts),
		.distinct_stacks = r->strings.stacks.count,
	};

	if (r->have_binary) {
		sum.binary_kind = binary_kind_name(r->binary.kind);
		sum.records = r->binary.records;
		sum.file_bytes = r->facts.input.bytes_read;
	}
	write_summary(stderr, &sum);
}

#define RECORD_BRIEF_ROWS 10

static void write_record_brief_rows(struct out_dest *o, const struct analysis *r)
{
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_record_brief(o, &rows, RECORD_BRIEF_ROWS, &r->account.totals);
	account_rows_release(&rows);
}

static int write_log_reports(struct analysis *r, struct ta_error *err)
{
	const struct options *opts = r->opts;

	if (opts->account_path && write_report(r, opts->account_path, write_account_rows, err) < 0)
		return -1;
	if (opts->callers_path && write_report(r, opts->callers_path, write_callers_rows, err) < 0)
		return -1;
	if (opts->rings_path && write_chart(r, err) < 0)
		return -1;
	if (opts->stats_path && write_report(r, opts->stats_path, write_stats_rows, err) < 0)
		return -1;
	if (opts->summary_path && write_report(r, opts->summary_path, write_summary_file, err) < 0)
		return -1;
	if (opts->outstanding_path &&
	    write_report(r, opts->outstanding_path, write_outstanding_file, err) < 0)
		return -1;
	if (opts->page_path && write_report(r, opts->page_path, write_page_file, err) < 0)
		return -1;
	if (opts->folded_path && write_folded_report(r, opts->folded_path, false, err) < 0)
		return -1;
	if (opts->folded_pages_path &&
	    write_folded_report(r, opts->folded_pages_path, true, err) < 0)
		return -1;
	if (opts->flame_path && write_flame_graph(r, err) < 0)
		return -1;
	if (opts->pprof_path && write_pprof_profile(r, err) < 0)
		return -1;
	if (opts->timeline_path && write_timeline_chart(r, err) < 0)
		return -1;
	if (opts->html_path && write_html_report(r, err) < 0)
		return -1;
	if (opts->record_brief && write_report(r, "-", write_record_brief_rows, err) < 0)
		return -1;
	if (!opts->quiet) {
		write_run_summary(r);
		if (analysis_time_window_set(opts))
			fprintf(stderr, "  time window:            %llu events outside it left out\n",
				(unsigned long long)r->outside_window);
		if (r->have_filters)
			fprintf(stderr, "  --comm/--pid/--gfp:     %llu allocations of other tasks or "
				"flags left out, and %llu frees of them\n",
				(unsigned long long)r->filtered_allocs,
				(unsigned long long)r->filtered_frees);
		if (r->have_ktree)
			write_kernel_summary(stderr, opts->kernel, &r->ktree, &r->dirs, true);
		if (!options_ask_for_an_output(opts) && !opts->live)
			fputs("trace_analyze: this log also gives: -c FILE (who allocates), --stats, "
			      "--summary, --outstanding, --page, --timeline, --html ('-' writes to "
			      "standard output; trace_analyze --help)\n", stderr);
		if (opts->record_brief)
			fputs("trace_analyze: the rest: --summary -, -c FILE, --outstanding -, --page -, "
			      "--html FILE (record --help); -o LOG keeps the events to analyse "
			      "again\n", stderr);
	}
	return 0;
}

/* No log: the tree's static footprint only. */
static int report_static_footprint(struct analysis *r, struct ta_error *err)
{
	const struct options *opts = r->opts;

	if (opts->account_path &&
	    write_report(r, opts->account_path, write_static_footprint, err) < 0)
		return -1;
	if (opts->rings_path && write_chart(r, err) < 0)
		return -1;
	if (!opts->quiet)
		write_kernel_summary(stderr, opts->kernel, &r->ktree, &r->dirs, false);
	return 0;
}

int pipeline_run(const struct options *opts, struct ta_error *err)
{
	struct analysis r;
	int rc = -1;

	analysis_init(&r, opts);
	if (analysis_load_kernel(&r, err) < 0)
		goto out;
	if (opts->save_index && kindex_save(&r.ktree, opts->save_index, err) < 0)
		goto out;
	if (opts->log_path || opts->db_path)
		rc = analysis_read(&r, err) < 0 ? -1 : write_log_reports(&r, err);
	else
		rc = report_static_footprint(&r, err);
out:
	analysis_release(&r);
	return rc;
}
