/*
 * fuzz_datlayout.c - a libFuzzer target for the trace.dat layout walk
 * (tracedat_layout.h) that guards libtracecmd: any bytes, as a trace.dat of
 * the version its header names, walked section by section. libtracecmd
 * is not opened: the whole-file target (fuzz_tracedat) does that, with
 * the child that keeps its crashes out. The event formats are tried in a
 * child only when they differ from ones already tried (tepguard.h), so
 * most runs make none.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tracedat_layout.h"
#include "error.h"
#include "tracelib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int loaded;
	struct ta_error err;
	int fd, version;

	if (!loaded) {
		if (trace_library_load("to fuzz the trace.dat layout", &err) < 0)
			abort();
		loaded = 1;
	}
	if (size < 12 || memcmp(data, "\027\010\104tracing", 10) != 0)
		return 0;
	version = data[10] == '7' && data[11] == '\0' ? 7 : 6;
	fd = memfd_create("fuzz-datlayout", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	(void)datlayout_check(fd, version, NULL);
	close(fd);
	return 0;
}
