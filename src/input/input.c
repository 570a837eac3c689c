/*
 * input.c - chunked line reading from a file or a pipe.
 *
 * Regular files are mapped (chunks are views, pages released after use);
 * streams are read(2) into caller-owned buffers with a carry for the line
 * cut by a buffer's end. Not here: line splitting inside a chunk, parsing,
 * progress output.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

/* Set by the SIGINT handler: a global, as signals require. */
static volatile sig_atomic_t interrupt_seen;

/* What the SIGBUS handler says when a mapped file shrinks under us. */
static char shrunk_message[512];
static size_t shrunk_message_len;

static void report_shrunk_file(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, shrunk_message, shrunk_message_len) < 0)
		_exit(1);
	_exit(1);
}

static void exit_cleanly_if_file_shrinks(const char *path)
{
	struct sigaction sa;
	int n = snprintf(shrunk_message, sizeof(shrunk_message),
			 "\ntrace_analyze: error: cannot read '%s': the file shrank while "
			 "it was being read\n", path);

	shrunk_message_len = n < 0 ? 0 : ((size_t)n < sizeof(shrunk_message) ? (size_t)n
									 : sizeof(shrunk_message) - 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = report_shrunk_file;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
}

/* Map a regular file; on any failure the file is simply read(). */
static void map_file(struct input *in, size_t size)
{
	void *m;

	if (size == 0)
		return;
	m = mmap(NULL, size, PROT_READ, MAP_PRIVATE, in->fd, 0);
	if (m == MAP_FAILED)
		return;
	madvise(m, size, MADV_SEQUENTIAL);
	in->map = m;
	in->map_len = size;
	exit_cleanly_if_file_shrinks(in->name);
}

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

/* A regular file's first bytes say whether it is compressed; read from 0, as the map is. */
static bool regular_file_is_compressed(struct input *in)
{
	unsigned char head[COMPRESSION_MAGIC_MAX];
	ssize_t n = pread(in->fd, head, sizeof(head), 0);

	in->compression = n > 0 ? compression_of(head, (size_t)n) : COMPRESSION_NONE;
	if (in->compression == COMPRESSION_NONE)
		return false;
	lseek(in->fd, 0, SEEK_SET);
	return true;
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
	if (!in->carry)
		in->carry = xmalloc(INPUT_MAX_LINE + 1);
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
	if (S_ISREG(st.st_mode)) {
		in->size_hint = (uint64_t)st.st_size;
		posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
		if (regular_file_is_compressed(in))
			return read_through_decompressor(in, NULL, 0, err);
		map_file(in, (size_t)st.st_size);
	} else {
		in->is_stream = true;
	}
	in->carry = in->map ? NULL : xmalloc(INPUT_MAX_LINE + 1);
	if (in->is_stream)
		return look_at_stream_start(in, err);
	return 0;
}

void input_close(struct input *in)
{
	if (in->map)
		munmap((void *)in->map, in->map_len);
	in->map = NULL;
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
	c->buf = NULL;	/* made when a stream is read into it: a mapped file needs none */
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
 * The chunk to hand on from a stream buffer holding a newline: up to the
 * head of its last block (which may go on in the next read), or, when
 * that would leave the carry too long, up to its last newline. 0: the
 * buffer is one block still growing; read more.
 */
static size_t stream_chunk_end(const struct input *in, const struct chunk *c, const char *nl)
{
	size_t end = chunk_end_before_last_block(in, c->buf, nl);
	size_t whole = (size_t)(nl + 1 - c->buf);

	if (end > 0 && c->len - end <= INPUT_MAX_LINE)
		return end;
	if (end == 0 && c->len < c->cap - INPUT_MAX_LINE)
		return 0;
	return whole;
}

/*
 * A stream may stay silent for long (an idle trace_pipe): wait for data in
 * short slices so that an interrupt is noticed by whichever thread reads.
 * True when the stream was interrupted.
 */
static bool stream_interrupted_while_waiting(struct input *in)
{
	struct pollfd p = { .fd = in->fd, .events = POLLIN };

	while (!interrupt_seen) {
		if (poll(&p, 1, 200) != 0)
			break;	/* data, end, or an error read() will report */
	}
	if (interrupt_seen)
		in->interrupted = true;
	return in->interrupted;
}

/* The newline ending the last continuation line right after nl (nl if none). */
static const char *extend_over_continuations(const struct input *in, const char *nl)
{
	const char *stop = in->map + in->map_len, *q = nl + 1, *e;

	if (!in->is_continuation)
		return nl;
	while (q < stop && (e = memchr(q, '\n', (size_t)(stop - q))) != NULL &&
	       in->is_continuation(q, (size_t)(e - q))) {
		nl = e;
		q = e + 1;
	}
	return nl;
}

/* Give back the mapped pages of [from, to): a skipped line is not kept resident. */
static void release_mapped(const struct input *in, const char *from, const char *to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)from & ~(page - 1), b = ((uintptr_t)to + page - 1) & ~(page - 1);

	(void)in;
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}

/*
 * The newline ending the line at p, scanning window by window and giving
 * each scanned window's pages back; NULL if the file ends first.
 */
static const char *newline_far_ahead(const struct input *in, const char *p)
{
	const char *end = in->map + in->map_len;

	while (p < end) {
		size_t n = (size_t)(end - p) < INPUT_CHUNK_SIZE ? (size_t)(end - p) : INPUT_CHUNK_SIZE;
		const char *nl = memchr(p, '\n', n);

		release_mapped(in, p, nl ? nl : p + n);
		if (nl)
			return nl;
		p += n;
	}
	return NULL;
}

/*
 * The next chunk of a mapped file: up to INPUT_CHUNK_SIZE bytes ending at a
 * newline. A line longer than a window is dropped, its pages given back
 * as it is scanned, and counted with the next chunk; one that fits is
 * handed on (the parser counts it). What follows the last newline is a
 * truncated last line.
 */
static int next_mapped_chunk(struct input *in, struct chunk *c)
{
	size_t pos, window, len;
	const char *start, *nl;

	for (;;) {
		pos = (size_t)in->bytes_read;
		start = in->map + pos;
		if (pos >= in->map_len)
			return 0;
		window = in->map_len - pos < INPUT_CHUNK_SIZE ? in->map_len - pos : INPUT_CHUNK_SIZE;
		nl = memrchr(start, '\n', window);
		if (nl)
			break;
		nl = window < in->map_len - pos ? newline_far_ahead(in, start + window) : NULL;
		if (!nl) {	/* no newline to the end: a cut last line */
			in->truncated_last_line = true;
			in->truncated_bytes = in->map_len - pos;
			in->bytes_read = in->map_len;
			return 0;
		}
		in->pending_lines++;	/* a line longer than a window: dropped */
		in->pending_bytes += (uint64_t)(nl + 1 - start);
		release_mapped(in, start, nl + 1);
		in->bytes_read += (uint64_t)(nl + 1 - start);
	}
	nl = extend_over_continuations(in, nl);
	len = (size_t)(nl + 1 - start);
	c->data = start;
	c->len = len;
	in->bytes_read += len;
	return chunk_ready(in, c);
}

uint64_t input_position(const struct input *in)
{
	return in->dec ? decompressor_consumed(in->dec) : in->bytes_read;
}

void input_release_chunk(const struct input *in, const struct chunk *c)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), from, to;

	if (!in->map || c->len == 0)
		return;
	/*
	 * Every page the chunk touches, its boundary pages included: a page the
	 * next chunk shares is simply faulted in again (the mapping is private
	 * and never written). Keeping boundary pages mapped would pin the large
	 * page-cache folios they belong to, tens of MB over a long file.
	 */
	from = (uintptr_t)c->data & ~(page - 1);
	to = ((uintptr_t)c->data + c->len + page - 1) & ~(page - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}

int input_read_chunk(struct input *in, struct chunk *c, struct ta_error *err)
{
	if (in->map)
		return next_mapped_chunk(in, c);
	if (!c->buf)
		c->buf = xmalloc(c->cap);
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
		char *nl = last_newline(c->buf, c->len);
		size_t end = nl ? stream_chunk_end(in, c, nl) : 0;

		if (end > 0) {
			cut_chunk(in, c, end);
			return chunk_ready(in, c);
		}
		if (nl)
			continue;	/* one block so far: its end is still to come */
		if (c->len > INPUT_MAX_LINE) {	/* all of it one line, and too long */
			in->skipping = true;
			in->skipped_bytes = c->len;
			c->len = 0;
		}
	}
}
