/*
 * allocsnap.h - record --allocinfo: snapshots of /proc/allocinfo saved as
 * the recording goes (at its start, every --interval, at its end), into one
 * file of the series form allocinfo.h reads, each snapshot after a line
 * "# trace_analyze allocinfo snapshot: SECONDS s (CLOCK_MONOTONIC)". The
 * file is committed with the log (whole, or not at all).
 *
 * Not here: reading snapshots back (allocinfo.h), the recording.
 */
#ifndef TA_ALLOCSNAP_H
#define TA_ALLOCSNAP_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "outfile.h"

struct allocinfo_saver {
	const char *source;	/* /proc/allocinfo, or TA_TEST_ALLOCINFO's file */
	struct outfile out;
	bool open;
	uint64_t taken;		/* snapshots saved */
	char *buf;
	size_t cap;
};

/*
 * Ready to save into path: 0; 1 when there is no /proc/allocinfo to read
 * (a kernel without CONFIG_MEM_ALLOC_PROFILING), nothing made; -1 on error.
 */
int allocinfo_saver_open(struct allocinfo_saver *s, const char *path, struct ta_error *err);

/* One snapshot, now. */
int allocinfo_saver_take(struct allocinfo_saver *s, struct ta_error *err);

/* The file whole (commit), or none (abort); both release s. */
int allocinfo_saver_commit(struct allocinfo_saver *s, struct ta_error *err);
void allocinfo_saver_abort(struct allocinfo_saver *s);

#endif
