/*
 * perfetto.c - the heap's samples and the log's marks as a Perfetto trace
 * (perfetto.h): the tracks described first, then every value and mark in
 * time order, each packet written as one "packet" field of a Trace
 * message, so that the file is a Trace however long it is. Encoding is
 * libprotobuf-c's, of perfetto.proto (Perfetto's field numbers).
 *
 * Not here: sampling, judging suspects, the file's opening and commit.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "perfetto.h"
#include "perfetto.pb-c.h"
#include "strtab.h"

/* The tracks' uuids: one of our own, its children; rows from ROW_TRACK on. */
#define ROOT_TRACK 0x7a6b6d656d000001ull	/* "zkmem" */
#define TOTAL_TRACK (ROOT_TRACK + 1)
#define PAGES_TRACK (ROOT_TRACK + 2)
#define ALLOC_RATE_TRACK (ROOT_TRACK + 3)
#define FREE_RATE_TRACK (ROOT_TRACK + 4)
#define MARKS_TRACK (ROOT_TRACK + 5)
#define LOSS_TRACK (ROOT_TRACK + 6)
#define OTHER_TRACK (ROOT_TRACK + 7)
#define ROW_TRACK (ROOT_TRACK + 0x100)

#define MAX_ARGS 4

enum event_type { EV_COUNTER, EV_INSTANT, EV_BEGIN, EV_END };

struct arg {
	const char *name;
	const char *str;	/* NULL: the number */
	int64_t num;
};

/* One value or mark, to be written in time order. */
struct event {
	uint64_t ts;
	uint64_t track;
	uint32_t order;		/* the order it was made in: equal times keep it */
	enum event_type type;
	int64_t value;
	const char *name;
	struct arg args[MAX_ARGS];
	unsigned nargs;
};

struct writer {
	FILE *f;
	struct event *ev;
	size_t n, cap;
	struct strtab text;	/* names and strings the events point into */
	uint8_t *buf;
	size_t buf_cap;
	bool first_packet;
};

static struct event *add_event(struct writer *w, uint64_t ts, uint64_t track, enum event_type t)
{
	struct event *e;

	if (w->n == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 4096;
		w->ev = xrealloc(w->ev, w->cap * sizeof(*w->ev));
	}
	e = &w->ev[w->n];
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->track = track;
	e->order = (uint32_t)w->n;
	e->type = t;
	w->n++;
	return e;
}

/* A string kept for the writer's life (the events point into the table). */
static const char *keep_text(struct writer *w, const char *s)
{
	return strtab_get(&w->text, strtab_intern(&w->text, s, strlen(s)));
}

static void add_counter(struct writer *w, uint64_t track, uint64_t ts, int64_t value)
{
	add_event(w, ts, track, EV_COUNTER)->value = value;
}

static void add_arg(struct event *e, const char *name, const char *str, int64_t num)
{
	if (e->nargs < MAX_ARGS)
		e->args[e->nargs++] = (struct arg){ name, str, num };
}

/* ---- packets ---------------------------------------------------------------- */

static void put_varint(FILE *f, uint64_t v)
{
	while (v >= 0x80) {
		fputc((int)(v & 0x7f) | 0x80, f);
		v >>= 7;
	}
	fputc((int)v, f);
}

/* One packet as Trace's field 1 (a length-delimited TracePacket). */
static void write_packet(struct writer *w, Perfetto__Protos__TracePacket *p)
{
	size_t n;

	p->has_trusted_packet_sequence_id = 1;
	p->trusted_packet_sequence_id = PERFETTO_SEQUENCE;
	if (w->first_packet) {	/* the sequence starts clean: no state from before */
		p->has_sequence_flags = 1;
		p->sequence_flags = 1;	/* SEQ_INCREMENTAL_STATE_CLEARED */
		w->first_packet = false;
	}
	n = perfetto__protos__trace_packet__get_packed_size(p);
	if (n > w->buf_cap) {
		w->buf_cap = n * 2;
		w->buf = xrealloc(w->buf, w->buf_cap);
	}
	perfetto__protos__trace_packet__pack(p, w->buf);
	fputc(0x0a, w->f);	/* field 1, length-delimited */
	put_varint(w->f, n);
	fwrite(w->buf, 1, n, w->f);
}

static void describe_track(struct writer *w, uint64_t uuid, uint64_t parent, const char *name,
			   const char *description, bool counter, bool bytes, const char *unit_name,
			   const char *share_key)
{
	Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackDescriptor t = PERFETTO__PROTOS__TRACK_DESCRIPTOR__INIT;
	Perfetto__Protos__CounterDescriptor c = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__INIT;

	t.has_uuid = 1;
	t.uuid = uuid;
	t.name = (char *)name;
	t.description = (char *)description;
	if (parent) {
		t.has_parent_uuid = 1;
		t.parent_uuid = parent;
	}
	if (counter) {
		if (bytes) {
			c.has_unit = 1;
			c.unit = PERFETTO__PROTOS__COUNTER_DESCRIPTOR__UNIT__UNIT_SIZE_BYTES;
		}
		c.unit_name = (char *)unit_name;
		c.y_axis_share_key = (char *)share_key;
		t.counter = &c;
	}
	p.track_descriptor = &t;
	write_packet(w, &p);
}

static void write_event(struct writer *w, const struct event *e)
{
	static const Perfetto__Protos__TrackEvent__Type type_of[] = {
		[EV_COUNTER] = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_COUNTER,
		[EV_INSTANT] = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_INSTANT,
		[EV_BEGIN] = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_BEGIN,
		[EV_END] = PERFETTO__PROTOS__TRACK_EVENT__TYPE__TYPE_SLICE_END,
	};
	Perfetto__Protos__TracePacket p = PERFETTO__PROTOS__TRACE_PACKET__INIT;
	Perfetto__Protos__TrackEvent t = PERFETTO__PROTOS__TRACK_EVENT__INIT;
	Perfetto__Protos__DebugAnnotation a[MAX_ARGS], *ap[MAX_ARGS];
	unsigned i;

	p.has_timestamp = 1;
	p.timestamp = e->ts;
	t.has_type = 1;
	t.type = type_of[e->type];
	t.has_track_uuid = 1;
	t.track_uuid = e->track;
	if (e->type == EV_COUNTER) {
		t.has_counter_value = 1;
		t.counter_value = e->value;
	} else if (e->type != EV_END) {
		t.name = (char *)e->name;
	}
	for (i = 0; i < e->nargs; i++) {
		perfetto__protos__debug_annotation__init(&a[i]);
		a[i].name = (char *)e->args[i].name;
		if (e->args[i].str) {
			a[i].string_value = (char *)e->args[i].str;
		} else {
			a[i].has_int_value = 1;
			a[i].int_value = e->args[i].num;
		}
		ap[i] = &a[i];
	}
	t.n_debug_annotations = e->nargs;
	t.debug_annotations = e->nargs ? ap : NULL;
	p.track_event = &t;
	write_packet(w, &p);
}

/* ---- rows: each name's series (several ids under one name summed) ---- */

struct named_series {
	uint32_t name;			/* in names */
	struct heap_point *p;		/* owned */
	uint32_t n;
	int64_t peak;
};

static int by_point_time(const void *pa, const void *pb)
{
	const struct heap_point *a = pa, *b = pb;

	return (a->ts > b->ts) - (a->ts < b->ts);
}

/* ids[0..k): their series summed as step functions, into out. */
static void sum_series(const struct heap_samples *h, const uint32_t *ids, uint32_t k,
		       struct named_series *out)
{
	struct change {
		uint64_t ts;
		int64_t delta;
	} *c;
	size_t total = 0, n = 0, i, j;
	int64_t now = 0;

	for (i = 0; i < k; i++)
		total += h->rows[ids[i]].n;
	c = xmalloc((total + 1) * sizeof(*c));
	for (i = 0; i < k; i++) {
		const struct heap_series *s = &h->rows[ids[i]];
		int64_t before = 0;

		for (j = 0; j < s->n; j++) {
			c[n].ts = s->p[j].ts;
			c[n].delta = s->p[j].value - before;
			before = s->p[j].value;
			n++;
		}
	}
	qsort(c, n, sizeof(*c), by_point_time);	/* deltas of one time add up in any order */
	out->p = xmalloc((n + 1) * sizeof(*out->p));
	out->n = 0;
	out->peak = 0;
	for (i = 0; i < n; i++) {
		now += c[i].delta;
		if (i + 1 < n && c[i + 1].ts == c[i].ts)
			continue;
		out->p[out->n].ts = c[i].ts;
		out->p[out->n].value = now;
		out->n++;
		if (now > out->peak)
			out->peak = now;
	}
	free(c);
}

/*
 * Series p[0..*n) with the point (ts, value) in its time order: before a
 * point of that very time, which is the value after the events of that
 * time (the last of a series is its end's); none when one of that time
 * has the value. A new array, p freed; *n counts it.
 */
static struct heap_point *with_point(struct heap_point *p, uint32_t *n, uint64_t ts,
				     int64_t value)
{
	struct heap_point *out = xmalloc((*n + 1) * sizeof(*out));
	uint32_t i = 0, m = 0, j;

	while (i < *n && p[i].ts < ts)
		out[m++] = p[i++];
	for (j = i; j < *n && p[j].ts == ts && p[j].value != value; j++)
		;
	if (j == *n || p[j].ts != ts) {	/* no point of that time shows it */
		out[m].ts = ts;
		out[m++].value = value;
	}
	while (i < *n)
		out[m++] = p[i++];
	free(p);
	*n = m;
	return out;
}

/* Each named series reaches its row's exact peak (peak.h), when the watcher knows it. */
static void add_row_peaks(const struct perfetto_source *src, const uint32_t *name_of,
			  uint32_t nids, struct named_series *s, uint32_t nnames)
{
	struct row_peak *own;
	uint32_t r;

	if (!src->watch)
		return;
	own = xcalloc(nnames + 1, sizeof(*own));
	peak_watch_row_peaks(src->watch, name_of, nids, nnames, own);
	for (r = 0; r < nnames; r++) {
		if (!own[r].exact || !own[r].bytes)
			continue;
		s[r].p = with_point(s[r].p, &s[r].n, own[r].ns, (int64_t)own[r].bytes);
		s[r].peak = (int64_t)own[r].bytes;
	}
	free(own);
}

static int by_peak(const void *pa, const void *pb, void *ctx)
{
	const struct named_series *a = pa, *b = pb;
	const struct strtab *names = ctx;

	if (a->peak != b->peak)
		return a->peak > b->peak ? -1 : 1;
	return strcmp(strtab_get(names, a->name), strtab_get(names, b->name));
}

/* Did the watcher see id change (a row with no point may have a peak)? */
static bool changed(const struct peak_watch *w, uint32_t id)
{
	return w && id < w->nrows && w->rows[id].group;
}

/* Every named row's series, largest peak first: how many; names owns their names. */
static uint32_t row_series(const struct perfetto_source *src, struct strtab *names,
			   struct named_series **out)
{
	const struct heap_samples *h = src->heap;
	uint32_t *name_of = xmalloc((h->nrows + 1) * sizeof(*name_of)), *ids, *first, id, r;
	struct named_series *s;
	char name[1024];

	for (id = 0; id < h->nrows; id++) {
		name_of[id] = STR_NONE;
		if ((!h->rows[id].n && !changed(src->watch, id)) || !row_kept(src->kept, id))
			continue;
		name_of[id] = strtab_intern(names, name,
					    src->namer->name(src->namer->ctx, id, name, sizeof(name)));
	}
	/* the ids of each name together: ids[first[r] .. first[r + 1]) */
	first = xcalloc(names->count + 2, sizeof(*first));
	ids = xmalloc((h->nrows + 1) * sizeof(*ids));
	for (id = 0; id < h->nrows; id++)
		if (name_of[id] != STR_NONE)
			first[name_of[id] + 2]++;
	for (r = 2; r < names->count + 2; r++)
		first[r] += first[r - 1];
	for (id = 0; id < h->nrows; id++)
		if (name_of[id] != STR_NONE)
			ids[first[name_of[id] + 1]++] = id;
	s = xcalloc(names->count + 1, sizeof(*s));
	for (r = 0; r < names->count; r++) {
		s[r].name = r;
		sum_series(h, ids + first[r], first[r + 1] - first[r], &s[r]);
	}
	add_row_peaks(src, name_of, h->nrows, s, names->count);
	if (names->count)
		qsort_r(s, names->count, sizeof(*s), by_peak, names);
	free(first);
	free(ids);
	free(name_of);
	*out = s;
	return names->count;
}

/* The value of series p[0..n) at ts (as of its last point then; 0 before the first). */
static int64_t value_at(const struct heap_point *p, uint32_t n, uint32_t *cursor, uint64_t ts)
{
	while (*cursor < n && p[*cursor].ts <= ts)
		(*cursor)++;
	return *cursor ? p[*cursor - 1].value : 0;
}

/* "other": the total less the rows shown, at every time any of them changes. */
static void add_other(struct writer *w, const struct named_series *total,
		      const struct named_series *shown, uint32_t nshown)
{
	uint32_t *cursor = xcalloc(nshown + 1, sizeof(*cursor)), tc = 0, i;
	struct heap_point *times;
	size_t n = total->n, k = 0, j;
	int64_t last = -1;

	for (i = 0; i < nshown; i++)
		n += shown[i].n;
	times = xmalloc((n + 1) * sizeof(*times));
	for (j = 0; j < total->n; j++)
		times[k++] = total->p[j];
	for (i = 0; i < nshown; i++)
		for (j = 0; j < shown[i].n; j++)
			times[k++] = shown[i].p[j];
	qsort(times, k, sizeof(*times), by_point_time);
	for (j = 0; j < k; j++) {
		int64_t v;

		if (j + 1 < k && times[j + 1].ts == times[j].ts)
			continue;
		v = value_at(total->p, total->n, &tc, times[j].ts);
		for (i = 0; i < nshown; i++)
			v -= value_at(shown[i].p, shown[i].n, &cursor[i], times[j].ts);
		if (v < 0)
			v = 0;
		if (v != last || j + 1 == k)
			add_counter(w, OTHER_TRACK, times[j].ts, v);
		last = v;
	}
	free(times);
	free(cursor);
}

/* ---- the marks ---- */

static void add_rates(struct writer *w, const struct heap_samples *h)
{
	uint64_t end = 0;
	uint32_t i;
	const double per_s = 1e9 / (double)HEAP_RATE_WINDOW_NS;

	for (i = 0; i < h->nwindows; i++) {
		const struct heap_window *x = &h->windows[i];
		struct event *e;

		if (end && x->start > end) {	/* a quiet stretch between: nothing allocated */
			add_counter(w, ALLOC_RATE_TRACK, end, 0);
			add_counter(w, FREE_RATE_TRACK, end, 0);
		}
		add_counter(w, ALLOC_RATE_TRACK, x->start, (int64_t)((double)x->allocated * per_s));
		add_counter(w, FREE_RATE_TRACK, x->start, (int64_t)((double)x->freed * per_s));
		end = x->start + HEAP_RATE_WINDOW_NS;
		if (x->untraced_frees) {
			e = add_event(w, x->start, MARKS_TRACK, EV_INSTANT);
			e->name = "frees of untraced allocations";
			add_arg(e, "count", NULL, (int64_t)x->untraced_frees);
			add_arg(e, "window_ms", NULL, (int64_t)(HEAP_RATE_WINDOW_NS / 1000000));
		}
	}
	if (end) {	/* the last window's end, not after the log's */
		end = end > h->last_ts ? h->last_ts : end;
		add_counter(w, ALLOC_RATE_TRACK, end, 0);
		add_counter(w, FREE_RATE_TRACK, end, 0);
	}
}

static void add_double_frees(struct writer *w, const struct findings *f)
{
	const struct finding *d = &f->found[FIND_DOUBLE_FREE];
	unsigned i;

	for (i = 0; i < FINDING_EXAMPLES && i < d->count; i++) {
		struct event *e;

		if (!d->ts[i])
			continue;
		e = add_event(w, d->ts[i], MARKS_TRACK, EV_INSTANT);
		e->name = "double free";
		if (d->lines[i])
			add_arg(e, "line", NULL, (int64_t)d->lines[i]);
		if (d->cpu[i] >= 0)
			add_arg(e, "cpu", NULL, d->cpu[i]);
		if (d->related[i])
			add_arg(e, "freed_before_at_line", NULL, (int64_t)d->related[i]);
		add_arg(e, "double_frees_in_log", NULL, (int64_t)d->count);
	}
}

static void add_losses(struct writer *w, const struct loss_windows *l, uint64_t last_ts)
{
	static const char *const what[] = {
		[LOSS_MARKER] = "events lost (a lost-events marker)",
		[LOSS_SILENCE] = "no event for 10 s (events missing?)",
		[LOSS_OVERRUN] = "ring buffer overrun: each CPU's events before its first",
	};
	uint32_t i;

	for (i = 0; i < l->n; i++) {
		const struct loss_window *x = &l->w[i];
		uint64_t end = x->end_ns ? x->end_ns : last_ts;
		struct event *e;

		if (!x->start_ns || end < x->start_ns)
			continue;
		e = add_event(w, x->start_ns, LOSS_TRACK, EV_BEGIN);
		e->name = what[x->kind];
		add_arg(e, "until_ns", NULL, (int64_t)end);
		add_event(w, end, LOSS_TRACK, EV_END);
	}
}

static void add_suspects(struct writer *w, const struct perfetto_source *src, uint64_t last_ts)
{
	char name[1100];
	size_t i;

	for (i = 0; i < src->nsuspects; i++) {
		const struct suspect_mark *s = &src->suspects[i];
		struct event *e = add_event(w, s->oldest_ns ? s->oldest_ns : last_ts, MARKS_TRACK,
					    EV_INSTANT);

		snprintf(name, sizeof(name), "leak suspect: %s", s->name);
		e->name = keep_text(w, name);
		add_arg(e, "confidence", s->confidence, 0);
		add_arg(e, "grew_bytes", NULL, (int64_t)s->grew);
		add_arg(e, "live_at_end_bytes", NULL, (int64_t)s->live_end);
		add_arg(e, "at", s->oldest_ns ? "its oldest held object's allocation"
					       : "the end (no object's age known)", 0);
	}
}

static int by_time(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return (a->order > b->order) - (a->order < b->order);
}

int perfetto_write(FILE *f, const struct perfetto_source *src, struct ta_error *err)
{
	const struct heap_samples *h = src->heap;
	size_t top = src->top ? src->top : PERFETTO_DEFAULT_ROWS, i, j;
	struct named_series *rows = NULL, total = { 0 };
	struct writer w;
	struct strtab names;
	uint32_t nrows, shown;
	char title[1200];

	if (!h->started || !h->total.n)
		return error_set(err, "'%s' gives no slab event with a timestamp: nothing to place "
				 "on a trace viewer's timeline", src->log_name);
	memset(&w, 0, sizeof(w));
	w.f = f;
	w.first_packet = true;
	strtab_init(&w.text);
	strtab_init(&names);
	nrows = row_series(src, &names, &rows);
	shown = nrows < top ? nrows : (uint32_t)top;

	snprintf(title, sizeof(title), "kernel heap: %s (trace_analyze)", src->log_name);
	describe_track(&w, ROOT_TRACK, 0, title, "live kernel heap over the log's time, from its "
		       "kmem events; values on the log's own clock", false, false, NULL, NULL);
	describe_track(&w, TOTAL_TRACK, ROOT_TRACK, "live slab bytes", "slab objects allocated "
		       "and not freed, in all", true, true, NULL, NULL);
	if (h->have_pages)
		describe_track(&w, PAGES_TRACK, ROOT_TRACK, "pages held (bytes)", "pages "
			       "allocated in the log and not freed, 4 KiB each", true, true, NULL,
			       NULL);
	describe_track(&w, ALLOC_RATE_TRACK, ROOT_TRACK, "slab bytes allocated per s",
		       "over 10 ms windows", true, false, "bytes/s", "rates");
	describe_track(&w, FREE_RATE_TRACK, ROOT_TRACK, "slab bytes freed per s",
		       "over 10 ms windows", true, false, "bytes/s", "rates");
	describe_track(&w, MARKS_TRACK, ROOT_TRACK, "findings", "double frees, frees of "
		       "untraced allocations, the peak, leak suspects", false, false, NULL, NULL);
	describe_track(&w, LOSS_TRACK, ROOT_TRACK, "events lost", "windows in which events were "
		       "lost: what was allocated before one and not seen freed is uncertain",
		       false, false, NULL, NULL);
	for (i = 0; i < shown; i++) {
		snprintf(title, sizeof(title), "live: %s", strtab_get(&names, rows[i].name));
		describe_track(&w, ROW_TRACK + i, ROOT_TRACK, title, src->rows_noun, true, true,
			       NULL, "rows");
	}
	snprintf(title, sizeof(title), "live: other (%u more rows)", nrows - shown);
	describe_track(&w, OTHER_TRACK, ROOT_TRACK, title, "the live slab bytes of every other "
		       "row", true, true, NULL, "rows");

	/* the live bytes in all, reaching the peak */
	total.n = h->total.n;
	total.p = xmalloc((total.n + 1) * sizeof(*total.p));
	memcpy(total.p, h->total.p, total.n * sizeof(*total.p));
	if (src->peak_ns)
		total.p = with_point(total.p, &total.n, src->peak_ns, (int64_t)src->peak_bytes);
	for (j = 0; j < total.n; j++)
		add_counter(&w, TOTAL_TRACK, total.p[j].ts, total.p[j].value);
	for (j = 0; h->have_pages && j < h->pages.n; j++)
		add_counter(&w, PAGES_TRACK, h->pages.p[j].ts, h->pages.p[j].value);
	for (i = 0; i < shown; i++)
		for (j = 0; j < rows[i].n; j++)
			add_counter(&w, ROW_TRACK + i, rows[i].p[j].ts, rows[i].p[j].value);
	add_other(&w, &total, rows, shown);
	add_rates(&w, h);
	if (src->findings)
		add_double_frees(&w, src->findings);
	if (src->losses)
		add_losses(&w, src->losses, h->last_ts);
	if (src->peak_ns) {
		struct event *e = add_event(&w, src->peak_ns, MARKS_TRACK, EV_INSTANT);

		e->name = "peak of live slab bytes";
		add_arg(e, "bytes", NULL, (int64_t)src->peak_bytes);
	}
	add_suspects(&w, src, h->last_ts);

	qsort(w.ev, w.n, sizeof(*w.ev), by_time);
	for (i = 0; i < w.n; i++)
		write_event(&w, &w.ev[i]);

	for (i = 0; i < nrows; i++)
		free(rows[i].p);
	free(rows);
	free(total.p);
	free(w.ev);
	free(w.buf);
	strtab_release(&w.text);
	strtab_release(&names);
	return 0;	/* a write that failed is the output file's to say (outfile.h): name, why */
}
