/*
 * dbparts.c - the directory of the parts a DB keeps for the analysis
 * passes, and the words each pass writes and reads its part with
 * (dbparts.h). A part's bytes are counters as they are (fixed structs
 * copied whole, arrays with their lengths) and the records of live maps in
 * their order; nothing is recomputed on loading. Every length is checked
 * against the bytes left before it is used.
 * Not here: what any part holds (the passes', src/engine/passes/), which
 * run may take them (the engine), the file and its checksums (binfile.c).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbparts.h"

#define PARTS_MAGIC "TAPARTS1"
#define OLD_LAYOUT_MAGIC "TARESLT2"	/* one stamp for every part: the DBs of issue 55 */

struct part_entry {
	char name[DB_PART_NAME_MAX];
	uint32_t version;
	uint32_t section;		/* its offset from the directory's */
	uint32_t sizes[DB_PART_SIZES];
};

/* ---- the directory ---- */

int db_parts_write(struct binfile_writer *f, uint32_t base, const struct db_part *parts,
		   size_t n, struct ta_error *err)
{
	struct db_blob dir = { 0 };
	size_t i;
	int rc = 0;

	db_put(&dir, PARTS_MAGIC, 8);
	db_put_u64(&dir, n);
	for (i = 0; i < n && rc == 0; i++) {
		struct part_entry e;

		memset(&e, 0, sizeof(e));
		snprintf(e.name, sizeof(e.name), "%s", parts[i].name);
		e.version = parts[i].version;
		e.section = (uint32_t)(i + 1);
		memcpy(e.sizes, parts[i].sizes, sizeof(e.sizes));
		db_put(&dir, &e, sizeof(e));
		rc = binfile_add_section(f, base + e.section, parts[i].data, parts[i].len, err);
	}
	if (rc == 0)
		rc = binfile_add_section(f, base, dir.p, dir.len, err);
	free(dir.p);
	return rc;
}

static int read_directory(struct binfile *f, uint32_t base, const unsigned char **p, size_t *len,
			  struct ta_error *err)
{
	const void *data;

	if (binfile_read_section(f, base, &data, len, err) < 0)
		return -1;
	*p = data;
	return 0;
}

int db_parts_kept(struct binfile *f, uint32_t base, enum db_parts_kept *kept,
		  struct ta_error *err)
{
	const unsigned char *p;
	size_t len;

	if (read_directory(f, base, &p, &len, err) < 0)
		return -1;
	*kept = DB_PARTS_NONE;
	if (p && len >= 8 && memcmp(p, PARTS_MAGIC, 8) == 0)
		*kept = DB_PARTS_LISTED;
	else if (p && len >= 8 && memcmp(p, OLD_LAYOUT_MAGIC, 8) == 0)
		*kept = DB_PARTS_OLD_LAYOUT;
	return 0;
}

static int damaged(const struct binfile *f, struct ta_error *err, const char *problem)
{
	return error_set(err, "'%s' is not a usable DB file: %s", f->path, problem);
}

int db_parts_find(struct binfile *f, uint32_t base, const char *name, uint32_t *version,
		  uint32_t sizes[DB_PART_SIZES], const void **data, size_t *len,
		  struct ta_error *err)
{
	const unsigned char *p;
	size_t dlen;
	uint64_t n, i;

	if (read_directory(f, base, &p, &dlen, err) < 0)
		return -1;
	if (!p || dlen < 16 || memcmp(p, PARTS_MAGIC, 8) != 0)
		return 0;
	memcpy(&n, p + 8, sizeof(n));
	if (n > (dlen - 16) / sizeof(struct part_entry) ||
	    dlen != 16 + n * sizeof(struct part_entry))
		return damaged(f, err, "its directory of saved report data has the wrong length");
	for (i = 0; i < n; i++) {
		struct part_entry e;

		memcpy(&e, p + 16 + i * sizeof(e), sizeof(e));
		if (memchr(e.name, 0, sizeof(e.name)) == NULL || e.section == 0 ||
		    e.section > n)
			return damaged(f, err, "its directory of saved report data is damaged");
		if (strcmp(e.name, name) != 0)
			continue;
		if (binfile_read_section(f, base + e.section, data, len, err) < 0)
			return -1;
		if (!*data)
			return damaged(f, err, "a part of its saved report data is missing");
		*version = e.version;
		memcpy(sizes, e.sizes, sizeof(e.sizes));
		return 1;
	}
	return 0;
}

/* ---- writing: a growing buffer ---- */

void db_put(struct db_blob *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 65536;

		while (cap < b->len + n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
}

void db_put_u64(struct db_blob *b, uint64_t v)
{
	db_put(b, &v, sizeof(v));
}

void db_put_array(struct db_blob *b, const void *data, uint64_t count, size_t size)
{
	db_put_u64(b, count);
	db_put(b, data, (size_t)count * size);
}

void db_pad8(struct db_blob *b)
{
	static const unsigned char zeros[8];

	db_put(b, zeros, (8 - b->len % 8) % 8);
}

/* The live records, in their order (the freed ones between them are nobody's). */
void db_put_live_map(struct db_blob *b, const struct ptrmap *m)
{
	size_t i;

	db_put_u64(b, m->count);
	for (i = 0; i < m->nrecs; i++)
		if (m->recs[i].ptr)
			db_put(b, &m->recs[i], sizeof(m->recs[i]));
}

void db_put_page_map(struct db_blob *b, const struct pagemap *m)
{
	struct live_page page;
	size_t cursor = 0;

	db_put_u64(b, pagemap_count(m));
	while (pagemap_next(m, &cursor, &page))
		db_put(b, &page, sizeof(page));
}

void db_put_account(struct db_blob *b, const struct account *a)
{
	size_t i;

	db_put(b, &a->totals, sizeof(a->totals));
	db_put_array(b, a->sites, a->nsites, sizeof(*a->sites));
	db_put_array(b, a->reallocated, a->reallocated_cap, sizeof(*a->reallocated));
	if (!a->shared.of) {
		db_put_live_map(b, &a->live);
		return;
	}
	db_put_u64(b, a->shared.of->count);	/* the records it shares, each with its row here */
	for (i = 0; i < a->shared.of->nrecs; i++)
		if (a->shared.of->recs[i].ptr) {
			struct live_alloc l = a->shared.of->recs[i];

			l.call_site = ptrmap_row(&a->shared, &a->shared.of->recs[i]);
			db_put(b, &l, sizeof(l));
		}
}

static bool stats_are_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

uint32_t db_rows_used(const void *rows, uint32_t n, size_t size)
{
	while (n && stats_are_zero((const unsigned char *)rows + (size_t)(n - 1) * size, size))
		n--;
	return n;
}

/* ---- reading: a cursor that fails once, and stays failed ---- */

bool db_fail(struct db_cursor *c, const char *problem)
{
	if (!c->problem)
		c->problem = problem;
	c->p = c->end;
	return false;
}

const void *db_take(struct db_cursor *c, size_t n)
{
	const unsigned char *at = c->p;

	if (c->problem || (size_t)(c->end - c->p) < n) {
		db_fail(c, "its saved report data are cut short");
		return NULL;
	}
	c->p += n;
	return at;
}

uint64_t db_take_u64(struct db_cursor *c)
{
	const void *p = db_take(c, sizeof(uint64_t));
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, sizeof(v));
	return v;
}

bool db_take_into(struct db_cursor *c, void *out, size_t n)
{
	const void *p = db_take(c, n);

	if (p && n)
		memcpy(out, p, n);
	return p != NULL;
}

void *db_take_array(struct db_cursor *c, size_t size, uint64_t max, uint32_t *count)
{
	uint64_t n = db_take_u64(c);
	const void *p;
	void *copy;

	*count = 0;
	if (c->problem)
		return NULL;
	if (n > max || n > (uint64_t)(c->end - c->p) / size) {
		db_fail(c, "an array of its saved report data is longer than it can be");
		return NULL;
	}
	p = db_take(c, (size_t)n * size);
	copy = xmalloc(n ? (size_t)n * size : 1);
	if (n)
		memcpy(copy, p, (size_t)n * size);
	*count = (uint32_t)n;
	return copy;
}

bool db_take_live_map(struct db_cursor *c, struct ptrmap *m, uint32_t nrows, bool none_ok)
{
	uint64_t n = db_take_u64(c), i;
	const struct live_alloc *recs;

	if (c->problem)
		return false;
	if (n > UINT32_MAX - 1 || n > (uint64_t)(c->end - c->p) / sizeof(*recs))
		return db_fail(c, "a live map of its saved report data is longer than it can be");
	recs = db_take(c, (size_t)n * sizeof(*recs));
	for (i = 0; i < n; i++)
		if (!recs[i].ptr)
			return db_fail(c, "its saved report data hold a freed object among the live ones");
		else if (recs[i].kind >= KMEM_KIND_COUNT ||
			 (recs[i].call_site >= nrows && !(none_ok && recs[i].call_site == STR_NONE)))
			return db_fail(c, "a live object of its saved report data names a row it has not");
	if (ptrmap_restore(m, recs, (size_t)n, (uintptr_t)recs % _Alignof(struct live_alloc) == 0) < 0)
		return db_fail(c, "a live map of its saved report data is longer than it can be");
	return true;
}

bool db_take_page_map(struct db_cursor *c, struct pagemap *m, uint32_t nrows, bool none_ok)
{
	uint64_t n = db_take_u64(c), i;
	struct live_page page;

	if (c->problem)
		return false;
	if (n > (uint64_t)(c->end - c->p) / sizeof(page))
		return db_fail(c, "a page map of its saved report data is longer than it can be");
	pagemap_expect(m, (size_t)n);
	for (i = 0; i < n; i++) {
		db_take_into(c, &page, sizeof(page));
		if (!page.key || page.order > PAGEMAP_ORDER_MAX)
			return db_fail(c, "its saved report data hold a page that cannot be live");
		if (page.id >= nrows && !(none_ok && page.id == STR_NONE))
			return db_fail(c, "a live page of its saved report data names a row it has not");
		if (pagemap_put(m, page.key, (int)page.order, page.id, NULL))
			return db_fail(c, "its saved report data hold a live page twice");
	}
	return true;
}

/* read as arrays of counts below: they must hold nothing else */
_Static_assert(sizeof(struct account_totals) % sizeof(uint64_t) == 0, "totals are counts");
_Static_assert(sizeof(struct site_stats) == 8 * sizeof(uint64_t), "a row is its eight counts");

static bool counts_in_range(const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] >= DB_COUNT_LIMIT)
			return false;
	return true;
}

/*
 * An account as the pass leaves it: every count in range, each row's live
 * bytes within its total and the sum of its live objects', frees within
 * allocations.
 */
static bool account_adds_up(const struct account *a)
{
	uint64_t *live = xcalloc(a->nsites ? a->nsites : 1, sizeof(*live));
	bool ok = counts_in_range((const uint64_t *)&a->totals,
				  sizeof(a->totals) / sizeof(uint64_t)) &&
		  a->totals.bytes_freed <= a->totals.bytes_allocated &&
		  a->totals.frees <= a->totals.allocs;
	uint32_t id;
	size_t i;

	for (i = 0; ok && i < a->live.nrecs; i++)
		if (a->live.recs[i].ptr)
			live[a->live.recs[i].call_site] += a->live.recs[i].bytes_alloc;
	for (id = 0; ok && id < a->nsites; id++) {
		const struct site_stats *s = &a->sites[id];

		ok = counts_in_range((const uint64_t *)s, sizeof(*s) / sizeof(uint64_t)) &&
		     s->current_dynamic <= s->total_dynamic && s->current_req <= s->total_req &&
		     s->free_count <= s->alloc_count && s->current_dynamic == live[id];
	}
	free(live);
	return ok;
}

bool db_take_account(struct db_cursor *c, struct account *a, uint32_t nrows)
{
	uint32_t n;

	ptrmap_rows_release(&a->shared);	/* its own live table from here */
	if (!db_take_into(c, &a->totals, sizeof(a->totals)))
		return false;
	a->sites = db_take_array(c, sizeof(*a->sites), nrows, &a->nsites);
	a->sites_cap = a->nsites;
	a->reallocated = db_take_array(c, sizeof(*a->reallocated), UINT32_MAX, &n);
	a->reallocated_cap = n;
	if (c->problem || !db_take_live_map(c, &a->live, a->nsites, false))
		return false;
	return account_adds_up(a) || db_fail(c, "an account of its saved report data does not add up");
}

bool db_rows_within(struct db_cursor *c, const void *rows, uint32_t n, size_t size,
		    uint32_t limit)
{
	uint32_t i;

	for (i = limit; i < n; i++)
		if (!stats_are_zero((const unsigned char *)rows + (size_t)i * size, size))
			return db_fail(c, "its saved report data count rows its tables have not");
	return true;
}
