/*
 * pathcheck.h - the files one run reads and writes, and the rule that no
 * output is written over an input or over another output.
 *
 * A kmem log is often irreplaceable (a capture from a board, a boot that
 * took an hour to reproduce): a one-letter slip such as `-f x.log -c x.log`
 * must not destroy it. Files that exist are compared by device and inode
 * (so a symlink or a "./" prefix changes nothing); files that do not exist
 * yet by the path they would be created at (symlinks in it resolved).
 * "-" and outputs that are not regular files (/dev/null, a FIFO, a
 * terminal) are never in conflict; standard input is an input when it is
 * a regular file. This module only compares; main() reports.
 */
#ifndef TA_PATHCHECK_H
#define TA_PATHCHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define FILE_ROLES_MAX 48

struct file_role {
	const char *option;	/* as the user would write it: "-c", "--save-db" */
	const char *path;
	bool output;
};

struct file_roles {
	struct file_role role[FILE_ROLES_MAX];
	size_t count;
};

void file_roles_init(struct file_roles *r);

/* Add one file; NULL paths are passed over, so options not given cost nothing. */
void file_roles_add_input(struct file_roles *r, const char *option, const char *path);
void file_roles_add_output(struct file_roles *r, const char *option, const char *path);

/*
 * 0 when every output is a file of its own; -1 with err naming both options
 * and the path when an output is an input, or two outputs are one file.
 */
int file_roles_check(const struct file_roles *r, struct ta_error *err);

/*
 * Every output's directory exists: else "cannot write 'PATH': REASON", as
 * the writer would say once the log is read. -1 with err set.
 */
int file_roles_check_directories(const struct file_roles *r, struct ta_error *err);

#endif
