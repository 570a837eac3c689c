/*
 * fuzz_perfdata.c - a libFuzzer target for the perf.data decoder: any bytes
 * (that start like a perf.data) read as one, every record through the
 * accounts. Seeds: a small perf record -g of the fixtures, made here.
 */
#include "fuzz_binary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_binary(data, size, BINARY_PERFDATA, "perfdata");
	return 0;
}
