/*
 * rbpage.c - a ring-buffer page read as kbuffer reads it (rbpage.h).
 *
 * The page: an 8-byte time, then the commit word (a long) whose low 27
 * bits are the bytes of events and whose bits 31 and 30 say events were
 * missed before it and their count is stored after the events. Each event
 * starts with a 32-bit word: 5 bits of type/length, 27 of time delta.
 * Lengths 1 to 28 are the payload in 4-byte words; 0 puts the length in
 * the next word; 29 is padding, 30 a time extension, 31 an absolute time
 * (59 bits, the top 5 taken from the time so far): those three are passed
 * over. A read past what the file holds ends the page (kbuffer would read
 * on): only a cut or damaged page meets it.
 * Not here: big-endian files or the pre-2.6.31 format (libtracecmd reads those).
 */
#include <string.h>

#include "rbpage.h"

#define COMMIT_MASK ((1u << 27) - 1)
#define MISSING_EVENTS (1ull << 31)
#define MISSING_STORED (1ull << 30)
#define TS_SHIFT 27
#define TS_MSB (0xf8ull << 56)

enum { TYPE_PADDING = 29, TYPE_TIME_EXTEND = 30, TYPE_TIME_STAMP = 31 };

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t long_at(const unsigned char *p, bool long8)
{
	uint64_t v = 0;

	memcpy(&v, p, long8 ? 8 : 4);
	return v;
}

void rb_page_load(struct rb_page *p, const unsigned char *page, size_t avail, bool long8)
{
	uint64_t flags;

	memset(p, 0, sizeof(*p));
	p->start = long8 ? 16 : 12;
	if (avail < p->start) {
		p->curr = p->size = 0;	/* nothing: reads as an empty page */
		return;
	}
	p->ts = long_at(page, true);
	flags = long_at(page + 8, long8);
	p->data = page + p->start;
	p->avail = (uint32_t)(avail - p->start < UINT32_MAX ? avail - p->start : UINT32_MAX);
	p->size = (uint32_t)flags & COMMIT_MASK;
	if (flags & MISSING_EVENTS) {
		if ((flags & MISSING_STORED) && (uint64_t)p->size + (long8 ? 8 : 4) <= p->avail)
			p->lost = (long long)long_at(p->data + p->size, long8);
		else
			p->lost = -1;
	}
	rb_page_next(p);
}

/* The entry at curr: its kind, and its payload's place and length; false past what is readable. */
static bool read_entry(struct rb_page *p, unsigned *type, uint64_t *delta)
{
	uint32_t at = p->curr, word, length;
	uint64_t extend;

	if ((uint64_t)at + 8 > p->avail)
		return false;
	word = u32_at(p->data + at);
	*type = word & 31;
	*delta = word >> 5;
	at += 4;
	switch (*type) {
	case TYPE_PADDING:
		length = u32_at(p->data + at);
		break;
	case TYPE_TIME_STAMP:
	case TYPE_TIME_EXTEND:
		extend = (uint64_t)u32_at(p->data + at) << TS_SHIFT;
		*delta = (extend + *delta) | (*type == TYPE_TIME_STAMP ? p->ts & TS_MSB : 0);
		at += 4;
		length = 0;
		break;
	case 0:
		length = (u32_at(p->data + at) - 4 + 3) & ~3u;
		at += 4;
		break;
	default:
		length = *type * 4;
		break;
	}
	p->index = at;
	p->next = at + length;
	if (p->next < at)	/* a length that wraps: the page ends */
		p->next = p->size;
	return true;
}

void rb_page_next(struct rb_page *p)
{
	unsigned type;
	uint64_t delta;

	do {
		p->curr = p->next;
		if (p->next >= p->size)
			return;
		if (!read_entry(p, &type, &delta)) {
			p->curr = p->next = p->size;	/* cut short: no more events */
			return;
		}
		if (type == TYPE_TIME_STAMP)
			p->ts = delta;
		else
			p->ts += delta;
	} while (type == TYPE_TIME_EXTEND || type == TYPE_TIME_STAMP || type == TYPE_PADDING);
}
