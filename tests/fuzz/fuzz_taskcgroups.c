/*
 * fuzz_taskcgroups.c - a libFuzzer target for the maps of tasks to cgroups
 * and the fork logs (taskcgroups.h): any bytes as a pid map and as a fork
 * log, read or refused; what is read is asked for the cgroup of a few
 * tasks at a few moments, which must end (no loop through a parent cycle)
 * and give a path when it gives one. No crash, leak, hang or undefined
 * behaviour whatever the bytes.
 *
 * Its seeds are the cgroups fixture's pids and forks.log
 * (tests/fuzz/make-built-seeds.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "taskcgroups.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct task_cgroups t;
	struct ta_error err;
	enum cgroup_via via;
	int32_t pid;

	path = fuzz_file_of("taskcgroups", data, size);
	task_cgroups_init(&t);
	task_cgroups_read_map(&t, path, &err);
	task_cgroups_read_forks(&t, path, &err);
	task_cgroups_ready(&t);
	for (pid = -1; pid < 1000; pid += 37) {
		const char *cg = task_cgroup_of(&t, pid, 1000000000ull * (uint64_t)(pid & 15), &via);

		if (cg && cg[0] != '/')
			abort();
		if (!cg && via != CGROUP_VIA_NONE)
			abort();
	}
	task_cgroups_release(&t);
	return 0;
}
