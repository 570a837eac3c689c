/*
 * sources.c - where a run's events come from: a text log (plain,
 * compressed, a pipe), a trace.dat or perf.data (given, or spooled from a
 * pipe), record's and top's live capture, allocinfo snapshots (one, a
 * series, a directory) and a snapshot beside a log; the progress line;
 * each event handed to the dispatch (dispatch.c). Counts nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "callsite.h"
#include "engine.h"
#include "engine_local.h"
#include "utf8.h"
#include "allocgroups.h"
#include "liveevents.h"
#include "kmemleak.h"
#include "pageowner.h"
#include "scratch.h"

/* record's and top's live capture, as it is read */
struct live_read {
	struct analysis *r;
	struct parser text;	/* the header's and trailer's lines, read as a log's */
	struct live_events events;
};

/*
 * A kmem log of this kind holds about one live object per 3 KB of text at
 * its peak (0.9 M in a 2.86 GB capture of a busy machine); sizing the live
 * tables for one per 2 KiB of a file before it is read saves their growth
 * on the way (6% of a one-thread account of that capture). A pipe gives no
 * size: the tables grow as they always did.
 */
#define LOG_BYTES_PER_LIVE_OBJECT 2048

/*
 * "reading 'x.log': 1204 of 2677 MB, 45%, 1050 MB/s, 1.4 s left": the
 * position in the file as given (compressed bytes for a compressed one),
 * the speed at which it is read; a stream shows what it has read so far.
 */
static void show_progress_line(const struct input *in, double elapsed)
{
	double done = (double)input_position(in), rate = elapsed > 0 ? done / elapsed : 0;
	const char *name = in->is_stdin ? "standard input" : in->name;

	if (in->size_hint && done <= (double)in->size_hint) {
		double left = rate > 0 ? ((double)in->size_hint - done) / rate : 0;

		fprintf(stderr, "\rtrace_analyze: reading '%s': %.0f of %.0f MB, %.0f%%, %.0f MB/s, "
			"%.0f s left\033[K", name, done / 1e6, (double)in->size_hint / 1e6,
			100.0 * done / (double)in->size_hint, rate / 1e6, left + 0.5);
	} else {
		fprintf(stderr, "\rtrace_analyze: reading '%s': %.0f MB, %.0f MB/s\033[K", name,
			done / 1e6, rate / 1e6);
	}
}

static void show_progress(void *ctx, const struct input *in)
{
	struct analysis *r = ctx;
	double t = analysis_clock();

	if (r->req->quiet || t - r->started < 1.0 || t - r->last_progress < 0.5 ||
	    !isatty(STDERR_FILENO))
		return;
	r->last_progress = t;
	r->progress_shown = true;
	show_progress_line(in, t - r->started);
}

static void end_progress(struct analysis *r)
{
	if (r->progress_shown)
		fputs("\r\033[K", stderr);
}

/* The live table's bucket of an event far ahead, and the record of one nearer. */
static void prefetch_events(void *ctx, const struct kmem_event *far, const struct kmem_event *near)
{
	struct analysis *r = ctx;

	if (far && kmem_is_slab(far->kind) && far->ptr)
		ptrmap_prefetch_bucket(&r->account.live, far->ptr);
	if (near && kmem_is_slab(near->kind) && near->ptr)
		ptrmap_prefetch_record(&r->account.live, near->ptr);
}

/*
 * A file's name as the reports show it (titles, Perfetto, pprof): valid
 * UTF-8, its other bytes as \xNN (utf8_clean), so no output is made
 * invalid by a name; the name itself when it is valid already.
 */
static const char *shown_name(struct analysis *r, const char *path)
{
	size_t n = path ? strlen(path) : 0;

	if (!path || utf8_is_clean(path, n))
		return path;
	free(r->shown_name);
	r->shown_name = xmalloc(4 * n + 1);
	utf8_clean(path, n, r->shown_name, 4 * n + 1);
	return r->shown_name;
}

/* A name as shown_name makes it, of the caller's to free. */
static char *clean_copy(const char *path)
{
	size_t n = strlen(path);
	char *copy = xmalloc(4 * n + 1);

	utf8_clean(path, n, copy, 4 * n + 1);
	return copy;
}

/* The symbols a binary file's addresses may be named with, in the order they are tried. */
static void binary_symbols(const struct analysis *r, struct binread_config *cfg)
{
	cfg->syms = r->syms.count ? &r->syms : NULL;
	cfg->kallsyms = r->kallsyms.count ? &r->kallsyms : NULL;
	cfg->running_kallsyms = true;	/* only if it is the file's kernel */
	cfg->usec_timestamps = getenv("TA_TEST_TIMESTAMPS") &&
			       strcmp(getenv("TA_TEST_TIMESTAMPS"), "usec") == 0;
}

/*
 * A trace.dat or perf.data (known by its magic): decoded straight into
 * events, as a log is parsed. fd is the file, open.
 */
static int read_binary(struct analysis *r, int fd, enum binary_kind kind, struct ta_error *err)
{
	struct binread_config cfg = {
		.name = r->req->log_path,
		.strings = &r->strings,
		.want = run_fields_wanted(r->req),
		.threads = r->req->threads,
		.on_event = run_consume_event,
		.on_lookahead = prefetch_events,
		.ctx = r,
	};
	struct stat st;
	int rc;

	binary_symbols(r, &cfg);
	cfg.salvage = r->req->salvage;
	cfg.modules_text = r->modules_text;
	cfg.modules_len = r->modules_len;
	cfg.modules_path = r->req->modules_path;
	if (run_start_saving(r, err) < 0)
		return -1;
	rc = binread(fd, kind, &cfg, &r->read, &r->binary, err);
	r->have_binary = true;
	r->facts.source = r->facts.log_name = shown_name(r, r->req->log_path);
	r->facts.input.first_malformed_line = r->read.first_malformed_line;
	r->facts.input.bytes_read = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	r->facts.binary = &r->binary;
	if (rc == 0 && r->binary.salvaged)
		warn("'%s' was not finished by perf record: salvaged %llu records with the running "
		     "kernel's event formats; %llu bytes at its end were not a whole record",
		     r->req->log_path, (unsigned long long)r->binary.records,
		     (unsigned long long)r->binary.salvage_bytes_left);
	if (rc == 0 && parse_stats_kmem_lines(&r->read.stats) == 0)
		warn("'%s' (a %s) has no allocation event (kmalloc, kfree, kmem_cache_*, "
		     "mm_page_*) in its %llu records: were the kmem events recorded?",
		     r->req->log_path, binary_kind_name(kind),
		     (unsigned long long)r->binary.records);
	if (rc == 0 && r->saving)
		rc = run_finish_saving(r, err);
	return rc;
}

static void live_emit(void *ctx, const struct kmem_event *ev)
{
	struct analysis *r = ((struct live_read *)ctx)->r;
	const struct live_source *src = r->req->live;

	if (!src->admit || src->admit(src->ctx, ev))
		run_consume_event(r, ev);
}

/* One item of the capture into the accounts, under the source's lock if it has one. */
static void take_live_item(struct live_read *l, const struct capture_item *it)
{
	const struct live_source *src = l->r->req->live;
	size_t lines = src->on_item ? src->on_item(src->ctx, it) : 0;

	if (src->lock)
		pthread_mutex_lock(src->lock);
	live_events_take(&l->events, it, lines);
	if (src->lock)
		pthread_mutex_unlock(src->lock);
}

/* Lines of tracefs header text through the text parser: the header counts and facts. */
static void read_text_lines(struct live_read *l, const char *text)
{
	struct kmem_event ev;

	while (text && *text) {
		size_t n = strcspn(text, "\n");

		parse_line(&l->text, text, n, ++l->events.line, &ev);
		text += n + (text[n] == '\n');
	}
}

/*
 * record's or top's capture: each record decoded straight into the accounts (and
 * written to the log by the source, which says how many lines it made
 * there, so that line numbers are the log's); the log's header and
 * trailer read as a log's are.
 */
static int read_live(struct analysis *r, struct ta_error *err)
{
	const struct live_source *src = r->req->live;
	struct capture *c = src->capture;
	struct live_read l;
	struct capture_item it;
	const char *trailer = NULL;
	unsigned want = run_fields_wanted(r->req) | src->want;
	int rc;

	memset(&l, 0, sizeof(l));
	l.r = r;
	parser_init(&l.text, &r->strings, want);
	live_events_init(&l.events, c, &r->strings, want, (want & WANT_STACK) != 0,
			 &r->read.stats, live_emit, &l);
	l.events.k.round_to_usec = src->usec;	/* the microseconds a text log gives, -o or not */
	if (run_start_saving(r, err) < 0) {
		live_events_release(&l.events);
		parser_release(&l.text);
		return -1;
	}
	read_text_lines(&l, src->header);
	for (;;) {
		rc = capture_next(c, &it, err);
		if (rc <= 0)
			break;
		take_live_item(&l, &it);
	}
	if (src->lock)
		pthread_mutex_lock(src->lock);
	live_events_flush(&l.events);
	if (src->lock)
		pthread_mutex_unlock(src->lock);
	if (rc == 0 && src->on_end && src->on_end(src->ctx, &trailer, err) < 0)
		rc = -1;
	read_text_lines(&l, trailer);
	parse_stats_add(&r->read.stats, &l.text.stats);
	if (src->log_bytes)	/* the lines were the log's: so are its bytes */
		r->read.stats.bytes = src->log_bytes(src->ctx);
	trace_header_add(&r->read.header, &l.text.header);
	live_events_release(&l.events);
	parser_release(&l.text);
	r->facts.source = r->facts.log_name = shown_name(r, r->req->log_path);
	if (rc == 0 && r->saving)
		rc = run_finish_saving(r, err);
	return rc;
}

static void expect_live_objects(struct analysis *r, uint64_t log_bytes)
{
	size_t live = (size_t)(log_bytes / LOG_BYTES_PER_LIVE_OBJECT);

	ptrmap_expect(&r->account.live, live);
	if (analysis_runs(r, PASS_FINDINGS) && !r->findings.shared.of)
		ptrmap_expect(&r->findings.live, live);
}

/*
 * The format of -f's file from its own first bytes (formats.h), with the
 * file open on *fd at its start; INPUT_TEXT (and *fd -1) for a pipe,
 * standard input or anything the probes do not claim raw: the input is
 * then opened as a stream, and probed again on its content.
 */
static enum input_kind format_of_file(const struct analysis *r, int *fd)
{
	unsigned char head[INPUT_PROBE_BYTES];
	enum input_kind kind;
	struct stat st;
	ssize_t n;

	*fd = -1;
	if (strcmp(r->req->log_path, "-") == 0)
		return INPUT_TEXT;
	*fd = open(r->req->log_path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return INPUT_TEXT;	/* input_open says why */
	n = fstat(*fd, &st) == 0 && S_ISREG(st.st_mode) ? read(*fd, head, sizeof(head)) : -1;
	kind = n > 0 ? input_kind_of_head(head, (size_t)n, true) : INPUT_TEXT;
	if (kind == INPUT_TEXT || lseek(*fd, 0, SEEK_SET) < 0) {
		close(*fd);
		*fd = -1;
		return INPUT_TEXT;
	}
	return kind;
}

/*
 * A capture tool's binary file that came compressed or on a pipe: its
 * content made an unnamed file in $TMPDIR (both formats are read at
 * random), then read as the file itself would be.
 */
static int read_spooled_binary(struct analysis *r, enum binary_kind kind, struct ta_error *err)
{
	const char *dir = scratch_dir();
	char where[4096];
	int fd, rc;

	snprintf(where, sizeof(where), "%s (a copy of '%s')", dir, input_name(r));
	fd = scratch_file_open(dir);
	if (fd < 0) {
		rc = error_set_errno(err, errno, "cannot make a file in '%s' to read the %s '%s' from",
				     dir, binary_kind_name(kind), input_name(r));
		input_close(&r->input);
		return rc;
	}
	rc = input_copy_to(&r->input, fd, where, err);
	input_close(&r->input);
	if (rc == 0 && lseek(fd, 0, SEEK_SET) < 0)
		rc = error_set_errno(err, errno, "cannot read back '%s'", where);
	if (rc == 0)
		rc = read_binary(r, fd, kind, err);
	close(fd);
	return rc;
}

/* The format of the open input's content, decompressed (formats.h): -1 with err. */
static int format_of_content(struct analysis *r, enum input_kind *kind, struct ta_error *err)
{
	unsigned char head[INPUT_PROBE_BYTES];
	size_t n = 0;

	if (input_peek(&r->input, head, sizeof(head), &n, err) < 0)
		return -1;
	*kind = input_kind_of_head(head, n, false);
	return 0;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Without -k: a tree whose objects are the snapshot's source files, so that they have places. */
static int build_tree_of_source_files(struct analysis *r, struct ta_error *err)
{
	const struct alloc_series *s = &r->snapshots;
	const char **files = xcalloc(s->nsites ? s->nsites : 1, sizeof(*files));
	size_t n = 0, i;
	uint32_t k;

	for (k = 0; k < s->nsites; k++)
		if (s->listed_in[k] == s->snapshots)
			files[n++] = strtab_get(&s->names, s->sites[k].file);
	qsort(files, n, sizeof(*files), compare_strings);
	r->ktree.name = xstrdup("all sites");	/* not "kernel": kernel/ is a ring of its own */
	r->ktree.objects = xcalloc(n ? n : 1, sizeof(*r->ktree.objects));
	for (i = 0; i < n; i++)
		if (!i || strcmp(files[i], files[i - 1]))
			r->ktree.objects[r->ktree.nobjects++].path =
				strtab_intern(&r->ktree.strings, files[i], strlen(files[i]));
	free(files);
	r->have_ktree = true;
	dirtree_build(&r->dirs, &r->ktree);
	r->have_dirs = true;
	if (r->req->branch && (r->branch = dirtree_find(&r->dirs, r->req->branch)) == DIR_NONE)
		return error_set(err, "branch '%s' holds no allocation site of '%s'", r->req->branch,
				 r->facts.source);
	return 0;
}

/* -b: does any site of the last snapshot have its source under the branch? */
static bool branch_holds_a_site(const struct analysis *r)
{
	const struct alloc_series *s = &r->snapshots;
	uint32_t k;

	for (k = 0; k < s->nsites; k++)
		if (s->listed_in[k] == s->snapshots && alloc_site_in_branch(s, k, r->req->branch))
			return true;
	return false;
}

/* Each site of the last snapshot: its live bytes in the directory of its source file. */
static int place_snapshot_sites(struct analysis *r, struct ta_error *err)
{
	const struct alloc_series *s = &r->snapshots;
	uint32_t k;

	if (!r->have_dirs && build_tree_of_source_files(r, err) < 0)
		return -1;
	r->site_place = xcalloc(s->nsites ? s->nsites : 1, sizeof(*r->site_place));
	for (k = 0; k < s->nsites; k++) {
		r->site_place[k] = DIR_NONE;
		if (s->listed_in[k] != s->snapshots || !s->bytes[k])
			continue;
		r->site_place[k] = dirtree_place_path(&r->dirs,
						      strtab_get(&s->names, s->sites[k].file));
		dirtree_add_dynamic(&r->dirs, r->site_place[k], s->bytes[k], s->bytes[k],
				    s->bytes[k]);
	}
	return 0;
}

/* A snapshot read: a sample of the sites' live bytes (as a log's timeline samples its account). */
static void sample_snapshot(void *ctx, const struct alloc_series *s)
{
	struct analysis *r = ctx;

	r->snapshot_values.v = s->bytes;
	r->snapshot_values.n = s->nsites;
	timeline_add_sample(&r->timeline, s->last_ns);
}

/* The last part of a path. */
const char *run_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/*
 * A series as titles name it: "A ... C (3 snapshots)" from files, "A (3
 * snapshots)" from one; a single snapshot keeps its file's name.
 */
static void name_the_series(struct analysis *r)
{
	const struct alloc_series *s = &r->snapshots;
	char first[512], last[512];
	size_t cap;

	if (s->snapshots < 2)
		return;
	utf8_clean(run_base_name(s->first_source), strlen(run_base_name(s->first_source)), first,
		   sizeof(first));
	utf8_clean(run_base_name(s->last_source), strlen(run_base_name(s->last_source)), last,
		   sizeof(last));
	cap = strlen(first) + strlen(last) + 64;
	r->series_name = xmalloc(cap);
	if (s->files > 1 && strcmp(s->first_source, s->last_source) != 0)
		snprintf(r->series_name, cap, "%s ... %s (%llu snapshots)", first, last,
			 (unsigned long long)s->snapshots);
	else
		snprintf(r->series_name, cap, "%s (%llu snapshots)", first,
			 (unsigned long long)s->snapshots);
}

/*
 * -f of allocinfo snapshots: the series, from the input already open (its
 * first line said so) or from the path (a directory of them), then every
 * file after it.
 */
static int read_snapshots(struct analysis *r, bool opened, struct ta_error *err)
{
	const char *path = r->req->log_path;
	size_t i;
	int rc;

	alloc_series_init(&r->snapshots);
	r->have_snapshots = true;
	if (analysis_runs(r, PASS_TIMELINE)) {	/* every snapshot a sample of the timeline */
		timeline_release(&r->timeline);
		reclaim_counts_release(&r->reclaim);
	}
	timeline_init(&r->timeline, NULL);
	r->timeline.values = &r->snapshot_values;
	reclaim_counts_init(&r->reclaim);
	passes_mark_running(r, PASS_TIMELINE);
	r->snapshots.on_snapshot = sample_snapshot;
	r->snapshots.ctx = r;
	if (opened) {
		rc = alloc_series_read(&r->snapshots, &r->input, input_name(r), err);
		input_close(&r->input);
	} else {
		rc = alloc_series_read_path(&r->snapshots, path, err);
	}
	for (i = 0; rc == 0 && i < r->req->nmore_logs; i++)
		rc = alloc_series_read_path(&r->snapshots, r->req->more_logs[i], err);
	if (rc < 0)
		return -1;
	alloc_series_finish(&r->snapshots);
	r->facts.source = r->facts.log_name = strcmp(path, "-") ? shown_name(r, path)
								   : "standard input";
	name_the_series(r);
	if (r->req->branch && !branch_holds_a_site(r))
		return error_set(err, "branch '%s' holds no allocation site of '%s'", r->req->branch,
				 r->facts.source);
	/* the directories only for what draws or places them (-r, --html, -k) */
	return (r->req->needs & NEED_OBJECTS) || r->have_dirs ? place_snapshot_sites(r, err) : 0;
}

/* --allocinfo: the snapshot put beside the log's account. */
int run_read_beside(struct analysis *r, struct ta_error *err)
{
	alloc_series_init(&r->beside);
	r->have_beside = true;
	if (r->have_snapshots)
		return error_set(err, "'%s' is an allocinfo snapshot already: --allocinfo puts one "
				 "beside a kmem log", r->facts.source);
	if (alloc_series_read_path(&r->beside, r->req->allocinfo_path, err) < 0)
		return -1;
	alloc_series_finish(&r->beside);
	return 0;
}

/* A kmem log's text (plain, compressed or on a pipe), open: parsed into events. */
static int read_text(struct analysis *r, struct ta_error *err)
{
	struct read_config cfg = {
		.input = &r->input,
		.strings = &r->strings,
		.want = run_fields_wanted(r->req),
		.threads = r->req->threads,
		.on_event = run_consume_event,
		.on_progress = show_progress,
		.on_lookahead = prefetch_events,
		.ctx = r,
	};
	int rc;

	expect_live_objects(r, r->input.size_hint);
	if (run_start_saving(r, err) < 0)
		return -1;
	if (r->input.is_stream)
		input_end_streams_on_interrupt();
	rc = read_events(&cfg, &r->read, err);
	end_progress(r);
	r->facts.source = r->facts.log_name = shown_name(r, input_name(r));
	r->facts.input.overlong_lines = 0;	/* counted with the lines (parse_stats.overlong) */
	r->facts.input.truncated_last_line = r->input.truncated_last_line;
	r->facts.input.first_malformed_line = r->read.first_malformed_line;
	r->facts.input.interrupted = r->input.interrupted;
	r->facts.input.bytes_read = r->input.bytes_read;
	if (r->input.compression != COMPRESSION_NONE) {
		r->facts.compression = compression_name(r->input.compression);
		r->facts.compressed_bytes = input_position(&r->input);
	}
	if (rc == 0)
		rc = run_check_it_is_a_kmem_log(r, err);
	if (rc == 0 && r->saving)
		rc = run_finish_saving(r, err);
	return rc;
}

static int read_tracedat_file(struct analysis *r, int fd, struct ta_error *err)
{
	return read_binary(r, fd, BINARY_TRACEDAT, err);
}

static int read_perfdata_file(struct analysis *r, int fd, struct ta_error *err)
{
	return read_binary(r, fd, BINARY_PERFDATA, err);
}

static int read_spooled_tracedat(struct analysis *r, struct ta_error *err)
{
	return read_spooled_binary(r, BINARY_TRACEDAT, err);
}

static int read_spooled_perfdata(struct analysis *r, struct ta_error *err)
{
	return read_spooled_binary(r, BINARY_PERFDATA, err);
}

static int read_open_snapshots(struct analysis *r, struct ta_error *err)
{
	return read_snapshots(r, true, err);
}

/* A later snapshot of a series: of the same boot, taken after the one before. */
static int follows(const struct kernel_snapshot *before, const struct kernel_snapshot *s,
		   struct ta_error *err)
{
	if (ksnapshot_same_boot(before, s, err) < 0)
		return -1;
	uint64_t t0, t1;

	if (!(before->has_stamp && s->has_stamp) && ksnap_field(&before->meminfo, "MemTotal", &t0) &&
	    ksnap_field(&s->meminfo, "MemTotal", &t1) && t0 != t1)
		return error_set(err, "'%s' and '%s' have another MemTotal (%llu, then %llu bytes) and "
				 "not both a snapshot file to say they are one boot's: of two machines? (a "
				 "memory hot-plug changes it too: take them with trace_analyze snapshot)",
				 before->source, s->source, (unsigned long long)t0,
				 (unsigned long long)t1);
	if (before->has_stamp && s->has_stamp && s->monotonic_s < before->monotonic_s)
		return error_set(err, "'%s' was taken before '%s' (%.3f s, then %.3f s since boot): "
				 "give a series in time order", s->source, before->source,
				 before->monotonic_s, s->monotonic_s);
	return 0;
}

/* One more snapshot of the series, read from path (a folder, or one file). */
static int read_kernel_snapshot_path(struct analysis *r, const char *path, struct ta_error *err)
{
	struct kernel_snapshot *s;
	char *text;
	size_t len;
	int rc;

	r->ksnaps = xrealloc(r->ksnaps, (r->nksnaps + 1) * sizeof(*r->ksnaps));
	s = &r->ksnaps[r->nksnaps++];
	ksnapshot_init(s);
	if (is_directory(path)) {
		if (!ksnapshot_is_folder(path))
			return error_set(err, "'%s' is no kernel snapshot (no meminfo in it): a series "
					 "is folders as trace_analyze snapshot writes them", path);
		rc = ksnapshot_read_folder(s, path, err);
	} else {
		rc = input_read_whole(path, (size_t)256 << 20, &text, &len, err);
		if (rc == 0)
			rc = ksnapshot_parse_file(s, path, text, len, err);
		if (rc == 0 && !s->has_meminfo)
			rc = error_set(err, "'%s' is no /proc/meminfo: a series of files is of "
				       "meminfo (or of folders)", path);
		free(text);
	}
	s->source = s->shown = clean_copy(path);
	if (rc == 0 && r->nksnaps > 1)
		rc = follows(&r->ksnaps[r->nksnaps - 2], s, err);
	return rc;
}

/*
 * Kernel snapshots: a folder (from its path), or one of its files, open
 * (from a pipe too): its files parsed, no events; then every folder or
 * meminfo after it, a series of one boot in time order.
 */
static int read_kernel_snapshot(struct analysis *r, bool opened, struct ta_error *err)
{
	const char *path = r->req->log_path;
	size_t i;
	int rc;

	r->have_ksnap = true;
	if (opened) {
		char *text;
		size_t len;

		r->ksnaps = xcalloc(1, sizeof(*r->ksnaps));
		r->nksnaps = 1;
		ksnapshot_init(r->ksnaps);
		rc = input_read_all(&r->input, (size_t)256 << 20, &text, &len, err);
		input_close(&r->input);
		if (rc == 0)
			rc = ksnapshot_parse_file(r->ksnaps, input_name(r), text, len, err);
		free(text);
		r->ksnaps->source = r->ksnaps->shown = clean_copy(strcmp(path, "-") ? path
									 : "standard input");
	} else {
		rc = read_kernel_snapshot_path(r, path, err);
	}
	for (i = 0; rc == 0 && i < r->req->nmore_logs; i++)
		rc = read_kernel_snapshot_path(r, r->req->more_logs[i], err);
	r->facts.source = r->facts.log_name = strcmp(path, "-") ? shown_name(r, path)
								   : "standard input";
	if (rc == 0 && r->nksnaps > 1) {	/* titles: "A ... C (3 snapshots)" */
		const char *first = run_base_name(r->ksnaps[0].source);
		const char *last = run_base_name(r->ksnaps[r->nksnaps - 1].source);
		size_t cap = strlen(first) + strlen(last) + 40;

		r->series_name = xmalloc(cap);
		snprintf(r->series_name, cap, "%s ... %s (%u snapshots)", first, last, r->nksnaps);
	}
	return rc;
}

static int read_open_kernel_snapshot(struct analysis *r, struct ta_error *err)
{
	return read_kernel_snapshot(r, true, err);
}

static void keep_page_block(void *ctx, const struct kmem_event *ev)
{
	struct analysis *r = ctx;

	if (r->npo_blocks == r->po_cap) {
		r->po_cap = r->po_cap ? 2 * r->po_cap : 4096;
		r->po_blocks = xrealloc(r->po_blocks, r->po_cap * sizeof(*r->po_blocks));
	}
	r->po_blocks[r->npo_blocks++] = (struct page_owner_block){ ev->pfn, ev->ts_ns, ev->stack,
								   ev->order };
}

static int by_pfn(const void *pa, const void *pb)
{
	const struct page_owner_block *a = pa, *b = pb;

	return (a->pfn > b->pfn) - (a->pfn < b->pfn);
}

int run_read_page_owner_beside(struct analysis *r, struct ta_error *err)
{
	struct page_owner_facts f;
	struct input in;
	int rc;

	r->have_page_owner = true;
	r->page_owner_source = r->req->page_owner_path;
	if (input_open(&in, r->req->page_owner_path, err) < 0)
		return -1;
	rc = page_owner_read(&in, r->req->page_owner_path, &r->strings, NULL, keep_page_block, r,
			     &f, err);
	input_close(&in);
	if (rc == 0 && f.stacks_only)
		rc = error_set(err, "'%s' is page_owner's show_stacks: --page-owner matches pages by "
			       "pfn, which only the dump (/sys/kernel/debug/page_owner) has",
			       r->req->page_owner_path);
	if (rc == 0 && r->npo_blocks)
		qsort(r->po_blocks, r->npo_blocks, sizeof(*r->po_blocks), by_pfn);
	if (rc == 0 && analysis_runs(r, PASS_ORIGINS))
		callchains_update(&r->chains);	/* the dump's stacks, for their origins */
	return rc;
}

int run_read_kmemleak_beside(struct analysis *r, struct ta_error *err)
{
	struct input in;
	int rc;

	kmemleak_report_init(&r->kmemleak);
	r->have_kmemleak = true;
	r->kmemleak_source = r->req->kmemleak_path;
	if (input_open(&in, r->req->kmemleak_path, err) < 0)
		return -1;
	rc = kmemleak_read(&in, r->req->kmemleak_path, &r->strings, &r->kmemleak, err);
	input_close(&in);
	return rc;
}

int run_read_snapshots_beside(struct analysis *r, struct ta_error *err)
{
	size_t i;

	for (i = 0; i < r->req->nksnap_beside; i++)
		if (read_kernel_snapshot_path(r, r->req->ksnap_beside[i], err) < 0)
			return -1;
	return 0;
}

int run_read_task_cgroups(struct analysis *r, struct ta_error *err)
{
	const struct analysis_request *q = r->req;
	const char *log = q->log_path;

	if (q->group_by != GROUP_CGROUP && !q->filters.ncgroup)
		return 0;
	task_cgroups_init(&r->tasks);
	r->have_tasks = true;
	if (task_cgroups_read_map(&r->tasks, q->cgroup_map_path, err) < 0 ||
	    (q->cgroup_map_more && task_cgroups_read_map(&r->tasks, q->cgroup_map_more, err) < 0))
		return -1;
	if (q->forks_path) {
		uint64_t before = r->tasks.nforks;

		if (task_cgroups_read_forks(&r->tasks, q->forks_path, err) < 0)
			return -1;
		if (r->tasks.nforks == before)
			return error_set(err, "'%s' holds no sched_process_fork event: no log of "
					 "forks for --forks", q->forks_path);
	}
	/* the log's own fork events: a text file's, read once more for them alone */
	if (log && !q->live && strcmp(log, "-") != 0 && !is_directory(log) &&
	    input_kind_of_path(log) == INPUT_TEXT &&
	    task_cgroups_read_forks(&r->tasks, log, err) < 0)
		return -1;
	/* record's fork log beside the log */
	if (log && !q->live && strcmp(log, "-") != 0) {
		char beside[4200];
		struct stat st;

		snprintf(beside, sizeof(beside), "%s.forks", log);
		if (stat(beside, &st) == 0 && S_ISREG(st.st_mode) &&
		    task_cgroups_read_forks(&r->tasks, beside, err) < 0)
			return -1;
	}
	task_cgroups_ready(&r->tasks);
	return 0;
}

/* --stack-handles' map, read before the page_owner files: NULL when none was given. */
static struct page_owner_handles *handles_of(struct analysis *r)
{
	return r->req->stack_handles_path ? &r->po_handles : NULL;
}

static int read_stack_handles(struct analysis *r, struct ta_error *err)
{
	struct input in;
	int rc;

	if (!r->req->stack_handles_path)
		return 0;
	if (input_open(&in, r->req->stack_handles_path, err) < 0)
		return -1;
	rc = page_owner_read_handles(&in, r->req->stack_handles_path, &r->strings, &r->po_handles,
				     err);
	input_close(&in);
	return rc;
}

/* A page_owner file of a series being read: its column, and whether its events go on. */
struct series_file {
	struct analysis *r;
	size_t file;
	bool forward;		/* the last file: each event also through the passes */
};

/* Each page block (or stack's pages) counted under its stack in the file's column. */
static void count_series_pages(void *ctx, const struct kmem_event *ev)
{
	struct series_file *f = ctx;
	struct page_owner_series *s = &f->r->po_series;

	if (ev->kind == KMEM_PAGE_ALLOC && ev->stack != STACK_NONE) {
		s->pages[f->file] = xgrow_zeroed(s->pages[f->file], &s->nstacks[f->file], ev->stack,
						 sizeof(**s->pages));
		s->pages[f->file][ev->stack] += 1ull << (ev->order > 0 ? ev->order : 0);
	}
	if (f->forward)
		run_consume_event(f->r, ev);
}

/* Room for file number i of the series, named path. */
static void add_series_file(struct page_owner_series *s, const char *path)
{
	s->names = xrealloc(s->names, (s->nfiles + 1) * sizeof(*s->names));
	s->pages = xrealloc(s->pages, (s->nfiles + 1) * sizeof(*s->pages));
	s->nstacks = xrealloc(s->nstacks, (s->nfiles + 1) * sizeof(*s->nstacks));
	s->names[s->nfiles] = path;
	s->pages[s->nfiles] = NULL;
	s->nstacks[s->nfiles] = 0;
	s->nfiles++;
}

/*
 * A series' files before the last: each one's pages per stack, nothing
 * else kept (the last is read as a single file is, counted too).
 */
static int read_page_owner_series_before(struct analysis *r, struct ta_error *err)
{
	size_t i, n = r->req->nmore_logs;

	for (i = 0; i < n; i++) {
		const char *path = i ? r->req->more_logs[i - 1] : r->req->log_path;
		struct series_file f = { r, i, false };
		struct page_owner_facts facts;
		struct input in;
		int rc;

		add_series_file(&r->po_series, path);
		if (input_open(&in, path, err) < 0)
			return -1;
		rc = page_owner_read(&in, path, &r->strings, handles_of(r), count_series_pages, &f,
				     &facts, err);
		input_close(&in);
		if (rc < 0)
			return -1;
	}
	add_series_file(&r->po_series, n ? r->req->more_logs[n - 1] : r->req->log_path);
	return 0;
}

/* Each stack of a series under its row (analysis_stack_row_name), once. */
static void name_series_rows(struct analysis *r)
{
	struct page_owner_series *s = &r->po_series;
	char name[CALLSITE_NAME_MAX];
	uint32_t i;

	strtab_init(&s->rows);
	s->nstack_rows = r->strings.stacks.count;
	s->row_of_stack = xcalloc(s->nstack_rows ? s->nstack_rows : 1, sizeof(*s->row_of_stack));
	for (i = 0; i < s->nstack_rows; i++) {
		size_t n = analysis_stack_row_name(r, i, name, sizeof(name));

		s->row_of_stack[i] = strtab_intern(&s->rows, name, n);
	}
}

/*
 * page_owner's dump or show_stacks: its page blocks as page allocations
 * never freed, through the same dispatch as a log's events. Of a series
 * (-f A B C), the files before the last are counted per stack first, and
 * the last is the one read so (r->input is open on it).
 */
static int read_page_owner(struct analysis *r, struct ta_error *err)
{
	const char *path = r->req->nmore_logs ? r->req->more_logs[r->req->nmore_logs - 1]
					      : input_name(r);
	struct series_file last = { r, r->req->nmore_logs, true };
	struct page_owner_facts f;
	int rc;

	if (run_start_saving(r, err) < 0)
		return -1;
	r->from_page_owner = true;
	if (read_stack_handles(r, err) < 0 ||
	    (r->req->nmore_logs && read_page_owner_series_before(r, err) < 0))
		return -1;
	rc = r->req->nmore_logs
	     ? page_owner_read(&r->input, path, &r->strings, handles_of(r), count_series_pages, &last,
			       &f, err)
	     : page_owner_read(&r->input, path, &r->strings, handles_of(r), run_consume_event, r, &f,
			       err);
	r->facts.source = r->facts.log_name = shown_name(r, path);
	r->facts.input.bytes_read = r->input.bytes_read;
	if (r->input.compression != COMPRESSION_NONE) {
		r->facts.compression = compression_name(r->input.compression);
		r->facts.compressed_bytes = input_position(&r->input);
	}
	r->read.stats.lines = f.lines;
	r->read.stats.bytes = r->input.bytes_read;
	r->read.stats.events[KMEM_PAGE_ALLOC] = f.stacks_only ? f.pages : f.records;
	r->read.stats.stacks.events_with = r->read.stats.events[KMEM_PAGE_ALLOC];
	r->read.stats.stacks.blocks = f.records;
	r->read.stats.stacks.kmem_paired = f.records;
	if (rc == 0 && !r->req->quiet)
		fprintf(stderr, "trace_analyze: '%s' is page_owner's %s: %llu %s, %llu base pages "
			"held%s%s\n", r->facts.source,
			f.by_handle ? "show_handles" : f.stacks_only ? "show_stacks" : "dump",
			(unsigned long long)f.records, f.stacks_only ? "stacks" : "page blocks",
			(unsigned long long)f.pages, f.stacks_only ? " (each stack's count handed on as "
			"power-of-two blocks; no pfn, order, task or time)" : "",
			r->req->nmore_logs ? "; the last of a series" : "");
	if (rc == 0 && r->po_handles.unknown && !r->req->quiet)
		fprintf(stderr, "trace_analyze: note: %llu of show_handles' stacks are not in '%s' "
			"(allocated since it was read?): each is shown as (handle H)\n",
			(unsigned long long)r->po_handles.unknown, r->req->stack_handles_path);
	if (rc == 0 && r->req->nmore_logs)
		name_series_rows(r);
	if (rc == 0 && r->saving)
		rc = run_finish_saving(r, err);
	return rc;
}

/*
 * kmemleak's report: each unreferenced object an allocation at its
 * backtrace's call site, never freed, through the same dispatch as a
 * log's events (no time: kmemleak gives jiffies, no clock of the trace's).
 */
static int read_kmemleak(struct analysis *r, struct ta_error *err)
{
	struct kmemleak_report rep;
	uint64_t bytes = 0;
	size_t i;
	int rc;

	kmemleak_report_init(&rep);
	rc = kmemleak_read(&r->input, input_name(r), &r->strings, &rep, err);
	r->facts.source = r->facts.log_name = shown_name(r, input_name(r));
	r->facts.input.bytes_read = r->input.bytes_read;
	for (i = 0; rc == 0 && i < rep.n; i++) {
		const struct kmemleak_object *o = &rep.o[i];
		struct kmem_event ev;

		kmem_event_init(&ev, KMEM_KMALLOC);
		ev.line = o->line;
		ev.ptr = o->addr;
		ev.call_site = o->call_site;
		ev.stack = o->stack;
		ev.comm = o->comm;
		ev.pid = o->pid;
		ev.bytes_req = ev.bytes_alloc = o->size > UINT32_MAX ? UINT32_MAX : (uint32_t)o->size;
		run_consume_event(r, &ev);
		bytes += o->size;
	}
	r->read.stats.lines = rep.lines;
	r->read.stats.bytes = r->input.bytes_read;
	r->read.stats.events[KMEM_KMALLOC] = rep.n;
	r->read.stats.stacks.events_with = rep.n;
	if (rc == 0 && !r->req->quiet)
		fprintf(stderr, "trace_analyze: '%s' is kmemleak's report: %zu unreferenced object%s "
			"(%llu bytes)%s\n", r->facts.source, rep.n, rep.n == 1 ? "" : "s",
			(unsigned long long)bytes, rep.reports > rep.n ? ", reported again by later "
			"scans counted once" : "");
	kmemleak_report_release(&rep);
	return rc;
}

/*
 * How each input format is read once its probe (formats.h) knows it: from
 * the file itself, open at its start (read_file), or from the open input,
 * decompressed or on a pipe (read_open). A new format: its probe there,
 * its readers here. A DB is none of them: it is read in place
 * (run_read_db), and the commands take a DB given as -f for --db-file; its
 * probe is raw only, so a DB's bytes on a pipe are read as text (and
 * refused as no kmem log).
 */
static const struct source_reader {
	int (*read_file)(struct analysis *r, int fd, struct ta_error *err);
	int (*read_open)(struct analysis *r, struct ta_error *err);
} source_readers[INPUT_KIND_COUNT] = {
	[INPUT_TEXT] = { NULL, read_text },
	[INPUT_TRACEDAT] = { read_tracedat_file, read_spooled_tracedat },
	[INPUT_PERFDATA] = { read_perfdata_file, read_spooled_perfdata },
	[INPUT_ALLOCINFO] = { NULL, read_open_snapshots },
	[INPUT_KSNAPSHOT] = { NULL, read_open_kernel_snapshot },
	[INPUT_PAGEOWNER] = { NULL, read_page_owner },
	[INPUT_KMEMLEAK] = { NULL, read_kmemleak },
};

int run_read_log(struct analysis *r, struct ta_error *err)
{
	enum input_kind kind;
	int rc, fd;

	if (r->req->live)
		return read_live(r, err);
	if (input_kind_of_path(r->req->log_path) == INPUT_KSNAPSHOT &&
	    (r->req->nmore_logs || is_directory(r->req->log_path)))
		return read_kernel_snapshot(r, false, err);
	if (r->req->nmore_logs && input_kind_of_path(r->req->log_path) == INPUT_PAGEOWNER) {
		if (input_open(&r->input, r->req->more_logs[r->req->nmore_logs - 1], err) < 0)
			return -1;
		return read_page_owner(r, err);	/* a series: the last file the input */
	}
	if (r->req->nmore_logs ||
	    (is_directory(r->req->log_path) &&
	     input_kind_of_path(r->req->log_path) == INPUT_ALLOCINFO))
		return read_snapshots(r, false, err);
	kind = format_of_file(r, &fd);
	if (fd >= 0 && source_readers[kind].read_file) {
		rc = source_readers[kind].read_file(r, fd, err);
		close(fd);
		return rc;
	}
	if (fd >= 0)
		close(fd);
	if (input_open(&r->input, r->req->log_path, err) < 0)
		return -1;
	if (format_of_content(r, &kind, err) < 0) {
		input_close(&r->input);
		return -1;
	}
	return source_readers[kind].read_open(r, err);
}

double analysis_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
