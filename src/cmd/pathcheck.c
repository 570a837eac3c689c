/*
 * pathcheck.c - is any output of the run an input, or another output?
 *
 * Every path is turned into an identity once: device and inode for a file
 * that exists, the absolute path it would be created at for one that does
 * not, or "never in conflict" for standard streams and special files.
 * Not here: opening or writing anything.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pathcheck.h"

enum id_kind { ID_NONE, ID_INODE, ID_PATH };

struct file_id {
	enum id_kind kind;
	dev_t dev;
	ino_t ino;
	char path[PATH_MAX];
};

void file_roles_init(struct file_roles *r)
{
	memset(r, 0, sizeof(*r));
}

static void add_role(struct file_roles *r, const char *option, const char *path, bool output)
{
	if (!path || r->count == FILE_ROLES_MAX)
		return;
	r->role[r->count].option = option;
	r->role[r->count].path = path;
	r->role[r->count].output = output;
	r->count++;
}

void file_roles_add_input(struct file_roles *r, const char *option, const char *path)
{
	add_role(r, option, path, false);
}

void file_roles_add_output(struct file_roles *r, const char *option, const char *path)
{
	add_role(r, option, path, true);
}

/*
 * Where a file not there yet would be created: its directory resolved (a
 * symlink to a directory, "..", "./"), then its name; the path as given if
 * the directory does not resolve either (the write will fail anyway).
 */
static void absolute_new_path(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], resolved[PATH_MAX];
	const char *base = slash ? slash + 1 : path;
	size_t dlen = slash ? (size_t)(slash - path) : 0;

	if (!slash)
		strcpy(dir, ".");
	else if (dlen == 0)
		strcpy(dir, "/");
	else if (dlen < sizeof(dir)) {
		memcpy(dir, path, dlen);
		dir[dlen] = '\0';
	} else {
		snprintf(out, PATH_MAX, "%s", path);
		return;
	}
	if (!realpath(dir, resolved)) {
		snprintf(out, PATH_MAX, "%s", path);
		return;
	}
	size_t rlen = strcmp(resolved, "/") == 0 ? 0 : strlen(resolved), blen = strlen(base);

	if (rlen + 1 + blen >= PATH_MAX) {
		snprintf(out, PATH_MAX, "%s", path);
		return;
	}
	memcpy(out, resolved, rlen);
	out[rlen] = '/';
	memcpy(out + rlen + 1, base, blen + 1);
}

static void identify(const struct file_role *role, struct file_id *id)
{
	struct stat st;
	int got;

	memset(id, 0, sizeof(*id));
	if (strcmp(role->path, "-") == 0) {
		/* standard output is never replaced; standard input may be a file */
		got = role->output ? -1 : fstat(STDIN_FILENO, &st);
		if (got < 0 || !S_ISREG(st.st_mode))
			return;
	} else if (stat(role->path, &st) < 0) {
		struct stat lst;

		if (!role->output)
			return;	/* a missing input fails when it is opened */
		id->kind = ID_PATH;
		if (lstat(role->path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
			/* a dangling symlink: the file would be created where it points */
			char link[PATH_MAX], joined[2 * PATH_MAX];
			ssize_t n = readlink(role->path, link, sizeof(link) - 1);
			const char *slash = strrchr(role->path, '/');

			if (n > 0) {
				link[n] = '\0';
				if (link[0] == '/' || !slash || slash - role->path >= PATH_MAX)
					snprintf(joined, sizeof(joined), "%s", link);
				else
					snprintf(joined, sizeof(joined), "%.*s/%s",
						 (int)(slash - role->path), role->path, link);
				absolute_new_path(joined, id->path);
				return;
			}
		}
		absolute_new_path(role->path, id->path);
		return;
	}
	if (!S_ISREG(st.st_mode))
		return;	/* devices, FIFOs, directories: nothing to overwrite */
	id->kind = ID_INODE;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
}

static bool same_file(const struct file_id *a, const struct file_id *b)
{
	if (a->kind == ID_NONE || a->kind != b->kind)
		return false;
	if (a->kind == ID_INODE)
		return a->dev == b->dev && a->ino == b->ino;
	return strcmp(a->path, b->path) == 0;
}

static int report_clash(const struct file_role *out, const struct file_role *other,
			struct ta_error *err)
{
	if (strcmp(other->path, "-") == 0)
		return error_set(err, "%s '%s' would overwrite the file on standard input, the "
				 "input of %s -: refusing to write over an input", out->option,
				 out->path, other->option);
	if (other->output)
		return error_set(err, "%s '%s' and %s '%s' would write the same file: "
				 "give each output a file of its own", other->option, other->path,
				 out->option, out->path);
	if (strcmp(out->path, other->path) == 0)
		return error_set(err, "%s '%s' would overwrite the input of %s: "
				 "refusing to write over an input", out->option, out->path,
				 other->option);
	return error_set(err, "%s '%s' would overwrite '%s', the input of %s: "
			 "refusing to write over an input", out->option, out->path,
			 other->path, other->option);
}

/*
 * An output in a directory that does not exist would fail only once the
 * log is read: say so first, as the writer would say it.
 */
static int check_output_directory(const struct file_role *out, struct ta_error *err)
{
	char dir[PATH_MAX];
	const char *slash;
	struct stat st;

	if (strcmp(out->path, "-") == 0 || !(slash = strrchr(out->path, '/')) ||
	    slash == out->path || (size_t)(slash - out->path) >= sizeof(dir))
		return 0;
	memcpy(dir, out->path, (size_t)(slash - out->path));
	dir[slash - out->path] = '\0';
	if (stat(dir, &st) < 0)
		return error_set_errno(err, errno, "cannot write '%s'", out->path);
	if (!S_ISDIR(st.st_mode))
		return error_set_errno(err, ENOTDIR, "cannot write '%s'", out->path);
	return 0;
}

int file_roles_check_directories(const struct file_roles *r, struct ta_error *err)
{
	size_t i;

	for (i = 0; i < r->count; i++)
		if (r->role[i].output && check_output_directory(&r->role[i], err) < 0)
			return -1;
	return 0;
}

/* Is out inside the input folder in's tree (a snapshot folder given to -f)? */
static bool inside_input_folder(const struct file_role *out, const struct file_role *in)
{
	char folder[PATH_MAX], target[PATH_MAX];
	struct stat st;
	size_t n;

	if (strcmp(out->path, "-") == 0 || stat(in->path, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    !realpath(in->path, folder))
		return false;
	if (!realpath(out->path, target))	/* a new file: its folder's real path, and its name */
		absolute_new_path(out->path, target);
	n = strlen(folder);
	return strncmp(target, folder, n) == 0 && (target[n] == '/' || n == 1);
}

int file_roles_check(const struct file_roles *r, struct ta_error *err)
{
	struct file_id *ids = xcalloc(r->count ? r->count : 1, sizeof(*ids));
	size_t i, j;
	int rc = 0;

	for (i = 0; i < r->count; i++)
		identify(&r->role[i], &ids[i]);
	/* inputs first: overwriting a log is the worse mistake to report */
	for (i = 0; i < r->count && rc == 0; i++) {
		if (!r->role[i].output)
			continue;
		for (j = 0; j < r->count && rc == 0; j++)
			if (!r->role[j].output && same_file(&ids[i], &ids[j]))
				rc = report_clash(&r->role[i], &r->role[j], err);
	}
	for (i = 0; i < r->count && rc == 0; i++) {	/* an output inside a folder read */
		if (!r->role[i].output)
			continue;
		for (j = 0; j < r->count && rc == 0; j++)
			if (!r->role[j].output && inside_input_folder(&r->role[i], &r->role[j]))
				rc = error_set(err, "%s '%s' would write into '%s', the input of %s: "
					       "refusing to write over an input", r->role[i].option,
					       r->role[i].path, r->role[j].path, r->role[j].option);
	}
	for (i = 0; i < r->count && rc == 0; i++) {
		if (!r->role[i].output)
			continue;
		for (j = 0; j < i && rc == 0; j++)
			if (r->role[j].output && same_file(&ids[i], &ids[j]))
				rc = report_clash(&r->role[i], &r->role[j], err);
	}
	free(ids);
	return rc;
}
