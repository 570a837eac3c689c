/*
 * tracedat_pages.c - a trace.dat's pages walked in place (tracedat_pages.h).
 *
 * libtracecmd's iteration allocates, fills and frees a record per event and
 * keeps its pages reference-counted; on a 76 MB capture that was a third
 * of the time of reading it. Here each CPU has a cursor on its pages in
 * the mapped file, read with libtraceevent's kbuffer as libtracecmd reads
 * them, and the earliest record of all cursors goes next. The layout was
 * checked first (tracedat_layout.c): every page's header fits its page.
 * Not here: compressed pages, timestamps libtracecmd would change
 * (the layout then says the pages are not walkable).
 */
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <kbuffer.h>

#include "error.h"
#include "tracedat_pages.h"

struct cpu_cursor {
	struct kbuffer *kbuf;
	const unsigned char *file;
	uint64_t page, next_page, end;	/* the page read, the one after it, the end */
	bool loaded;
	bool has_record;
	struct tep_record rec;		/* the CPU's next record, when has_record */
};

/* The CPU's next record into c->rec, loading pages as they run out; false at its end. */
static bool cursor_peek(struct cpu_cursor *c, uint32_t page_size)
{
	unsigned long long ts;
	void *data;

	for (;;) {
		if (c->loaded && (data = kbuffer_read_event(c->kbuf, &ts)) != NULL) {
			c->rec.ts = ts;
			c->rec.data = data;
			c->rec.size = kbuffer_event_size(c->kbuf);
			c->rec.offset = c->page + (uint64_t)kbuffer_curr_offset(c->kbuf);
			c->rec.missed_events = kbuffer_missed_events(c->kbuf);
			return c->has_record = true;
		}
		if (c->next_page >= c->end)
			return c->has_record = false;
		c->page = c->next_page;
		c->next_page += page_size;
		kbuffer_load_subbuffer(c->kbuf, (void *)(c->file + c->page));
		c->loaded = true;
	}
}

static void cursor_advance(struct cpu_cursor *c, uint32_t page_size)
{
	kbuffer_next_event(c->kbuf, NULL);
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
		     struct tep_handle *tep, dat_record_fn fn, void *ctx)
{
	struct cpu_cursor *c = xcalloc((size_t)(fly->ncpus ? fly->ncpus : 1), sizeof(*c));
	enum kbuffer_long_size ls = fly->long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
	int i, cpu, ret = 0;

	for (i = 0; i < fly->ncpus; i++) {
		c[i].kbuf = kbuffer_alloc(ls, KBUFFER_ENDIAN_LITTLE);
		if (tep_is_old_format(tep))
			kbuffer_set_old_format(c[i].kbuf);
		c[i].file = file;
		c[i].next_page = fly->offset[i];
		c[i].end = fly->offset[i] + fly->size[i] <= size ? fly->offset[i] + fly->size[i]
								 : fly->offset[i];
		c[i].rec.cpu = i;
		c[i].rec.ref_count = 1;
		cursor_peek(&c[i], fly->page_size);
	}
	while (ret >= 0 && (cpu = earliest_cpu(c, fly->ncpus)) >= 0) {
		ret = fn(&c[cpu].rec, cpu, ctx);
		cursor_advance(&c[cpu], fly->page_size);
	}
	for (i = 0; i < fly->ncpus; i++)
		kbuffer_free(c[i].kbuf);
	free(c);
	return ret < 0 ? ret : 0;
}
