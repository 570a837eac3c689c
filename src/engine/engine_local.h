/*
 * engine_local.h - what the engine's own files share and nobody else
 * calls: the run's parts split by concern (rows_of.c, dbpolicy.c,
 * sources.c, symbols_load.c, warnings.c, engine.c).
 */
#ifndef TA_ENGINE_LOCAL_H
#define TA_ENGINE_LOCAL_H

#include <stdbool.h>
#include <sys/stat.h>

#include "engine.h"

static inline bool is_directory(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The input's name as messages give it. */
static inline const char *input_name(const struct analysis *r)
{
	return r->input.is_stdin ? "standard input" : r->req->log_path;
}

/*
 * Put every call site that allocated where its function is defined (or,
 * by origin, every origin key where its origin function is), and add its
 * bytes to that directory (rows_of.c).
 */
void analysis_place_call_sites(struct analysis *r);

/* dispatch.c */
/* Is ev's pointer live in the order's map (tickorder.h's question)? */
int run_pointer_is_live(void *ctx, const struct kmem_event *ev);
/* Every event read, in log order: into the tick's pairing order. */
void run_consume_event(void *ctx, const struct kmem_event *ev);
/* Each event in pairing order: saved, filtered, to the passes. */
void run_consume_ordered(void *ctx, const struct kmem_event *ev);
/* Does a report need every event, rather than the accounts a DB keeps? */
bool run_needs_event_stream(const struct analysis_request *o);
/* The optional fields (text_parse.h WANT_*) the request needs parsed. */
unsigned run_fields_wanted(const struct analysis_request *o);

/* dbpolicy.c */
/* What a saving run turns on so that the DB keeps every pass's part. */
unsigned run_saving_needs(void);
/* Does this --save-db run keep the passes' parts too? */
bool run_saves_parts(const struct analysis_request *o);
/* --save-db: the writer the events go to as they come. */
int run_start_saving(struct analysis *r, struct ta_error *err);
/* --save-db after the last event: the tables, accounts and parts. */
int run_finish_saving(struct analysis *r, struct ta_error *err);
/* --db-file: the parts taken, or the events replayed, or the account alone. */
int run_read_db(struct analysis *r, struct ta_error *err);

/* sources.c */
/* The last part of path. */
const char *run_base_name(const char *path);
/* --allocinfo: the snapshot read beside the log. */
int run_read_beside(struct analysis *r, struct ta_error *err);
/* -f (or record's capture): every event of the source to the dispatch. */
int run_read_log(struct analysis *r, struct ta_error *err);
/*
 * --group-by cgroup, --cgroup: the map of tasks to cgroups, and the fork
 * events of --forks and of the log itself (a text file).
 */
int run_read_task_cgroups(struct analysis *r, struct ta_error *err);
/* --page-owner: page_owner's dump read beside the log, its blocks by pfn. */
int run_read_page_owner_beside(struct analysis *r, struct ta_error *err);
/* --kmemleak: kmemleak's report read beside the log. */
int run_read_kmemleak_beside(struct analysis *r, struct ta_error *err);
/* --ledger of a log: record's snapshots beside it, a series of one boot. */
int run_read_snapshots_beside(struct analysis *r, struct ta_error *err);

/* kernel_load.c */
/* Are the log's call sites of the tree's build? A warning, or with --strict-kernel an error. */
int run_check_kernel_match(const struct analysis *a, struct ta_error *err);

/* warnings.c */
/* A log with no kmem event: an error naming the events it has. */
int run_check_it_is_a_kmem_log(const struct analysis *r, struct ta_error *err);
/* Addresses no symbol named: how many, and why. */
void run_warn_about_unresolved_addresses(const struct analysis *r);
/* --group-by cgroup, --cgroup: how the allocations' tasks' cgroups were found. */
void run_say_how_cgroups_were_found(const struct analysis *r);
/* --time that kept no event. */
void run_warn_about_an_empty_window(const struct analysis *a);
/* --peak-at outside the log's clock: an error. */
int run_check_peak_at(const struct analysis *a, struct ta_error *err);

#endif
