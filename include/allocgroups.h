/*
 * allocgroups.h - the rows an allocinfo series is reported in: its sites
 * grouped by --group-by (the site, its function, file, directory or
 * module), cut to -b DIR by the sites' own source paths (no tree needed),
 * summed from the last snapshot and sorted, largest first.
 *
 * Keys: a site is "file:line func" (" [module]" after a module's); a
 * function "func" (" [module]"); a file its path; a directory the first
 * component of the path (with -b DIR, the component under DIR, or the
 * file when it lies in DIR itself); a module its name, "vmlinux" for
 * built-in code.
 *
 * Not here: reading the snapshots (allocinfo.h), writing reports.
 */
#ifndef TA_ALLOCGROUPS_H
#define TA_ALLOCGROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "allocinfo.h"
#include "rows.h"

/* What a row is: --group-by callsite, function, file, dir, module. */
enum alloc_key { ALLOC_BY_SITE, ALLOC_BY_FUNCTION, ALLOC_BY_FILE, ALLOC_BY_DIR, ALLOC_BY_MODULE };

/* Site i's row name under grouping g, below branch (NULL: the whole tree). */
size_t alloc_site_row_name(const struct alloc_series *s, uint32_t i, enum alloc_key g,
			   const char *branch, char *out, size_t cap);

/* Is site i's source file under branch ("fs", "fs/ext4/"; NULL: every site)? */
bool alloc_site_in_branch(const struct alloc_series *s, uint32_t i, const char *branch);

/* A row: the sites of one key, summed. */
struct alloc_row_sum {
	uint32_t name;		/* id in alloc_rows.names */
	uint64_t bytes, calls;	/* live, at the last snapshot */
	uint32_t sites;		/* sites summed (with something live) */
	bool inaccurate;	/* one of them said accurate:no */
};

struct alloc_rows {
	struct strtab names;
	struct alloc_row_sum *rows;	/* largest first, then by name */
	uint32_t n;
	uint64_t bytes, calls;		/* of every row */
	uint64_t sites_live;		/* sites with bytes or allocations live */
	uint64_t sites_idle;		/* sites listed with nothing live: not in a row */
	uint64_t sites_outside;		/* sites outside -b */
};

void alloc_rows_build(struct alloc_rows *r, const struct alloc_series *s, enum alloc_key g,
		      const char *branch);

/* alloc_rows_build() of the sites of these modules only (--module); the others count as outside. */
void alloc_rows_build_in(struct alloc_rows *r, const struct alloc_series *s, enum alloc_key g,
			 const char *branch, const char (*modules)[64], size_t nmodules);
void alloc_rows_release(struct alloc_rows *r);

/* The names and -b filter timeline_rows_build() takes, for the series' timeline. */
struct alloc_namer {
	const struct alloc_series *s;
	enum alloc_key g;
	const char *branch;
	struct row_namer namer;
	struct row_filter kept;
};

void alloc_namer_init(struct alloc_namer *n, const struct alloc_series *s, enum alloc_key g,
		      const char *branch);

#endif
