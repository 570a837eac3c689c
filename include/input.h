/*
 * input.h - reading a log (a path, or "-" for standard input) in chunks of
 * whole lines, with the same code for files and pipes.
 *
 * Every input is read(2) into caller-owned chunk buffers (a few MB each,
 * made on first use), so the resident set stays at a few chunks whatever
 * the file's size. Several chunks can be in flight; a chunk always ends
 * with '\n'. A buffer is filled before its chunk is cut (a pipe's read()
 * returns 64 KB at most), so chunks fall where they would in the file:
 * what crosses a chunk boundary is the same however the log is read.
 *
 * A chunk never ends inside a block of lines that belong together (a
 * stack trace's frames under their entry or event): a line the caller's
 * is_continuation() accepts is kept in the chunk of the line before it.
 *
 * A line over INPUT_MAX_LINE bytes that a chunk would not hold is dropped
 * here, and the chunk after it says so (dropped_lines, dropped_bytes), so
 * that line numbers and counts are the same whatever the chunking; a long
 * line a chunk holds is handed on (the parser skips and counts it).
 * Memory stays bounded whatever the line lengths. A last line with no
 * newline, which is how a truncated log ends, is dropped and flagged (its
 * bytes in truncated_bytes).
 *
 * A plain regular file is read at offsets (pread), in two steps: the
 * claim finds where the chunk ends from its last INPUT_TAIL_WINDOW bytes,
 * and the fill reads the rest; so threads that share an input under a
 * lock hold it for the claim only and copy their chunks at once. The
 * chunks are the same as read(2) would cut, and anything the tail does not
 * settle (a long block or line, the file's last chunk) is read as before;
 * so is what a file grew by after it was opened. A file cut between a
 * chunk's claim and its fill is an error ("it got shorter while it was
 * read"); cut at any other moment it reads as the shorter file, as read()
 * would have read it.
 *
 * A gzip, xz or zstd file (or stream) is known by its first bytes and read
 * through a decompressor thread's pipe, as a stream; bytes_read counts the
 * decompressed bytes, input_position() the compressed ones for progress.
 * This module knows nothing of what a line means.
 */
#ifndef TA_INPUT_H
#define TA_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "input_decompress.h"
#include "error.h"

#define INPUT_MAX_LINE (1u << 20)	/* longer lines are skipped */
#define INPUT_CHUNK_SIZE (2u << 20)	/* bytes per chunk buffer: L2-sized reads copy faster */
#define INPUT_READ_SLACK 64	/* readable bytes past a chunk buffer's cap, never data */
#define INPUT_TAIL_WINDOW (64u << 10)	/* a claim's read of a file chunk's end */

struct input {
	const char *name;	/* as given: a path or "-" */
	int fd;
	bool is_stdin;
	bool eof;
	bool skipping;		/* inside an overlong line: drop up to '\n' */
	uint64_t skipped_bytes;	/* of the overlong line being dropped */
	uint64_t pending_lines, pending_bytes;	/* dropped, for the next chunk to say */
	char *carry;		/* partial line carried to the next chunk */
	size_t carry_len;
	uint64_t bytes_read;
	uint64_t truncated_bytes;	/* of the last line, when it had no newline */
	uint64_t size_hint;	/* bytes to read of a file, 0 if unknown (pipe) */
	bool at_offset;		/* next_offset, not the fd's offset, is where reading stands */
	uint64_t next_offset;	/* of the next chunk, while at_offset */
	uint64_t file_end;	/* the file's size when opened */
	bool truncated_last_line;	/* data after the last '\n' was dropped */
	bool is_stream;		/* a pipe or terminal: no size, may never end */
	bool interrupted;	/* a stream ended by SIGINT (input_end_streams_on_interrupt) */
	enum compression compression;	/* of the file as given */
	struct decompressor *dec;	/* when compressed: fd is its pipe */
	int source_fd;		/* when compressed: the file itself */
	/* lines that must stay in the chunk of the line before them; NULL: none */
	bool (*is_continuation)(const char *line, size_t len);
};

struct chunk {
	const char *data;	/* whole lines, the last ending with '\n': in buf */
	size_t len;
	char *buf;		/* the chunk's own buffer, INPUT_READ_SLACK bytes past cap */
	size_t cap;
	uint64_t dropped_lines;	/* overlong lines dropped just before data */
	uint64_t dropped_bytes;	/* their bytes, newlines included */
	uint64_t fill_at;	/* a claimed chunk's first fill_len bytes: still to read, from there */
	size_t fill_len;
};

/* Open path ("-" = stdin). A directory or unreadable file is an error. */
int input_open(struct input *in, const char *path, struct ta_error *err);
/* Read the stream fd (a pipe, closed by input_close); name is for messages. */
int input_open_fd(struct input *in, int fd, const char *name, struct ta_error *err);
void input_close(struct input *in);

void chunk_init(struct chunk *c, size_t cap);
void chunk_release(struct chunk *c);

/*
 * Make the first SIGINT end a stream (pipe, terminal) as if it had reached
 * its end, so that `cat trace_pipe | trace_analyze -f - -c -` reports what it
 * read when stopped with Ctrl-C, as `perf record` does; a second SIGINT
 * kills as usual. Regular files are not affected: Ctrl-C stops the run.
 */
void input_end_streams_on_interrupt(void);

/* Fill c with whole lines: 1 when c->len > 0, 0 at end of input, -1 on error. */
int input_read_chunk(struct input *in, struct chunk *c, struct ta_error *err);

/*
 * input_read_chunk in two steps, for readers that share the input under a
 * lock: the claim (under the lock) cuts the chunk and moves the input on,
 * the fill (after it, on c's own thread) reads what the claim left to read.
 * The fill's error is the file's shrinking under the reader, or the OS's.
 */
int input_claim_chunk(struct input *in, struct chunk *c, struct ta_error *err);
int input_fill_chunk(const struct input *in, struct chunk *c, struct ta_error *err);

/*
 * Up to n of the content's first bytes (decompressed), into head, *got of
 * them, without consuming them: the first chunk still starts with them. A
 * stream is read no further than its first newline (a text log's first
 * line is enough to tell it from a binary file), so a live stream is not
 * waited on. For what the first bytes of a capture tool's file say.
 */
int input_peek(struct input *in, unsigned char *head, size_t n, size_t *got,
	       struct ta_error *err);

/*
 * The whole content, from where reading stands, written to fd (named to
 * in messages): a binary file that came compressed or through a pipe,
 * made a file to be read at random. A cut or damaged compressed stream is
 * an error, as for a log.
 */
int input_copy_to(struct input *in, int fd, const char *to, struct ta_error *err);

/*
 * The whole content of path (plain or compressed) into *text (malloc'd,
 * NUL after its *len bytes); more than max bytes, or a last line without
 * its newline (a cut file), is an error naming it.
 */
int input_read_whole(const char *path, size_t max, char **text, size_t *len,
		     struct ta_error *err);

/* The same, of an input open (from where reading stands); in stays open. */
int input_read_all(struct input *in, size_t max, char **text, size_t *len,
		   struct ta_error *err);

/* How far into the input as given (compressed bytes when it is): for progress. */
uint64_t input_position(const struct input *in);

#endif
