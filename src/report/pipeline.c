/*
 * pipeline.c - the bare command's run: the engine (engine.h) given the
 * request the options make, then every report of the report table the
 * options ask for, in the table's order, then the run's summary on
 * standard error. Holds no parsing, counting or report of its own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "allocreport.h"
#include "binread.h"
#include "chartfile.h"
#include "engine.h"
#include "kindex.h"
#include "kreport.h"
#include "formats.h"
#include "pipeline.h"
#include "report.h"
#include "reports.h"

bool options_ask_for_an_output(const struct options *o)
{
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)
		if (o->report_path[i])
			return true;
	return o->req.save_db || o->save_index;
}

unsigned pipeline_needs(const struct options *opts)
{
	unsigned needs = opts->save_index ? NEED_OBJECTS : 0;
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i])
			needs |= report_table[i].needs;
	/* page_owner's files: their pages and stacks are what every report draws */
	if (opts->req.log_path && input_kind_of_path(opts->req.log_path) == INPUT_PAGEOWNER)
		needs |= NEED_PAGES | NEED_PAGE_ACCOUNT | NEED_STACKS;
	return needs;
}

static void write_run_summary(const struct report_run *run)
{
	const struct analysis *r = run->a;
	struct run_summary sum = {
		.source = r->facts.source,
		.made_from = r->facts.made_from,
		.compression = r->facts.compression,
		.compressed_bytes = r->facts.compressed_bytes,
		.stats = &r->read.stats,
		.header = &r->read.header,
		.first_malformed_line = r->read.first_malformed_line,
		.totals = &r->account.totals,
		.families = run->o->req.families,
		.overlong_lines = r->facts.input.overlong_lines,
		.truncated_last_line = r->facts.input.truncated_last_line != 0,
		.seconds = analysis_clock() - r->started,
		.stacks = analysis_needs_stacks(r->asked),	/* as asked: a --save-db run does more */
		.reordered = r->ticks.reordered,
		.distinct_stacks = r->strings.stacks.count,
	};

	if (r->have_binary) {
		sum.binary_kind = binary_kind_name(r->binary.kind);
		sum.records = r->binary.records;
		sum.file_bytes = r->facts.input.bytes_read;
	}
	write_reading_summary(stderr, &sum);
}

/* "this log also gives: -c FILE (who allocates), --stats, ...": the table's hints. */
static void hint_the_reports(void)
{
	size_t i;
	bool first = true;

	fputs("trace_analyze: this log also gives: ", stderr);
	for (i = 0; i < REPORT_COUNT; i++)
		if (report_table[i].hint) {
			fprintf(stderr, "%s%s", first ? "" : ", ", report_table[i].hint);
			first = false;
		}
	fputs(" ('-' writes to standard output; trace_analyze --help)\n", stderr);
}

static int write_log_reports(const struct report_run *run, struct ta_error *err)
{
	const struct analysis *r = run->a;
	const struct options *opts = run->o;
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)	/* --ledger: of the snapshots beside the log */
		if (opts->report_path[i] && report_needs_kernel_snapshot((enum report_id)i) &&
		    !r->nksnaps)
			return error_set(err, "%s", report_table[i].without_log);
	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] &&
		    report_write(run, (enum report_id)i, opts->report_path[i], err) < 0)
			return -1;
	if (opts->record_brief && report_record_brief(run, err) < 0)
		return -1;
	if (!opts->req.quiet) {
		write_run_summary(run);
		if (analysis_time_window_set(&opts->req))
			fprintf(stderr, "  time window:            %llu events outside it left out\n",
				(unsigned long long)r->outside_window);
		if (r->have_filters && opts->req.filters.ncgroup && !opts->req.filters.nmodule)
			fprintf(stderr, "  filters (--cgroup...):  %llu allocations of other cgroups, "
				"tasks or flags left out, and %llu frees of them\n",
				(unsigned long long)r->filtered_allocs,
				(unsigned long long)r->filtered_frees);
		else if (r->have_filters && !opts->req.filters.nmodule)
			fprintf(stderr, "  --comm/--pid/--gfp:     %llu allocations of other tasks or "
				"flags left out, and %llu frees of them\n",
				(unsigned long long)r->filtered_allocs,
				(unsigned long long)r->filtered_frees);
		else if (r->have_filters)
			fprintf(stderr, "  filters (--module...):  %llu allocations of other modules, "
				"tasks or flags left out, and %llu frees of them\n",
				(unsigned long long)r->filtered_allocs,
				(unsigned long long)r->filtered_frees);
		if (r->have_ktree)
			write_tree_summary(stderr, opts->req.kernel, &r->ktree, &r->dirs, true);
		if (!options_ask_for_an_output(opts) && !opts->req.live)
			hint_the_reports();
		if (opts->record_brief)
			fputs("trace_analyze: the rest: --summary -, -c FILE, --outstanding -, --page -, "
			      "--html FILE (record --help); -o LOG keeps the events to analyse "
			      "again\n", stderr);
	}
	return 0;
}

/* The options of the reports allocinfo snapshots give: "-c, -r, --summary, ...". */
static void snapshot_report_list(char *out, size_t cap)
{
	size_t i, n = 0;
	char name[64];

	out[0] = '\0';
	for (i = 0; i < REPORT_COUNT && n < cap; i++)
		if (report_of_snapshots((enum report_id)i))
			n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? ", " : "",
					      report_option_name((enum report_id)i, name,
								 sizeof(name)));
}

/*
 * -f of allocinfo snapshots (known once read when they come on standard
 * input): the reports the table says they give, and what was read.
 */
static int write_snapshot_reports(const struct report_run *run, struct ta_error *err)
{
	const struct options *opts = run->o;
	char list[256], name[64];
	size_t i;

	snapshot_report_list(list, sizeof(list));
	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && report_needs_kernel_snapshot((enum report_id)i))
			return error_set(err, "%s", report_table[i].without_log);
	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && !report_of_snapshots((enum report_id)i))
			return error_set(err, "'%s' is an allocinfo snapshot: %s needs a kmem log's "
					 "events (allocinfo gives %s)", run->a->facts.source,
					 report_option_name((enum report_id)i, name, sizeof(name)),
					 list);
	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] &&
		    report_write(run, (enum report_id)i, opts->report_path[i], err) < 0)
			return -1;
	if (!opts->req.quiet) {
		write_snapshot_reading(stderr, &run->a->snapshots, run->a->facts.source,
				       analysis_clock() - run->a->started);
		if (!options_ask_for_an_output(opts))
			fprintf(stderr, "trace_analyze: this snapshot gives: %s ('-' writes to "
				"standard output; trace_analyze --help)\n", list);
	}
	return 0;
}

/* "trace_analyze: kernel snapshot 'B': meminfo (40 fields), slabinfo (127 caches), ..." */
static void say_what_a_snapshot_holds(const struct kernel_snapshot *s)
{
	const char *sep = " ";

#define SAY(...) (fprintf(stderr, "%s", sep), fprintf(stderr, __VA_ARGS__), sep = ", ")
	fprintf(stderr, "trace_analyze: kernel snapshot '%s':", s->source);
	if (s->has_meminfo)
		SAY("meminfo (%u fields)", s->meminfo.n);
	if (s->has_slabinfo)
		SAY("slabinfo (%u caches)", s->nslabs);
	if (s->has_vmallocinfo)
		SAY("vmallocinfo (%u areas)", s->nvmallocs);
	if (s->allocinfo)
		SAY("allocinfo (%u sites)", s->allocinfo->nsites);
	if (s->has_modules)
		SAY("modules (%u)", s->nmodules);
	if (s->has_zoneinfo)
		SAY("zoneinfo");
	if (s->has_buddyinfo)
		SAY("buddyinfo");
	if (s->nzones)
		SAY("%u zone%s", s->nzones, s->nzones == 1 ? "" : "s");
	if (s->has_vmstat)
		SAY("vmstat (%u fields)", s->vmstat.n);
	if (s->ncgroups)
		SAY("%u cgroup%s", s->ncgroups, s->ncgroups == 1 ? "" : "s");
#undef SAY
	if (s->has_stamp && s->host[0])
		fprintf(stderr, "; taken on %s (%s) %.3f s after boot", s->host, s->release,
			s->monotonic_s);
	fputc('\n', stderr);
}

/* A snapshot's allocinfo rows that did not parse: not counted, and said so, as -q or not. */
static void warn_of_rows_not_read(const struct kernel_snapshot *s)
{
	const struct alloc_series *a = s->allocinfo;

	if (a && a->bad_rows)
		warn("%" PRIu64 " row%s of '%s' not parsed, not counted in the ledger: the first, "
		     "line %" PRIu64 ": '%s'", a->bad_rows, a->bad_rows == 1 ? "" : "s",
		     a->first_bad.source, a->first_bad.line, a->first_bad.text);
}

/*
 * -f of a kernel snapshot: the reports made of it (the table's), and what
 * was read; any other report is refused, saying which it gives.
 */
static int write_kernel_snapshot_reports(const struct report_run *run, struct ta_error *err)
{
	const struct options *opts = run->o;
	char name[64];
	size_t i;

	if (task_filters_set(&opts->req.filters) || opts->req.has_time_start ||
	    opts->req.has_time_end || opts->req.save_db || opts->req.allocinfo_path ||
	    opts->req.group_by != GROUP_CALLSITE || opts->req.branch)
		return error_set(err, "'%s' is a kernel snapshot: it has no events or sites to "
				 "filter, group or place (--comm, --pid, --gfp, --module, --time, "
				 "--group-by, -b), save (--save-db) or put beside (--allocinfo)",
				 run->a->facts.source);
	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && !report_of_kernel_snapshots((enum report_id)i))
			return error_set(err, "'%s' is a kernel snapshot: %s needs a kmem log's "
					 "events or allocinfo (a kernel snapshot gives --ledger and --html)",
					 run->a->facts.source,
					 report_option_name((enum report_id)i, name, sizeof(name)));
	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] &&
		    report_write(run, (enum report_id)i, opts->report_path[i], err) < 0)
			return -1;
	for (i = 0; i < run->a->nksnaps; i++)
		warn_of_rows_not_read(&run->a->ksnaps[i]);
	if (!opts->req.quiet) {
		for (i = 0; i < run->a->nksnaps; i++)
			say_what_a_snapshot_holds(&run->a->ksnaps[i]);
		if (!options_ask_for_an_output(opts))
			fprintf(stderr, "trace_analyze: this snapshot gives: --ledger, --html ('-' writes to "
				"standard output; trace_analyze --help)\n");
	}
	return 0;
}

/* No log: the tree's static footprint only, by the reports that need none. */
static int report_static_footprint(const struct report_run *run, struct ta_error *err)
{
	const struct options *opts = run->o;
	size_t i;

	for (i = 0; i < REPORT_COUNT; i++)
		if (opts->report_path[i] && !(report_table[i].requires & REQUIRES_LOG) &&
		    report_write(run, (enum report_id)i, opts->report_path[i], err) < 0)
			return -1;
	if (!opts->req.quiet)
		write_tree_summary(stderr, opts->req.kernel, &run->a->ktree, &run->a->dirs, false);
	return 0;
}

/* The input's own value of tag key, when it says it: a snapshot's stamp, a capture's release. */
static bool input_tag_value(const struct analysis *r, const char *key, char *out, size_t cap)
{
	const struct kernel_snapshot *k = r->have_ksnap && r->nksnaps ? &r->ksnaps[r->nksnaps - 1]
								   : NULL;
	const char *v = NULL;

	if (k && k->has_stamp) {
		if (strcmp(key, "host") == 0)
			v = k->host;
		else if (strcmp(key, "kernel") == 0)
			v = k->release;
		else if (strcmp(key, "boot_id") == 0)
			v = k->boot_id;
		else if (strcmp(key, "time") == 0) {
			time_t t = (time_t)k->realtime_s;
			struct tm tm;

			return gmtime_r(&t, &tm) && strftime(out, cap, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0;
		}
	}
	if (!v && strcmp(key, "kernel") == 0 && r->have_binary && r->binary.os_release[0])
		v = r->binary.os_release;
	if (!v || !*v)
		return false;
	snprintf(out, cap, "%s", v);
	return true;
}

/* --tag's names given alone, from what the input says of itself; an error when it says nothing. */
static int resolve_tags(const struct analysis *r, const struct options *o, struct out_tags *t,
			struct ta_error *err)
{
	size_t i;

	*t = o->tags;
	for (i = 0; i < t->n; i++)
		if (o->tag_from_input[i] &&
		    !input_tag_value(r, t->key[i], t->value[i], sizeof(t->value[i])))
			return error_set(err, "'%s' does not say its %s (a snapshot folder's "
					 "'snapshot' file does, a trace.dat or perf.data its kernel): "
					 "give --tag %s=VALUE", r->facts.source ? r->facts.source
					 : o->req.log_path, t->key[i],
					 strcmp(t->key[i], "boot_id") == 0 ? "boot" : t->key[i]);
	return 0;
}

int pipeline_run(const struct options *opts, struct ta_error *err)
{
	struct analysis_request req = opts->req;
	struct analysis r;
	struct out_tags tags;
	struct report_run run = { &r, opts, opts->tags.n ? &tags : NULL };
	int rc = -1;

	req.needs |= pipeline_needs(opts);
	if (reports_draw(opts))
		chart_warm_up();	/* beside the reading */
	analysis_init(&r, &req);
	if (analysis_load_kernel(&r, err) < 0)
		goto out;
	if (opts->save_index && kindex_save(&r.ktree, opts->save_index, err) < 0)
		goto out;
	if (req.log_path || req.db_path)
		rc = analysis_read(&r, err) < 0 || resolve_tags(&r, opts, &tags, err) < 0 ? -1
		     : r.have_ksnap ?
			write_kernel_snapshot_reports(&run, err) : r.have_snapshots ?
			write_snapshot_reports(&run, err) : write_log_reports(&run, err);
	else
		rc = report_static_footprint(&run, err);
out:
	chart_warm_up_end();
	analysis_release(&r);
	return rc;
}
