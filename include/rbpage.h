/*
 * rbpage.h - one sub-buffer (page) of the kernel's ring buffer, as a
 * trace.dat keeps it, read event by event as libtraceevent's kbuffer reads
 * it (little-endian, the format since 2.6.31): the same events, times,
 * sizes, offsets and missed-event counts, read inline instead of through
 * five library calls an event. Not here: which page comes next
 * (tracedat_pages.c), the events' fields (tepkmem.h).
 */
#ifndef TA_RBPAGE_H
#define TA_RBPAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rb_page {
	const unsigned char *data;	/* the events: past the page's header */
	uint32_t avail;			/* bytes of data the file holds (a cut page: fewer) */
	uint32_t size;			/* the commit: bytes of events */
	uint32_t curr, next, index;	/* the event: where it starts, ends, its payload */
	uint32_t start;			/* the header's size: 16, or 12 for 4-byte longs */
	uint64_t ts;			/* the event's time */
	long long lost;			/* events lost before the page: 0, -1 unknown, or a count */
};

/* Load the page at page (avail bytes of it readable); long8: 8-byte longs. */
void rb_page_load(struct rb_page *p, const unsigned char *page, size_t avail, bool long8);

/* The event's payload and time (*ts), or NULL past the page's last event. */
static inline const void *rb_page_read(const struct rb_page *p, uint64_t *ts)
{
	if (p->curr >= p->size)
		return NULL;
	*ts = p->ts;
	return p->data + p->index;
}

/* On to the next event (padding and time extensions passed over). */
void rb_page_next(struct rb_page *p);

static inline int rb_page_event_size(const struct rb_page *p)
{
	return (int)(p->next - p->index);
}

/* The event's offset from the page's start. */
static inline int rb_page_offset(const struct rb_page *p)
{
	return (int)(p->curr + p->start);
}

/* Events lost before this one: the page's count on its first event, else 0. */
static inline int rb_page_missed(const struct rb_page *p)
{
	return p->curr ? 0 : (int)p->lost;
}

#endif
