/*
 * input.c - chunked line reading from a file or a pipe.
 *
 * Files and streams alike are read into caller-owned chunk buffers, with
 * a carry for the line cut by a buffer's end; a plain file's chunks are
 * cut from their tails and read at their offsets (pread), so that reader
 * threads copy at once rather than in turn under their lock. (Mapping files was
 * measured three times. First, page-by-page faults and unmapping cost 4-5 times
 * the copy of read(). Then, on a 2.74 GB capture, the whole file mapped
 * once with MADV_SEQUENTIAL and parsed in place: one thread 2.10-2.15 s
 * against 2.16 s with read(), two threads 1.28-1.38 s against 1.25-1.46 s,
 * and a peak RSS of 2.7 GB instead of 67 MB, since mapped pages count.
 * Last, each claimed chunk mapped with MAP_POPULATE and unmapped at the
 * next: one thread 0.96 times the CPU of pread, two threads 0.99 times the
 * time, for 2 MB more RSS. Too little to pay for the SIGBUS of a file that
 * shrinks under a map.)
 * The buffer goes on INPUT_READ_SLACK bytes past its chunk, so that the
 * parser may load whole words at the end of the last line. Not here:
 * line splitting inside a chunk, parsing, progress output.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "testhook.h"

/* Set by the SIGINT handler: a global, as signals require. */
static volatile sig_atomic_t interrupt_seen;

static void note_interrupt(int sig)
{
	(void)sig;
	interrupt_seen = 1;
	signal(SIGINT, SIG_DFL);	/* the next Ctrl-C kills */
}

void input_end_streams_on_interrupt(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = note_interrupt;	/* no SA_RESTART: read() returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

static const char *display_name(const struct input *in)
{
	return in->is_stdin ? "standard input" : in->name;
}

/* A regular file's first bytes (from where it is read) say whether it is compressed. */
static bool regular_file_is_compressed(struct input *in, off_t at)
{
	unsigned char head[COMPRESSION_MAGIC_MAX];
	ssize_t n = pread(in->fd, head, sizeof(head), at);

	in->compression = n > 0 ? compression_of(head, (size_t)n) : COMPRESSION_NONE;
	return in->compression != COMPRESSION_NONE;
}

/* From now on the input is the decompressor's pipe; head (already read) comes first. */
static int read_through_decompressor(struct input *in, const unsigned char *head, size_t n,
				     struct ta_error *err)
{
	int out;

	in->dec = decompressor_start(in->compression, in->fd, head, n, display_name(in), &out, err);
	if (!in->dec) {
		input_close(in);
		return -1;
	}
	in->source_fd = in->fd;
	in->fd = out;
	return 0;
}

static bool stream_interrupted_while_waiting(struct input *in);

/*
 * A stream shows its format only by being read: its first bytes are read
 * here, and go to the decompressor or, for a plain log, to the carry that
 * the first chunk starts with.
 */
static int look_at_stream_start(struct input *in, struct ta_error *err)
{
	unsigned char head[COMPRESSION_MAGIC_MAX];
	size_t n = 0;

	while (n < sizeof(head) && !in->eof) {
		if (stream_interrupted_while_waiting(in))
			break;
		ssize_t r = read(in->fd, head + n, sizeof(head) - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			input_close(in);
			return error_set_errno(err, e, "cannot read '%s'", display_name(in));
		}
		if (r == 0)
			in->eof = true;
		n += (size_t)r;
		if (n > 0 && memchr(head, '\n', n))
			break;	/* a short first line: a text log, no more to wait for */
	}
	in->compression = compression_of(head, n);
	if (in->compression != COMPRESSION_NONE) {
		in->eof = false;	/* of the source: the pipe is still to be read */
		return read_through_decompressor(in, head, n, err);
	}
	memcpy(in->carry, head, n);
	in->carry_len = n;
	in->bytes_read = n;
	return 0;
}

int input_open(struct input *in, const char *path, struct ta_error *err)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->name = path;
	if (strcmp(path, "-") == 0) {
		in->is_stdin = true;
		in->fd = STDIN_FILENO;
	} else {
		in->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (in->fd < 0)
			return error_set_errno(err, errno, "cannot open '%s'", path);
	}
	if (fstat(in->fd, &st) < 0) {
		int e = errno;

		input_close(in);
		return error_set_errno(err, e, "cannot read '%s'", path);
	}
	if (S_ISDIR(st.st_mode)) {
		input_close(in);
		return error_set_errno(err, EISDIR, "cannot read '%s'", path);
	}
	in->source_fd = -1;
	in->carry = xmalloc(INPUT_MAX_LINE + 1);
	if (S_ISREG(st.st_mode)) {
		off_t at = lseek(in->fd, 0, SEEK_CUR);	/* stdin may be part read */

		if (at < 0 || at > st.st_size)
			at = 0;
		in->size_hint = (uint64_t)(st.st_size - at);
		posix_fadvise(in->fd, at, 0, POSIX_FADV_SEQUENTIAL);
		if (regular_file_is_compressed(in, at))
			return read_through_decompressor(in, NULL, 0, err);
		in->file_end = (uint64_t)st.st_size;
		return 0;
	}
	in->is_stream = true;
	return look_at_stream_start(in, err);
}

int input_open_fd(struct input *in, int fd, const char *name, struct ta_error *err)
{
	memset(in, 0, sizeof(*in));
	in->name = name;
	in->fd = fd;
	in->source_fd = -1;
	in->carry = xmalloc(INPUT_MAX_LINE + 1);
	in->is_stream = true;
	return look_at_stream_start(in, err);
}

void input_close(struct input *in)
{
	if (in->dec) {	/* the pipe first: a thread writing to it then stops */
		close(in->fd);
		in->fd = in->source_fd;
		decompressor_free(in->dec);
		in->dec = NULL;
	}
	if (!in->is_stdin && in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	free(in->carry);
	in->carry = NULL;
}

void chunk_init(struct chunk *c, size_t cap)
{
	if (cap < INPUT_MAX_LINE * 2)
		cap = INPUT_MAX_LINE * 2;
	c->buf = NULL;	/* made when first read into */
	c->data = NULL;
	c->len = 0;
	c->cap = cap;
}

void chunk_release(struct chunk *c)
{
	free(c->buf);
	c->buf = NULL;
	c->data = NULL;
	c->len = c->cap = 0;
}

/* A dropped overlong line is over: the next chunk will count it. */
static void end_overlong_line(struct input *in)
{
	in->skipping = false;
	in->pending_lines++;
	in->pending_bytes += in->skipped_bytes;
	in->skipped_bytes = 0;
}

/* Drop bytes up to and including the first '\n' of data[from..len). */
static void skip_rest_of_overlong_line(struct input *in, struct chunk *c, size_t from)
{
	char *nl = memchr(c->buf + from, '\n', c->len - from);

	if (!nl) {
		in->skipped_bytes += c->len - from;
		c->len = from;
		return;
	}
	in->skipped_bytes += (uint64_t)(nl + 1 - (c->buf + from));
	end_overlong_line(in);
	size_t rest = c->len - (size_t)(nl + 1 - c->buf);
	memmove(c->buf + from, nl + 1, rest);
	c->len = from + rest;
}

/* Hand the dropped lines on with the chunk that follows them. */
static int chunk_ready(struct input *in, struct chunk *c)
{
	c->dropped_lines = in->pending_lines;
	c->dropped_bytes = in->pending_bytes;
	in->pending_lines = in->pending_bytes = 0;
	return 1;
}

static char *last_newline(char *data, size_t len)
{
	return memrchr(data, '\n', len);
}

/*
 * Where a chunk of buf[0..len) may end, given its last newline nl: after
 * the last line that is not a continuation, so that the next chunk starts
 * with a line that heads its block. 0 if the whole buffer is one block.
 */
static size_t chunk_end_before_last_block(const struct input *in, const char *buf, const char *nl)
{
	size_t end = (size_t)(nl + 1 - buf);

	if (!in->is_continuation)
		return end;
	while (end > 0) {
		const char *prev = end >= 2 ? memrchr(buf, '\n', end - 1) : NULL;
		size_t start = prev ? (size_t)(prev + 1 - buf) : 0;

		if (!in->is_continuation(buf + start, end - 1 - start))
			return start;	/* the head of the last block: it goes to the next chunk */
		end = start;
	}
	return 0;
}

/* Keep the lines of c before the cut; move the rest to carry. */
static void cut_chunk(struct input *in, struct chunk *c, size_t keep)
{
	size_t tail = c->len - keep;

	if (tail > INPUT_MAX_LINE) {
		in->skipping = true;	/* a line too long to carry: dropped */
		in->skipped_bytes = tail;
	} else {
		memcpy(in->carry, c->buf + keep, tail);
		in->carry_len = tail;
	}
	c->len = keep;
}

/*
 * The chunk to hand on from a full buffer holding a newline: up to the
 * head of its last block (which may go on in the next read), or, when
 * that would leave the carry too long (or the buffer is one block), up to
 * its last newline.
 */
static size_t full_chunk_end(const struct input *in, const struct chunk *c, const char *nl)
{
	size_t end = chunk_end_before_last_block(in, c->buf, nl);

	if (end > 0 && c->len - end <= INPUT_MAX_LINE)
		return end;
	return (size_t)(nl + 1 - c->buf);
}

/*
 * A stream may stay silent for long (an idle trace_pipe): wait for data in
 * short slices so that an interrupt is noticed by whichever thread reads.
 * True when the stream was interrupted.
 */
static bool stream_interrupted_while_waiting(struct input *in)
{
	struct pollfd p = { .fd = in->fd, .events = POLLIN };

	if (poll(&p, 1, 0) == 0)	/* nothing to read now: the stream is idle */
		test_pause_point("stream-idle");
	while (!interrupt_seen) {
		if (poll(&p, 1, 200) != 0)
			break;	/* data, end, or an error read() will report */
	}
	if (interrupt_seen)
		in->interrupted = true;
	return in->interrupted;
}

/* ---- a plain file's chunks, claimed from their tails ----------------------------- */

/* A regular file read as it is (not a stream, not through a decompressor): it can be read at offsets. */
static bool is_plain_file(const struct input *in)
{
	return !in->is_stream && !in->dec;
}

/* pread all of n bytes at off, retrying EINTR: the bytes read (fewer at the file's end), -1 (errno). */
static ssize_t read_at(int fd, char *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pread(fd, buf + done, n - done, (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (ssize_t)done;
}

/*
 * Where a full buffer's chunk ends (full_chunk_end), found in its tail
 * buf[lo..cap) alone: false when the tail does not settle it, as when it
 * holds no newline or its last block began before it.
 */
static bool chunk_end_in_tail(const struct input *in, const struct chunk *c, size_t lo,
			      size_t *end)
{
	const char *nl = memrchr(c->buf + lo, '\n', c->cap - lo);
	size_t e;

	if (!nl)
		return false;
	e = (size_t)(nl + 1 - c->buf);
	while (in->is_continuation) {	/* back to the head of the last block, inside the tail */
		const char *prev = e - 1 > lo ? memrchr(c->buf + lo, '\n', e - 1 - lo) : NULL;
		size_t start;

		if (!prev)
			return false;
		start = (size_t)(prev + 1 - c->buf);
		bool heads_it = !in->is_continuation(c->buf + start, e - 1 - start);

		e = start;
		if (heads_it)
			break;
	}
	*end = e;
	return true;
}

/*
 * Claim the chunk of a full buffer at the file's next offset: read its
 * tail into place, cut it there, and leave the rest to input_fill_chunk.
 * False when the chunk must be read as before: the file's last chunk, a
 * tail that does not settle the cut, a read that fails (read() meets it).
 */
static bool claim_at_offset(struct input *in, struct chunk *c)
{
	size_t lo = c->cap - INPUT_TAIL_WINDOW, end;

	if (!in->at_offset) {	/* where read() stands, less what it carries */
		off_t at = lseek(in->fd, 0, SEEK_CUR);

		if (at < 0 || (uint64_t)at < in->carry_len)
			return false;
		in->next_offset = (uint64_t)at - in->carry_len;
		in->bytes_read -= in->carry_len;
		in->carry_len = 0;
		in->at_offset = true;
	}
	if (in->next_offset + c->cap > in->file_end)
		return false;
	if (read_at(in->fd, c->buf + lo, c->cap - lo, in->next_offset + lo) != (ssize_t)(c->cap - lo))
		return false;
	if (!chunk_end_in_tail(in, c, lo, &end))
		return false;
	c->data = c->buf;
	c->len = end;
	c->fill_at = in->next_offset;
	c->fill_len = lo;
	in->next_offset += end;
	in->bytes_read += end;
	test_pause_point("chunk-claimed");
	return true;
}

/* Go on with read() from where the claims stopped. */
static int read_from_fd_offset(struct input *in, struct ta_error *err)
{
	if (!in->at_offset)
		return 0;
	if (lseek(in->fd, (off_t)in->next_offset, SEEK_SET) < 0)
		return error_set_errno(err, errno, "cannot read '%s'", display_name(in));
	in->at_offset = false;
	return 0;
}

int input_fill_chunk(const struct input *in, struct chunk *c, struct ta_error *err)
{
	ssize_t r;

	if (!c->fill_len)
		return 0;
	r = read_at(in->fd, c->buf, c->fill_len, c->fill_at);
	if (r < 0)
		return error_set_errno(err, errno, "cannot read '%s'", display_name(in));
	if ((size_t)r < c->fill_len)
		return error_set(err, "cannot read '%s': it got shorter while it was read",
				 display_name(in));
	c->fill_len = 0;
	return 0;
}

uint64_t input_position(const struct input *in)
{
	return in->dec ? decompressor_consumed(in->dec) : in->bytes_read;
}

int input_read_chunk(struct input *in, struct chunk *c, struct ta_error *err)
{
	int got = input_claim_chunk(in, c, err);

	if (got > 0 && input_fill_chunk(in, c, err) < 0)
		return -1;
	return got;
}

int input_claim_chunk(struct input *in, struct chunk *c, struct ta_error *err)
{
	if (!c->buf) {
		c->buf = xmalloc(c->cap + INPUT_READ_SLACK);
		memset(c->buf + c->cap, 0, INPUT_READ_SLACK);
	}
	c->fill_len = 0;
	if (is_plain_file(in) && !in->skipping && !in->eof && c->cap > INPUT_TAIL_WINDOW) {
		if (claim_at_offset(in, c))
			return chunk_ready(in, c);
		if (read_from_fd_offset(in, err) < 0)
			return -1;
	}
	c->data = c->buf;
	c->len = 0;
	if (in->carry_len) {
		memcpy(c->buf, in->carry, in->carry_len);
		c->len = in->carry_len;
		in->carry_len = 0;
	}
	for (;;) {
		if (in->eof) {
			char *nl = c->len ? last_newline(c->buf, c->len) : NULL;

			if (in->skipping) {	/* the last line, overlong and cut */
				in->truncated_last_line = true;
				in->truncated_bytes = in->skipped_bytes + c->len;
				in->skipping = false;
				c->len = 0;
			}
			if (nl) {	/* whole lines left: the last chunk; a cut line after them */
				size_t keep = (size_t)(nl + 1 - c->buf);

				if (keep < c->len) {
					in->truncated_last_line = true;
					in->truncated_bytes = c->len - keep;
				}
				c->len = keep;
				return chunk_ready(in, c);
			}
			if (c->len > 0) {
				in->truncated_last_line = true;
				in->truncated_bytes = c->len;
			}
			c->len = 0;
			return 0;
		}
		if (in->is_stream && stream_interrupted_while_waiting(in)) {
			in->eof = true;
			continue;
		}
		size_t before = c->len;
		ssize_t n = read(in->fd, c->buf + c->len, c->cap - c->len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error_set_errno(err, errno, "cannot read '%s'", display_name(in));
		}
		if (n == 0) {
			in->eof = true;
			if (in->dec && decompressor_finish(in->dec, err) < 0)
				return -1;	/* damaged or cut: the log read so far is not all of it */
			continue;
		}
		in->bytes_read += (uint64_t)n;
		c->len += (size_t)n;
		if (in->skipping) {
			skip_rest_of_overlong_line(in, c, before);
			if (in->skipping)
				continue;
		}
		if (c->len < c->cap)
			continue;	/* fill the buffer first: a pipe is cut where a file is */
		char *nl = last_newline(c->buf, c->len);

		if (nl) {
			cut_chunk(in, c, full_chunk_end(in, c, nl));
			return chunk_ready(in, c);
		}
		in->skipping = true;	/* all of a full buffer one line: too long */
		in->skipped_bytes = c->len;
		c->len = 0;
	}
}

/* Read from in->fd into buf, retrying EINTR: bytes read, 0 at its end, -1 (errno) on error. */
static ssize_t read_more(struct input *in, void *buf, size_t n)
{
	ssize_t r;

	do
		r = read(in->fd, buf, n);
	while (r < 0 && errno == EINTR);
	return r;
}

int input_peek(struct input *in, unsigned char *head, size_t n, size_t *got,
	       struct ta_error *err)
{
	if (is_plain_file(in) && in->carry_len == 0) {	/* read, then put back */
		off_t at = in->at_offset ? (off_t)in->next_offset : lseek(in->fd, 0, SEEK_CUR);
		ssize_t r = at < 0 ? -1 : pread(in->fd, head, n, at);

		if (r < 0)
			return error_set_errno(err, errno, "cannot read '%s'", display_name(in));
		*got = (size_t)r;
		return 0;
	}
	/* a stream or a decompressor's pipe: what is read waits in the carry for the first chunk */
	while (in->carry_len < n && !in->eof && !memchr(in->carry, '\n', in->carry_len)) {
		ssize_t r = read_more(in, in->carry + in->carry_len, n - in->carry_len);

		if (r < 0)
			return error_set_errno(err, errno, "cannot read '%s'", display_name(in));
		if (r == 0) {
			in->eof = true;
			if (in->dec && decompressor_finish(in->dec, err) < 0)
				return -1;
		}
		in->carry_len += (size_t)r;
		in->bytes_read += (uint64_t)r;
	}
	*got = in->carry_len < n ? in->carry_len : n;
	memcpy(head, in->carry, *got);
	return 0;
}

int input_copy_to(struct input *in, int fd, const char *to, struct ta_error *err)
{
	char *buf = xmalloc(1u << 20);
	size_t have = in->carry_len, done;
	int rc = read_from_fd_offset(in, err);

	memcpy(buf, in->carry, have);
	in->carry_len = 0;
	while (rc == 0) {
		ssize_t r = 0;

		if (!have && !in->eof) {
			r = read_more(in, buf, 1u << 20);
			if (r < 0) {
				rc = error_set_errno(err, errno, "cannot read '%s'", display_name(in));
				break;
			}
			if (r == 0)
				in->eof = true;
			have = (size_t)r;
			in->bytes_read += (uint64_t)r;
		}
		if (!have)
			break;
		for (done = 0; done < have;) {
			ssize_t w = write(fd, buf + done, have - done);

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				rc = error_set_errno(err, errno, "cannot write '%s'", to);
				goto out;
			}
			done += (size_t)w;
		}
		have = 0;
	}
	if (rc == 0 && in->dec && decompressor_finish(in->dec, err) < 0)
		rc = -1;
out:
	free(buf);
	return rc;
}

int input_read_all(struct input *in, size_t max, char **text, size_t *len,
		   struct ta_error *err)
{
	struct chunk c;
	size_t cap = 0;
	int rc;

	*text = NULL;
	*len = 0;
	chunk_init(&c, 0);
	while ((rc = input_read_chunk(in, &c, err)) > 0) {
		if (*len + c.len > max) {
			rc = error_set(err, "'%s' is larger than %zu MB: not a file of this kind",
				       in->name, max >> 20);
			break;
		}
		if (*len + c.len + 1 > cap) {
			cap = (*len + c.len + 1) * 2;
			*text = xrealloc(*text, cap);
		}
		memcpy(*text + *len, c.data, c.len);
		*len += c.len;
	}
	chunk_release(&c);
	if (rc == 0 && in->truncated_last_line)
		rc = error_set(err, "'%s' is cut: its last line has no newline", in->name);
	if (rc < 0) {
		free(*text);
		*text = NULL;
		*len = 0;
		return -1;
	}
	if (!*text)
		*text = xmalloc(1);
	(*text)[*len] = '\0';
	return 0;
}

int input_read_whole(const char *path, size_t max, char **text, size_t *len,
		     struct ta_error *err)
{
	struct input in;
	int rc;

	*text = NULL;
	*len = 0;
	if (input_open(&in, path, err) < 0)
		return -1;
	rc = input_read_all(&in, max, text, len, err);
	input_close(&in);
	return rc;
}
