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
	free(w->groups);
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

/* An id seen for the first time: its group, room made for it (no grouping: 0, none kept). */
static uint32_t group_first_seen(struct peak_watch *w, uint32_t id)
{
	uint32_t g;

	if (!w->grouping.group_of)
		return 0;
	g = w->grouping.group_of(w->grouping.ctx, id);
	w->groups = xgrow_zeroed(w->groups, &w->ngroups, g, sizeof(*w->groups));
	return g;
}

static void group_changes(struct peak_group *g, int64_t bytes, uint64_t ts_ns)
{
	g->bytes += (uint64_t)bytes;
	if (g->bytes > g->peak) {
		g->peak = g->bytes;
		g->peak_ns = ts_ns;
	}
}

void peak_watch_change(struct peak_watch *w, uint32_t id, int64_t bytes, int64_t objects,
		       uint64_t ts_ns)
{
	struct peak_row *r;

	if (w->at_set && !w->at_taken && ts_ns > w->at_ns)
		take_the_moment(w);
	r = row_of(w, id);
	if (!r->group)
		r->group = group_first_seen(w, id) + 1;
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
	if (w->groups)
		group_changes(&w->groups[r->group - 1], bytes, ts_ns);
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

/* What row id held at the peak: saved if it changed since, else what it holds now. */
static void held_at_peak(const struct peak_watch *w, uint32_t id, uint64_t *bytes,
			 uint64_t *objects)
{
	const struct peak_row *r = id < w->nrows ? &w->rows[id] : NULL;

	if (!r) {
		*bytes = *objects = 0;
	} else if (r->gen == w->gen && w->gen) {	/* changed since the peak */
		*bytes = r->saved_bytes;
		*objects = r->saved_objects;
	} else {
		*bytes = r->bytes;
		*objects = r->objects;
	}
}

void peak_watch_row(const struct peak_watch *w, uint32_t id, uint64_t *bytes,
		    uint64_t *objects)
{
	if (!w->at_set) {
		held_at_peak(w, id, bytes, objects);
		return;
	}
	*bytes = id < w->at_nrows ? w->at_bytes[id] : 0;
	*objects = id < w->at_nrows ? w->at_objects[id] : 0;
}

uint64_t peak_watch_row_at_peak(const struct peak_watch *w, uint32_t id)
{
	uint64_t bytes, objects;

	held_at_peak(w, id, &bytes, &objects);
	return bytes;
}

/* How many of a group's ids changed, by group: counted once over the ids. */
static uint32_t *members_by_group(const struct peak_watch *w)
{
	uint32_t *n = xcalloc(w->ngroups ? w->ngroups : 1, sizeof(*n)), id;

	for (id = 0; id < w->nrows; id++)
		if (w->rows[id].group && w->rows[id].group - 1 < w->ngroups)
			n[w->rows[id].group - 1]++;
	return n;
}

void peak_watch_row_peaks(const struct peak_watch *w, const uint32_t *row_of, uint32_t nids,
			  uint32_t nrows, struct row_peak *peaks)
{
	uint32_t *members = members_by_group(w), *count, *group, id, r;

	count = xcalloc(nrows ? nrows : 1, sizeof(*count));
	group = xcalloc(nrows ? nrows : 1, sizeof(*group));
	memset(peaks, 0, (size_t)nrows * sizeof(*peaks));
	for (r = 0; r < nrows; r++)
		peaks[r].exact = true;	/* a row no id of which changed held nothing */
	for (id = 0; id < nids && id < w->nrows; id++) {
		const struct peak_row *p = &w->rows[id];
		uint32_t g = p->group;

		r = row_of[id];
		if (r == UINT32_MAX || r >= nrows || !g)
			continue;
		if (count[r]++ == 0) {
			group[r] = g;
			peaks[r].bytes = p->own_peak;
			peaks[r].ns = p->own_peak_ns;
		} else if (group[r] != g) {
			group[r] = 0;	/* two groups in one row */
		}
	}
	for (r = 0; r < nrows; r++) {
		uint32_t g = group[r];

		if (count[r] <= 1)
			continue;
		if (w->groups && g && g - 1 < w->ngroups && members[g - 1] == count[r]) {
			peaks[r].bytes = w->groups[g - 1].peak;
			peaks[r].ns = w->groups[g - 1].peak_ns;
		} else {
			peaks[r].bytes = peaks[r].ns = 0;
			peaks[r].exact = false;
		}
	}
	free(members);
	free(count);
	free(group);
}
