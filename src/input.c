/*
 * input.c - chunked line reading from a file or a pipe.
 *
 * read(2) into caller-owned buffers rather than mmap: peak RSS then stays
 * at a few buffers whatever the log's size, and stdin works the same way.
 * Not here: line splitting inside a chunk, parsing, progress output.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

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
