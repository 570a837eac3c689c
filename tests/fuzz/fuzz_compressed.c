/*
 * fuzz_compressed.c - a libFuzzer target for compressed inputs: any bytes
 * as a file through input_open and input_read_chunk, the path a gzip, xz or
 * zstd log takes (the decompressor thread, its pipe, the chunking behind
 * it). Whatever the bytes, the input is read to its end or refused with a
 * message, without a crash, a leak, a hang or undefined behaviour, and a
 * compressed input whose data is damaged or cut always ends in an error.
 *
 * Its seeds are made at build time (tests/fuzz/make-built-seeds.sh: text
 * seeds compressed by each tool, whole and cut). `make fuzz-compressed` runs
 * it with libFuzzer; `make check` runs it as the other targets.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct ta_error err;
	struct input in;
	struct chunk c;
	uint64_t bytes = 0;
	int rc;

	path = fuzz_file_of("compressed", data, size);
	if (input_open(&in, path, &err) < 0)
		return 0;
	chunk_init(&c, INPUT_CHUNK_SIZE);
	while ((rc = input_read_chunk(&in, &c, &err)) > 0) {
		if (c.len == 0 || c.data[c.len - 1] != '\n')
			abort();	/* a chunk is whole lines */
		bytes += c.len;
	}
	if (rc == 0 && in.compression != COMPRESSION_NONE && bytes > in.bytes_read)
		abort();	/* more handed on than was decompressed */
	chunk_release(&c);
	input_close(&in);
	return 0;
}
