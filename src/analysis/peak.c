/*
 * peak.c - the peak of one account's live slab bytes and each row's part
 * in it (peak.h). Not here: which account, or the report.
 */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "peak.h"

void peak_watch_init(struct peak_watch *w, bool at_set, uint64_t at_ns)
{
	memset(w, 0, sizeof(*w));
	w->at_set = at_set;
	w->at_ns = at_ns;
}

void peak_watch_release(struct peak_watch *w)
{
	free(w->rows);
	free(w->at_bytes);
	free(w->at_objects);
	memset(w, 0, sizeof(*w));
}

static struct peak_row *row_of(struct peak_watch *w, uint32_t id)
{
	w->rows = xgrow_zeroed(w->rows, &w->nrows, id, sizeof(*w->rows));
	return &w->rows[id];
}

/* --peak-at: every row as it is now, once. */
static void take_the_moment(struct peak_watch *w)
{
	uint32_t i;

	w->at_taken = true;
	w->at_live = w->live;
	w->at_objects_total = w->objects;
	w->at_nrows = w->nrows;
	w->at_bytes = xcalloc(w->nrows ? w->nrows : 1, sizeof(*w->at_bytes));
	w->at_objects = xcalloc(w->nrows ? w->nrows : 1, sizeof(*w->at_objects));
	for (i = 0; i < w->nrows; i++) {
		w->at_bytes[i] = w->rows[i].bytes;
		w->at_objects[i] = w->rows[i].objects;
	}
}

void peak_watch_change(struct peak_watch *w, uint32_t id, int64_t bytes, int64_t objects,
		       uint64_t ts_ns)
{
	struct peak_row *r;

	if (w->at_set && !w->at_taken && ts_ns > w->at_ns)
		take_the_moment(w);
	r = row_of(w, id);
	if (r->gen != w->gen) {	/* its first change since the peak: keep what it held then */
		r->saved_bytes = r->bytes;
		r->saved_objects = r->objects;
		r->gen = w->gen;
	}
	r->bytes += (uint64_t)bytes;
	r->objects += (uint64_t)objects;
	w->live += (uint64_t)bytes;
	w->objects += (uint64_t)objects;
	if (r->bytes > r->own_peak) {
		r->own_peak = r->bytes;
		r->own_peak_ns = ts_ns;
	}
	if (w->live > w->peak_bytes) {	/* a new peak: every row holds now what it holds then */
		w->peak_bytes = w->live;
		w->peak_objects = w->objects;
		w->peak_ns = ts_ns;
		w->gen++;
	}
	if (w->samples)
		heap_samples_change(w->samples, id, r->bytes, w->live, bytes, ts_ns);
}

void peak_watch_finish(struct peak_watch *w)
{
	if (w->at_set && !w->at_taken)
		take_the_moment(w);
}

void peak_watch_row(const struct peak_watch *w, uint32_t id, uint64_t *bytes,
		    uint64_t *objects)
{
	const struct peak_row *r = id < w->nrows ? &w->rows[id] : NULL;

	if (w->at_set) {
		*bytes = id < w->at_nrows ? w->at_bytes[id] : 0;
		*objects = id < w->at_nrows ? w->at_objects[id] : 0;
	} else if (!r) {
		*bytes = *objects = 0;
	} else if (r->gen == w->gen && w->gen) {	/* changed since the peak */
		*bytes = r->saved_bytes;
		*objects = r->saved_objects;
	} else {
		*bytes = r->bytes;
		*objects = r->objects;
	}
}
