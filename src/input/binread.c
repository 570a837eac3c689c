/*
 * binread.c - which binary file a file is (by its magic bytes), and the
 * reader of each (tracedat.c, perfdata.c), on this thread (binpipe.c puts
 * it on a thread of its own).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "binread.h"

enum binary_kind binary_kind_of(const unsigned char *head, size_t n)
{
	switch (input_kind_of_head(head, n, false)) {
	case INPUT_TRACEDAT:
		return BINARY_TRACEDAT;
	case INPUT_PERFDATA:
		return BINARY_PERFDATA;
	default:
		return BINARY_NONE;
	}
}

const char *binary_kind_name(enum binary_kind k)
{
	return k == BINARY_TRACEDAT ? "trace.dat" : k == BINARY_PERFDATA ? "perf.data" : "text";
}

/* The version after trace.dat's magic: "6\0" or "7\0" (0 if unreadable). */
static int tracedat_version(int fd)
{
	char head[32];
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
	size_t at = sizeof(TRACEDAT_MAGIC) - 1;
	int v = 0;

	if (n <= (ssize_t)at)
		return 0;
	head[n] = '\0';
	for (; head[at] >= '0' && head[at] <= '9' && v < 1000; at++)
		v = v * 10 + head[at] - '0';
	return v;
}

int binread_here(int fd, enum binary_kind kind, const struct binread_config *cfg,
		 struct read_result *out, struct binread_facts *facts, struct ta_error *err)
{
	memset(facts, 0, sizeof(*facts));
	facts->kind = kind;
	if (kind == BINARY_TRACEDAT) {
		facts->version = tracedat_version(fd);
		if (facts->version != 6 && facts->version != 7)
			return error_set(err, "'%s' is a trace.dat of version %d: versions 6 and 7 are "
					 "read", cfg->name, facts->version);
		return tracedat_read(fd, cfg, out, facts, err);
	}
	if (kind == BINARY_PERFDATA) {
		facts->version = 2;
		return perfdata_read(fd, cfg, out, facts, err);
	}
	return error_set(err, "'%s' is no binary trace file", cfg->name);
}
