/*
 * request.h - what the engine is asked to compute, and from what: where
 * the events come from (a log, a DB, record's live capture), the tree,
 * the filters, the grouping, the time window, and the needs of the
 * reports chosen (enum analysis_need, which the commands take from the
 * report table). The engine reads this, never the command line, and never
 * tests an output path. No behaviour here.
 */
#ifndef TA_REQUEST_H
#define TA_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rows.h"	/* enum order_key */

enum group_by {
	GROUP_CALLSITE,		/* function+0xoffset, as trace_analyze.py */
	GROUP_FUNCTION,		/* the offsets of a function merged */
	GROUP_ORIGIN,		/* who is behind the allocator and its wrappers */
	GROUP_CACHE,		/* the slab cache (name=, or kmalloc's size class) */
	GROUP_DIR,		/* the kernel tree's directory (with -k) */
	GROUP_SIZE_CLASS,	/* the kmalloc size class of bytes_alloc: kmalloc-8 ... kmalloc-8k */
	GROUP_COMM,		/* the task's name, as the log prints it */
	GROUP_PID,		/* the task: "comm-pid", as ftrace prints it */
	GROUP_GFP,		/* the gfp_flags string */
	GROUP_MODULE,		/* the loadable module of the call site, "vmlinux" when built in */
	GROUP_FILE,		/* an allocinfo site's source file */
	GROUP_CGROUP,		/* the task's cgroup (taskcgroups.h) */
};

/* Is a row keyed by a field of the event itself, rather than by its call site? */
static inline bool group_is_by_event_field(enum group_by g)
{
	return g == GROUP_CACHE || g == GROUP_SIZE_CLASS || g == GROUP_COMM || g == GROUP_PID ||
	       g == GROUP_GFP || g == GROUP_MODULE || g == GROUP_CGROUP;
}

/*
 * --comm, --pid, --gfp: the allocations kept (any of the names, any of the
 * pids, any of the flags among the allocation's gfp_flags); the frees of
 * the others are dropped with them. Lists of up to TASK_FILTER_MAX.
 */
#define TASK_FILTER_MAX 64
struct task_filters {
	char comm[TASK_FILTER_MAX][64];
	size_t ncomm;
	int pid[TASK_FILTER_MAX];
	size_t npid;
	char gfp[TASK_FILTER_MAX][64];
	size_t ngfp;
	char module[TASK_FILTER_MAX][64];	/* --module: "vmlinux" for built-in code */
	size_t nmodule;
	char cgroup[TASK_FILTER_MAX][256];	/* --cgroup: a path, itself and below */
	size_t ncgroup;
};

static inline bool task_filters_set(const struct task_filters *f)
{
	return f->ncomm || f->npid || f->ngfp || f->nmodule || f->ncgroup;
}

/* What the chosen reports need of the run, beyond the account every run makes. */
enum analysis_need {
	NEED_OBJECTS = 1u << 0,		/* the tree's objects walked, call sites placed in it */
	NEED_FINDINGS = 1u << 1,	/* the summary's findings and slab caches */
	NEED_STACKS = 1u << 2,		/* allocations by (call site, stack): origins */
	NEED_EVENTS = 1u << 3,		/* every event replayed, not a DB's saved accounts */
	NEED_TIMELINE = 1u << 4,	/* live bytes over time, reclaimable caches */
	NEED_PAGES = 1u << 5,		/* page events parsed */
	NEED_PAGE_ACCOUNT = 1u << 6,	/* the page allocator's account (pages.h) */
	NEED_GFP = 1u << 7,		/* gfp_flags parsed */
	NEED_PEAK = 1u << 8,		/* the peak of live bytes and each row's part (peak.h) */
	NEED_LIFETIMES = 1u << 9,	/* how long each row's objects lived (lifetimes.h) */
	NEED_HEAP_SAMPLES = 1u << 10,	/* the heap over time for a trace viewer (heapsamples.h) */
	NEED_SIZES = 1u << 11,		/* slab allocations by requested size (sizes.h) */
	NEED_PAGE_ORIGINS = 1u << 12,	/* page allocations' origin keys; no slab account by them */
};

struct analysis_request {
	/* where the events come from */
	const char *log_path;		/* -f: a path, or "-" for stdin */
	char *const *more_logs;		/* allocinfo snapshots after log_path's, in time order */
	const char *allocinfo_path;	/* --allocinfo: a snapshot put beside the log's account */
	size_t nmore_logs;
	const char *db_path;		/* --db-file: instead of -f */
	const char *save_db;		/* --save-db: also store the events there */
	bool salvage;			/* --salvage: an unfinished perf.data's whole records */
	/* record: the events come from the capture, not from -f (log_path only names the log) */
	const struct live_source *live;
	/* the kernel */
	const char *kernel;		/* -k: a built kernel tree, or its index */
	const char *system_map;		/* --system-map */
	const char *kallsyms_path;	/* --kallsyms: a saved /proc/kallsyms */
	const char *modules_path;	/* --modules: a saved /proc/modules (where each lies) */
	/* the tasks' cgroups (taskcgroups.h) */
	const char *cgroup_map_path;	/* --cgroup-map: pid, comm, cgroup line */
	const char *cgroup_map_more;	/* a map for the pids the first lacks (record's start) */
	const char *kmemleak_path;	/* --kmemleak: kmemleak's report of the same boot */
	const char *page_owner_path;	/* --page-owner: page_owner's dump of the same boot */
	const char *stack_handles_path;	/* --stack-handles: show_stacks_handles, for show_handles */
	/* --ledger of a log: record's snapshots beside it (LOG.snapshot-start, -end), in order */
	const char *ksnap_beside[2];
	size_t nksnap_beside;
	const char *forks_path;		/* --forks: a log of sched_process_fork events */
	bool strict_kernel;		/* --strict-kernel: a log of another build is an error */
	/* what to compute */
	unsigned needs;			/* enum analysis_need */
	unsigned families;		/* enum account_family: --malloc, --cache */
	enum group_by group_by;		/* --group-by */
	enum order_key order;		/* -o: how the rows are sorted */
	const char *branch;		/* -b: a directory of the kernel tree */
	const char *wrappers_path;	/* --wrappers: more wrapper functions */
	bool user_frames;		/* --user-frames: perf's user-space frames too */
	bool has_peak_at;		/* --peak-at: the rows at this time, not at the peak */
	uint64_t peak_at_ns;
	bool has_time_start, has_time_end;	/* --time START,END */
	uint64_t time_start_ns, time_end_ns;
	struct task_filters filters;	/* --comm, --pid, --gfp */
	bool quiet;			/* -q: no warning or note of the reading */
	int threads;			/* --threads: 0 = as many as pay */
};

#endif
