/*
 * dbparts.h - the report data a DB keeps beside its events (DESIGN.md
 * section 6): one part per analysis pass that stores its state (pass.h),
 * each named and versioned by its pass, in a section of its own, listed in
 * a directory section; and the words a pass writes and reads its part
 * with. A run that asks no other view of the log takes the parts of the
 * passes it runs instead of replaying every event.
 *
 * The directory: magic "TAPARTS1", then per part its name (24 bytes), the
 * pass's version, the sizes of the structs it copies whole (a build whose
 * sizes differ passes it over and replays), and its section. DBs of the
 * previous layout (one stamp "TARESLT2" for every part) are known as such.
 *
 * Writing: a growing blob of words, arrays with their length, live maps
 * in their order. Reading: a cursor that checks every length against the
 * bytes left and fails once, naming the first problem; ids are checked
 * against the tables before use, so a damaged part is refused, never
 * half-read. Not here: what a part holds (each pass's own), which run may
 * take them (the engine), the file and its checksums (db.c, binfile.c).
 */
#ifndef TA_DBPARTS_H
#define TA_DBPARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "account.h"
#include "binfile.h"
#include "error.h"
#include "pagemap.h"
#include "ptrmap.h"

#define DB_PART_NAME_MAX 24	/* with its NUL */
#define DB_PART_SIZES 8		/* struct sizes and constants a part's layout is stamped with */

/* A part as the writer is given it. */
struct db_part {
	const char *name;
	uint32_t version;
	uint32_t sizes[DB_PART_SIZES];
	const void *data;
	size_t len;
};

/* What a DB keeps: no part, parts of the previous layout, or a directory of parts. */
enum db_parts_kept { DB_PARTS_NONE, DB_PARTS_OLD_LAYOUT, DB_PARTS_LISTED };

/* Write parts[0..n) as sections base + 1 ..., their directory as base. */
int db_parts_write(struct binfile_writer *f, uint32_t base, const struct db_part *parts,
		   size_t n, struct ta_error *err);

/* Which of the three f keeps at base (its directory's checksum checked): -1 with err if damaged. */
int db_parts_kept(struct binfile *f, uint32_t base, enum db_parts_kept *kept,
		  struct ta_error *err);

/*
 * The part named name of f's directory at base: 1 with its bytes (checked)
 * and *version, *sizes as kept; 0 when it keeps none so named; -1 with err.
 */
int db_parts_find(struct binfile *f, uint32_t base, const char *name, uint32_t *version,
		  uint32_t sizes[DB_PART_SIZES], const void **data, size_t *len,
		  struct ta_error *err);

/* ---- writing a part ---- */

struct db_blob {
	unsigned char *p;
	size_t len, cap;
};

void db_put(struct db_blob *b, const void *data, size_t n);
void db_put_u64(struct db_blob *b, uint64_t v);
void db_put_array(struct db_blob *b, const void *data, uint64_t count, size_t size);	/* count first */
void db_pad8(struct db_blob *b);	/* zeros to the next 8-byte boundary */
void db_put_live_map(struct db_blob *b, const struct ptrmap *m);	/* the live records, in order */
void db_put_page_map(struct db_blob *b, const struct pagemap *m);	/* the live pages, as struct live_page */
void db_put_account(struct db_blob *b, const struct account *a);
/* Rows (n of size bytes) up to the last that holds anything. */
uint32_t db_rows_used(const void *rows, uint32_t n, size_t size);

/* ---- reading a part ---- */

struct db_cursor {
	const unsigned char *p, *end;
	const char *problem;		/* the first one met, or NULL */
};

bool db_fail(struct db_cursor *c, const char *problem);	/* false, and the cursor at its end */
const void *db_take(struct db_cursor *c, size_t n);
uint64_t db_take_u64(struct db_cursor *c);
bool db_take_into(struct db_cursor *c, void *out, size_t n);
/* A counted array of at most max, copied into memory of its own (at least one byte). */
void *db_take_array(struct db_cursor *c, size_t size, uint64_t max, uint32_t *count);
/* Live records, read in place when aligned; each one's row below nrows (or STR_NONE if none_ok). */
bool db_take_live_map(struct db_cursor *c, struct ptrmap *m, uint32_t nrows, bool none_ok);
/* Live pages into m (initialised, empty); each one's id below nrows (or STR_NONE if none_ok). */
bool db_take_page_map(struct db_cursor *c, struct pagemap *m, uint32_t nrows, bool none_ok);
/* An account (initialised, empty) as the pass left it, rows below nrows; checked to add up. */
bool db_take_account(struct db_cursor *c, struct account *a, uint32_t nrows);
/* Rows that hold something only below limit: ids the tables have. */
bool db_rows_within(struct db_cursor *c, const void *rows, uint32_t n, size_t size,
		    uint32_t limit);

/* No kernel allocates 2^53 bytes or objects: counts past that are damage. */
#define DB_COUNT_LIMIT (1ull << 53)

#endif
