/*
 * allocgroups.c - an allocinfo series' sites grouped into rows
 * (allocgroups.h). Not here: parsing, or any output.
 */
#include <stdlib.h>
#include <string.h>

#include "allocgroups.h"
#include "callsite.h"
#include "error.h"

/* branch without "./" before and '/' after: [b, b + *len) */
static const char *branch_path(const char *branch, size_t *len)
{
	while (branch[0] == '.' && branch[1] == '/')
		branch += 2;
	*len = strlen(branch);
	while (*len && branch[*len - 1] == '/')
		(*len)--;
	return branch;
}

bool alloc_site_in_branch(const struct alloc_series *s, uint32_t i, const char *branch)
{
	const char *file = strtab_get(&s->names, s->sites[i].file);
	size_t n;

	if (!branch)
		return true;
	branch = branch_path(branch, &n);
	return n == 0 || (strncmp(file, branch, n) == 0 && file[n] == '/');
}

/* The directory row of a file: its component below branch (or its first one). */
static size_t dir_row(const char *file, const char *branch, char *out, size_t cap)
{
	size_t skip = 0;
	const char *slash;

	if (branch) {
		branch = branch_path(branch, &skip);
		if (skip)
			skip++;	/* the '/' after it */
	}
	slash = strchr(file + skip, '/');
	return callsite_put(out, cap, 0, file, slash ? (size_t)(slash - file) : strlen(file));
}

size_t alloc_site_row_name(const struct alloc_series *s, uint32_t i, enum alloc_key g,
			   const char *branch, char *out, size_t cap)
{
	const struct alloc_site *site = &s->sites[i];
	const char *file = strtab_get(&s->names, site->file);
	const char *func = strtab_get(&s->names, site->func);
	int n;

	switch (g) {
	case ALLOC_BY_FUNCTION:
		n = site->module == STR_NONE ? snprintf(out, cap, "%s", func)
			: snprintf(out, cap, "%s [%s]", func, alloc_name(s, site->module));
		return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
	case ALLOC_BY_FILE:
		return callsite_put(out, cap, 0, file, strlen(file));
	case ALLOC_BY_DIR:
		return dir_row(file, branch, out, cap);
	case ALLOC_BY_MODULE:
		return callsite_put(out, cap, 0, alloc_name(s, site->module), strlen(alloc_name(s, site->module)));
	default:
		return callsite_put(out, cap, 0, strtab_get(&s->keys, i), strtab_length(&s->keys, i));
	}
}

static int by_bytes(const void *pa, const void *pb, void *ctx)
{
	const struct alloc_row_sum *a = pa, *b = pb;
	const struct strtab *names = ctx;

	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(strtab_get(names, a->name), strtab_get(names, b->name));
}

/* Is site i's module ("vmlinux" for built-in code) one of modules[0..n) (n == 0: every site)? */
static bool alloc_site_in_modules(const struct alloc_series *s, uint32_t i,
				  const char (*modules)[64], size_t n)
{
	const char *m = alloc_name(s, s->sites[i].module);
	size_t k;

	for (k = 0; k < n; k++)
		if (strcmp(m, modules[k]) == 0)
			return true;
	return n == 0;
}

void alloc_rows_build(struct alloc_rows *r, const struct alloc_series *s, enum alloc_key g,
		      const char *branch)
{
	alloc_rows_build_in(r, s, g, branch, NULL, 0);
}

void alloc_rows_build_in(struct alloc_rows *r, const struct alloc_series *s, enum alloc_key g,
			 const char *branch, const char (*modules)[64], size_t nmodules)
{
	char name[1024];
	uint32_t i, cap = 0;

	memset(r, 0, sizeof(*r));
	strtab_init(&r->names);
	for (i = 0; i < s->nsites; i++) {
		struct alloc_row_sum *row;
		uint32_t id;
		size_t n;

		if (s->listed_in[i] != s->snapshots)
			continue;	/* not in the last snapshot (a module unloaded) */
		if (!alloc_site_in_branch(s, i, branch) ||
		    !alloc_site_in_modules(s, i, modules, nmodules)) {
			r->sites_outside++;
			continue;
		}
		if (!s->bytes[i] && !s->calls[i]) {
			r->sites_idle++;
			continue;
		}
		r->sites_live++;
		n = alloc_site_row_name(s, i, g, branch, name, sizeof(name));
		id = strtab_intern(&r->names, name, n);
		if (id == r->n) {
			if (r->n == cap) {
				cap = cap ? cap * 2 : 256;
				r->rows = xrealloc(r->rows, cap * sizeof(*r->rows));
			}
			memset(&r->rows[r->n], 0, sizeof(r->rows[0]));
			r->rows[r->n].name = id;
			r->n++;
		}
		row = &r->rows[id];
		row->bytes += s->bytes[i];
		row->calls += s->calls[i];
		row->sites++;
		row->inaccurate |= s->inaccurate[i] != 0;
		r->bytes += s->bytes[i];
		r->calls += s->calls[i];
	}
	if (r->n)
		qsort_r(r->rows, r->n, sizeof(*r->rows), by_bytes, &r->names);
}

void alloc_rows_release(struct alloc_rows *r)
{
	strtab_release(&r->names);
	free(r->rows);
	memset(r, 0, sizeof(*r));
}

static size_t name_site(const void *ctx, uint32_t id, char *out, size_t cap)
{
	const struct alloc_namer *n = ctx;

	return alloc_site_row_name(n->s, id, n->g, n->branch, out, cap);
}

static bool keep_site(const void *ctx, uint32_t id)
{
	const struct alloc_namer *n = ctx;

	return alloc_site_in_branch(n->s, id, n->branch);
}

void alloc_namer_init(struct alloc_namer *n, const struct alloc_series *s, enum alloc_key g,
		      const char *branch)
{
	n->s = s;
	n->g = g;
	n->branch = branch;
	n->namer.name = name_site;
	n->namer.ctx = n;
	n->kept.keep = branch ? keep_site : NULL;
	n->kept.ctx = n;
}
