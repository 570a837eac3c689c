/*
 * findings_pass.c - the summary's findings and slab caches (findings.h),
 * for --summary and the pages that show them. Its part of a DB: the
 * findings, the caches, the size classes by name.
 */
#include <stdlib.h>

#include "engine.h"

static int start_findings(struct analysis *a, struct ta_error *err)
{
	(void)err;
	findings_init(&a->findings);
	if (a->account.families == FAMILY_ALL && !a->have_filters && !a->account.shared.of)
		findings_share_live(&a->findings, &a->account.live);
	return 0;
}

static void find_before_account(struct analysis *a, const struct kmem_event *ev)
{
	findings_before(&a->findings, ev);
}

static void find(struct analysis *a, const struct kmem_event *ev)
{
	findings_apply(&a->findings, ev);
}

static void release_findings(struct analysis *a)
{
	findings_release(&a->findings);
}

static void findings_sizes(uint32_t sizes[DB_PART_SIZES])
{
	sizes[0] = sizeof(struct finding);
	sizes[1] = sizeof(struct cache_stats);
	sizes[2] = FIND_KIND_COUNT;
	sizes[3] = FINDINGS_CLASS_KEYS;
}

static void put_findings(struct db_blob *b, const struct analysis *a)
{
	const struct findings *f = &a->findings;
	uint32_t i;

	db_put(b, f->found, sizeof(f->found));
	db_put_array(b, f->caches, f->ncaches, sizeof(*f->caches));
	db_put_u64(b, f->classes.count);
	for (i = 0; i < f->classes.count; i++) {
		uint64_t n = strtab_length(&f->classes, i);

		db_put_u64(b, n);
		db_put(b, strtab_get(&f->classes, i), (size_t)n);
		db_pad8(b);
	}
	db_put(b, f->class_stats, f->classes.count * sizeof(*f->class_stats));
	db_put(b, f->class_ids, sizeof(f->class_ids));
	db_put_u64(b, f->unnamed_allocs);
}

static bool take_findings(struct db_cursor *c, struct analysis *a)
{
	struct findings *f = &a->findings;
	uint64_t nclasses, i;

	ptrmap_rows_release(&f->shared);	/* taken whole: no event follows */
	if (!db_take_into(c, f->found, sizeof(f->found)))
		return false;
	f->caches = db_take_array(c, sizeof(*f->caches), UINT32_MAX, &f->ncaches);
	if (c->problem || !db_rows_within(c, f->caches, f->ncaches, sizeof(*f->caches),
					  a->strings.caches.count))
		return false;
	nclasses = db_take_u64(c);
	if (nclasses > FINDINGS_CLASS_KEYS)
		return db_fail(c, "its saved findings have too many size classes");
	for (i = 0; i < nclasses && !c->problem; i++) {
		uint64_t n = db_take_u64(c);
		const char *name = n <= 64 ? db_take(c, (size_t)n) : NULL;

		if (!name || strtab_intern(&f->classes, name, (size_t)n) != i)
			return db_fail(c, "its saved findings name a size class twice or badly");
		db_take(c, (8 - n % 8) % 8);
	}
	f->class_stats = xcalloc(nclasses ? nclasses : 1, sizeof(*f->class_stats));
	if (!db_take_into(c, f->class_stats, nclasses * sizeof(*f->class_stats)) ||
	    !db_take_into(c, f->class_ids, sizeof(f->class_ids)))
		return false;
	for (i = 0; i < FINDINGS_CLASS_KEYS; i++)
		if (f->class_ids[i] > nclasses)
			return db_fail(c, "its saved findings point at a size class they have not");
	f->unnamed_allocs = db_take_u64(c);
	return !c->problem;
}

static const struct pass_store findings_store = {
	.version = 1, .sizes = findings_sizes, .put = put_findings, .take = take_findings,
};

const struct analysis_pass findings_pass = {
	.name = "findings",
	.need = NEED_FINDINGS,
	.init = start_findings,
	.before = find_before_account,
	.event = find,
	.release = release_findings,
	.store = &findings_store,
};
