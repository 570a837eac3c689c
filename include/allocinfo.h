/*
 * allocinfo.h - the kernel's own allocation profile: /proc/allocinfo
 * snapshots (CONFIG_MEM_ALLOC_PROFILING, Linux 6.10 and later), one or a
 * series in time order, read into the live bytes and allocations of each
 * allocation site (a tag: the source line that allocates).
 *
 * A snapshot is a header line "allocinfo - version: M.m" (1.x and 2.x are
 * read; a file without it whose first line has a row's shape is read as
 * 1.0), "#" comment lines, then a row per tag:
 *
 *     "%12lli %8llu " file:line [" [module]"] " func:" name [" key:value"...] " "
 *
 * Version 2 may end a row with "accurate:no": its counters are not exact
 * (their changes are). A key (file, line, module, function) listed twice in
 * one snapshot (an inline function of a header, a tag per file including
 * it) is one site: the rows are summed and counted. A row that does not
 * parse is counted and its first one kept to be named, never used.
 *
 * A series: several files in order, a directory of them (by name, as
 * versionsort(3) orders "snap-2" before "snap-10"), or one file of several
 * snapshots; a line "# trace_analyze allocinfo snapshot: SECONDS s ..."
 * (record --allocinfo writes one before each) gives the next snapshot's
 * time; a snapshot without one comes one second after the one before.
 * Only the last snapshot's values are kept; the reader is told of each
 * snapshot once it is complete (on_snapshot), to sample the series as it
 * goes, so memory stays bounded by the sites, not by the snapshots.
 *
 * Not here: grouping sites into rows (allocgroups.h), reports.
 */
#ifndef TA_ALLOCINFO_H
#define TA_ALLOCINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "input.h"
#include "strtab.h"

#define ALLOCINFO_MAJOR_MAX 2	/* newer major versions are refused */
#define ALLOCINFO_TIME_LINE "# trace_analyze allocinfo snapshot: "

/* Why a kernel has no /proc/allocinfo, as record and top say it. */
#define ALLOCINFO_MISSING_WHY \
	"a kernel without CONFIG_MEM_ALLOC_PROFILING, or older than 6.10"
#define ALLOCINFO_EXAMPLE_MAX 160	/* bytes kept of the first bad row's text */

/* One allocation site: the tag's source line, function and module. */
struct alloc_site {
	uint32_t file;		/* id in alloc_series.names: "fs/ext4/super.c" */
	uint32_t line;
	uint32_t func;		/* id: "ext4_alloc_inode" */
	uint32_t module;	/* id: "ext4"; STR_NONE for built-in code (vmlinux) */
};

/* A row that was not used, named for the summary. */
struct alloc_example {
	char source[256];	/* the file it is in */
	uint64_t line;		/* its line number there */
	char text[ALLOCINFO_EXAMPLE_MAX];
};

struct alloc_series {
	struct strtab names;	/* files, functions, modules */
	struct strtab keys;	/* "file:line func [module]": the id is the site's index */
	struct alloc_site *sites;
	uint32_t nsites, sites_cap;
	/* the last snapshot read, per site (0 for a site it does not list) */
	uint64_t *bytes;		/* live bytes (a negative count is read as 0) */
	uint64_t *calls;		/* live allocations */
	uint8_t *inaccurate;		/* "accurate:no" */
	uint64_t *listed_in;		/* the snapshot (1, 2, ...) that last listed it */
	/* each snapshot, once complete (the last: at alloc_series_finish) */
	void (*on_snapshot)(void *ctx, const struct alloc_series *s);
	void *ctx;
	uint64_t first_ns, last_ns;	/* the first and last snapshot's times */
	/* what was read */
	uint64_t snapshots;		/* snapshots read */
	uint64_t untimed;		/* of them, with no time line */
	uint64_t snapshots_at_file;	/* before the file being read */
	unsigned major, minor;		/* the last snapshot's version */
	uint64_t rows;			/* rows of the last snapshot, duplicates included */
	uint64_t duplicates;		/* rows of the last snapshot added to an earlier one */
	char duplicate_key[256];	/* the first of them */
	uint64_t inaccurate_sites;	/* sites of the last snapshot with accurate:no */
	uint64_t bad_rows;		/* over every snapshot */
	struct alloc_example first_bad;
	uint64_t files;			/* files read */
	char first_source[256], last_source[256];
	uint64_t bytes_read;
	/* reading state */
	uint64_t pending_ns;		/* the time line's, for the next snapshot; 0: none */
	uint64_t snap_bytes, snap_calls;	/* the snapshot's sums so far: never past INT64_MAX */
	uint64_t told;			/* snapshots on_snapshot was told of */
	bool in_snapshot;
};

void alloc_series_init(struct alloc_series *s);
void alloc_series_release(struct alloc_series *s);

/* Does a file's first line (its first n bytes) say an allocinfo snapshot (or its time)? */
bool allocinfo_is_snapshot(const unsigned char *head, size_t n);


/*
 * Every snapshot of an open input into s; name says it in messages. A
 * header of a newer major version, or a file with no row, is an error.
 */
int alloc_series_read(struct alloc_series *s, struct input *in, const char *name,
		      struct ta_error *err);

/*
 * The snapshots of path: a file ("-": standard input), plain or
 * compressed, or a directory of them read by name.
 */
int alloc_series_read_path(struct alloc_series *s, const char *path, struct ta_error *err);

/* After the last snapshot: on_snapshot told of it. */
void alloc_series_finish(struct alloc_series *s);

static inline const char *alloc_name(const struct alloc_series *s, uint32_t id)
{
	return id == STR_NONE ? "vmlinux" : strtab_get(&s->names, id);
}

#endif
