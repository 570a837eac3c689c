/*
 * fuzz_tracedat.c - a libFuzzer target for the trace.dat decoder: any bytes
 * (that start like a trace.dat) read as one through libtracecmd and our
 * decoding of its records, every record through the accounts.
 */
#include "fuzz_binary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_binary(data, size, BINARY_TRACEDAT, "tracedat");
	return 0;
}
