/*
 * binfile.h - the container of every binary file trace_analyze writes and
 * reads back (the DB file, the kernel index): DESIGN.md section 6.
 *
 * Layout (all integers in the writer's byte order, which must be ours):
 *
 *   offset 0   struct binfile_header (64 bytes): magic, format version,
 *              endianness marker, integer sizes, section count, where the
 *              section table is, the file's size, the table's checksum
 *   ...        the sections' bytes, each starting on an 8-byte boundary
 *   table      struct binfile_entry per section: id, offset, length and
 *              XXH3-64 checksum of its bytes
 *
 * Files are written through outfile.h: to a temporary file renamed into
 * place at commit, so a crash never leaves a half file under the final name. They are read by
 * mmap; binfile_open checks magic, version, byte order, sizes, truncation
 * and the section table. A kind that reads every section (the kernel
 * index) has every checksum checked there too; a kind with lazy_checks
 * (the DB) has each section's checksum checked on its first use through
 * binfile_read_section or binfile_check_sections, so that a report reads
 * only the sections it needs; bytes are never handed out unchecked.
 * What a section holds is the caller's business.
 */
#ifndef TA_BINFILE_H
#define TA_BINFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "outfile.h"

#define BINFILE_MAGIC_LEN 8
#define BINFILE_ENDIAN_MARK 0x01020304u
#define BINFILE_ALIGN 8

struct binfile_header {
	char magic[BINFILE_MAGIC_LEN];
	uint16_t major, minor;		/* a reader refuses a newer major */
	uint32_t endian;		/* BINFILE_ENDIAN_MARK as written */
	uint8_t int_sizes[8];		/* sizeof short, int, long, long long, void *, size_t, double, 0 */
	uint32_t nsections;
	uint32_t reserved;
	uint64_t table_offset;
	uint64_t file_size;
	uint64_t table_checksum;	/* XXH3-64 of the section table */
	uint64_t header_checksum;	/* XXH3-64 of the bytes above */
};

struct binfile_entry {
	uint32_t id;
	uint32_t flags;			/* 0; for future use */
	uint64_t offset;
	uint64_t length;
	uint64_t checksum;		/* XXH3-64 of the section's bytes */
};

/* ---- writing -------------------------------------------------------------- */

struct binfile_writer {
	struct outfile out;		/* the temporary file, renamed at commit */
	uint64_t pos;			/* bytes written so far */
	struct binfile_entry *entries;
	uint32_t nentries, cap;
	bool in_section;
	void *hash_state;		/* XXH3 state of the open section */
	char *buf;			/* write buffer */
	size_t buf_len;
	char magic[BINFILE_MAGIC_LEN];
	uint16_t major, minor;
};

/* Start writing path; nothing appears under path before commit. */
int binfile_create(struct binfile_writer *w, const char *path, const char *magic,
		   uint16_t major, uint16_t minor, struct ta_error *err);

/* Sections are written one after the other: begin, write..., end. */
int binfile_begin_section(struct binfile_writer *w, uint32_t id, struct ta_error *err);
int binfile_write(struct binfile_writer *w, const void *data, size_t len, struct ta_error *err);
int binfile_end_section(struct binfile_writer *w, struct ta_error *err);

/* A whole section at once. */
int binfile_add_section(struct binfile_writer *w, uint32_t id, const void *data, size_t len,
			struct ta_error *err);

/* Write the table and header, flush, and rename into place. */
int binfile_commit(struct binfile_writer *w, struct ta_error *err);

/* Give up: remove the temporary file. Safe after commit (does nothing). */
void binfile_abort(struct binfile_writer *w);

/* ---- reading -------------------------------------------------------------- */

struct binfile {
	const char *path;
	const char *what;		/* the kind's name, for messages */
	const unsigned char *map;
	size_t size;
	uint16_t major, minor;
	const struct binfile_entry *table;
	uint32_t nsections;
	bool *checked;			/* per section: its checksum was found good */
};

/* What a reader accepts: the kind of file, and the versions it can read. */
struct binfile_kind {
	const char *magic;		/* BINFILE_MAGIC_LEN bytes */
	uint16_t min_major, max_major;	/* majors this program reads */
	const char *what;		/* "DB file", "kernel index": for messages */
	const char *remake;		/* how to make a current one: "--save-db" */
	bool lazy_checks;		/* check each section's checksum on first use */
};

/*
 * Map path and check it against kind: a wrong magic, a major version out
 * of range, another byte order or integer size, truncation, a bad header
 * or table, or (unless kind->lazy_checks) any bad section checksum is
 * refused, err saying what is wrong and naming the file (and, for an old
 * version, how to make the file again).
 */
/*
 * Whether path is a regular file beginning with magic (BINFILE_MAGIC_LEN
 * bytes): which kind of binary file it is, before anything else is read.
 * Never waits on a pipe, never fails: false when it cannot tell.
 */
bool binfile_has_magic(const char *path, const char *magic);

int binfile_open(struct binfile *f, const char *path, const struct binfile_kind *kind,
		 struct ta_error *err);
void binfile_close(struct binfile *f);

/*
 * The bytes of section id, or NULL (with *len = 0) if the file has none.
 * Only for a file whose checksums were all checked (no lazy_checks, or
 * after binfile_check_all).
 */
const void *binfile_section(const struct binfile *f, uint32_t id, size_t *len);

/*
 * The bytes of section id, its checksum checked on first use: 0 with
 * *data (NULL when the file has no such section), or -1 with err saying
 * which section is damaged.
 */
int binfile_read_section(struct binfile *f, uint32_t id, const void **data, size_t *len,
			 struct ta_error *err);

/* Check the sections whose ids are in ids[0..n) (two threads for many bytes). */
int binfile_check_sections(struct binfile *f, const uint32_t *ids, size_t n,
			   struct ta_error *err);

/* Check every section. */
int binfile_check_all(struct binfile *f, struct ta_error *err);

/* The reader is done with [data, data + len) of the map: its pages may go. */
void binfile_release(const struct binfile *f, const void *data, size_t len);

#endif
