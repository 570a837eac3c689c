/*
 * snapshot_take.c - the running kernel's memory files copied into a
 * folder at one moment (snapshot_take.h). Each file is read whole with
 * read(2) (the /proc files say size 0) and written under a temporary name
 * then renamed, so that a folder never holds half a file. A file the
 * kernel does not have, or does not let us read, is listed in the
 * snapshot file with its reason; only meminfo is required. The bytes are
 * copied with read(2), not the input layer: that one reads lines (and
 * decompresses), this keeps each file exactly as the kernel printed it.
 * Not here: reading a snapshot (ksnapshot.c), the ledger (ledger.c).
 */
#include <dirent.h>
#include <ftw.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "snapshot_take.h"

#define CGROUPS_MAX 100000
#define FILE_MAX ((size_t)256 << 20)

/* The /proc files a snapshot holds, in the order they are copied. */
static const char *const proc_files[] = {
	"meminfo", "slabinfo", "vmallocinfo", "allocinfo", "vmstat", "zoneinfo", "buddyinfo",
	"modules",
};

struct taking {
	const char *dir, *root;
	struct snapshot_taken *out;
	char missing[2048];	/* "name: reason" lines */
	size_t nmissing;
};

/* The whole of a file that may say it is empty (/proc): *buf malloc'd; -1 with errno. */
static ssize_t read_all(const char *path, char **buf)
{
	size_t len = 0, cap = 65536;
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;
	ssize_t n;

	*buf = NULL;
	if (fd < 0)
		return -1;
	*buf = xmalloc(cap);
	for (;;) {
		if (len == cap && cap >= FILE_MAX) {
			e = EFBIG;
			break;
		}
		if (len == cap) {
			cap *= 2;
			*buf = xrealloc(*buf, cap);
		}
		n = read(fd, *buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0) {
			close(fd);
			return (ssize_t)len;
		}
		if (n < 0) {
			e = errno;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	free(*buf);
	*buf = NULL;
	errno = e;
	return -1;
}

/* bytes into dir/name, whole or not at all. */
static int write_file(const char *dir, const char *name, const char *bytes, size_t len,
		      struct ta_error *err)
{
	char path[4096], tmp[4200];
	size_t done = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return error_set_errno(err, errno, "cannot write '%s'", path);
	while (done < len) {
		ssize_t n = write(fd, bytes + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;

			close(fd);
			unlink(tmp);
			return error_set_errno(err, e, "cannot write '%s'", path);
		}
		done += (size_t)n;
	}
	if (close(fd) < 0 || rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		return error_set_errno(err, e, "cannot write '%s'", path);
	}
	return 0;
}

static void note_missing(struct taking *t, const char *name, const char *why)
{
	size_t used = strlen(t->missing);

	snprintf(t->missing + used, sizeof(t->missing) - used, "missing: %s: %s\n", name, why);
	t->out->missing++;
}

/* Why a /proc file could not be read, in a kernel engineer's words. */
static const char *why_unreadable(const char *name, int e)
{
	if (e == ENOENT && strcmp(name, "allocinfo") == 0)
		return "no /proc/allocinfo (a kernel built without CONFIG_MEM_ALLOC_PROFILING)";
	if (e == ENOENT && strcmp(name, "slabinfo") == 0)
		return "no /proc/slabinfo (a kernel built without CONFIG_SLUB_DEBUG)";
	if (e == EACCES || e == EPERM)
		return "not readable by this user (root reads it)";
	return strerror(e);
}

static int copy_proc_file(struct taking *t, const char *name, struct ta_error *err)
{
	char src[4096], *bytes;
	ssize_t n;
	int rc;

	snprintf(src, sizeof(src), "%s/proc/%s", t->root, name);
	n = read_all(src, &bytes);
	if (n < 0) {
		if (strcmp(name, "meminfo") == 0)
			return error_set_errno(err, errno, "cannot read '%s'", src);
		note_missing(t, name, why_unreadable(name, errno));
		return 0;
	}
	rc = write_file(t->dir, name, bytes, (size_t)n, err);
	free(bytes);
	if (rc == 0) {
		t->out->files++;
		t->out->bytes += (uint64_t)n;
	}
	return rc;
}

/* Append a kmsg record's text ("prio,seq,ts,flags;text\n continuation...") to out. */
static void add_kmsg_record(const char *rec, size_t n, char **out, size_t *len, size_t *cap)
{
	const char *semi = memchr(rec, ';', n), *end;

	if (!semi)
		return;
	semi++;
	end = memchr(semi, '\n', (size_t)(rec + n - semi));
	if (!end)
		end = rec + n;
	if (*len + (size_t)(end - semi) + 1 > *cap) {
		*cap = (*cap + (size_t)(end - semi) + 1) * 2;
		*out = xrealloc(*out, *cap);
	}
	memcpy(*out + *len, semi, (size_t)(end - semi));
	*len += (size_t)(end - semi);
	(*out)[(*len)++] = '\n';
}

/*
 * dmesg: the kernel's log as /dev/kmsg holds it now, one line per record
 * (its text; the boot's "Memory:" line says what the kernel image took).
 * A read gives one record; the ring may have dropped the boot's lines.
 */
static int copy_kmsg(struct taking *t, struct ta_error *err)
{
	char path[4096], rec[8192], *text = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	int fd, rc;

	snprintf(path, sizeof(path), "%s/dev/kmsg", t->root);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		note_missing(t, "dmesg", why_unreadable("dmesg", errno));
		return 0;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {	/* a copy of it (tests): its lines */
		char *bytes, *line, *nl;
		ssize_t n;

		close(fd);
		n = read_all(path, &bytes);
		for (line = bytes; n > 0 && line < bytes + n; line = nl + 1) {
			nl = memchr(line, '\n', (size_t)(bytes + n - line));
			if (!nl)
				nl = bytes + n;
			if (*line != ' ')
				add_kmsg_record(line, (size_t)(nl - line), &text, &len, &cap);
		}
		free(bytes);
	} else {
		for (;;) {
			ssize_t n = read(fd, rec, sizeof(rec));

			if (n > 0) {
				add_kmsg_record(rec, (size_t)n, &text, &len, &cap);
				continue;
			}
			if (n < 0 && (errno == EINTR || errno == EPIPE))
				continue;	/* EPIPE: a record overwritten while read */
			break;			/* EAGAIN: no more */
		}
		close(fd);
	}
	if (!len) {
		free(text);
		note_missing(t, "dmesg", "/dev/kmsg gave no record");
		return 0;
	}
	rc = write_file(t->dir, "dmesg", text, len, err);
	free(text);
	if (rc == 0) {
		t->out->files++;
		t->out->bytes += len;
	}
	return rc;
}

static int not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* A group's memory.stat and memory.current (when it has them) into out/. */
static int copy_cgroup(struct taking *t, const char *src, const char *out, struct ta_error *err)
{
	static const char *const files[] = { "memory.stat", "memory.current" };
	bool made = false;
	size_t i;

	for (i = 0; i < 2; i++) {
		char from[4096], *bytes;
		ssize_t n;
		int rc;

		snprintf(from, sizeof(from), "%s/%s", src, files[i]);
		n = read_all(from, &bytes);
		if (n < 0)
			continue;	/* the root has no memory.current; a group may lack the controller */
		if (!made && mkdir(out, 0755) < 0 && errno != EEXIST) {
			free(bytes);
			return error_set_errno(err, errno, "cannot make '%s'", out);
		}
		made = true;
		rc = write_file(out, files[i], bytes, (size_t)n, err);
		free(bytes);
		if (rc < 0)
			return -1;
		t->out->bytes += (uint64_t)n;
	}
	t->out->cgroups += made;
	return 0;
}

static int copy_cgroup_tree(struct taking *t, const char *src, const char *out, int depth,
			    struct ta_error *err)
{
	struct dirent **names;
	int n, i, rc = 0;

	if (depth > 64)
		return 0;
	if (t->out->cgroups >= CGROUPS_MAX)
		return error_set(err, "more than %d cgroups under '%s'", CGROUPS_MAX, src);
	if (mkdir(out, 0755) < 0 && errno != EEXIST)
		return error_set_errno(err, errno, "cannot make '%s'", out);
	if (copy_cgroup(t, src, out, err) < 0)
		return -1;
	n = scandir(src, &names, not_hidden, alphasort);
	if (n < 0)
		return 0;	/* went away while we walked */
	for (i = 0; i < n; i++) {
		char from[4096], to[4096];
		struct stat st;

		snprintf(from, sizeof(from), "%s/%s", src, names[i]->d_name);
		snprintf(to, sizeof(to), "%s/%s", out, names[i]->d_name);
		if (rc == 0 && lstat(from, &st) == 0 && S_ISDIR(st.st_mode))
			rc = copy_cgroup_tree(t, from, to, depth + 1, err);
		free(names[i]);
	}
	free(names);
	if (rc == 0)
		rmdir(out);	/* a group with no memory file (and none below): no folder */
	return rc;
}

static int copy_cgroups(struct taking *t, struct ta_error *err)
{
	char src[4096], out[4096], probe[4200];

	snprintf(src, sizeof(src), "%s/sys/fs/cgroup", t->root);
	snprintf(probe, sizeof(probe), "%s/cgroup.controllers", src);
	if (access(probe, F_OK) != 0) {
		note_missing(t, "cgroup", "no cgroup v2 hierarchy at /sys/fs/cgroup");
		return 0;
	}
	snprintf(out, sizeof(out), "%s/cgroup", t->dir);
	return copy_cgroup_tree(t, src, out, 0, err);
}

/* Is name a pid ("1234")? */
static int is_pid_dir(const struct dirent *e)
{
	const char *c = e->d_name;

	if (!*c)
		return 0;
	for (; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return 1;
}

/* Does pid's /proc/PID/FILE hold a line: its first (comm), or its cgroup v2 or v1 memory one? */
static bool task_line(const char *root, const char *pid, const char *file, char *out, size_t cap)
{
	char path[4096], *bytes, *line, *nl;
	ssize_t n;
	bool found = false;

	snprintf(path, sizeof(path), "%s/proc/%s/%s", root, pid, file);
	n = read_all(path, &bytes);
	if (n <= 0) {
		free(bytes);	/* NULL when it could not be read */
		return false;
	}
	bytes = xrealloc(bytes, (size_t)n + 1);
	bytes[n] = '\0';
	for (line = bytes; !found && *line; line = nl ? nl + 1 : line + strlen(line)) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (strcmp(file, "comm") == 0 || strncmp(line, "0::", 3) == 0 ||
		    strstr(line, ":memory:") || strstr(line, ",memory:") || strstr(line, ":memory,")) {
			snprintf(out, cap, "%s", line);
			found = strchr(line, '\t') == NULL;	/* a tab would make another column */
		}
		if (!nl)
			break;
	}
	free(bytes);
	return found;
}

/*
 * pids: a line per process, "pid<TAB>comm<TAB>its /proc/PID/cgroup line",
 * for --cgroup-map (a task gone meanwhile is passed over).
 */
static int write_pids(struct taking *t, struct ta_error *err)
{
	char dir[4096], comm[64], cgroup[4096], line[4400];
	struct dirent **names;
	size_t len = 0, cap = 0;
	char *text = NULL;
	int n, i, rc;

	snprintf(dir, sizeof(dir), "%s/proc", t->root);
	n = scandir(dir, &names, is_pid_dir, versionsort);
	for (i = 0; i < n; i++) {
		int w;

		if (task_line(t->root, names[i]->d_name, "comm", comm, sizeof(comm)) &&
		    task_line(t->root, names[i]->d_name, "cgroup", cgroup, sizeof(cgroup))) {
			w = snprintf(line, sizeof(line), "%s\t%s\t%s\n", names[i]->d_name, comm,
				     cgroup);
			if (w > 0 && (size_t)w < sizeof(line)) {
				if (len + (size_t)w > cap) {
					cap = (cap + (size_t)w) * 2;
					text = xrealloc(text, cap);
				}
				memcpy(text + len, line, (size_t)w);
				len += (size_t)w;
			}
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	if (!len) {
		free(text);
		note_missing(t, "pids", n < 0 ? "no /proc to list the processes of" :
			     "no process with a cgroup line (no cgroup v2, nor v1's memory controller)");
		return 0;
	}
	rc = write_file(t->dir, "pids", text, len, err);
	free(text);
	if (rc == 0) {
		t->out->files++;
		t->out->bytes += len;
	}
	return rc;
}

/* One line of a small /proc/sys file, or what uname says, into out. */
static void read_one_line(const char *root, const char *file, const char *fallback, char *out,
			  size_t cap)
{
	char path[4096], *bytes;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/proc/sys/kernel/%s", root, file);
	n = read_all(path, &bytes);
	if (n > 0) {
		const char *nl = memchr(bytes, '\n', (size_t)n);	/* bytes has no NUL */

		snprintf(out, cap, "%.*s", (int)(nl ? nl - bytes : n), bytes);
		free(bytes);
		return;
	}
	free(bytes);
	snprintf(out, cap, "%s", fallback);
}

static int write_stamp(struct taking *t, const struct timespec *mono, const struct timespec *real,
		       struct ta_error *err)
{
	char text[4096], host[128], release[128], boot[64];
	struct utsname u;
	int n;

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	read_one_line(t->root, "hostname", u.nodename, host, sizeof(host));
	read_one_line(t->root, "osrelease", u.release, release, sizeof(release));
	read_one_line(t->root, "random/boot_id", "", boot, sizeof(boot));
	n = snprintf(text, sizeof(text),
		     "# trace_analyze snapshot " TA_VERSION ": the files beside were copied from "
		     "/proc and /sys/fs/cgroup at this moment\n"
		     "monotonic: %lld.%09ld\nrealtime: %lld.%09ld\nhost: %s\nrelease: %s\n"
		     "boot_id: %s\n%s", (long long)mono->tv_sec, mono->tv_nsec,
		     (long long)real->tv_sec, real->tv_nsec, host, release, boot, t->missing);
	return write_file(t->dir, "snapshot", text, n < 0 ? 0 : (size_t)n < sizeof(text)
			  ? (size_t)n : sizeof(text) - 1, err);
}

static bool folder_is_empty(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, not_hidden, alphasort), i;

	for (i = 0; i < n; i++)
		free(names[i]);
	if (n >= 0)
		free(names);
	return n == 0;
}

/* dir made, or an empty one taken; one holding anything is refused (two moments would mix). */
static int make_folder(const char *dir, struct ta_error *err)
{
	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST)
		return error_set_errno(err, errno, "cannot make '%s'", dir);
	if (!folder_is_empty(dir))
		return error_set(err, "'%s' is not an empty folder: a snapshot goes in a folder of "
				 "its own", dir);
	return 0;
}

int snapshot_take(const char *dir, const char *root, struct snapshot_taken *out,
		  struct ta_error *err)
{
	struct taking t = { dir, root, out, "", 0 };
	struct timespec mono, real;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (make_folder(dir, err) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &real);
	for (i = 0; i < sizeof(proc_files) / sizeof(proc_files[0]); i++)
		if (copy_proc_file(&t, proc_files[i], err) < 0)
			return -1;
	if (write_pids(&t, err) < 0 || copy_kmsg(&t, err) < 0 || copy_cgroups(&t, err) < 0)
		return -1;
	return write_stamp(&t, &mono, &real, err);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

void snapshot_remove(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int snapshot_take_beside(const char *final, const char *root, char *tmp, size_t cap,
			 struct ta_error *err)
{
	struct snapshot_taken got;
	int n = snprintf(tmp, cap, "%s.tmp%ld", final, (long)getpid());

	if (n < 0 || (size_t)n >= cap)
		return error_set(err, "'%s': a name too long for a snapshot beside it", final);
	if (snapshot_take(tmp, root, &got, err) < 0) {
		snapshot_remove(tmp);
		return -1;
	}
	return 0;
}

/* Is dir one snapshot_take made (its own "snapshot" file, a meminfo)? */
static bool is_snapshot_folder(const char *dir)
{
	char file[4096];
	struct stat st;

	snprintf(file, sizeof(file), "%s/snapshot", dir);
	if (stat(file, &st) != 0 || !S_ISREG(st.st_mode))
		return false;
	snprintf(file, sizeof(file), "%s/meminfo", dir);
	return stat(file, &st) == 0 && S_ISREG(st.st_mode);
}

int snapshot_commit(const char *tmp, const char *final, struct ta_error *err)
{
	struct stat st;

	if (lstat(final, &st) == 0) {
		if (!S_ISDIR(st.st_mode) || !is_snapshot_folder(final))
			return error_set(err, "'%s' exists and is no snapshot: left as it is; the "
					 "snapshot is in '%s'", final, tmp);
		snapshot_remove(final);
	}
	if (rename(tmp, final) < 0)
		return error_set_errno(err, errno, "cannot rename '%s' to '%s'", tmp, final);
	return 0;
}
