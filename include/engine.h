/*
 * engine.h - one log (or DB, or record's live capture) analysed, as a
 * request (request.h) asks: the kernel tree and System.map loaded, every
 * event passed through the accounts the request needs, call sites placed
 * in the tree. Reports read the struct; nothing here writes one, reads
 * the command line or knows which reports are asked for.
 *
 * Order: analysis_init, analysis_load_kernel, then (with a log or a DB)
 * analysis_read; analysis_release at the end whatever happened.
 */
#ifndef TA_ENGINE_H
#define TA_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "allocinfo.h"
#include "binread.h"
#include "callchain.h"
#include "db.h"
#include "dirtree.h"
#include "error.h"
#include "findings.h"
#include "input.h"
#include "kmemleak.h"
#include "ksnapshot.h"
#include "ktree.h"
#include "origins.h"
#include "pass.h"
#include "losses.h"
#include "pageowner.h"
#include "pages.h"
#include "peak.h"
#include "text_reader.h"
#include "regroup.h"
#include "request.h"
#include "rows.h"
#include "symbols.h"
#include "taskcgroups.h"
#include "reclaim.h"
#include "tickorder.h"
#include "timeline.h"

/* What the summary and warnings say of the log, from the input or a DB. */
struct log_facts {
	const char *source;	/* the log's path, "standard input", or the DB's */
	const char *made_from;	/* for a DB: the log it was made from */
	const char *log_name;	/* the log's path as the chart title names it */
	struct db_input_facts input;
	const char *compression;	/* "gzip", "xz", "zstd" for a compressed log, else NULL */
	uint64_t compressed_bytes;	/* then: the bytes of the file as given */
	const struct binread_facts *binary;	/* a trace.dat or perf.data read, else NULL */
};

/* A page block of a page_owner dump read beside a log (--page-owner). */
struct page_owner_block {
	uint64_t pfn, ts_ns;
	uint32_t stack;
	int8_t order;
};

/*
 * -f of several page_owner files, in time order: each one's pages held
 * per stack (ids of trace_strings.stacks, shared by all), for --growth;
 * the last one is also read as a single file is (--page, --flame...).
 */
struct page_owner_series {
	const char **names;		/* the files, in order */
	uint64_t **pages;		/* [file][stack id]: base pages held */
	uint32_t *nstacks;		/* [file]: the length of its row of pages */
	size_t nfiles;
	struct strtab rows;		/* the rows' names (analysis_stack_row_name) */
	uint32_t *row_of_stack;		/* stack id -> id in rows */
	uint32_t nstack_rows;
};

struct analysis {
	const struct analysis_request *req;
	uint32_t passes_on;		/* 1 << enum pass_id: the passes running (pass.h) */
	void *pass_state[PASS_COUNT];	/* a pass's own state (its .state_size), or NULL */
	/* the running passes' hooks, in the table's order (pass.h) */
	pass_event_fn *every[PASS_COUNT], *before[PASS_COUNT], *on_event[PASS_COUNT];
	unsigned nevery, nbefore, non_event;
	const struct analysis_request *asked;	/* the request as made: what the run reports */
	struct analysis_request saving_req;	/* --save-db: that, and what the DB keeps */
	struct trace_strings strings;
	struct read_result read;
	struct account account;
	struct tick_order ticks;	/* each tick's events in pairing order (tickorder.h) */
	struct ptrmap order_live;	/* the order's live pointers, when the account sees a part */
	bool have_order_live;
	struct loss_windows losses;	/* when events were lost (losses.h) */
	struct peak_watch peak;		/* NEED_PEAK: the rows account's peak (peak.h) */
	struct strtab peak_groups;	/* the peak's groups: the rows' names as first seen */
	uint32_t *first_place;		/* --group-by dir: 1 + a call site's place, found then */
	uint32_t nfirst_place;
	struct heap_samples heap;	/* NEED_HEAP_SAMPLES: the heap over time (heapsamples.h) */
	struct lifetimes lifetimes;	/* NEED_LIFETIMES: of the rows account's objects */
	struct symbol_table syms;	/* System.map (-k, --system-map), else --kallsyms */
	struct symbol_table kallsyms;	/* --kallsyms, when System.map came first */
	char *modules_text;		/* --modules, read: for a trace.dat's own kallsyms too */
	size_t modules_len;
	struct binread_facts binary;	/* of a trace.dat or perf.data read */
	bool have_binary;
	char *map_path;		/* System.map actually used, or NULL */
	char *shown_name;	/* the log's name made valid UTF-8, when it was not */
	char *series_name;		/* a series of snapshots as titles name it: first ... last (N) */
	struct kernel_tree ktree;
	bool have_ktree;	/* walked or loaded from an index */
	struct dirtree dirs;
	bool have_dirs;
	uint32_t branch;	/* -b node, or 0: the whole tree */
	uint32_t *site_place;	/* call-site id -> dirtree node */
	uint32_t *key_place;	/* origin key -> dirtree node (--group-by origin) */
	uint32_t *kernel_part;	/* DB stack -> the stack without user frames */
	uint32_t kernel_part_cap;
	struct callchains chains;	/* what stack frames mean */
	struct origin_keys keys;	/* (call site, stack) of allocations */
	struct account by_key;	/* the allocations counted by origin key */
	/* --group-by cache, size-class, comm, pid, gfp: the keys' names, their account */
	struct strtab cache_keys;
	struct account by_cache;
	enum event_key cache_key;	/* what those keys are */
	struct db db;		/* --db-file */
	bool have_db;
	unsigned replay_want;	/* the fields a replayed event keeps (enum parse_want) */
	struct db_writer *saving;	/* --save-db */
	struct ta_error save_error;
	bool save_failed;
	struct log_facts facts;	/* of the log read, or of the one the DB was made from */
	struct findings findings;	/* --summary */
	struct page_stats pages;	/* --page */
	struct timeline timeline;	/* --timeline, --html; growth for --summary, --outstanding */
	struct reclaim_counts reclaim;	/* with the timeline: allocations from reclaimable caches */
	uint64_t first_ns, last_ns;	/* timestamps of the events counted */
	uint64_t log_first_ns, log_last_ns;	/* with --time or --peak-at: of every event read */
	uint64_t in_window[KMEM_KIND_COUNT];	/* events counted, by kind (--time) */
	uint64_t outside_window;
	uint64_t unnamed_cache_allocs;	/* kmem_cache_alloc* without name=, by cache */
	/* --comm, --pid, --gfp: the pointers (pfns of pages) allocated by others */
	struct ptrmap filtered_out;
	bool have_filters;
	uint64_t filtered_allocs, filtered_frees;
	struct input input;
	/* -f of /proc/allocinfo snapshots: no events, the sites' live bytes (allocinfo.h) */
	struct alloc_series snapshots;
	bool have_snapshots;
	struct timeline_values snapshot_values;	/* the timeline's of them: the sites' bytes */
	struct alloc_series beside;	/* --allocinfo: a snapshot beside the log (beside.h) */
	/* --group-by cgroup, --cgroup: each task's cgroup (taskcgroups.h) */
	struct task_cgroups tasks;
	bool have_tasks;
	uint64_t cgroup_via[3];		/* allocations by how their task's was found */
	/*
	 * -f of kernel snapshots (folders with meminfo, or one of their files):
	 * no events (ksnapshot.h); several are a series of one boot, in time order
	 */
	bool from_page_owner;		/* page_owner's file: its pages are the stacks drawn */
	struct page_owner_series po_series;	/* -f of several page_owner files */
	struct page_owner_handles po_handles;	/* --stack-handles: show_handles' stacks */
	/* --page-owner: page_owner's dump beside the log, its blocks by pfn (pageownerreport.h) */
	struct page_owner_block *po_blocks;
	size_t npo_blocks, po_cap;
	bool have_page_owner;
	const char *page_owner_source;
	/* --kmemleak: its report beside the log (kmemleakreport.h) */
	struct kmemleak_report kmemleak;
	bool have_kmemleak;
	const char *kmemleak_source;
	struct kernel_snapshot *ksnaps;
	uint32_t nksnaps;
	bool have_ksnap;
	bool have_beside;
	double started;
	double last_progress;
	bool progress_shown;
};

/* The names rows are reported under: call sites, functions, origins or caches. */
struct namers {
	struct callsite_namer cs;
	const struct analysis *dirs;	/* --group-by dir: call sites by directory */
	struct origin_namer on;
	struct strtab_namer caches;
	struct row_namer namer;
};

/* Does the run have pass id running? */
static inline bool analysis_runs(const struct analysis *a, enum pass_id id)
{
	return a->passes_on >> id & 1;
}

/* Pass id's own state (pass.h: .state_size), or NULL when it is not running. */
static inline void *analysis_pass_state(const struct analysis *a, enum pass_id id)
{
	return a->pass_state[id];
}

/*
 * The directory function name[0..n) is defined in, as --group-by dir
 * names it (module: as its frame named it, or NULL); "(not in the tree)".
 */
size_t analysis_dir_of_function(struct analysis *r, const char *name, size_t n,
				const char *module, char *out, size_t cap);

/*
 * The row of a stack by its origin, as --group-by asks: the origin's
 * module (module), the directory that defines it (dir, with -k), else
 * the origin. Into out; returns the length.
 */
size_t analysis_stack_row_name(struct analysis *r, uint32_t stack, char *out, size_t cap);

/* The peak watcher's group of a row id (peak_pass.c): its row's name as first seen. */
uint32_t analysis_peak_group(void *ctx, uint32_t id);

/*
 * The parts of the passes' state a DB keeps (dbparts.h), each read and
 * checked as a run would take it: 0, or -1 with err naming the damage.
 */
int analysis_check_db_parts(const char *db_path, struct ta_error *err);

void analysis_init(struct analysis *a, const struct analysis_request *req);
void analysis_release(struct analysis *a);

/* -k and --system-map: the tree (walked or from its index), its directories. */
int analysis_load_kernel(struct analysis *a, struct ta_error *err);

/* -f or --db-file: every event through the accounts; warnings on stderr. */
int analysis_read(struct analysis *a, struct ta_error *err);

/* Are the rows origins (--group-by origin): the account by origin key? */
static inline bool analysis_by_origin(const struct analysis *a)
{
	return a->req->group_by == GROUP_ORIGIN;
}

/* The account the rows come from, for req->group_by, and how they are named. */
const struct account *analysis_rows_account(const struct analysis *a, struct namers *n);


/* Does the request need the summary's findings? */
bool analysis_needs_findings(const struct analysis_request *q);

/* Does the request need the log's stack traces (its needs, or --group-by origin)? */
bool analysis_needs_stacks(const struct analysis_request *q);

/*
 * May acc (an account of rows other than call sites) share the account's
 * live objects (account_share_live)? When it counts the same families and
 * no task filter takes objects out of one and not the other.
 */
static inline bool analysis_account_shareable(const struct analysis *a, const struct account *acc)
{
	return !a->have_filters && acc->families == a->account.families && !a->account.shared.of;
}

/* Does it need the slab allocations by origin (not only the pages' origins, as --page does)? */
bool analysis_needs_slab_origins(const struct analysis_request *q);

/* Is there a time window (--time)? Asked of every event. */
static inline bool analysis_time_window_set(const struct analysis_request *q)
{
	return q->has_time_start || q->has_time_end;
}

/* Does the request need live bytes over time (timeline.h)? */
bool analysis_needs_timeline(const struct analysis_request *q);

/* The log's file name as titles give it ("standard input" for a pipe). */
const char *analysis_log_name(const struct analysis *a);

double analysis_clock(void);

#endif
