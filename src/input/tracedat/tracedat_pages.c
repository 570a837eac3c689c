/*
 * tracedat_pages.c - a trace.dat's pages walked in place (tracedat_pages.h).
 *
 * libtracecmd's iteration allocates, fills and frees a record per event and
 * keeps its pages reference-counted; on a 76 MB capture that was a third
 * of the time of reading it. Here each CPU has a cursor on its pages in
 * the mapped file, each page read as libtraceevent's kbuffer reads it
 * (rbpage.h), and the earliest record of all cursors goes next. The
 * layout was checked first (tracedat_layout.c), but for these pages: each
 * is checked as it is loaded (dat_page_ok), and the first damaged one ends
 * the walk. Not here: compressed pages, timestamps libtracecmd would
 * change, the pre-2.6.31 page format (libtracecmd reads those).
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "bigmem.h"
#include "error.h"
#include "rbpage.h"
#include "tracedat_pages.h"

/* Bytes of read pages a cursor gives back at a time (the page cache keeps them). */
#define RELEASE_AT_ONCE (4u << 20)

struct cpu_cursor {
	struct rb_page page;		/* the page being read */
	const unsigned char *file;
	uint64_t at, next_page, end;	/* the page's offset, the next one's, the end */
	uint64_t released;		/* the file's bytes from here on are still mapped in */
	bool long8;
	bool damaged;			/* a page broke the rule: the walk stops */
	bool loaded;
	bool has_record;
	struct tep_record rec;		/* the CPU's next record, when has_record */
};

/*
 * The pages this CPU has read, given back: a 76 MB trace.dat was read in
 * 77 MB of memory, its whole mapping. A record's bytes are copied out
 * before the cursor moves on; a page read again comes back from the file.
 */
static void release_read_pages(struct cpu_cursor *c)
{
	pages_give_back(c->file + c->released, (size_t)(c->next_page - c->released));
	c->released = c->next_page;
}

/* The CPU's next record into c->rec, loading pages as they run out; false at its end. */
static bool cursor_peek(struct cpu_cursor *c, uint32_t page_size)
{
	uint64_t ts, n;
	void *data;

	for (;;) {
		if (c->loaded && (data = (void *)rb_page_read(&c->page, &ts)) != NULL) {
			c->rec.ts = ts;
			c->rec.data = data;
			c->rec.size = rb_page_event_size(&c->page);
			c->rec.offset = c->at + (uint64_t)rb_page_offset(&c->page);
			c->rec.missed_events = rb_page_missed(&c->page);
			return c->has_record = true;
		}
		if (c->next_page >= c->end)
			return c->has_record = false;
		if (c->next_page - c->released >= RELEASE_AT_ONCE)
			release_read_pages(c);
		c->at = c->next_page;
		c->next_page += page_size;
		n = c->end - c->at < page_size ? c->end - c->at : page_size;
		if (!dat_page_ok(c->file + c->at, n, page_size, c->long8 ? 8 : 4)) {
			c->damaged = true;
			return c->has_record = false;
		}
		rb_page_load(&c->page, c->file + c->at, n, c->long8);
		c->loaded = true;
	}
}

static void cursor_advance(struct cpu_cursor *c, uint32_t page_size)
{
	rb_page_next(&c->page);
	cursor_peek(c, page_size);
}

/* The CPU whose next record is earliest (the lower on a tie), or -1 when all are done. */
static int earliest_cpu(const struct cpu_cursor *c, int n)
{
	int best = -1, i;

	for (i = 0; i < n; i++)
		if (c[i].has_record && (best < 0 || c[i].rec.ts < c[best].rec.ts))
			best = i;
	return best;
}

int datpages_iterate(const unsigned char *file, uint64_t size, const struct dat_flyrecord *fly,
		     dat_record_fn fn, void *ctx)
{
	struct cpu_cursor *c = xcalloc((size_t)(fly->ncpus ? fly->ncpus : 1), sizeof(*c));
	int i, cpu, ret = 0;
	bool damaged = false;

	for (i = 0; i < fly->ncpus; i++) {
		c[i].long8 = fly->long_size == 8;
		c[i].file = file;
		c[i].next_page = c[i].released = fly->offset[i];
		c[i].end = fly->offset[i] + fly->size[i] <= size ? fly->offset[i] + fly->size[i]
								 : fly->offset[i];
		c[i].rec.cpu = i;
		c[i].rec.ref_count = 1;
		cursor_peek(&c[i], fly->page_size);
	}
	for (i = 0; i < fly->ncpus; i++)
		damaged |= c[i].damaged;
	while (ret >= 0 && !damaged && (cpu = earliest_cpu(c, fly->ncpus)) >= 0) {
		ret = fn(&c[cpu].rec, cpu, ctx);
		cursor_advance(&c[cpu], fly->page_size);
		damaged = c[cpu].damaged;
	}
	free(c);
	return damaged ? DATPAGES_DAMAGED : ret < 0 ? ret : 0;
}
