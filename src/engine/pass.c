/*
 * pass.c - the table of analysis passes (pass.h) and how a run drives
 * them: started in the table's order as the request turns them on, their
 * event hooks gathered into the run's lists, finished and let go in
 * order, and their parts of a DB written and taken. Knows no pass by
 * name; what a pass does is in its own file (src/engine/passes/).
 * Not here: when a run may take a DB's parts (dbpolicy.c), the event loop
 * (engine.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "testhook.h"

static const struct analysis_pass *const pass_table[PASS_COUNT] = {
#define PASS_TABLE_ENTRY(id, entry) [PASS_##id] = &entry,
	ANALYSIS_PASSES(PASS_TABLE_ENTRY)
#undef PASS_TABLE_ENTRY
};

const struct analysis_pass *analysis_pass(enum pass_id id)
{
	return pass_table[id];
}

bool pass_wanted(enum pass_id id, const struct analysis_request *q)
{
	const struct analysis_pass *p = pass_table[id];

	return p->wanted ? p->wanted(q) : (q->needs & p->need) != 0;
}

unsigned pass_stored_needs(void)
{
	unsigned needs = 0;
	int id;

	for (id = 0; id < PASS_COUNT; id++)
		if (pass_table[id]->store)
			needs |= pass_table[id]->need;
	return needs;
}

void passes_mark_running(struct analysis *a, enum pass_id id)
{
	a->passes_on |= 1u << id;
}

/* Its hooks into the run's lists, in the table's order. */
static void hook_in(struct analysis *a, const struct analysis_pass *p)
{
	if (p->every)
		a->every[a->nevery++] = p->every;
	if (p->before)
		a->before[a->nbefore++] = p->before;
	if (p->event)
		a->on_event[a->non_event++] = p->event;
}

int passes_start(struct analysis *a, struct ta_error *err)
{
	int id;

	for (id = 0; id < PASS_COUNT; id++) {
		const struct analysis_pass *p = pass_table[id];

		if (!pass_wanted((enum pass_id)id, a->req))
			continue;
		if (p->state_size)
			a->pass_state[id] = xcalloc(1, p->state_size);
		if (p->init && p->init(a, err) < 0) {
			free(a->pass_state[id]);
			a->pass_state[id] = NULL;
			return -1;
		}
		passes_mark_running(a, (enum pass_id)id);
		hook_in(a, p);
	}
	return 0;
}

void passes_finish(struct analysis *a)
{
	int id;

	for (id = 0; id < PASS_COUNT; id++)
		if (analysis_runs(a, (enum pass_id)id) && pass_table[id]->finish)
			pass_table[id]->finish(a);
}

void passes_release(struct analysis *a)
{
	int id;

	for (id = PASS_COUNT - 1; id >= 0; id--) {
		if (analysis_runs(a, (enum pass_id)id) && pass_table[id]->release)
			pass_table[id]->release(a);
		free(a->pass_state[id]);
		a->pass_state[id] = NULL;
	}
	a->passes_on = 0;
	a->nevery = a->nbefore = a->non_event = 0;
}

static void part_sizes(const struct pass_store *s, uint32_t sizes[DB_PART_SIZES])
{
	memset(sizes, 0, DB_PART_SIZES * sizeof(*sizes));
	s->sizes(sizes);
}

size_t passes_parts(const struct analysis *a, struct db_part *parts, struct db_blob *blobs)
{
	size_t n = 0;
	int id;

	for (id = 0; id < PASS_COUNT; id++) {
		const struct analysis_pass *p = pass_table[id];

		if (!p->store)
			continue;
		if (!analysis_runs(a, (enum pass_id)id))
			return 0;	/* all of them, or none */
		blobs[n].len = 0;
		p->store->put(&blobs[n], a);
		parts[n].name = p->name;
		parts[n].version = p->store->version + test_later_part(p->name);
		part_sizes(p->store, parts[n].sizes);
		parts[n].data = blobs[n].p;
		parts[n].len = blobs[n].len;
		n++;
	}
	return n;
}

/* Where each running pass's part lies: 1 all found, 0 (why says which is not), -1. */
static int find_parts(struct analysis *a, struct db *db, struct db_cursor *at, char *why,
		      size_t cap, struct ta_error *err)
{
	int id;

	for (id = 0; id < PASS_COUNT; id++)	/* a pass that keeps none: replayed, nothing read */
		if (analysis_runs(a, (enum pass_id)id) && !pass_table[id]->store) {
			*why = '\0';
			return 0;
		}
	for (id = 0; id < PASS_COUNT; id++) {
		const struct analysis_pass *p = pass_table[id];
		uint32_t version = 0, sizes[DB_PART_SIZES], ours[DB_PART_SIZES];
		const void *data = NULL;
		size_t len = 0;
		int rc;

		if (!analysis_runs(a, (enum pass_id)id))
			continue;
		rc = db_find_part(db, p->name, &version, sizes, &data, &len, err);
		if (rc < 0)
			return -1;
		part_sizes(p->store, ours);
		if (rc == 0 || version != p->store->version ||
		    memcmp(sizes, ours, sizeof(ours)) != 0) {
			if (rc == 0)
				snprintf(why, cap, "keeps no %s data", p->name);
			else
				snprintf(why, cap, "keeps its %s data as version %u, this build reads "
					 "version %u", p->name, version, p->store->version);
			return 0;
		}
		at[id] = (struct db_cursor){ data, (const unsigned char *)data + len, NULL };
	}
	return 1;
}

int passes_take_parts(struct analysis *a, struct db *db, char *why, size_t cap,
		      struct ta_error *err)
{
	struct db_cursor at[PASS_COUNT];
	enum db_parts_kept kept;
	int id, rc;

	*why = '\0';
	if (db_parts_kept_by(db, &kept, err) < 0)
		return -1;
	if (kept == DB_PARTS_NONE)
		return 0;
	if (kept == DB_PARTS_OLD_LAYOUT) {
		snprintf(why, cap, "keeps its report data in an older build's layout");
		return 0;
	}
	rc = find_parts(a, db, at, why, cap, err);
	if (rc <= 0)
		return rc;
	for (id = 0; id < PASS_COUNT; id++) {
		struct db_cursor *c = &at[id];

		if (!analysis_runs(a, (enum pass_id)id))
			continue;
		if (!pass_table[id]->store->take(c, a) ||
		    (c->p != c->end && !db_fail(c, "a part of its saved report data has bytes "
						"left over")))
			return error_set(err, "'%s' is not a usable DB file: %s", db->file.path,
					 c->problem ? c->problem : "a part of its saved report data "
					 "is damaged");
	}
	return 1;
}
