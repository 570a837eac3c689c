/*
 * reports.c - the report table (reports.h) and each report's writer: the
 * analysis (engine.h) made into the tables, charts, profiles and pages the
 * options ask for, each written whole or not at all. Not here: the run
 * (pipeline.c), or how a table or chart is laid out (report.h, stats.h,
 * ringchart.h, ...).
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "account.h"
#include "binread.h"
#include "callchain.h"
#include "chartfile.h"
#include "dirtree.h"
#include "engine.h"
#include "flame.h"
#include "allocgroups.h"
#include "allocreport.h"
#include "beside.h"
#include "growthreport.h"
#include "perfetto.h"
#include "folded.h"
#include "html.h"
#include "kreport.h"
#include "lifetimereport.h"
#include "outfile.h"
#include "pagereport.h"
#include "peakreport.h"
#include "pipeline.h"
#include "pprof.h"
#include "report.h"
#include "reports.h"
#include "rowview.h"
#include "sizereport.h"
#include "kmemleakreport.h"
#include "metrics.h"
#include "pageownerreport.h"
#include "ledgerreport.h"
#include "ringchart.h"
#include "ringview.h"
#include "outstanding.h"
#include "stats.h"
#include "summary.h"
#include "timeline_chart.h"

/* What the timeline's rows are for: what the peak adds to them. */
enum rows_use {
	ROWS_TO_JUDGE,	/* growth findings and suspects: the samples alone, as any run has them */
	ROWS_WITH_PEAKS,	/* --growth: each row's exact peak too */
	ROWS_TO_SHOW,	/* drawn or written out: and the state at the peak as a sample */
};

/* The timeline's rows as the reports name and cut them (--group-by, -b). */
static void timeline_rows_of(const struct analysis *r, struct timeline_rows *rows,
			     enum rows_use use)
{
	const struct peak_watch *watch = analysis_runs(r, PASS_PEAK) && use != ROWS_TO_JUDGE ? &r->peak : NULL;
	struct row_filter kept, keys;
	struct alloc_namer an;
	struct namers n;

	if (r->have_snapshots) {	/* the sites' live bytes over the snapshots */
		alloc_namer_init(&an, &r->snapshots, alloc_key_for(r->req->group_by), r->req->branch);
		timeline_rows_build(rows, &r->timeline, &an.namer, &an.kept, NULL, false);
		rows->measure = "live bytes of allocinfo's sites";
		rows->untimed = r->snapshots.untimed && r->snapshots.snapshots > 1;
		rows->clock = rows->untimed ? "snapshots without a time, numbered in order"
					    : "the snapshots' CLOCK_MONOTONIC";
		return;
	}
	analysis_rows_account(r, &n);
	analysis_branch_filters(r, &kept, &keys);
	timeline_rows_build(rows, &r->timeline, &n.namer, &kept, watch, use == ROWS_TO_SHOW);
	rows->losses = &r->losses;
	if (rows->peaks_sampled)
		warn("the peaks of %u merged row%s are the timeline's highest sample, not exact: "
		     "the names of their ids came after the log was read", rows->peaks_sampled,
		     rows->peaks_sampled == 1 ? "" : "s");
}

/* What a row of the account is, as --group-by names it: CSV's group_by column. */
static const char *grouping_name(enum group_by g)
{
	static const char *const names[] = {
		[GROUP_CALLSITE] = "callsite", [GROUP_FUNCTION] = "function",
		[GROUP_ORIGIN] = "origin", [GROUP_CACHE] = "cache", [GROUP_DIR] = "dir",
		[GROUP_SIZE_CLASS] = "size-class", [GROUP_COMM] = "comm", [GROUP_PID] = "pid",
		[GROUP_GFP] = "gfp", [GROUP_MODULE] = "module", [GROUP_FILE] = "file",
		[GROUP_CGROUP] = "cgroup",
	};

	return (unsigned)g < sizeof(names) / sizeof(names[0]) ? names[g] : NULL;
}

/* Write one report to path ('-' = standard output) in format with write(o, r), whole or not at all. */
static int write_report_as(const struct report_run *run, const char *path,
			   enum out_format format,
			   void (*write)(struct out_dest *o, const struct report_run *run),
			   struct ta_error *err)
{
	struct outfile out;
	struct out_dest o;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	out_dest_init(&o, outfile_stream(&out), path, format, run->o->req.quiet, err);
	o.group_by = grouping_name(run->o->req.group_by);
	o.tags = run->tags;
	write(&o, run);
	if (o.rc < 0) {
		outfile_abort(&out);
		return -1;
	}
	return outfile_commit(&out, false, err);
}

/* The same in the format --format says. */
static int write_report(const struct report_run *run, const char *path,
			void (*write)(struct out_dest *o, const struct report_run *run),
			struct ta_error *err)
{
	return write_report_as(run, path, run->o->format, write, err);
}

/* --allocinfo: the snapshot's figures beside the account's rows (beside.h). */
static void add_beside(struct out_doc *d, const void *ctx)
{
	const struct report_run *run = ctx;
	struct account_rows rows;
	struct beside_query q = {
		.s = &run->a->beside, .source = run->o->req.allocinfo_path, .rows = &rows,
		.group = run->o->req.group_by, .branch = run->o->req.branch, .top = run->o->top,
		.filters = &run->o->req.filters,
	};

	analysis_rows(run->a, &rows);
	beside_add_tables(d, &q);
	account_rows_release(&rows);
}

static void write_account_rows(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct account_extra beside = { add_beside, run };
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_account(o, &rows, run->o->top, r->have_beside ? &beside : NULL);
	account_rows_release(&rows);
}

static void write_callers_rows(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_callers(o, &rows, &r->dirs);
	account_rows_release(&rows);
}

static void write_stats_rows(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_stats(o, &rows, run->o->top);
	account_rows_release(&rows);
}

/* The allocations from reclaimable caches by the rows' ids: when the rows are call sites or functions. */
static const struct reclaim_counts *rows_reclaim(const struct analysis *r)
{
	struct namers n;

	return analysis_runs(r, PASS_TIMELINE) && analysis_rows_account(r, &n) == &r->account ? &r->reclaim : NULL;
}

static void kmemleak_blocks(struct out_doc *d, const void *ctx)
{
	kmemleak_beside_report(d, ctx);
}

static void write_summary_file(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct timeline_rows growth;
	struct row_filter kept, keys;
	struct namers n;
	struct parse_stats window;
	struct kmemleak_hits hits;
	struct summary_report s = {
		.source = r->facts.made_from ? r->facts.made_from : r->facts.source,
		.stats = &r->read.stats,
		.header = &r->read.header,
		.totals = &r->account.totals,
		.live_bytes = account_live_bytes(&r->account),
		.reordered = r->ticks.reordered,
		.binary_kind = r->have_binary ? binary_kind_name(r->binary.kind) : NULL,
		.families = run->o->req.families,
		.findings = &r->findings,
		.caches = &r->strings.caches,
		.first_ns = r->first_ns,
		.last_ns = r->last_ns,
		.growth = &growth,
		.rows = analysis_rows_account(r, &n),
		.namer = &n.namer,
		.reclaim = rows_reclaim(r),
		.reclaimable_list = r->read.header.reclaimable,
		.losses = &r->losses,
		.rows_are_caches = run->o->req.group_by == GROUP_CACHE,
		.branch = run->o->req.branch && r->have_dirs ? run->o->req.branch : NULL,
		.rows_kept = &kept,
	};

	analysis_branch_filters(r, &kept, &keys);

	if (analysis_time_window_set(&run->o->req)) {	/* count the events of the window only */
		window = r->read.stats;
		memcpy(window.events, r->in_window, sizeof(window.events));
		s.stats = &window;
	}
	if (r->have_kmemleak) {
		s.more = kmemleak_blocks;
		s.more_ctx = r;
		kmemleak_hits_of(r, &hits);
		s.kmemleak = &hits;
	}
	timeline_rows_of(r, &growth, ROWS_TO_JUDGE);
	write_summary_report(o, &s);
	timeline_rows_release(&growth);
	if (r->have_kmemleak)
		kmemleak_hits_release(&hits);
}

static void write_outstanding_file(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct timeline_rows growth;
	struct namers n;
	struct kmemleak_hits hits;
	struct outstanding_query q = {
		.account = analysis_rows_account(r, &n),
		.reclaim = rows_reclaim(r),
		.reclaimable_list = r->read.header.reclaimable,
		.losses = &r->losses,
		.rows_are_caches = run->o->req.group_by == GROUP_CACHE,
		.namer = &n.namer,
		.start_ns = r->first_ns,
		.end_ns = r->last_ns,
		.min_age_ns = run->o->min_age_ns,
		.top = run->o->top,
	};

	if (analysis_runs(r, PASS_ORIGINS) && r->read.stats.stacks.events_with) {
		q.by_key = &r->by_key;
		q.keys = &r->keys;
		q.chains = &r->chains;
	}
	analysis_branch_filters(r, &q.rows_kept, &q.keys_kept);
	timeline_rows_of(r, &growth, ROWS_TO_JUDGE);
	q.growth = &growth;
	if (r->have_kmemleak) {
		kmemleak_hits_of(r, &hits);
		q.kmemleak = &hits;
	}
	write_outstanding(o, &q);
	timeline_rows_release(&growth);
	if (r->have_kmemleak)
		kmemleak_hits_release(&hits);
}

static void page_owner_blocks(struct out_doc *d, const void *ctx)
{
	page_owner_beside_report(d, ctx);
}

static void write_page_file(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct origin_namer on = { &r->keys, &r->chains };
	struct row_namer origins = { origin_row_name, &on };
	const struct page_rows *rows = analysis_pass_state(r, PASS_PAGE_ROWS);
	struct strtab_namer names = { rows ? &rows->names : NULL };
	struct page_rows_view by = {
		rows ? &rows->rows : NULL, { strtab_row_name, &names }, grouping_name(r->req->group_by),
	};

	write_pages(o, &r->pages, &r->strings.gfps, analysis_runs(r, PASS_ORIGINS) ? &origins : NULL,
		    rows ? &by : NULL, r->have_page_owner ? page_owner_blocks : NULL, r);
}

/* Is path the only output asked for (the summary on stderr aside)? */
static bool only_output(const struct options *o, const char *path)
{
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)
		if (o->report_path[i] && o->report_path[i] != path)
			return false;
	return !o->req.save_db;
}

/*
 * --folded, --folded-pages: frames;frames weight lines. A file with no line
 * would make flamegraph.pl fail ("No stack counts found"): it is not
 * written, with a note, or an error when it was the only output asked for.
 */
static int write_folded_report(const struct report_run *run, const char *path, bool pages,
			       struct ta_error *err)
{
	const struct analysis *r = run->a;
	const char *what = pages ? "page allocation" : "slab allocation";
	struct outfile out;
	struct folded fo;
	uint32_t n;
	int rc;

	folded_init(&fo);
	if (pages)
		folded_add_pages(&fo, &r->pages, &r->keys, &r->chains, run->o->page_size);
	else
		folded_add_slab(&fo, &r->by_key, &r->keys, &r->chains, run->o->weight);
	free(folded_sorted(&fo, &n));
	if (n == 0) {
		folded_release(&fo);
		if (only_output(run->o, path))
			return error_set(err, "'%s' not written: the log has no %s to fold",
					 path, what);
		if (!run->o->req.quiet)
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

static int write_flame_graph(const struct report_run *run, const char *path, struct ta_error *err)
{
	const struct analysis *r = run->a;
	const struct options *o = run->o;
	struct outfile out;
	struct folded fo;
	char title[1024];
	int rc;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	folded_init(&fo);
	if (r->from_page_owner) {	/* page_owner: the pages each chain holds */
		folded_add_pages(&fo, &r->pages, &r->keys, &r->chains, o->page_size);
		snprintf(title, sizeof(title), "pages held (page_owner) of '%s', by call chain",
			 analysis_log_name(r));
	} else {
		folded_add_slab(&fo, &r->by_key, &r->keys, &r->chains, o->weight);
		snprintf(title, sizeof(title), "%s%s of '%s', by call chain",
			 stack_weight_meaning(o->weight),
			 o->req.families == FAMILY_MALLOC ? " (kmalloc only)" :
			 o->req.families == FAMILY_CACHE ? " (kmem_cache only)" : "",
			 analysis_log_name(r));
	}
	title[0] = (char)(title[0] - 'a' + 'A');
	rc = flame_write(&fo, title, o->weight == WEIGHT_COUNT && !r->from_page_owner ? "allocations"
									       : "bytes",
			 path, outfile_stream(&out), err);
	folded_release(&fo);
	rc = outfile_finish(&out, rc, err);
	return rc;
}

/* --pprof: the allocations by call chain as a gzipped heap profile. */
static int write_pprof_profile(const struct report_run *run, const char *path, struct ta_error *err)
{
	const struct analysis *r = run->a;
	struct pprof_source src = {
		.by_key = &r->by_key,
		.keys = &r->keys,
		.chains = &r->chains,
		.tree = r->have_ktree ? &r->ktree : NULL,
		.duration_ns = r->last_ns > r->first_ns ? r->last_ns - r->first_ns : 0,
		.pages = r->from_page_owner ? &r->pages : NULL,
		.page_size = run->o->page_size,
		.syms = &r->syms,
		.tags = run->tags,
	};
	struct outfile out;
	int rc;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	rc = pprof_write(outfile_stream(&out), &src, err);
	return outfile_finish(&out, rc, err);
}

/* "by call site", "by origin", ... as the rows are grouped */
static const char *rows_noun(const struct options *o)
{
	switch (o->req.group_by) {
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
	case GROUP_CGROUP:
		return "by cgroup";
	case GROUP_GFP:
		return "by GFP flags";
	case GROUP_MODULE:
		return "by module";
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
static void write_timeline_samples(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct timeline_rows rows;
	struct out_doc d;

	timeline_rows_of(r, &rows, ROWS_TO_SHOW);
	out_doc_init(&d, "timeline");
	timeline_rows_report(&d, &rows, timeline_rows_shown(run->o));
	out_emit(o, &d);
	out_doc_release(&d);
	timeline_rows_release(&rows);
}

static int write_timeline_chart(const struct report_run *run, const char *path, struct ta_error *err)
{
	const struct analysis *r = run->a;
	const struct options *o = run->o;
	enum out_format format;
	struct timeline_rows rows;
	struct outfile out;
	char title[1024];
	int rc;

	if (timeline_data_format(path, &format))	/* '-' in JSON with --format json */
		return write_report_as(run, path, strcmp(path, "-") == 0 &&
				       o->format == FORMAT_JSON ? FORMAT_JSON : format,
				       write_timeline_samples, err);
	if (outfile_open(&out, path, err) < 0)
		return -1;
	timeline_rows_of(r, &rows, ROWS_TO_SHOW);
	snprintf(title, sizeof(title), "Live bytes of '%s' over time, %s%s", analysis_log_name(r),
		 rows_noun(o), o->req.families == FAMILY_MALLOC ? " (kmalloc only)" :
		 o->req.families == FAMILY_CACHE ? " (kmem_cache only)" : "");
	rc = timeline_chart_write(&rows, timeline_rows_shown(o), title, path,
				  outfile_stream(&out), err);
	timeline_rows_release(&rows);
	rc = outfile_finish(&out, rc, err);
	return rc;
}

/* ---- allocinfo snapshots ---- */

static void snapshot_query(const struct report_run *run, struct alloc_report_query *q)
{
	memset(q, 0, sizeof(*q));
	q->s = &run->a->snapshots;
	q->group = alloc_key_for(run->o->req.group_by);
	q->group_by = grouping_name(run->o->req.group_by);
	q->branch = run->o->req.branch;
	q->top = run->o->top;
}

static void write_snapshot_account_rows(struct out_dest *o, const struct report_run *run)
{
	struct alloc_report_query q;

	snapshot_query(run, &q);
	write_snapshot_account(o, &q);
}

static void write_snapshot_summary_file(struct out_dest *o, const struct report_run *run)
{
	struct alloc_report_query q;
	struct timeline_rows rows;

	snapshot_query(run, &q);
	timeline_rows_of(run->a, &rows, ROWS_TO_JUDGE);
	q.rows = &rows;
	write_snapshot_summary(o, &q);
	timeline_rows_release(&rows);
}

static bool snapshot_site_in_branch(const void *ctx, uint32_t site)
{
	const struct report_run *run = ctx;

	return alloc_site_in_branch(&run->a->snapshots, site, run->o->req.branch);
}

static int write_snapshot_pprof(const struct report_run *run, const char *path,
				struct ta_error *err)
{
	struct outfile out;
	int rc;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	rc = pprof_write_sites(outfile_stream(&out), &run->a->snapshots,
			       run->o->req.branch ? snapshot_site_in_branch : NULL, run, run->tags,
			       err);
	return outfile_finish(&out, rc, err);
}

/* ---- --openmetrics ---- */

static struct om_limits limits_of(const struct options *o)
{
	struct om_limits lim = { o->top, o->min_bytes > INT64_MAX ? INT64_MAX
					 : (int64_t)o->min_bytes };

	return lim;
}

/* A log's account by the rows --group-by makes, as metric families. */
static int write_account_metrics(const struct report_run *run, const char *path,
				 struct ta_error *err)
{
	struct om_limits lim = limits_of(run->o);
	struct account_rows rows;
	struct outfile out;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	analysis_rows(run->a, &rows);
	metrics_write_account(outfile_stream(&out), &rows, grouping_name(run->o->req.group_by),
			      run->tags, &lim);
	account_rows_release(&rows);
	return outfile_finish(&out, 0, err);
}

/* The last allocinfo snapshot's sites, as metric families. */
static int write_snapshot_metrics(const struct report_run *run, const char *path,
				  struct ta_error *err)
{
	struct om_limits lim = limits_of(run->o);
	struct outfile out;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	metrics_add_allocinfo(outfile_stream(&out), &run->a->snapshots, run->o->req.group_by,
			      run->tags, &lim);
	om_write_eof(outfile_stream(&out));
	return outfile_finish(&out, 0, err);
}

/* The last kernel snapshot's ledger, cgroups and allocinfo; labelled with its stamp without --tag. */
static int write_kernel_snapshot_metrics(const struct report_run *run, const char *path,
					 struct ta_error *err)
{
	const struct kernel_snapshot *k = &run->a->ksnaps[run->a->nksnaps - 1];
	struct om_limits lim = limits_of(run->o);
	struct out_tags stamp;
	struct outfile out;
	int rc;

	metrics_tags_of_stamp(k, &stamp);
	if (outfile_open(&out, path, err) < 0)
		return -1;
	rc = metrics_write_kernel_snapshot(outfile_stream(&out), k, run->o->page_size,
					   run->tags ? run->tags : &stamp, &lim, err);
	return outfile_finish(&out, rc, err);
}

/* ---- --perfetto ---- */

/* "call site", "slab cache", ...: what a row track holds, in its description. */
static const char *row_noun_of(enum group_by g)
{
	const char *one, *many;

	report_row_noun(grouping_name(g), &one, &many);
	return one;
}

static int write_perfetto_trace(const struct report_run *run, const char *path,
				struct ta_error *err)
{
	const struct analysis *r = run->a;
	struct row_filter kept, keys;
	struct timeline_rows growth;
	struct suspect_mark *marks = NULL;
	struct outfile out;
	struct namers n;
	int rc;
	struct suspect_evidence ev = {
		.account = analysis_rows_account(r, &n), .namer = &n.namer, .kept = &kept,
		.end_ns = r->last_ns, .reclaim = rows_reclaim(r),
		.reclaimable_list = r->read.header.reclaimable,
		.rows_are_caches = run->o->req.group_by == GROUP_CACHE, .losses = &r->losses,
	};
	struct perfetto_source src = {
		.log_name = analysis_log_name(r), .rows_noun = row_noun_of(run->o->req.group_by),
		.heap = &r->heap, .namer = &n.namer, .kept = &kept, .top = run->o->top,
		.findings = analysis_runs(r, PASS_FINDINGS) ? &r->findings : NULL, .losses = &r->losses,
		.peak_ns = analysis_runs(r, PASS_PEAK) ? r->peak.peak_ns : 0,
		.peak_bytes = analysis_runs(r, PASS_PEAK) ? r->peak.peak_bytes : 0,
		.watch = analysis_runs(r, PASS_PEAK) ? &r->peak : NULL,
	};

	analysis_branch_filters(r, &kept, &keys);
	timeline_rows_of(r, &growth, ROWS_TO_JUDGE);
	src.nsuspects = leak_suspects_marks(&growth, &ev, &marks);
	src.suspects = marks;
	if (outfile_open(&out, path, err) < 0) {
		rc = -1;
	} else {
		rc = perfetto_write(outfile_stream(&out), &src, err);
		rc = outfile_finish(&out, rc, err);
	}
	free(marks);
	timeline_rows_release(&growth);
	return rc;
}

/* ---- --html ---- */

/* A report's text, written by write(f, r) into memory. */
struct memory_text {
	char *text;
	size_t len;
};

static void write_to_memory(struct memory_text *m, const struct report_run *run,
			    void (*write)(struct out_dest *o, const struct report_run *run))
{
	FILE *f = xopen_memstream(&m->text, &m->len);
	struct out_dest o;

	out_dest_init(&o, f, NULL, run->o->format, true, NULL);
	o.group_by = grouping_name(run->o->req.group_by);
	write(&o, run);
	fclose(f);
}

static void write_tree_json(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	write_dirtree_json(o->f, &r->dirs, r->branch);
}

static void write_folded_json(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	FILE *f = o->f;
	struct folded fo;
	uint32_t *order, n, i;

	folded_init(&fo);
	if (r->from_page_owner)	/* page_owner: the pages held */
		folded_add_pages(&fo, &r->pages, &r->keys, &r->chains, run->o->page_size);
	else
		folded_add_slab(&fo, &r->by_key, &r->keys, &r->chains, WEIGHT_BYTES);
	order = folded_sorted(&fo, &n);
	fputs("{\"weight\":", f);
	out_json_string(f, r->from_page_owner ? "bytes of the pages held (page_owner)"
					     : stack_weight_meaning(WEIGHT_BYTES));
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

static void write_timeline_json(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	FILE *f = o->f;
	struct timeline_rows rows;

	timeline_rows_of(r, &rows, ROWS_TO_SHOW);
	timeline_rows_write_json(f, &rows, timeline_rows_shown(run->o));
	timeline_rows_release(&rows);
}

/*
 * The windows in which events were lost (losses.h), in the timeline's
 * seconds: the page shades them ({"windows_s":[[from,to],...]}).
 */
static void write_losses_json(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct timeline_rows rows;
	uint32_t i;

	timeline_rows_of(r, &rows, ROWS_TO_SHOW);
	fputs("{\"windows_s\":[", o->f);
	for (i = 0; rows.losses && i < rows.losses->n; i++)
		fprintf(o->f, "%s[%.6f,%.6f]", i ? "," : "",
			(double)((int64_t)rows.losses->w[i].start_ns - (int64_t)rows.timeline->t0) / 1e9,
			(double)((int64_t)rows.losses->w[i].end_ns - (int64_t)rows.timeline->t0) / 1e9);
	fputs("]}\n", o->f);
	timeline_rows_release(&rows);
}

enum { PIECE_SUMMARY, PIECE_ACCOUNT, PIECE_STATS, PIECE_CALLERS, PIECE_TREE, PIECE_FOLDED,
       PIECE_TIMELINE, PIECE_LOSSES, PIECE_LEDGER, PIECE_COUNT };

static int write_html_report(const struct report_run *run, const char *path, struct ta_error *err)
{
	const struct analysis *r = run->a;
	static const char *const ids[PIECE_COUNT] = { "summary", "account", "stats", "callers",
						       "tree", "folded", "timeline", "losses", "ledger" };
	struct options json_opts = *run->o;
	struct report_run as_json = { r, &json_opts, NULL };	/* its reports in JSON, every row */
	struct memory_text text[PIECE_COUNT];
	struct html_piece pieces[PIECE_COUNT];
	struct outfile out;
	int i, rc = -1;

	memset(text, 0, sizeof(text));
	json_opts.format = FORMAT_JSON;
	json_opts.top = 0;
	if (r->have_ksnap) {	/* a kernel snapshot: its ledger, nothing of a log's */
		write_to_memory(&text[PIECE_LEDGER], &as_json, write_ledger_report);
	} else if (r->have_snapshots) {	/* allocinfo: its summary and account, the tree of its paths */
		write_to_memory(&text[PIECE_SUMMARY], &as_json, write_snapshot_summary_file);
		write_to_memory(&text[PIECE_ACCOUNT], &as_json, write_snapshot_account_rows);
		write_to_memory(&text[PIECE_TREE], &as_json, write_tree_json);
	} else {
		write_to_memory(&text[PIECE_SUMMARY], &as_json, write_summary_file);
		write_to_memory(&text[PIECE_ACCOUNT], &as_json, write_account_rows);
		write_to_memory(&text[PIECE_STATS], &as_json, write_stats_rows);
	}
	if (r->have_dirs && !r->have_snapshots && !r->have_ksnap) {
		write_to_memory(&text[PIECE_CALLERS], &as_json, write_callers_rows);
		write_to_memory(&text[PIECE_TREE], &as_json, write_tree_json);
	}
	if (analysis_runs(r, PASS_ORIGINS) && r->read.stats.stacks.events_with && !r->have_snapshots &&
	    !r->have_ksnap)
		write_to_memory(&text[PIECE_FOLDED], &as_json, write_folded_json);
	if (!r->have_ksnap) {	/* the page draws it from its samples */
		write_to_memory(&text[PIECE_TIMELINE], run, write_timeline_json);
		write_to_memory(&text[PIECE_LOSSES], run, write_losses_json);
	}
	for (i = 0; i < PIECE_COUNT; i++) {
		pieces[i].id = ids[i];
		pieces[i].text = text[i].text;
		pieces[i].len = text[i].len;
	}
	if (outfile_open(&out, path, err) < 0)
		goto out;
	html_write_page(outfile_stream(&out), analysis_log_name(r), pieces, PIECE_COUNT);
	rc = outfile_commit(&out, false, err);
out:
	for (i = 0; i < PIECE_COUNT; i++)
		free(text[i].text);
	return rc;
}

static void write_static_footprint(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	write_static_table(o, &r->dirs, r->branch);
}

/* "current_dynamic of 'boot.log' (kmalloc only), branch 'fs'" */
static void chart_title(const struct report_run *run, char *out, size_t cap)
{
	const struct analysis *r = run->a;
	const struct options *o = run->o;
	enum size_attr a = (enum size_attr)o->rings_attr;
	size_t n;

	if (r->have_snapshots)
		n = (size_t)snprintf(out, cap, "live bytes by source directory of allocinfo '%s'%s",
				     analysis_log_name(r), a == ATTR_STATIC ? " (static footprint)" :
				     a == ATTR_CURRENT ? " (static footprint + live bytes)" : "");
	else if (o->req.log_path || o->req.db_path)
		n = (size_t)snprintf(out, cap, "%s%s of '%s'%s", size_attr_name(a),
				     a == ATTR_CURRENT ? " (static + current_dynamic)" :
				     a == ATTR_WASTE ? " (current_dynamic - current_req)" : "",
				     analysis_log_name(r),
				     o->req.families == FAMILY_MALLOC ? " (kmalloc only)" :
				     o->req.families == FAMILY_CACHE ? " (kmem_cache only)" : "");
	else
		n = (size_t)snprintf(out, cap, "static footprint of '%s'", r->ktree.name);
	if (o->req.branch && n < cap)
		snprintf(out + n, cap - n, ", branch '%s'", o->req.branch);
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

static int write_chart(const struct report_run *run, const char *path, struct ta_error *err)
{
	const struct analysis *r = run->a;
	struct ring_tree view;
	struct outfile out;
	char title[1024];
	int rc;

	if (outfile_open(&out, path, err) < 0)
		return -1;
	dirtree_ring_view(&r->dirs, r->branch, (enum size_attr)run->o->rings_attr, &view);
	chart_title(run, title, sizeof(title));
	rc = ringchart_write(&view, title, path, outfile_stream(&out), err);
	ring_tree_release(&view);
	rc = outfile_finish(&out, rc, err);
	if (rc == 0 && run->o->rings_show)
		show_chart(path);
	return rc;
}


/* ---- each report, as the table calls it ---- */

static int account_report(const struct report_run *run, const char *path, struct ta_error *err)
{
	const struct analysis_request *q = &run->o->req;

	return write_report(run, path, q->log_path || q->db_path ? write_account_rows
								 : write_static_footprint, err);
}

static void write_peak_rows(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct namers n;
	struct peak_query q = {
		.watch = &r->peak,
		.group_by = grouping_name(run->o->req.group_by),
		.top = run->o->top,
		.have_pages = analysis_runs(r, PASS_TIMELINE) && r->timeline.page_events,
		.peak_pages = r->timeline.peak_pages,
		.peak_pages_ns = r->timeline.peak_pages_ns,
	};

	analysis_rows_account(r, &n);
	q.namer = &n.namer;
	write_peak(o, &q);
}

static void write_lifetime_rows(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct namers n;
	struct lifetime_query q = {
		.lifetimes = &r->lifetimes,
		.group_by = grouping_name(run->o->req.group_by),
		.top = run->o->top,
	};

	q.account = analysis_rows_account(r, &n);
	q.namer = &n.namer;
	write_lifetimes(o, &q);
}

static void write_growth_rows(struct out_dest *o, const struct report_run *run)
{
	struct timeline_rows rows;

	if (run->a->po_series.nfiles) {	/* page_owner files: pages per stack's row */
		page_owner_growth_report(o, run->a, run->o->req.group_by == GROUP_MODULE ||
					 run->o->req.group_by == GROUP_DIR
					 ? grouping_name(run->o->req.group_by) : "origin",
					 run->o->top);
		return;
	}
	timeline_rows_of(run->a, &rows, ROWS_WITH_PEAKS);
	write_growth(o, &rows, grouping_name(run->o->req.group_by), run->o->top);
	timeline_rows_release(&rows);
}

static int folded_report(const struct report_run *run, const char *path, struct ta_error *err)
{
	return write_folded_report(run, path, false, err);
}

static int folded_pages_report(const struct report_run *run, const char *path,
			       struct ta_error *err)
{
	return write_folded_report(run, path, true, err);
}

#define RECORD_BRIEF_ROWS 10

static void write_record_brief_rows(struct out_dest *o, const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct account_rows rows;

	analysis_rows(r, &rows);
	write_record_brief(o, &rows, RECORD_BRIEF_ROWS, &r->account.totals);
	account_rows_release(&rows);
}

int report_record_brief(const struct report_run *run, struct ta_error *err)
{
	return write_report(run, "-", write_record_brief_rows, err);
}

/* ---- the table ---- */

#define NEEDS_A_LOG_FOR_COUNTS "--summary, --stats, --outstanding, --page and --time need a " \
	"log (-f LOG or --db-file DB)"
#define NEEDS_A_LOG_FOR_STACKS "--folded, --folded-pages, --flame, --pprof and --group-by " \
	"origin need a log (-f LOG or --db-file DB)"
#define NEEDS_A_LOG_FOR_TIME "--timeline and --html need a log (-f LOG or --db-file DB)"

/* ---- which reports draw with cairo ---- */

static bool always_draws(const char *path)
{
	(void)path;
	return true;
}

static bool timeline_draws(const char *path)
{
	enum out_format format;

	return !timeline_data_format(path, &format);
}

static bool flame_draws(const char *path)
{
	return chart_format_of_path(path) != CHART_SVG;	/* its SVG is written by hand */
}

const struct report_decl report_table[REPORT_COUNT] = {
	[REPORT_ACCOUNT] = {
		.name = "account", .short_name = 'c', .long_name = "account-file",
		.help = "write the account file ('-' = standard output)",
		.shape = SHAPE_TABLES, .top = true, .hint = "-c FILE (who allocates)",
		.write = account_report, .snapshot_tables = write_snapshot_account_rows,
	},
	[REPORT_CALLERS] = {
		.name = "callers", .short_name = 'l', .long_name = "callers-file",
		.help = "one line per call site: current_dynamic, waste, and the object it is "
			"defined in ('-' = standard output)",
		.shape = SHAPE_TABLES, .needs = NEED_OBJECTS,
		.requires = REQUIRES_TREE | REQUIRES_LOG,
		.without_log = "-l lists call sites: it needs a log (-f LOG or --db-file DB)",
		.tables = write_callers_rows,
	},
	[REPORT_RINGS] = {
		.name = "ringchart", .short_name = 'r', .long_name = "rings-file",
		.help = "a ringchart of the directory tree: PNG, or SVG/PDF by the file name",
		.shape = SHAPE_CHART, .needs = NEED_OBJECTS, .requires = REQUIRES_TREE,
		.write = write_chart, .snapshot_write = write_chart, .draws = always_draws,
	},
	[REPORT_STATS] = {
		.name = "stats", .long_name = "stats",
		.help = "per row: hits, bytes, per-hit bytes, frag%, total_waste (over all "
			"allocations), ping-pong, peak live bytes",
		.shape = SHAPE_TABLES, .requires = REQUIRES_LOG, .top = true,
		.without_log = NEEDS_A_LOG_FOR_COUNTS, .hint = "--stats", .tables = write_stats_rows,
	},
	[REPORT_SUMMARY] = {
		.name = "summary", .long_name = "summary",
		.help = "totals as perf kmem stat (requested, allocated, freed, fragmentation, "
			"ping-pong, cross-node), events, findings (double frees, mismatched "
			"frees, time going back, lost events), slab caches",
		.shape = SHAPE_TABLES, .needs = NEED_FINDINGS | NEED_TIMELINE,
		.requires = REQUIRES_LOG, .without_log = NEEDS_A_LOG_FOR_COUNTS,
		.hint = "--summary", .tables = write_summary_file,
		.snapshot_tables = write_snapshot_summary_file,
	},
	[REPORT_OUTSTANDING] = {
		.name = "outstanding", .long_name = "outstanding",
		.help = "what is still allocated at the end, by row: count, bytes, oldest and "
			"median age",
		.shape = SHAPE_TABLES, .needs = NEED_STACKS | NEED_EVENTS | NEED_TIMELINE,
		.requires = REQUIRES_LOG, .top = true, .without_log = NEEDS_A_LOG_FOR_COUNTS,
		.hint = "--outstanding", .tables = write_outstanding_file,
	},
	[REPORT_PEAK] = {
		.name = "peak", .long_name = "peak",
		.help = "the moment of the most live slab bytes (and pages held) and what each row "
			"held then: bytes, objects, share, its own peak and when (--peak-at: at "
			"another moment)",
		.shape = SHAPE_TABLES, .needs = NEED_PEAK | NEED_EVENTS | NEED_TIMELINE | NEED_PAGES,
		.requires = REQUIRES_LOG, .top = true,
		.without_log = "--peak needs a log (-f LOG or --db-file DB)",
		.hint = "--peak", .tables = write_peak_rows,
	},
	[REPORT_LIFETIMES] = {
		.name = "lifetimes", .long_name = "lifetimes",
		.help = "per row, how long its objects lived: freed, never freed, the share "
			"that died within 1 us, median, p90, p99, counts per power of two of "
			"microseconds; short-lived rows called out",
		.shape = SHAPE_TABLES, .needs = NEED_LIFETIMES | NEED_EVENTS,
		.requires = REQUIRES_LOG, .top = true,
		.without_log = "--lifetimes needs a log (-f LOG or --db-file DB)",
		.hint = "--lifetimes", .tables = write_lifetime_rows,
	},
	[REPORT_GROWTH] = {
		.name = "growth", .long_name = "growth",
		.help = "per row (per slab cache with --group-by cache), how its live bytes grew: "
			"at the start, the end and the peak, bytes per second and r2, the eighth "
			"of the log in which it grew most",
		.shape = SHAPE_TABLES, .needs = NEED_TIMELINE | NEED_PEAK | NEED_EVENTS,
		.requires = REQUIRES_LOG, .top = true,
		.without_log = "--growth needs a log (-f LOG or --db-file DB)",
		.hint = "--growth", .tables = write_growth_rows, .snapshot_tables = write_growth_rows,
	},
	[REPORT_PAGE] = {
		.name = "page", .long_name = "page",
		.help = "page allocator: requests and KB by order and migratetype and by GFP "
			"flags, alloc+freed / alloc-only / free-only, failures, live pages, "
			"per-CPU refills and drains, extfrag events",
		.shape = SHAPE_TABLES,
		.needs = NEED_PAGE_ORIGINS | NEED_EVENTS | NEED_PAGES | NEED_PAGE_ACCOUNT | NEED_GFP,
		.requires = REQUIRES_LOG, .without_log = NEEDS_A_LOG_FOR_COUNTS,
		.hint = "--page", .tables = write_page_file,
	},
	[REPORT_SIZES] = {
		.name = "sizes", .long_name = "sizes",
		.help = "slab allocations by requested size, in power-of-two ranges: "
			"allocations, bytes requested and allocated, the waste between them",
		.shape = SHAPE_TABLES, .needs = NEED_SIZES | NEED_EVENTS,
		.requires = REQUIRES_LOG, .without_log = "--sizes needs a log (-f LOG or --db-file DB)",
		.hint = "--sizes", .tables = write_sizes_report,
	},
	[REPORT_LEDGER] = {
		.name = "ledger", .long_name = "ledger",
		.help = "of a kernel snapshot (-f DIR as 'trace_analyze snapshot' writes it, or "
			"one of its files: meminfo, slabinfo...) or a series (-f DIR1 DIR2 ...): "
			"MemTotal split into free, user and kernel lines, each with its meminfo "
			"fields (with zoneinfo, the CPUs' free pages; with allocinfo, the other "
			"pages it tags), and what is unexplained; what MemTotal leaves out; slab "
			"by cache, vmalloc by caller, allocinfo by site, modules, free blocks, each cgroup's "
			"kernel memory; a series' changes and what grew most",
		.shape = SHAPE_TABLES, .requires = REQUIRES_LOG | REQUIRES_KSNAPSHOT, .top = true,
		.needs = NEED_OBJECTS,	/* with -k: the tree's objects, the static footprint */
		.without_log = "--ledger needs a kernel snapshot: -f DIR (a folder with meminfo, "
			       "as 'trace_analyze snapshot' writes it), a series of them, one of "
			       "its files (-f /proc/meminfo), or a log recorded with them beside it",
		.ksnapshot_tables = write_ledger_report, .tables = write_ledger_report,
	},
	[REPORT_FOLDED] = {
		.name = "folded", .long_name = "folded",
		.help = "slab allocations as folded stacks, for flamegraph.pl, speedscope, "
			"inferno",
		.shape = SHAPE_OWN, .needs = NEED_STACKS, .requires = REQUIRES_LOG,
		.weighted = true, .without_log = NEEDS_A_LOG_FOR_STACKS, .write = folded_report,
	},
	[REPORT_FOLDED_PAGES] = {
		.name = "folded-pages", .long_name = "folded-pages",
		.help = "page allocations as folded stacks (bytes)",
		.shape = SHAPE_OWN, .needs = NEED_PAGE_ORIGINS | NEED_PAGES | NEED_PAGE_ACCOUNT,
		.requires = REQUIRES_LOG, .without_log = NEEDS_A_LOG_FOR_STACKS,
		.write = folded_pages_report,
	},
	[REPORT_FLAME] = {
		.name = "flame graph", .long_name = "flame",
		.help = "a flame graph: PNG, or SVG/PDF by the name",
		.shape = SHAPE_CHART, .needs = NEED_STACKS, .requires = REQUIRES_LOG,
		.weighted = true, .without_log = NEEDS_A_LOG_FOR_STACKS, .write = write_flame_graph,
		.draws = flame_draws,
	},
	[REPORT_PPROF] = {
		.name = "pprof", .long_name = "pprof",
		.help = "a heap profile (gzipped profile.proto: allocations and what is still "
			"held, by call chain) for go tool pprof, speedscope, Pyroscope",
		.shape = SHAPE_OWN, .needs = NEED_STACKS | NEED_OBJECTS, .requires = REQUIRES_LOG,
		.without_log = NEEDS_A_LOG_FOR_STACKS, .write = write_pprof_profile,
		.snapshot_write = write_snapshot_pprof,
	},
	[REPORT_OPENMETRICS] = {
		.name = "openmetrics", .long_name = "openmetrics",
		.help = "metric families in the OpenMetrics text format, for Prometheus and "
			"node_exporter's textfile collector (written whole, renamed into place): "
			"a log's account, an allocinfo snapshot's sites, a kernel snapshot's "
			"ledger, cgroups and allocinfo; --top N series a family and 'other'",
		.shape = SHAPE_OWN, .requires = REQUIRES_LOG, .top = true,
		.without_log = "--openmetrics needs something to measure: -f LOG, an allocinfo "
			       "snapshot or a kernel snapshot (-f /proc, or a folder as "
			       "'trace_analyze snapshot' writes it)",
		.write = write_account_metrics, .snapshot_write = write_snapshot_metrics,
		.ksnapshot_write = write_kernel_snapshot_metrics,
	},
	[REPORT_TIMELINE] = {
		.name = "timeline", .long_name = "timeline",
		.help = "live bytes over the log's time, stacked per row (the N largest and "
			"'other'), pages held on a second panel, lost events marked: PNG, or "
			"SVG/PDF by the name; FILE.csv, FILE.json or '-': the samples as data",
		.shape = SHAPE_CHART_OR_DATA, .needs = NEED_TIMELINE | NEED_PEAK | NEED_PAGES,
		.requires = REQUIRES_LOG, .top = true, .without_log = NEEDS_A_LOG_FOR_TIME,
		.hint = "--timeline", .write = write_timeline_chart,
		.snapshot_write = write_timeline_chart, .draws = timeline_draws,
	},
	[REPORT_PERFETTO] = {
		.name = "perfetto", .long_name = "perfetto",
		.help = "the heap over time as a Perfetto trace (ui.perfetto.dev): counters of live "
			"slab bytes, pages held, the top rows (--top) and other, allocation and free "
			"rates; marks of double frees, lost events, the peak, leak suspects",
		.shape = SHAPE_OWN,
		.needs = NEED_PEAK | NEED_HEAP_SAMPLES | NEED_EVENTS | NEED_TIMELINE | NEED_PAGES |
			 NEED_FINDINGS,
		.requires = REQUIRES_LOG, .top = true, .without_log = NEEDS_A_LOG_FOR_TIME,
		.hint = "--perfetto", .write = write_perfetto_trace,
	},
	[REPORT_HTML] = {
		.name = "html", .long_name = "html",
		.help = "one self-contained page: the answer first (live bytes, the rows that "
			"hold most, findings, leak suspects), a sortable table of every row, the "
			"timeline, the summary, with -k a zoomable sunburst, with stacks a "
			"zoomable flame graph; of a kernel snapshot, its ledger",
		.shape = SHAPE_OWN,
		.needs = NEED_OBJECTS | NEED_FINDINGS | NEED_STACKS | NEED_TIMELINE | NEED_PEAK |
			 NEED_PAGES,
		.requires = REQUIRES_LOG, .top = true, .without_log = NEEDS_A_LOG_FOR_TIME,
		.hint = "--html", .write = write_html_report, .snapshot_write = write_html_report,
		.ksnapshot_write = write_html_report,
		.draws = always_draws,
	},
};

int report_write(const struct report_run *run, enum report_id id, const char *path,
		 struct ta_error *err)
{
	const struct report_decl *d = &report_table[id];

	if (run->a->have_ksnap)
		return d->ksnapshot_tables ? write_report(run, path, d->ksnapshot_tables, err)
					   : d->ksnapshot_write(run, path, err);
	if (run->a->have_snapshots)
		return d->snapshot_tables ? write_report(run, path, d->snapshot_tables, err)
					  : d->snapshot_write(run, path, err);
	return d->tables ? write_report(run, path, d->tables, err) : d->write(run, path, err);
}

bool report_of_kernel_snapshots(enum report_id id)
{
	return report_table[id].ksnapshot_tables || report_table[id].ksnapshot_write;
}

bool report_needs_kernel_snapshot(enum report_id id)
{
	return report_table[id].requires & REQUIRES_KSNAPSHOT;
}

bool report_of_snapshots(enum report_id id)
{
	return report_table[id].snapshot_tables || report_table[id].snapshot_write;
}

bool reports_draw(const struct options *opts)
{
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && report_table[i].draws &&
		    report_table[i].draws(opts->report_path[i]))
			return true;
	return false;
}

const char *report_option_name(enum report_id id, char *buf, size_t cap)
{
	const struct report_decl *d = &report_table[id];

	if (d->short_name)
		snprintf(buf, cap, "-%c", d->short_name);
	else
		snprintf(buf, cap, "--%s", d->long_name);
	return buf;
}
