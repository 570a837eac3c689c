/*
 * scratch.c - unnamed files in $TMPDIR (scratch.h). Not here: what is
 * written to them or how much.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "scratch.h"

const char *scratch_dir(void)
{
	const char *dir = getenv("TMPDIR");

	return dir && *dir ? dir : "/tmp";
}

int scratch_file_open(const char *dir)
{
	char name[4096];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	int saved;

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	/* a file system without O_TMPFILE */
	if (snprintf(name, sizeof(name), "%s/trace_analyze.XXXXXX", dir) >= (int)sizeof(name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = mkostemp(name, O_CLOEXEC);
	if (fd < 0)
		return -1;
	saved = errno;
	unlink(name);
	errno = saved;
	return fd;
}

int write_whole(int fd, const void *p, size_t n)
{
	const char *q = p;

	while (n) {
		ssize_t k = write(fd, q, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -1;
		q += k;
		n -= (size_t)k;
	}
	return 0;
}
