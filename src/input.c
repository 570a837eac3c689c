/*
 * input.c - chunked line reading from a file or a pipe.
 *
 * read(2) into caller-owned buffers rather than mmap: peak RSS then stays
 * at a few buffers whatever the log's size, and stdin works the same way.
 * Not here: line splitting inside a chunk, parsing, progress output.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

/* Set by the SIGINT handler: the one global here, as signals require. */
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
	if (S_ISREG(st.st_mode)) {
		in->size_hint = (uint64_t)st.st_size;
		posix_fadvise(in->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	} else {
		in->is_stream = true;
	}
	in->carry = xmalloc(INPUT_MAX_LINE);
	return 0;
}

void input_close(struct input *in)
{
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
	c->data = xmalloc(cap);
	c->len = 0;
	c->cap = cap;
}

void chunk_release(struct chunk *c)
{
	free(c->data);
	c->data = NULL;
	c->len = c->cap = 0;
}

/* Drop bytes up to and including the first '\n' of data[from..len). */
static void skip_rest_of_overlong_line(struct input *in, struct chunk *c, size_t from)
{
	char *nl = memchr(c->data + from, '\n', c->len - from);

	if (!nl) {
		c->len = from;
		return;
	}
	in->skipping = false;
	in->overlong_lines++;
	size_t rest = c->len - (size_t)(nl + 1 - c->data);
	memmove(c->data + from, nl + 1, rest);
	c->len = from + rest;
}

static char *last_newline(char *data, size_t len)
{
	return memrchr(data, '\n', len);
}

/* Keep the whole lines of c; move the tail after the last '\n' to carry. */
static void cut_at_last_newline(struct input *in, struct chunk *c, char *nl)
{
	size_t keep = (size_t)(nl + 1 - c->data);
	size_t tail = c->len - keep;

	if (tail >= INPUT_MAX_LINE) {
		in->skipping = true;	/* unreachable with cap >= 2 lines, kept safe */
	} else {
		memcpy(in->carry, c->data + keep, tail);
		in->carry_len = tail;
	}
	c->len = keep;
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

int input_read_chunk(struct input *in, struct chunk *c, struct ta_error *err)
{
	c->len = 0;
	if (in->carry_len) {
		memcpy(c->data, in->carry, in->carry_len);
		c->len = in->carry_len;
		in->carry_len = 0;
	}
	for (;;) {
		if (in->eof) {
			if (c->len > 0 || in->skipping) {
				if (in->skipping)
					in->overlong_lines++;
				else
					in->truncated_last_line = true;
				in->skipping = false;
				c->len = 0;
			}
			return 0;
		}
		if (in->is_stream && stream_interrupted_while_waiting(in)) {
			in->eof = true;
			continue;
		}
		size_t before = c->len;
		ssize_t n = read(in->fd, c->data + c->len, c->cap - c->len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error_set_errno(err, errno, "cannot read '%s'", display_name(in));
		}
		if (n == 0) {
			in->eof = true;
			continue;
		}
		in->bytes_read += (uint64_t)n;
		c->len += (size_t)n;
		if (in->skipping) {
			skip_rest_of_overlong_line(in, c, before);
			if (in->skipping)
				continue;
		}
		char *nl = last_newline(c->data, c->len);

		if (nl) {
			cut_at_last_newline(in, c, nl);
			return 1;
		}
		if (c->len >= INPUT_MAX_LINE) {
			in->skipping = true;
			c->len = 0;
		}
	}
}
