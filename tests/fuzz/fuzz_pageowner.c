/*
 * fuzz_pageowner.c - a libFuzzer target for page_owner's dump and
 * show_stacks (pageowner.h): any bytes as such a file, read to their end or
 * refused with a message; what is read is page allocations whose pages add
 * up to what the reader says it read. No crash, leak, hang or undefined
 * behaviour whatever the bytes.
 *
 * Its seeds are the page_owner fixture's files (tests/fuzz/make-built-seeds.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "pageowner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct seen {
	uint64_t events, pages;
};

static void count(void *ctx, const struct kmem_event *ev)
{
	struct seen *s = ctx;

	if (ev->kind != KMEM_PAGE_ALLOC || ev->order < 0 || ev->order > 20)
		abort();
	s->events++;
	s->pages += 1ull << ev->order;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct page_owner_facts facts;
	struct trace_strings strings;
	struct seen seen = { 0, 0 };
	struct ta_error err;
	struct input in;

	path = fuzz_file_of("pageowner", data, size);
	if (input_open(&in, path, &err) < 0)
		return 0;
	trace_strings_init(&strings);
	if (page_owner_read(&in, path, &strings, NULL, count, &seen, &facts, &err) == 0 &&
	    seen.pages != facts.pages)
		abort();	/* the pages handed on are the pages said read */
	trace_strings_release(&strings);
	input_close(&in);
	return 0;
}
