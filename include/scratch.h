/*
 * scratch.h - unnamed files for data too big to keep in memory: a piped
 * or compressed binary capture spooled to be read at random, a perf.data's
 * decompressed records, the per-CPU streams of a trace.dat being written.
 */
#ifndef TA_SCRATCH_H
#define TA_SCRATCH_H

#include <stddef.h>

/* The folder scratch files go in: $TMPDIR, or /tmp. */
const char *scratch_dir(void);

/*
 * An unnamed file open for reading and writing in dir (O_TMPFILE, or a
 * name unlinked at once where the file system has none): it goes with the
 * process whatever happens. A descriptor, or -1 with errno set.
 */
int scratch_file_open(const char *dir);

/* Write all of p[0..n) to fd (again after EINTR or a short write); 0, or -1 with errno set. */
int write_whole(int fd, const void *p, size_t n);

#endif
