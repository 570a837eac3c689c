/*
 * dbpolicy.c - the DB side of a run: which runs save the passes' parts
 * (--save-db over the whole log, rows by call site) and which may take
 * them instead of replaying the events (engine: takes_results), the writer
 * fed as events come and finished after the last, and --db-file read:
 * parts taken, or every event replayed with the fields this run would
 * have parsed. Not here: what a part holds (the passes), the file (db.c).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "engine_local.h"
#include "testhook.h"
#include "text_stacks.h"

/*
 * What a saving run turns on so that the DB keeps every pass's part
 * (pass.h): the passes' needs, and the fields their events carry.
 */
unsigned run_saving_needs(void)
{
	return pass_stored_needs() | NEED_PAGES | NEED_GFP;
}

/* A run over the whole log, every slab family, no task picked out, no moment asked for. */
static bool reads_the_whole_log(const struct analysis_request *o)
{
	return o->families == FAMILY_ALL && !task_filters_set(&o->filters) &&
	       !o->has_time_start && !o->has_time_end && !o->has_peak_at;
}

/*
 * Does this --save-db run keep the results too: one over a log (record's
 * live capture does only the work asked for, so as not to fall behind the
 * kernel) whose rows are call sites?
 */
bool run_saves_parts(const struct analysis_request *o)
{
	return o->save_db && !o->live && reads_the_whole_log(o) && o->group_by == GROUP_CALLSITE;
}

/*
 * May this run take a DB's results instead of replaying its events? Its
 * rows are call sites (or made of them, when it asks no row's peak: the
 * kept peaks are the call sites'), or origins when nothing it asks is kept
 * by row; its stacks are the DB's; it wants no heap samples.
 */
static bool takes_results(const struct analysis *r)
{
	const struct analysis_request *o = r->req;

	if (!reads_the_whole_log(o) || group_is_by_event_field(o->group_by) ||
	    (o->needs & NEED_HEAP_SAMPLES) || o->user_frames != r->db.user_frames)
		return false;
	if ((o->needs & NEED_PEAK) && o->group_by != GROUP_CALLSITE)
		return false;	/* the kept peaks are grouped by call site */
	return o->group_by != GROUP_ORIGIN ||
	       !(o->needs & (NEED_TIMELINE | NEED_PEAK | NEED_LIFETIMES));
}

/*
 * --save-db: the writer the events go to as they come. A windowed
 * account is not the log's: then the writer keeps all three families.
 */
int run_start_saving(struct analysis *r, struct ta_error *err)
{
	if (!r->req->save_db)
		return 0;
	r->saving = db_writer_create(r->req->save_db,
				     analysis_time_window_set(r->req) ? 0 : r->req->families,
				     r->req->user_frames, err);
	return r->saving ? 0 : -1;
}

/* --save-db: the events went to the writer as they came; now the rest. */
int run_finish_saving(struct analysis *r, struct ta_error *err)
{
	struct db_writer *w = r->saving;
	struct db_capture_facts capture;
	struct db_part parts[PASS_COUNT];
	struct db_blob blobs[PASS_COUNT];
	size_t nparts = 0, i;
	int rc;

	tick_order_flush(&r->ticks);	/* the last tick's events, before the account is saved */
	r->saving = NULL;
	if (r->save_failed) {
		db_writer_abort(w);
		*err = r->save_error;
		return -1;
	}
	memset(&capture, 0, sizeof(capture));
	if (r->have_binary) {
		capture.kind = (uint64_t)r->binary.kind;
		capture.version = (uint64_t)r->binary.version;
		capture.records = r->binary.records;
		capture.lost_records = r->binary.lost_records;
		snprintf(capture.os_release, sizeof(capture.os_release), "%s", r->binary.os_release);
	}
	memset(blobs, 0, sizeof(blobs));
	if (run_saves_parts(r->req))
		nparts = passes_parts(r, parts, blobs);
	rc = db_writer_finish(w, input_name(r), &r->strings, &r->read.stats, &r->read.header,
			      &r->facts.input, &capture, r->ticks.reordered, &r->account,
			      analysis_time_window_set(r->req) ? 0 : r->req->families, parts,
			      nparts, err);
	for (i = 0; i < PASS_COUNT; i++)
		free(blobs[i].p);
	return rc;
}

/*
 * A DB saved with --user-frames, read without: the stack as its kernel
 * frames alone, as parsing the log would have made it (made once a stack).
 */
static uint32_t kernel_part_of_stack(struct analysis *r, uint32_t stack)
{
	struct stack_table *t = &r->strings.stacks;
	uint32_t n, k, *frames;
	const uint32_t *f;

	if (stack >= r->kernel_part_cap) {
		uint32_t cap = t->count, i;

		r->kernel_part = xrealloc(r->kernel_part, cap * sizeof(*r->kernel_part));
		for (i = r->kernel_part_cap; i < cap; i++)
			r->kernel_part[i] = STACK_NONE - 1;	/* not made yet */
		r->kernel_part_cap = cap;
	}
	if (r->kernel_part[stack] != STACK_NONE - 1)
		return r->kernel_part[stack];
	f = stack_frames(t, stack, &n);
	for (k = 0; k < n; k++) {
		const char *name = strtab_get(&r->strings.frames, f[k]);

		if (strcmp(name, USER_FRAMES_MARK) == 0)
			break;
	}
	frames = xmalloc((k ? k : 1) * sizeof(*frames));
	memcpy(frames, f, k * sizeof(*frames));
	/* interning may grow the table: copy first, then look up */
	r->kernel_part[stack] = k == n ? stack : (k ? stack_intern(t, frames, k) : STACK_NONE);
	free(frames);
	return r->kernel_part[stack];
}

/*
 * A DB holds every field of every event; hand on only what parsing the
 * log with this run's wants would have given, so reports are identical.
 */
static void consume_replayed_event(void *ctx, const struct kmem_event *saved)
{
	struct analysis *r = ctx;
	unsigned want = r->replay_want;
	struct kmem_event ev = *saved;

	if (kmem_is_page(ev.kind) && !(want & WANT_PAGE))
		return;
	if (!(want & WANT_COMM)) {
		ev.comm = STR_NONE;
		ev.pid = -1;
	}
	if (!(want & WANT_GFP))
		ev.gfp = STR_NONE;
	if (!(want & WANT_CACHE_NAME))
		ev.cache = STR_NONE;
	if (!(want & WANT_STACK))
		ev.stack = STACK_NONE;
	else if (ev.stack != STACK_NONE && r->db.user_frames && !(want & WANT_USER_FRAMES))
		ev.stack = kernel_part_of_stack(r, ev.stack);
	run_consume_event(r, &ev);
}

/* --db-file: the saved account of the run's families, statistics and facts. */
int run_read_db(struct analysis *r, struct ta_error *err)
{
	if (db_open(&r->db, r->req->db_path, &r->strings, err) < 0)
		return -1;
	r->have_db = true;
	if (r->req->user_frames && !r->db.user_frames)
		warn("'%s' was saved without --user-frames: its stacks have kernel frames only",
		     r->req->db_path);
	if (run_needs_event_stream(r->req)) {
		char why[160];
		int got = takes_results(r) ? passes_take_parts(r, &r->db, why, sizeof(why), err) : 0;

		if (got < 0)
			return -1;
		if (!got && takes_results(r) && why[0] && !r->req->quiet)
			fprintf(stderr, "trace_analyze: note: '%s' %s: its events are replayed\n",
				r->req->db_path, why);
		if (!got && test_no_replay())
			return error_set(err, "'%s': its events were replayed (TA_TEST_NO_REPLAY)",
					 r->req->db_path);
		r->replay_want = run_fields_wanted(r->req);	/* asked once, not once an event */
		if (!got && db_replay(&r->db, &r->strings, consume_replayed_event, r, err) < 0)
			return -1;
	} else if (db_load_account(&r->db, r->req->families, r->strings.call_sites.count,
				   &r->account, err) < 0) {
		return -1;
	}
	r->read.stats = r->db.stats;
	r->read.header = r->db.header;
	r->read.first_malformed_line = r->db.facts.first_malformed_line;
	r->facts.source = r->req->db_path;
	r->facts.made_from = r->facts.log_name = r->db.source;
	r->facts.input = r->db.facts;
	r->ticks.reordered = r->db.reordered;	/* the reading's: its events are in that order */
	if (r->db.capture.kind == BINARY_TRACEDAT || r->db.capture.kind == BINARY_PERFDATA) {
		/* made from a binary capture: its reports use the capture's words */
		r->have_binary = true;
		r->binary.kind = (enum binary_kind)r->db.capture.kind;
		r->binary.version = (int)r->db.capture.version;
		r->binary.records = r->db.capture.records;
		r->binary.lost_records = r->db.capture.lost_records;
		snprintf(r->binary.os_release, sizeof(r->binary.os_release), "%s",
			 r->db.capture.os_release);
		r->facts.binary = &r->binary;
	}
	return 0;
}
