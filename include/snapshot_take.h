/*
 * snapshot_take.h - a kernel snapshot taken from the running kernel (or a
 * copy of its files under a test root): /proc's memory files and every
 * cgroup v2 group's memory.stat and memory.current copied byte for byte
 * into a new folder, named as there, with a "snapshot" file of its own:
 * when (CLOCK_MONOTONIC, CLOCK_REALTIME), which host, kernel release and
 * boot, what was copied, and what could not be and why. No parsing here
 * (ksnapshot.h reads the folder); nothing is traced.
 */
#ifndef TA_SNAPSHOT_TAKE_H
#define TA_SNAPSHOT_TAKE_H

#include <stdint.h>

#include "error.h"

struct snapshot_taken {
	unsigned files;		/* /proc files copied */
	unsigned missing;	/* /proc files that could not be */
	unsigned cgroups;	/* groups whose memory files were copied */
	uint64_t bytes;		/* copied, all told */
};

/*
 * Take one into the folder dir (made; an existing one must be empty):
 * 0, or -1 with err (no /proc/meminfo, a folder that cannot be made or
 * written). root: "" for the running kernel, else a folder holding proc/
 * and sys/fs/cgroup/ as the kernel lays them out (tests).
 */
int snapshot_take(const char *dir, const char *root, struct snapshot_taken *out,
		  struct ta_error *err);

/*
 * A snapshot beside a recording's log (record: LOG.snapshot-start and
 * LOG.snapshot-end): taken into a folder of its own first (tmp, made from
 * final's name), then put in final's place when the log is kept
 * (snapshot_commit; a snapshot folder there before is replaced, anything
 * else there is left and refused), or removed when it is not.
 */
int snapshot_take_beside(const char *final, const char *root, char *tmp, size_t cap,
			 struct ta_error *err);
int snapshot_commit(const char *tmp, const char *final, struct ta_error *err);

/* Remove a folder a snapshot was taken into, and what it holds (nothing else). */
void snapshot_remove(const char *dir);

#endif
