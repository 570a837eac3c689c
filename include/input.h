/*
 * input.h - reading a log (a path, or "-" for standard input) in chunks of
 * whole lines, with the same code for files and pipes.
 *
 * Chunks are caller-owned buffers so that several can be in flight; a
 * chunk always ends with '\n'. A line too long to hold (over
 * INPUT_MAX_LINE bytes) is dropped and counted; so is a last line with no
 * newline, which is how a truncated log ends. This module knows nothing
 * of what a line means.
 */
#ifndef TA_INPUT_H
#define TA_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

#define INPUT_MAX_LINE (1u << 20)	/* longer lines are skipped */
#define INPUT_CHUNK_SIZE (4u << 20)	/* bytes per chunk buffer */

struct input {
	const char *name;	/* as given: a path or "-" */
	int fd;
	bool is_stdin;
	bool eof;
	bool skipping;		/* inside an overlong line: drop up to '\n' */
	char *carry;		/* partial line carried to the next chunk */
	size_t carry_len;
	uint64_t bytes_read;
	uint64_t overlong_lines;	/* lines dropped for length here */
	uint64_t size_hint;	/* file size, 0 if unknown (pipe) */
	bool truncated_last_line;	/* data after the last '\n' was dropped */
	bool is_stream;		/* a pipe or terminal: no size, may never end */
	bool interrupted;	/* a stream ended by SIGINT (input_end_streams_on_interrupt) */
};

struct chunk {
	char *data;
	size_t len;		/* whole lines, the last ending with '\n' */
	size_t cap;
};

/* Open path ("-" = stdin). A directory or unreadable file is an error. */
int input_open(struct input *in, const char *path, struct ta_error *err);
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

#endif
