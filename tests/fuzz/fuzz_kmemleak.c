/*
 * fuzz_kmemleak.c - a libFuzzer target for kmemleak's report (kmemleak.h):
 * any bytes as a report, read to their end or refused with a message; what
 * is read is objects sorted by address, one each, every one at a call
 * site. No crash, leak, hang or undefined behaviour whatever the bytes.
 *
 * Its seed is the kmemleak fixture's report (tests/fuzz/make-built-seeds.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "kmemleak.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct kmemleak_report rep;
	struct trace_strings strings;
	struct ta_error err;
	struct input in;
	size_t i;

	path = fuzz_file_of("kmemleak", data, size);
	if (input_open(&in, path, &err) < 0)
		return 0;
	trace_strings_init(&strings);
	kmemleak_report_init(&rep);
	if (kmemleak_read(&in, path, &strings, &rep, &err) == 0)
		for (i = 0; i < rep.n; i++)
			if ((i && rep.o[i - 1].addr >= rep.o[i].addr) || rep.o[i].call_site == STR_NONE ||
			    kmemleak_find(&rep, rep.o[i].addr) != &rep.o[i])
				abort();
	kmemleak_report_release(&rep);
	trace_strings_release(&strings);
	input_close(&in);
	return 0;
}
