/*
 * taskcgroups.h - which cgroup a traced task was in: a map of pids to
 * cgroups taken at one moment (lines "pid<TAB>comm<TAB>/proc/PID/cgroup's
 * line", as 'trace_analyze snapshot' writes its pids file and the corpus
 * its pid-cgroup files), and the sched_process_fork events of a text log
 * (a --forks file, or the kmem log itself), so that a task gone before the
 * map was taken takes its parent's cgroup at its fork.
 *
 * A task's cgroup at a moment: the map's, when the map lists its pid and no
 * fork of that pid comes after the moment (the map is then of this task:
 * it says where the task was when the map was taken, moves included);
 * else its parent's at its last fork before the moment, asked the same way
 * (up to 64 generations); else unknown. A pid reused after the moment is
 * a later task's: the map's line is not used for it.
 *
 * Not here: grouping or filtering the allocations (regroup.h, the engine).
 */
#ifndef TA_TASKCGROUPS_H
#define TA_TASKCGROUPS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "strtab.h"

struct task_cgroup {
	int32_t pid;
	uint32_t path;		/* id in task_cgroups.paths: "/a/b", "/" for the root */
	uint32_t map;		/* which map said it: 0 the first read */
};

struct task_fork {
	int32_t child, parent;
	uint64_t ts_ns;
};

struct task_cgroups {
	struct strtab paths;
	struct task_cgroup *map;	/* by pid once ready */
	uint32_t nmap, map_cap;
	uint32_t maps;			/* maps read */
	struct task_fork *forks;	/* by child, then time, once ready */
	uint64_t nforks, forks_cap;
	bool have_map;
	char map_source[600];		/* the maps' files, as given: "'a'", "'a' then 'b'" */
	uint64_t fork_files;		/* files whose fork lines were read */
};

/* How a task's cgroup was found. */
enum cgroup_via { CGROUP_VIA_MAP, CGROUP_VIA_FORK, CGROUP_VIA_NONE };

void task_cgroups_init(struct task_cgroups *t);
void task_cgroups_release(struct task_cgroups *t);

/*
 * The map at path (plain or compressed): 0, or -1 with err naming the line
 * that is not "pid<TAB>comm<TAB>N:controllers:path" (cgroup v2's "0::/a",
 * or v1's memory controller line). A second map serves the pids the first
 * lacks (record's start for the tasks gone at its end); the source named
 * is the first's.
 */
int task_cgroups_read_map(struct task_cgroups *t, const char *path, struct ta_error *err);

/*
 * The sched_process_fork lines of the text log at path (ftrace's, trace-cmd
 * report's, perf script's; every other line passed over): 0, or -1 with
 * err (cannot be read, or a fork line without its pids or time).
 */
int task_cgroups_read_forks(struct task_cgroups *t, const char *path, struct ta_error *err);

/* After the reads: sorted for the questions below. */
void task_cgroups_ready(struct task_cgroups *t);

/* The cgroup of pid at ts_ns, and how it was found; NULL when unknown. */
const char *task_cgroup_of(const struct task_cgroups *t, int32_t pid, uint64_t ts_ns,
			   enum cgroup_via *via);

/* Is path cgroup, or below it ("/a/b" is below "/a"; everything is below "/")? */
bool cgroup_is_within(const char *path, const char *cgroup);

#endif
