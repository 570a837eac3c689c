/*
 * outfile.h - every file trace_analyze writes, written whole or not at all.
 *
 * An output goes to a temporary file beside its target ("<target>.tmp.XXXXXX",
 * same directory, so same file system) and is renamed over the target only
 * when it is complete: an error, a full disk or Ctrl-C never leaves half an
 * account over a good one. A symlink is followed (the file it names is
 * replaced, the link stays); a new file gets the mode fopen would give it,
 * an existing one keeps its mode. "-" is standard output; a target that is
 * not a regular file (/dev/null, a FIFO, a terminal) is written in place.
 *
 * Temporary files still open are removed when SIGINT, SIGTERM, SIGHUP or
 * SIGPIPE ends the program (the signal is then raised again, so the exit
 * status tells what happened); SIGXFSZ is ignored so that a file-size limit
 * becomes a write error with a message. Not here: what the bytes are.
 */
#ifndef TA_OUTFILE_H
#define TA_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"

struct outfile {
	char *name;		/* as given, for messages ("-": standard output) */
	char *target;		/* the file replaced at commit: symlinks followed */
	char *tmp_path;		/* NULL when written in place */
	int fd;
	FILE *f;		/* outfile_stream(), or stdout */
	int slot;		/* in the table of files removed on a signal, or -1 */
	int lock_fd;		/* the temporary file locked (flock) until it is in place */
};

/* Start writing path ("-" = standard output); nothing appears under path yet. */
int outfile_open(struct outfile *o, const char *path, struct ta_error *err);

/* A stdio stream on the file (made once). */
FILE *outfile_stream(struct outfile *o);

/* The name to put in messages: the path, or "standard output". */
const char *outfile_display_name(const struct outfile *o);

/*
 * Flush and close; with durable, fsync first (files worth the wait: the DB,
 * the kernel index); then rename into place. On failure the temporary file
 * is removed and the target left as it was.
 */
int outfile_commit(struct outfile *o, bool durable, struct ta_error *err);

/*
 * "trace_analyze: wrote 'a.txt', 'rings.png'": the files committed so far
 * (not standard output, devices or FIFOs), one line on f, then forgotten;
 * nothing when none was.
 */
void outfile_say_written(FILE *f);

/* Give up: close and remove the temporary file. Safe after commit. */
void outfile_abort(struct outfile *o);

/* After writing with status rc: commit it (not durable) when rc is 0, else abort; the result. */
int outfile_finish(struct outfile *o, int rc, struct ta_error *err);

/*
 * Remove every temporary file still open (async-signal-safe): for a
 * command that ends itself on a signal without reaching its commits.
 */
void outfile_remove_temporaries(void);

#endif
