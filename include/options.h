/*
 * options.h - everything the command line says, in one struct, filled by
 * main() and read by the pipeline. No behaviour here.
 */
#ifndef TA_OPTIONS_H
#define TA_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output.h"	/* enum out_format */
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
};

/* Is a row keyed by a field of the event itself, rather than by its call site? */
static inline bool group_is_by_event_field(enum group_by g)
{
	return g == GROUP_CACHE || g == GROUP_SIZE_CLASS || g == GROUP_COMM || g == GROUP_PID ||
	       g == GROUP_GFP;
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
};

static inline bool task_filters_set(const struct task_filters *f)
{
	return f->ncomm || f->npid || f->ngfp;
}

/* What a folded stack or a flame graph box weighs (--weight). */
enum stack_weight {
	WEIGHT_BYTES,		/* bytes_alloc of the allocations */
	WEIGHT_LIVE,		/* bytes still held at the end (current_dynamic) */
	WEIGHT_WASTE,		/* current_dynamic - current_req, as the account's waste */
	WEIGHT_COUNT,		/* allocations */
};

struct options {
	const char *log_path;		/* -f: a path, or "-" for stdin */
	const char *db_path;		/* --db-file: instead of -f */
	const char *save_db;		/* --save-db */
	const char *kernel;		/* -k: a built kernel tree */
	const char *system_map;		/* --system-map */
	const char *kallsyms_path;	/* --kallsyms: a saved /proc/kallsyms */
	bool salvage;			/* --salvage: an unfinished perf.data's whole records */
	const char *account_path;	/* -c: a path, or "-" for stdout */
	enum order_key order;		/* -o */
	unsigned families;		/* enum account_family: --malloc, --cache */
	enum group_by group_by;		/* --group-by */
	const char *wrappers_path;	/* --wrappers: more wrapper functions */
	bool user_frames;		/* --user-frames: perf's user-space frames too */
	const char *folded_path;	/* --folded: slab allocations as folded stacks */
	const char *folded_pages_path;	/* --folded-pages: page allocations */
	const char *flame_path;		/* --flame: a flame graph, PNG/SVG/PDF */
	const char *pprof_path;		/* --pprof: a heap profile for go tool pprof */
	const char *timeline_path;	/* --timeline: live bytes over time, PNG/SVG/PDF */
	const char *html_path;		/* --html: one self-contained interactive report */
	bool strict_kernel;		/* --strict-kernel: a log of another build is an error */
	enum stack_weight weight;	/* --weight */
	uint64_t page_size;		/* --page-size, bytes (default 4096) */
	enum out_format format;		/* --format */
	const char *branch;		/* -b: a directory of the kernel tree */
	const char *callers_path;	/* -l: a path, or "-" for stdout */
	const char *rings_path;		/* -r: PNG, SVG or PDF */
	int rings_attr;			/* -a: enum size_attr, -1 = the default */
	bool rings_show;		/* -i */
	const char *save_index;		/* --save-index */
	const char *summary_path;	/* --summary */
	const char *stats_path;		/* --stats */
	const char *outstanding_path;	/* --outstanding */
	const char *page_path;		/* --page */
	uint64_t min_age_ns;		/* --min-age */
	size_t top;			/* --top: 0 = every row */
	bool has_time_start, has_time_end;	/* --time START,END */
	uint64_t time_start_ns, time_end_ns;
	struct task_filters filters;	/* --comm, --pid, --gfp */
	bool quiet;			/* -q: no summary */
	bool record_brief;		/* record with no report asked: the top callers and
					   the slab bytes on standard output */
	/* set by subcommands, not by options of their own: */
	bool place_in_tree;		/* walk the tree's objects even with no report asking */
	bool replay_events;		/* from a DB, replay the events (first/last timestamps) */
	int threads;			/* --threads: 0 = as many as pay */
	/* trace_analyze record: the events come from the capture, not from -f */
	const struct live_source *live;	/* log_path only names the log */
};

/* Was any report, or a DB or an index, asked for? (The run's summary aside.) */
static inline bool options_ask_for_an_output(const struct options *o)
{
	return o->account_path || o->callers_path || o->rings_path || o->stats_path ||
	       o->summary_path || o->outstanding_path || o->page_path || o->folded_path ||
	       o->folded_pages_path || o->flame_path || o->pprof_path || o->timeline_path ||
	       o->html_path || o->save_db || o->save_index;
}

#endif
