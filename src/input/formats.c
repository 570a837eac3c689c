/*
 * formats.c - the input formats' table and the one place that asks it
 * (formats.h). Not here: how any format is read.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "allocinfo.h"
#include "formats.h"
#include "input.h"
#include "ksnapshot.h"
#include "kmemleak.h"
#include "pageowner.h"

static bool starts_with(const unsigned char *head, size_t n, const char *magic)
{
	size_t len = strlen(magic);

	return n >= len && memcmp(head, magic, len) == 0;
}

static bool is_db(const unsigned char *head, size_t n)
{
	return starts_with(head, n, DB_MAGIC);
}

static bool is_tracedat(const unsigned char *head, size_t n)
{
	return starts_with(head, n, TRACEDAT_MAGIC);
}

static bool is_perfdata(const unsigned char *head, size_t n)
{
	return starts_with(head, n, PERFDATA_MAGIC);
}

static bool is_anything(const unsigned char *head, size_t n)
{
	(void)head;
	(void)n;
	return true;
}

const struct input_format input_formats[INPUT_KIND_COUNT] = {
	{ INPUT_DB, "DB", true, is_db },
	{ INPUT_TRACEDAT, "trace.dat", false, is_tracedat },
	{ INPUT_PERFDATA, "perf.data", false, is_perfdata },
	{ INPUT_ALLOCINFO, "allocinfo snapshot", false, allocinfo_is_snapshot },
	{ INPUT_KSNAPSHOT, "kernel snapshot", false, ksnapshot_is_file },
	{ INPUT_PAGEOWNER, "page_owner dump", false, page_owner_is_file },
	{ INPUT_KMEMLEAK, "kmemleak report", false, kmemleak_is_report },
	{ INPUT_TEXT, "kmem log", false, is_anything },
};

enum input_kind input_kind_of_head(const unsigned char *head, size_t n, bool raw)
{
	size_t i;

	for (i = 0; i < INPUT_KIND_COUNT; i++)
		if ((raw || !input_formats[i].raw) && input_formats[i].probe(head, n))
			return input_formats[i].kind;
	return INPUT_TEXT;
}

const char *input_kind_name(enum input_kind kind)
{
	size_t i;

	for (i = 0; i < INPUT_KIND_COUNT; i++)
		if (input_formats[i].kind == kind)
			return input_formats[i].name;
	return "kmem log";
}

static int not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* A directory whose first regular file (by name) is a snapshot is a series of them. */
static enum input_kind kind_of_directory(const char *path)
{
	struct dirent **names;
	enum input_kind kind = INPUT_TEXT;
	bool found = false;
	int n = scandir(path, &names, not_hidden, versionsort), i;

	for (i = 0; i < n; i++) {
		char file[4096];
		struct stat st;

		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (!found && stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
			found = true;
			if (input_kind_of_path(file) == INPUT_ALLOCINFO)
				kind = INPUT_ALLOCINFO;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return kind;
}

/* A regular file: its own bytes, then (a format that may come compressed) its content. */
static enum input_kind kind_of_file(const char *path)
{
	unsigned char head[INPUT_PROBE_BYTES];
	enum input_kind kind = INPUT_TEXT;
	struct ta_error err;
	struct input in;
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return INPUT_TEXT;
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n > 0)
		kind = input_kind_of_head(head, (size_t)n, true);
	if (kind != INPUT_TEXT || input_open(&in, path, &err) < 0)
		return kind;
	if (input_peek(&in, head, sizeof(head), &got, &err) == 0 && got)
		kind = input_kind_of_head(head, got, false);
	input_close(&in);
	return kind;
}

enum input_kind input_kind_of_path(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0)
		return INPUT_TEXT;
	if (S_ISDIR(st.st_mode))
		return ksnapshot_is_folder(path) ? INPUT_KSNAPSHOT : kind_of_directory(path);
	return S_ISREG(st.st_mode) ? kind_of_file(path) : INPUT_TEXT;
}
