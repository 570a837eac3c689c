/*
 * pipeline.c - one run: load what the kernel tree offers, stream the log
 * through the parser into the accounting, then write the reports.
 *
 * Owns the order of things and the wiring between modules; holds no
 * parsing or counting logic of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "account.h"
#include "callsite.h"
#include "input.h"
#include "parse.h"
#include "pipeline.h"
#include "reader.h"
#include "report.h"
#include "symbols.h"

struct run {
	const struct options *opts;
	struct trace_strings strings;
	struct read_result read;
	struct account account;
	struct symbol_table syms;
	char *map_path;		/* System.map actually used, or NULL */
	struct input input;
	double started;
	double last_progress;
	bool progress_shown;
};

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- kernel symbols --------------------------------------------------------- */

static bool is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --system-map FILE, or DIR/System.map of -k DIR when it exists. */
static int load_symbols(struct run *r, struct ta_error *err)
{
	const struct options *o = r->opts;

	if (o->system_map) {
		r->map_path = xstrdup(o->system_map);
	} else if (o->kernel) {
		struct stat st;

		if (stat(o->kernel, &st) < 0)
			return error_set_errno(err, errno, "cannot open kernel tree '%s'", o->kernel);
		if (!S_ISDIR(st.st_mode))
			return error_set(err, "kernel tree '%s' is not a directory", o->kernel);
		size_t n = strlen(o->kernel) + sizeof("/System.map");

		r->map_path = xmalloc(n);
		snprintf(r->map_path, n, "%s/System.map", o->kernel);
		if (access(r->map_path, F_OK) < 0) {
			free(r->map_path);
			r->map_path = NULL;
			return 0;
		}
	} else {
		return 0;
	}
	if (is_directory(r->map_path))
		return error_set_errno(err, EISDIR, "cannot read '%s'", r->map_path);
	return symbols_load_system_map(&r->syms, r->map_path, err);
}

/* ---- reading the log ---------------------------------------------------------- */

static void show_progress(void *ctx, const struct input *in)
{
	struct run *r = ctx;
	double t = now_seconds();

	if (r->opts->quiet || t - r->started < 1.0 || t - r->last_progress < 0.5 ||
	    !isatty(STDERR_FILENO))
		return;
	r->last_progress = t;
	r->progress_shown = true;
	if (in->size_hint)
		fprintf(stderr, "\rtrace_analyze: reading '%s': %3.0f%%", in->name,
			100.0 * (double)in->bytes_read / (double)in->size_hint);
	else
		fprintf(stderr, "\rtrace_analyze: reading standard input: %.0f MB",
			(double)in->bytes_read / 1e6);
}

static void end_progress(struct run *r)
{
	if (r->progress_shown)
		fputs("\r\033[K", stderr);
}

static void consume_event(void *ctx, const struct kmem_event *ev)
{
	struct run *r = ctx;

	account_apply(&r->account, ev);
}

static int read_log(struct run *r, struct ta_error *err)
{
	struct read_config cfg = {
		.input = &r->input,
		.strings = &r->strings,
		.want = 0,
		.threads = r->opts->threads,
		.on_event = consume_event,
		.on_progress = show_progress,
		.ctx = r,
	};
	int rc;

	if (input_open(&r->input, r->opts->log_path, err) < 0)
		return -1;
	if (r->input.is_stream)
		input_end_streams_on_interrupt();
	rc = read_events(&cfg, &r->read, err);
	end_progress(r);
	return rc;
}

/* ---- reports ------------------------------------------------------------------- */

/* Say once when addresses stay hex: no System.map, or not in it. */
static void warn_about_unresolved_addresses(const struct run *r)
{
	const struct strtab *cs = &r->strings.call_sites;
	uint64_t addr, hex = 0, unresolved = 0;
	uint32_t id;

	for (id = 0; id < r->account.nsites; id++) {
		if (!account_site(&r->account, id) ||
		    !callsite_is_address(strtab_get(cs, id), strtab_length(cs, id), &addr))
			continue;
		hex++;
		if (!r->syms.count || !symbols_lookup(&r->syms, addr))
			unresolved++;
	}
	if (hex && !r->syms.count)
		warn("%llu call sites are bare addresses and no System.map was given "
		     "(-k DIR or --system-map FILE): they stay hex", (unsigned long long)hex);
	else if (unresolved)
		warn("%llu of %llu call site addresses are in no function of '%s': "
		     "they stay hex", (unsigned long long)unresolved, (unsigned long long)hex,
		     r->map_path);
}

static int write_account_file(const struct run *r, struct ta_error *err)
{
	const char *path = r->opts->account_path;
	bool to_stdout = strcmp(path, "-") == 0;
	struct account_rows rows;
	FILE *f;
	int failed;

	f = to_stdout ? stdout : fopen(path, "w");
	if (!f)
		return error_set_errno(err, errno, "cannot write '%s'", path);
	account_rows_build(&rows, &r->account, &r->strings.call_sites, &r->syms,
			   r->opts->group_by_function, r->opts->order);
	write_account(f, &rows, r->opts->format);
	account_rows_release(&rows);
	failed = ferror(f);
	if (to_stdout)
		failed |= fflush(f) != 0;
	else
		failed |= fclose(f) != 0;
	if (failed)
		return error_set_errno(err, errno ? errno : EIO, "cannot write '%s'",
				       to_stdout ? "standard output" : path);
	return 0;
}

static void write_run_summary(const struct run *r)
{
	struct run_summary sum = {
		.source = r->input.is_stdin ? "standard input" : r->opts->log_path,
		.stats = &r->read.stats,
		.header = &r->read.header,
		.first_malformed_line = r->read.first_malformed_line,
		.totals = &r->account.totals,
		.families = r->opts->families,
		.overlong_lines = r->input.overlong_lines,
		.truncated_last_line = r->input.truncated_last_line,
		.seconds = now_seconds() - r->started,
	};

	write_summary(stderr, &sum);
}

/* ---- the run ---------------------------------------------------------------------- */

static void run_init(struct run *r, const struct options *opts)
{
	memset(r, 0, sizeof(*r));
	r->opts = opts;
	r->started = now_seconds();
	trace_strings_init(&r->strings);
	account_init(&r->account, opts->families);
	symbols_init(&r->syms);
	r->input.fd = -1;
}

static void run_release(struct run *r)
{
	input_close(&r->input);
	account_release(&r->account);
	symbols_release(&r->syms);
	trace_strings_release(&r->strings);
	free(r->map_path);
}

int pipeline_run(const struct options *opts, struct ta_error *err)
{
	struct run r;
	int rc = -1;

	run_init(&r, opts);
	if (load_symbols(&r, err) < 0)
		goto out;
	if (opts->log_path) {
		if (read_log(&r, err) < 0)
			goto out;
		if (r.input.interrupted)
			warn("reading '%s' was interrupted: the reports cover the %llu bytes read",
			     r.input.is_stdin ? "standard input" : opts->log_path,
			     (unsigned long long)r.input.bytes_read);
		if (r.input.truncated_last_line)
			warn("the last line of '%s' has no newline (truncated log?): skipped",
			     r.input.is_stdin ? "standard input" : opts->log_path);
		warn_about_unresolved_addresses(&r);
		if (opts->account_path && write_account_file(&r, err) < 0)
			goto out;
		if (!opts->quiet)
			write_run_summary(&r);
	}
	rc = 0;
out:
	run_release(&r);
	return rc;
}
