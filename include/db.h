/*
 * db.h - the DB file (--save-db / --db-file): every parsed event of a log,
 * its string tables, what its header and the parse said, and the account
 * of every family filter, so a re-run needs no parsing (DESIGN.md §6).
 *
 * A binfile (binfile.h: magic "TAKMEMDB", version, endianness, integer
 * sizes, a checksum per section, written to a temporary name and renamed)
 * with sections:
 *    1 META        struct db_meta: counts, parse statistics, the log's
 *                  header, input facts (overlong lines, truncated end)
 *    2 SOURCE      the name of the log it was made from
 *    3-6           call sites, cache names, task names, GFP strings:
 *                  NUL-terminated, in id order
 *    7 EVENTS      one packed 62-byte record per event (slab, page-allocator,
 *                  lost-event and buffer-started markers), in log order
 *    9-11          the account of all slab events, of --malloc and of
 *                  --cache: struct db_account then struct site_stats per
 *                  call-site id
 *    1 << 24 ...   PARTS: the analysis passes' state at the end of the log,
 *                  a part per pass that stores one, named and versioned by
 *                  it, and their directory (dbparts.h); kept when the run
 *                  that saved the DB read the whole log
 * Every section is checksummed on opening, so no number ever comes from a
 * damaged file. Loading maps the file; records are fixed-size structs read
 * in place, never parsed.
 * Not here: what reports make of the events.
 */
#ifndef TA_DB_H
#define TA_DB_H

#include <stdbool.h>
#include <stdint.h>

#include "formats.h"
#include "account.h"
#include "binfile.h"
#include "dbparts.h"
#include "error.h"
#include "event.h"
#include "text_parse.h"

#define DB_MAJOR 3	/* 3: the results sections; 2 is read too */
#define DB_MINOR 0

/* Input facts the summary reports, as the run that made the DB saw them. */
struct db_input_facts {
	uint64_t overlong_lines;
	uint64_t truncated_last_line;	/* 0 or 1 */
	uint64_t first_malformed_line;
	uint64_t interrupted;		/* 0 or 1 */
	uint64_t bytes_read;
};

/* What a binary capture the DB was made from said of itself; kind 0: a text log. */
struct db_capture_facts {
	uint64_t kind;			/* enum binary_kind (binread.h) */
	uint64_t version, records, lost_records;
	char os_release[80];
};

struct db_writer;

/*
 * Start writing path. Every event the run parses goes to db_writer_add,
 * in log order; the writer keeps the accounts of the family filters other
 * than the run's own (run_families), which db_writer_finish takes.
 */
struct db_writer *db_writer_create(const char *path, unsigned run_families, bool user_frames,
				   struct ta_error *err);
int db_writer_add(struct db_writer *w, const struct kmem_event *ev, struct ta_error *err);

/*
 * Finish: strings, statistics, and the three accounts (the run's own, of
 * families `families`, is taken from run_account rather than kept twice).
 */
int db_writer_finish(struct db_writer *w, const char *source, const struct trace_strings *strings,
		     const struct parse_stats *stats, const struct trace_header *header,
		     const struct db_input_facts *facts, const struct db_capture_facts *capture,
		     uint64_t reordered, const struct account *run_account, unsigned families,
		     const struct db_part *parts, size_t nparts, struct ta_error *err);

/* Give up (on an error elsewhere): nothing is left under the final name. */
void db_writer_abort(struct db_writer *w);

struct db {
	struct binfile file;
	char *source;			/* the log it was made from */
	struct parse_stats stats;
	struct trace_header header;
	struct db_input_facts facts;
	struct db_capture_facts capture;	/* zero: made from a text log (or an old DB) */
	uint64_t reordered;		/* events the log's reading put in pairing order */
	uint64_t nevents;
	bool user_frames;		/* its stacks keep perf's user frames */
};

/*
 * Open and check path; fill strings (which must be empty) with its tables.
 * The checksums checked are those of the sections read: the header, its
 * tables and strings; an account's section is checked when it is loaded,
 * the events when they are replayed, everything by db_check_all. A report
 * that does not need a damaged section is still right.
 */
int db_open(struct db *db, const char *path, struct trace_strings *strings,
	    struct ta_error *err);
void db_close(struct db *db);

/* The saved account of families into a (initialised, empty); ncall_sites: the table's size. */
int db_load_account(struct db *db, unsigned families, uint32_t ncall_sites,
		    struct account *a, struct ta_error *err);

/* Which parts of the passes' state the DB keeps (dbparts.h); -1 with err. */
int db_parts_kept_by(struct db *db, enum db_parts_kept *kept, struct ta_error *err);

/*
 * The part a pass named name kept: 1 with its bytes, version and sizes;
 * 0 when the DB keeps none so named; -1 with err when it is damaged.
 */
int db_find_part(struct db *db, const char *name, uint32_t *version,
		 uint32_t sizes[DB_PART_SIZES], const void **data, size_t *len,
		 struct ta_error *err);

/* Check the events' checksums (db_replay does it first). */
int db_check_events(struct db *db, struct ta_error *err);

/*
 * Check every section's checksum, every account section and every event
 * record (what the passes' parts hold is theirs to check: the engine's
 * analysis_check_db_parts).
 */
int db_check_all(struct db *db, const struct trace_strings *strings, struct ta_error *err);

/* Hand every saved event to fn, in log order (strings: as db_open filled them). */
int db_replay(struct db *db, const struct trace_strings *strings,
	      void (*fn)(void *ctx, const struct kmem_event *ev), void *ctx,
	      struct ta_error *err);

#endif
