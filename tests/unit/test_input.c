/*
 * test_input.c - chunks of whole lines: every line comes out once and
 * intact across chunk boundaries; an overlong line and a truncated last
 * line are dropped and counted. Each case runs twice: on the file and on
 * a pipe from `cat`.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "input.h"

static char path[256];

static int make_path(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/ta-input-%ld", P_tmpdir, (long)getpid());
	return 0;
}

/* A pipe from `cat path` on standard input, or the file itself. */
struct source {
	FILE *cat;
	int saved_stdin;
};

static void open_source(struct input *in, struct source *src, bool as_stream)
{
	struct ta_error err;
	char cmd[300];

	src->cat = NULL;
	if (as_stream) {
		snprintf(cmd, sizeof(cmd), "cat '%s'", path);
		src->cat = popen(cmd, "r");
		assert_non_null(src->cat);
		src->saved_stdin = dup(STDIN_FILENO);
		dup2(fileno(src->cat), STDIN_FILENO);
	}
	assert_int_equal(input_open(in, as_stream ? "-" : path, &err), 0);
	assert_int_equal(in->is_stream, as_stream);
}

static void close_source(struct input *in, struct source *src)
{
	input_close(in);
	if (src->cat) {
		dup2(src->saved_stdin, STDIN_FILENO);
		close(src->saved_stdin);
		pclose(src->cat);
	}
}

static int remove_file(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

/* Line i: "line <i> " followed by (i * 37) % 300 letters. */
static size_t write_line(FILE *f, unsigned i)
{
	static char letters[300];
	size_t k;

	for (k = 0; k < sizeof(letters); k++)
		letters[k] = (char)('a' + k % 26);
	size_t n = (size_t)fprintf(f, "line %u ", i);

	fwrite(letters, 1, (i * 37) % 300, f);
	fputc('\n', f);
	return n + (i * 37) % 300 + 1;
}

static unsigned dropped;	/* overlong lines the input dropped, in the last read_all */

/*
 * Read the whole file; returns the bytes of whole lines seen, checks each
 * ordinary line's number; lines of 100000 bytes or more are counted in
 * *long_lines (the parser drops those over INPUT_MAX_LINE that a chunk holds),
 * lines the input dropped in `dropped`.
 */
static uint64_t read_all(struct input *in, unsigned *lines_seen, unsigned *long_lines)
{
	struct chunk c;
	struct ta_error err;
	uint64_t bytes = 0;
	int got;

	chunk_init(&c, INPUT_CHUNK_SIZE);
	*lines_seen = 0;
	*long_lines = 0;
	dropped = 0;
	while ((got = input_read_chunk(in, &c, &err)) > 0) {
		dropped += (unsigned)c.dropped_lines;
		const char *p = c.data, *end = c.data + c.len;

		assert_true(c.len > 0 && end[-1] == '\n');
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			unsigned n;

			if (nl - p < 100000) {	/* an ordinary line: its number in order */
				assert_int_equal(sscanf(p, "line %u ", &n), 1);
				assert_int_equal(n, *lines_seen);
				(*lines_seen)++;
			} else {
				(*long_lines)++;
			}
			p = nl + 1;
		}
		bytes += c.len;
	}
	assert_int_equal(got, 0);
	dropped += (unsigned)in->pending_lines;
	chunk_release(&c);
	return bytes;
}

static void lines_cross_chunk_boundaries_intact(void **state)
{
	FILE *f = fopen(path, "w");
	struct input in;
	struct source src;
	uint64_t written = 0;
	unsigned i, seen, long_lines;

	(void)state;
	for (i = 0; written < 3 * (uint64_t)INPUT_CHUNK_SIZE + 12345; i++)
		written += write_line(f, i);
	fclose(f);
	for (int stream = 0; stream < 2; stream++) {
		open_source(&in, &src, stream);
		assert_int_equal(read_all(&in, &seen, &long_lines), written);
		assert_int_equal(seen, i);
		assert_int_equal(long_lines, 0);
		assert_int_equal(dropped, 0);
		assert_false(in.truncated_last_line);
		close_source(&in, &src);
	}
}

static void put_long_line(FILE *f, size_t len)
{
	char *x = malloc(len);

	memset(x, 'x', len);
	fwrite(x, 1, len, f);
	fputc('\n', f);
	free(x);
}

/*
 * A line over INPUT_MAX_LINE that a buffer does not hold whole is dropped
 * by the input and counted with the next chunk; a long line that fits a
 * chunk may be handed on whole (the parser drops and counts it). Either
 * way both long lines are counted once, and the lines around survive.
 */
static void overlong_lines_never_split_their_neighbours(void **state)
{
	FILE *f = fopen(path, "w");
	struct input in;
	struct source src;
	unsigned i, seen, long_lines;

	(void)state;
	for (i = 0; i < 1000; i++)
		write_line(f, i);
	put_long_line(f, 2 * (size_t)INPUT_CHUNK_SIZE + 7);	/* cannot fit a chunk */
	for (; i < 2000; i++)
		write_line(f, i);
	put_long_line(f, (size_t)INPUT_MAX_LINE + 10);	/* fits a chunk */
	for (; i < 3000; i++)
		write_line(f, i);
	fclose(f);
	for (int stream = 0; stream < 2; stream++) {
		open_source(&in, &src, stream);
		read_all(&in, &seen, &long_lines);
		assert_int_equal(seen, 3000);
		assert_true(dropped >= 1);	/* the line longer than a chunk, at least */
		assert_int_equal(long_lines + dropped, 2);
		close_source(&in, &src);
	}
}

static void truncated_last_line_is_dropped(void **state)
{
	FILE *f = fopen(path, "w");
	struct input in;
	struct source src;
	uint64_t written = 0;
	unsigned i, seen, long_lines;

	(void)state;
	for (i = 0; i < 10; i++)
		written += write_line(f, i);
	fputs("line 10 bytes_alloc=13", f);	/* no newline */
	fclose(f);
	for (int stream = 0; stream < 2; stream++) {
		open_source(&in, &src, stream);
		assert_int_equal(read_all(&in, &seen, &long_lines), written);
		assert_int_equal(seen, 10);
		assert_true(in.truncated_last_line);
		close_source(&in, &src);
	}
}

/* A stack frame under its event, as the text reader's is_continuation sees one. */
static bool is_frame(const char *line, size_t len)
{
	return len >= 3 && memcmp(line, " =>", 3) == 0;
}

/* One chunk as a reader sees it: where it ends, what was dropped before it, a hash of it. */
struct chunk_seen {
	size_t len;
	uint64_t dropped_lines, dropped_bytes, hash;
};

struct chunks_seen {
	struct chunk_seen at[64];
	unsigned n;
	unsigned claimed_by_offset;	/* claims that left bytes to fill */
	uint64_t bytes_read;
};

static uint64_t fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (n--)
		h = (h ^ (unsigned char)*p++) * 0x100000001b3ull;
	return h;
}

/* Every chunk of in, claimed then filled as the text reader's threads do. */
static void claim_every_chunk(struct input *in, struct chunks_seen *seen)
{
	struct chunk c;
	struct ta_error err;
	int got;

	memset(seen, 0, sizeof(*seen));
	in->is_continuation = is_frame;
	chunk_init(&c, INPUT_CHUNK_SIZE);
	while ((got = input_claim_chunk(in, &c, &err)) > 0) {
		seen->claimed_by_offset += c.fill_len > 0;
		assert_int_equal(input_fill_chunk(in, &c, &err), 0);
		assert_true(seen->n < 64);
		seen->at[seen->n++] = (struct chunk_seen){ c.len, c.dropped_lines, c.dropped_bytes,
							   fnv1a(c.data, c.len) };
	}
	assert_int_equal(got, 0);
	seen->bytes_read = in->bytes_read;
	chunk_release(&c);
}

/*
 * A plain file's chunks are cut from their tails and read at their
 * offsets; they must be the chunks a pipe gives, byte for byte, whatever
 * falls near a cut: blocks of frames (one longer than the tail a claim
 * reads), long lines, lines too long for a chunk, a cut last line.
 */
static void a_files_chunks_are_a_pipes_chunks(void **state)
{
	FILE *f = fopen(path, "w");
	struct input in;
	struct source src;
	struct chunks_seen by[3];
	unsigned i, k, frames;

	(void)state;
	srand(60);
	for (i = 0; i < 60000; i++) {
		write_line(f, i);
		frames = rand() % 4 ? 0 : (unsigned)(rand() % 40);
		if (i % 9000 == 4500)
			frames = 3000;	/* about 100 KB of frames: more than a claim's tail */
		for (k = 0; k < frames; k++)
			fprintf(f, " => frame_%u+0x%x/0x400\n", k, i);
		if (i % 15000 == 7000)
			put_long_line(f, (size_t)INPUT_MAX_LINE + 10 + i);	/* fits a chunk */
		if (i == 31000)
			put_long_line(f, 2 * (size_t)INPUT_CHUNK_SIZE + 7);	/* cannot fit one */
	}
	fputs("line 60000 cut", f);
	fclose(f);
	for (int way = 0; way < 3; way++) {	/* the file, a pipe, the file as standard input */
		int saved = -1;

		if (way == 2) {
			saved = dup(STDIN_FILENO);
			assert_true(freopen(path, "r", stdin) != NULL);
			assert_int_equal(input_open(&in, "-", &(struct ta_error){ 0 }), 0);
			src.cat = NULL;
		} else {
			open_source(&in, &src, way == 1);
		}
		claim_every_chunk(&in, &by[way]);
		assert_true(in.truncated_last_line);
		if (way == 2) {
			input_close(&in);
			dup2(saved, STDIN_FILENO);
			close(saved);
		} else {
			close_source(&in, &src);
		}
	}
	assert_true(by[0].n > 10);
	assert_true(by[0].claimed_by_offset > by[0].n / 2);	/* the file was read at offsets */
	assert_true(by[0].claimed_by_offset < by[0].n);	/* and not only: long blocks, the end */
	assert_int_equal(by[1].claimed_by_offset, 0);
	for (int way = 1; way < 3; way++) {
		assert_int_equal(by[way].n, by[0].n);
		for (i = 0; i < by[0].n; i++) {
			assert_int_equal(by[way].at[i].len, by[0].at[i].len);
			assert_int_equal(by[way].at[i].dropped_lines, by[0].at[i].dropped_lines);
			assert_int_equal(by[way].at[i].dropped_bytes, by[0].at[i].dropped_bytes);
			assert_true(by[way].at[i].hash == by[0].at[i].hash);
		}
		assert_true(by[way].bytes_read == by[0].bytes_read);
	}
}

/* A file cut between a chunk's claim and its fill is an error that says so, not a short chunk. */
static void a_file_cut_while_read_is_an_error(void **state)
{
	FILE *f = fopen(path, "w");
	struct input in;
	struct chunk c;
	struct ta_error err;
	unsigned i;

	(void)state;
	for (i = 0; i < 40000; i++)
		write_line(f, i);
	fclose(f);
	assert_int_equal(input_open(&in, path, &err), 0);
	chunk_init(&c, INPUT_CHUNK_SIZE);
	assert_int_equal(input_claim_chunk(&in, &c, &err), 1);
	assert_true(c.fill_len > 0);
	assert_int_equal(truncate(path, 1000), 0);
	assert_int_equal(input_fill_chunk(&in, &c, &err), -1);
	assert_string_equal(err.msg + strlen(err.msg) - strlen(": it got shorter while it was read"),
			    ": it got shorter while it was read");
	chunk_release(&c);
	input_close(&in);
}

static void missing_file_and_directory_are_errors(void **state)
{
	struct input in;
	struct ta_error err;

	(void)state;
	assert_int_equal(input_open(&in, "/nonexistent/kmem.log", &err), -1);
	assert_string_equal(err.msg, "cannot open '/nonexistent/kmem.log': No such file or directory");
	assert_int_equal(input_open(&in, "/", &err), -1);
	assert_string_equal(err.msg, "cannot read '/': Is a directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(lines_cross_chunk_boundaries_intact, make_path, remove_file),
		cmocka_unit_test_setup_teardown(overlong_lines_never_split_their_neighbours, make_path, remove_file),
		cmocka_unit_test_setup_teardown(truncated_last_line_is_dropped, make_path, remove_file),
		cmocka_unit_test_setup_teardown(a_files_chunks_are_a_pipes_chunks, make_path, remove_file),
		cmocka_unit_test_setup_teardown(a_file_cut_while_read_is_an_error, make_path, remove_file),
		cmocka_unit_test(missing_file_and_directory_are_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
