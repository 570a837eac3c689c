/*
 * pass.h - the analyses as passes (perf's struct perf_tool, sqlite's vfs):
 * one entry each, saying what turns it on, how it starts, which events it
 * takes and when, how it ends and lets go, and the part of a DB it keeps.
 * The engine runs the passes the request's needs select, in this order,
 * and knows none of them by name.
 *
 * Replay is the default: a pass without .store is replayed from a DB's
 * events, so a run from a DB never gives a report the log would not. A
 * pass with .store keeps its state at the end of the log in a part of
 * the DB named by it (dbparts.h); a run that may take the DB's state
 * (engine: reads the whole log, rows by call site) takes every pass's
 * part, or replays when any is missing or of another version.
 *
 * A pass's state: a member of struct analysis for the passes that came
 * before this table (the reports read them by name), or .state_size bytes
 * the engine gives it (analysis_pass_state()), so that a new pass adds
 * no member and no flag to struct analysis.
 *
 * Adding a pass: a line in ANALYSIS_PASSES, its file in
 * src/engine/passes/ with its entry, and the NEED_* bit (request.h) that
 * turns it on; docs/HACKING.md walks through --sizes.
 */
#ifndef TA_PASS_H
#define TA_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dbparts.h"
#include "error.h"
#include "event.h"
#include "request.h"

struct db;

struct analysis;

typedef void pass_event_fn(struct analysis *a, const struct kmem_event *ev);

/* Every pass, in the order they start, see each event and finish. */
#define ANALYSIS_PASSES(X)						\
	X(ACCOUNT, account_pass)	/* by call site: every run */	\
	X(LOSSES, losses_pass)		/* when events were lost: every run */ \
	X(ORIGINS, origins_pass)	/* by (call site, stack) */	\
	X(EVENT_KEYS, event_keys_pass)	/* by cache, comm, pid, gfp, module */ \
	X(FINDINGS, findings_pass)	/* the summary's findings, caches */ \
	X(PAGES, pages_pass)		/* the page allocator's account */ \
	X(PAGE_ROWS, page_rows_pass)	/* --page by task, cgroup, module, dir */ \
	X(TIMELINE, timeline_pass)	/* live bytes over time, reclaimable */ \
	X(LIFETIMES, lifetimes_pass)	/* how long the rows' objects lived */ \
	X(PEAK, peak_pass)		/* the peak, each row's own */	\
	X(HEAP, heap_pass)		/* the heap over time, for Perfetto */ \
	X(SIZES, sizes_pass)		/* requested sizes, by power of two */

enum pass_id {
#define PASS_ID(id, entry) PASS_##id,
	ANALYSIS_PASSES(PASS_ID)
#undef PASS_ID
	PASS_COUNT
};

/* A pass's part of a DB: what it writes there and how it reads it back. */
struct pass_store {
	uint32_t version;	/* raised whenever put writes otherwise */
	/* the sizes of the structs put copies whole (up to DB_PART_SIZES): another build's differ */
	void (*sizes)(uint32_t sizes[DB_PART_SIZES]);
	void (*put)(struct db_blob *b, const struct analysis *a);
	/* fill the pass's state (started) from c; false with c->problem set when damaged */
	bool (*take)(struct db_cursor *c, struct analysis *a);
};

struct analysis_pass {
	const char *name;	/* its part's name in a DB, and in messages */
	unsigned need;		/* the analysis_need bits that turn it on (any of them) */
	/* when set, instead of need: does the request turn it on? */
	bool (*wanted)(const struct analysis_request *q);
	size_t state_size;	/* bytes of state of its own (zeroed), or 0 */
	int (*init)(struct analysis *a, struct ta_error *err);
	/* every event read, before the time window and the filters */
	pass_event_fn *every;
	/* each event kept, before any pass's .event */
	pass_event_fn *before;
	/* each event kept, in the table's order */
	pass_event_fn *event;
	void (*finish)(struct analysis *a);	/* after the last event */
	void (*release)(struct analysis *a);
	const struct pass_store *store;	/* NULL: replayed from a DB's events */
};

#define PASS_ENTRY(id, entry) extern const struct analysis_pass entry;
ANALYSIS_PASSES(PASS_ENTRY)
#undef PASS_ENTRY

/* A .wanted of the passes every run has (the account, the losses): needs.c. */
bool pass_always(const struct analysis_request *q);

/* The pass of an id. */
const struct analysis_pass *analysis_pass(enum pass_id id);

/* Does the request turn pass id on? */
bool pass_wanted(enum pass_id id, const struct analysis_request *q);

/* The needs that turn on every pass that keeps a part of a DB. */
unsigned pass_stored_needs(void);

/* ---- the engine's side: the passes of a run ---- */

/* Start every pass the request turns on, in order: 0, or -1 with err (analysis_release lets the started ones go). */
int passes_start(struct analysis *a, struct ta_error *err);

/* Pass id running from here on, started by the caller (a series of snapshots' timeline). */
void passes_mark_running(struct analysis *a, enum pass_id id);

/* After the last event: each running pass's .finish, in order. */
void passes_finish(struct analysis *a);

/* Let every running pass go (any time after analysis_init). */
void passes_release(struct analysis *a);

/*
 * --save-db: the parts of the running passes that keep one, into parts
 * (PASS_COUNT of them, their bytes in blobs); how many. Zero when a
 * pass that keeps one is not running: the DB then keeps none.
 */
size_t passes_parts(const struct analysis *a, struct db_part *parts, struct db_blob *blobs);

/*
 * --db-file: every running pass's state from the DB's parts: 1 taken;
 * 0 when a running pass keeps no part, or the DB keeps none of this
 * build for one (*why then says so, or is NULL when it keeps none at all):
 * the events are replayed; -1 with err when a part is damaged.
 */
int passes_take_parts(struct analysis *a, struct db *db, char *why, size_t cap,
		      struct ta_error *err);

#endif
