/*
 * fuzz_file.h - what the fuzz targets that read a file share: the input
 * written whole to a file of the fuzzer's own, named by the target and its
 * pid, removed when the fuzzer exits.
 */
#ifndef TA_FUZZ_FILE_H
#define TA_FUZZ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_path[64];

static void fuzz_remove_file(void)
{
	unlink(fuzz_path);
}

/* data (size bytes) as the file /tmp/ta-fuzz-TAG-PID: its path. */
static const char *fuzz_file_of(const char *tag, const uint8_t *data, size_t size)
{
	FILE *f;

	if (!fuzz_path[0]) {
		snprintf(fuzz_path, sizeof(fuzz_path), "/tmp/ta-fuzz-%s-%ld", tag, (long)getpid());
		atexit(fuzz_remove_file);
	}
	f = fopen(fuzz_path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
	return fuzz_path;
}

#endif
