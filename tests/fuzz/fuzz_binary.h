/*
 * fuzz_binary.h - what the binary decoders' fuzz targets share: the input
 * written to a file of the fuzzer's own (both formats are read at random,
 * from a file), then read through binread into an account, as -f reads it.
 */
#ifndef TA_FUZZ_BINARY_H
#define TA_FUZZ_BINARY_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "account.h"
#include "binread.h"
#include "fuzz_file.h"
#include "text_parse.h"

static void fuzz_count_event(void *ctx, const struct kmem_event *ev)
{
	account_apply(ctx, ev);
}

/* Read data as a binary file of kind; whatever it holds, no crash, leak or UB. */
static void fuzz_binary(const uint8_t *data, size_t size, enum binary_kind kind, const char *tag)
{
	const char *path = fuzz_file_of(tag, data, size);
	struct trace_strings strings;
	struct binread_config cfg;
	struct binread_facts facts;
	struct read_result result;
	struct ta_error err;
	struct account a;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		abort();
	trace_strings_init(&strings);
	account_init(&a, FAMILY_ALL);
	memset(&cfg, 0, sizeof(cfg));
	memset(&result, 0, sizeof(result));
	cfg.name = path;
	cfg.strings = &strings;
	cfg.want = WANT_ALL | WANT_USER_FRAMES;
	cfg.on_event = fuzz_count_event;
	cfg.ctx = &a;
	if (binary_kind_of(data, size) == kind)
		(void)binread(fd, kind, &cfg, &result, &facts, &err);
	close(fd);
	account_release(&a);
	trace_strings_release(&strings);
}

#endif
