/*
 * allocsnap.c - /proc/allocinfo snapshots saved during a recording
 * (allocsnap.h): the file read whole, written after its time line. Not
 * here: parsing it, or when to take one (record.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "allocinfo.h"
#include "allocsnap.h"
#include "testhook.h"

int allocinfo_saver_open(struct allocinfo_saver *s, const char *path, struct ta_error *err)
{
	memset(s, 0, sizeof(*s));
	s->source = test_allocinfo_path();
	if (access(s->source, F_OK) < 0)
		return 1;
	if (outfile_open(&s->out, path, err) < 0)
		return -1;
	s->open = true;
	return 0;
}

/* The source read whole into s->buf; its length, or -1. */
static ssize_t read_source(struct allocinfo_saver *s, struct ta_error *err)
{
	int fd = open(s->source, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return error_set_errno(err, errno, "cannot open '%s'", s->source);
	for (;;) {
		if (len == s->cap) {
			s->cap = s->cap ? s->cap * 2 : 1 << 20;
			s->buf = xrealloc(s->buf, s->cap);
		}
		n = read(fd, s->buf + len, s->cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (n < 0) {
		error_set_errno(err, errno, "cannot read '%s'", s->source);
		close(fd);
		return -1;
	}
	close(fd);
	return (ssize_t)len;
}

int allocinfo_saver_take(struct allocinfo_saver *s, struct ta_error *err)
{
	struct timespec now;
	ssize_t len;
	FILE *f;

	if (!s->open)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &now);
	len = read_source(s, err);
	if (len < 0)
		return -1;
	f = outfile_stream(&s->out);
	fprintf(f, "%s%lld.%09ld s (CLOCK_MONOTONIC)\n", ALLOCINFO_TIME_LINE,
		(long long)now.tv_sec, now.tv_nsec);
	fwrite(s->buf, 1, (size_t)len, f);
	if (len && s->buf[len - 1] != '\n')
		fputc('\n', f);
	if (fflush(f) != 0)
		return error_set_errno(err, errno, "cannot write '%s'",
				       outfile_display_name(&s->out));
	s->taken++;
	return 0;
}

int allocinfo_saver_commit(struct allocinfo_saver *s, struct ta_error *err)
{
	int rc = s->open ? outfile_commit(&s->out, false, err) : 0;

	free(s->buf);
	s->buf = NULL;
	s->open = false;
	return rc;
}

void allocinfo_saver_abort(struct allocinfo_saver *s)
{
	if (s->open)
		outfile_abort(&s->out);
	free(s->buf);
	s->buf = NULL;
	s->open = false;
}
