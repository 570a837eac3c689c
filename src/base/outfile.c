/*
 * outfile.c - outputs written to a temporary file and renamed into place,
 * and the signal handler that removes temporary files left open.
 *
 * Not here: deciding which paths may be written (pathcheck.c), formats.
 */
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"
#include "testhook.h"

/*
 * Temporary files to remove if a signal ends the program. A global table,
 * as signal handlers require; changed only with the signals blocked.
 */
#define MAX_PENDING 64
static char *volatile pending[MAX_PENDING];
static volatile sig_atomic_t handlers_installed;

static const int fatal_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

void outfile_remove_temporaries(void)
{
	int i;

	for (i = 0; i < MAX_PENDING; i++)
		if (pending[i])
			unlink(pending[i]);
}

static void remove_pending_and_die(int sig)
{
	outfile_remove_temporaries();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Catch the signals that would end us, unless the user ignores them. */
static void install_handlers(void)
{
	struct sigaction sa, old;
	size_t i;

	if (handlers_installed)
		return;
	handlers_installed = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = remove_pending_and_die;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(fatal_signals[i], &sa, NULL);
	}
	if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL)
		signal(SIGXFSZ, SIG_IGN);	/* a write past ulimit -f fails with EFBIG */
}

static void block_fatal_signals(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		sigaddset(&set, fatal_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

static int remember_pending(char *path)
{
	sigset_t old;
	int i, slot = -1;

	install_handlers();
	block_fatal_signals(&old);
	for (i = 0; i < MAX_PENDING && slot < 0; i++) {
		if (!pending[i]) {
			pending[i] = path;
			slot = i;
		}
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return slot;
}

static void forget_pending(int slot)
{
	sigset_t old;

	if (slot < 0)
		return;
	block_fatal_signals(&old);
	pending[slot] = NULL;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- where the bytes land -------------------------------------------------------- */

/* The directory part of path ("." for none), and its last component. */
static char *directory_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	dir = xmalloc((size_t)(slash - path) + 1);
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return dir;
}

/*
 * The file a write to path replaces: path itself, or what its symlinks
 * (possibly dangling, possibly several in a row) finally name.
 */
static char *final_target(const char *path)
{
	char *cur = xstrdup(path);
	int hops;

	for (hops = 0; hops < 40; hops++) {
		char link[PATH_MAX];
		struct stat st;
		ssize_t n;

		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return cur;
		link[n] = '\0';
		if (link[0] == '/') {
			free(cur);
			cur = xstrdup(link);
		} else {
			char *dir = directory_of(cur);
			size_t len = strlen(dir) + 1 + (size_t)n + 1;
			char *next = xmalloc(len);

			snprintf(next, len, "%s/%s", dir, link);
			free(dir);
			free(cur);
			cur = next;
		}
	}
	return cur;		/* a loop: open() will say so */
}

static mode_t default_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* Open the target itself: standard output, a device, a FIFO. */
static int open_in_place(struct outfile *o, struct ta_error *err)
{
	o->fd = open(o->target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd < 0)
		return error_set_errno(err, errno, "cannot write '%s'", o->name);
	return 0;
}

/*
 * The temporary file is locked (flock, through a second descriptor of the
 * same open file, so that closing the written one keeps it) until it is
 * renamed into place: a later run tells a live writer's temporary from a
 * killed run's by it. False when another run removes it or has removed
 * it before the lock was taken (it found it unlocked): then it is made
 * again. A file system
 * without flock leaves it unlocked, and another run cannot take it either.
 */
static bool lock_while_written(struct outfile *o)
{
	struct stat st;

	o->lock_fd = fcntl(o->fd, F_DUPFD_CLOEXEC, 0);
	if (o->lock_fd < 0)
		return true;
	if (flock(o->lock_fd, LOCK_EX | LOCK_NB) < 0)
		return errno != EWOULDBLOCK;	/* held: another run is removing it */
	return fstat(o->lock_fd, &st) < 0 || st.st_nlink > 0;
}

/* Is name "<base>.tmp.XXXXXX", a temporary file of base as mkostemp names them? */
static bool is_temporary_of(const char *name, const char *base)
{
	size_t n = strlen(base), i;

	if (strncmp(name, base, n) != 0 || strncmp(name + n, ".tmp.", 5) != 0 ||
	    strlen(name + n + 5) != 6)
		return false;
	for (i = n + 5; name[i]; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

/*
 * A killed run's temporaries of target (SIGKILL leaves them): removed when
 * no writer holds their lock. A live writer's stay.
 */
static void remove_stale_temporaries(const char *target)
{
	char *dir = directory_of(target), path[PATH_MAX];
	const char *slash = strrchr(target, '/'), *base = slash ? slash + 1 : target;
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL) {
		struct stat st;
		int fd;

		if (!is_temporary_of(e->d_name, base) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path))
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0)
			unlink(path);
		close(fd);
	}
	if (d)
		closedir(d);
	free(dir);
}

static int open_temporary(struct outfile *o, const struct stat *existing,
			  struct ta_error *err)
{
	size_t n = strlen(o->target) + sizeof(".tmp.XXXXXX");
	mode_t mode = existing ? existing->st_mode & 07777 : default_file_mode();

	int tries = 0;

again:
	o->tmp_path = xmalloc(n);
	snprintf(o->tmp_path, n, "%s.tmp.XXXXXX", o->target);
	o->slot = remember_pending(o->tmp_path);
	o->fd = mkostemp(o->tmp_path, O_CLOEXEC);
	if (o->fd < 0) {
		int e = errno;

		forget_pending(o->slot);
		o->slot = -1;
		free(o->tmp_path);
		o->tmp_path = NULL;
		/* a writable file in a directory we may not add to: write it in place */
		if (existing && (e == EACCES || e == EPERM || e == EROFS) &&
		    access(o->target, W_OK) == 0)
			return open_in_place(o, err);
		return error_set_errno(err, e, "cannot write '%s'", o->name);
	}
	if (fchmod(o->fd, mode) < 0) {
		int e = errno;

		outfile_abort(o);
		return error_set_errno(err, e, "cannot write '%s'", o->name);
	}
	if (!lock_while_written(o) && ++tries < 8) {	/* removed as we locked it: again */
		close(o->fd);
		close(o->lock_fd);
		o->fd = o->lock_fd = -1;
		forget_pending(o->slot);
		o->slot = -1;
		free(o->tmp_path);
		o->tmp_path = NULL;
		goto again;
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, struct ta_error *err)
{
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->slot = -1;
	o->lock_fd = -1;
	o->name = xstrdup(path);
	if (strcmp(path, "-") == 0) {
		o->f = stdout;
		o->fd = STDOUT_FILENO;
		return 0;
	}
	o->target = final_target(path);
	if (stat(o->target, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			error_set_errno(err, EISDIR, "cannot write '%s'", path);
			outfile_abort(o);
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			if (open_in_place(o, err) < 0) {
				outfile_abort(o);
				return -1;
			}
			return 0;
		}
		if (open_temporary(o, &st, err) < 0) {
			outfile_abort(o);
			return -1;
		}
		return 0;
	}
	if (open_temporary(o, NULL, err) < 0) {
		outfile_abort(o);
		return -1;
	}
	return 0;
}

FILE *outfile_stream(struct outfile *o)
{
	if (!o->f) {
		o->f = fdopen(o->fd, "w");
		if (!o->f)
			xmalloc(SIZE_MAX);	/* reports out of memory */
	}
	return o->f;
}

const char *outfile_display_name(const struct outfile *o)
{
	return strcmp(o->name, "-") == 0 ? "standard output" : o->name;
}

static int close_output(struct outfile *o, bool durable)
{
	int failed = 0;

	if (o->f == stdout) {
		failed = ferror(stdout) || fflush(stdout) != 0;
		o->f = NULL;
		o->fd = -1;
		return failed ? -1 : 0;
	}
	if (o->f) {
		failed = ferror(o->f) || fflush(o->f) != 0;
		if (!failed && durable && o->tmp_path && fsync(o->fd) < 0 && errno != EINVAL)
			failed = 1;
		if (fclose(o->f) != 0 && !failed)
			failed = 1;
	} else if (o->fd >= 0) {
		if (durable && o->tmp_path && fsync(o->fd) < 0 && errno != EINVAL)
			failed = 1;
		if (close(o->fd) != 0 && !failed)
			failed = 1;
	}
	o->f = NULL;
	o->fd = -1;
	return failed ? -1 : 0;
}

/*
 * The files this process has written (renamed into place), in order, for
 * the line that names them: what a run leaves behind is never a surprise.
 */
static struct {
	pthread_mutex_t lock;
	char **names;
	size_t n, cap;
} written = { .lock = PTHREAD_MUTEX_INITIALIZER };

static void note_written(const char *name)
{
	size_t i;

	pthread_mutex_lock(&written.lock);
	for (i = 0; i < written.n && strcmp(written.names[i], name) != 0; i++)
		;
	if (i == written.n) {
		if (written.n == written.cap) {
			written.cap = written.cap ? written.cap * 2 : 16;
			written.names = xrealloc(written.names, written.cap * sizeof(*written.names));
		}
		written.names[written.n++] = xstrdup(name);
	}
	pthread_mutex_unlock(&written.lock);
}

void outfile_say_written(FILE *f)
{
	size_t i;

	pthread_mutex_lock(&written.lock);
	if (written.n) {
		fputs("trace_analyze: wrote ", f);
		for (i = 0; i < written.n; i++)
			fprintf(f, "%s'%s'", i ? ", " : "", written.names[i]);
		fputc('\n', f);
	}
	for (i = 0; i < written.n; i++)
		free(written.names[i]);
	free(written.names);
	written.names = NULL;
	written.n = written.cap = 0;
	pthread_mutex_unlock(&written.lock);
}

int outfile_commit(struct outfile *o, bool durable, struct ta_error *err)
{
	errno = 0;
	if (close_output(o, durable) < 0) {
		error_set_errno(err, errno ? errno : EIO, "cannot write '%s'",
				outfile_display_name(o));
		outfile_abort(o);
		return -1;
	}
	if (o->tmp_path)
		test_pause_point("commit");
	if (o->tmp_path && rename(o->tmp_path, o->target) < 0) {
		error_set_errno(err, errno, "cannot write '%s'", o->name);
		outfile_abort(o);
		return -1;
	}
	forget_pending(o->slot);
	o->slot = -1;
	if (o->tmp_path) {	/* a file of its own: not standard output, a device, a FIFO */
		note_written(o->name);
		remove_stale_temporaries(o->target);
	}
	free(o->tmp_path);
	o->tmp_path = NULL;	/* in place now: nothing to remove */
	outfile_abort(o);
	return 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f == stdout) {
		fflush(stdout);
	} else if (o->f) {
		fclose(o->f);
	} else if (o->fd >= 0) {
		close(o->fd);
	}
	o->f = NULL;
	o->fd = -1;
	if (o->tmp_path)
		unlink(o->tmp_path);
	if (o->lock_fd >= 0)	/* after the unlink or the rename: never a gap unlocked */
		close(o->lock_fd);
	o->lock_fd = -1;
	forget_pending(o->slot);
	o->slot = -1;
	free(o->tmp_path);
	free(o->target);
	free(o->name);
	o->tmp_path = o->target = o->name = NULL;
}

int outfile_finish(struct outfile *o, int rc, struct ta_error *err)
{
	if (rc == 0)
		return outfile_commit(o, false, err);
	outfile_abort(o);
	return rc;
}
