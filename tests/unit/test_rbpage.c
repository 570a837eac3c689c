/*
 * test_rbpage.c - rbpage.h against libtraceevent's own kbuffer, on pages
 * made up of every kind of ring-buffer entry (events of each short length
 * and long ones, time extensions, absolute time stamps, padding), with and
 * without a missed-events count, with 8- and 4-byte longs: the same events,
 * times, sizes, offsets and missed counts, entry for entry. The pages of
 * real captures are compared in test_tepkmem.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kbuffer.h>

#include "rbpage.h"
#include "tracelib.h"

#define PAGE 4096

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static void put32(unsigned char *page, uint32_t *at, uint32_t v)
{
	memcpy(page + *at, &v, 4);
	*at += 4;
}

/* A page of random entries, its header as the kernel writes it; its used size. */
static void make_page(unsigned char *page, bool long8)
{
	uint32_t start = long8 ? 16 : 12, at = start, end = PAGE - 64, n;
	uint64_t ts = (uint64_t)next_random() << 20 | next_random(), commit;

	memset(page, 0, PAGE);
	memcpy(page, &ts, 8);
	while (at + 300 < end && next_random() % 64) {
		uint32_t kind = next_random() % 8, delta = next_random() & ((1u << 27) - 1), len, i;

		switch (kind) {
		case 0:	/* a long event: its length in the next word */
			len = 120 + (next_random() % 40) * 4;
			put32(page, &at, delta << 5);
			put32(page, &at, len + 4);
			for (i = 0; i < len; i += 4)
				put32(page, &at, next_random());
			break;
		case 1:	/* a time extension */
			put32(page, &at, delta << 5 | 30);
			put32(page, &at, next_random() & ((1u << 28) - 1));
			break;
		case 2:	/* an absolute time stamp */
			put32(page, &at, delta << 5 | 31);
			put32(page, &at, next_random());
			break;
		case 3:	/* padding, with its length */
			len = (next_random() % 8) * 4;
			put32(page, &at, (delta ? delta : 1) << 5 | 29);
			put32(page, &at, len);
			at += len;
			break;
		default:	/* an event of 1 to 28 words */
			len = 1 + next_random() % 28;
			put32(page, &at, delta << 5 | len);
			for (i = 0; i < len; i++)
				put32(page, &at, next_random());
			break;
		}
	}
	commit = at - start;
	n = next_random() % 4;
	if (n == 1)
		commit |= 1ull << 31;	/* events missed, count unknown */
	if (n == 2) {
		uint64_t lost = next_random() % 100000;

		commit |= 1ull << 31 | 1ull << 30;	/* and their count after the events */
		memcpy(page + at, &lost, long8 ? 8 : 4);
	}
	memcpy(page + 8, &commit, long8 ? 8 : 4);
}

static void same_events(const unsigned char *page, bool long8)
{
	struct kbuffer *kb = kbuffer_alloc(long8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					   KBUFFER_ENDIAN_LITTLE);
	struct rb_page rb;
	int events = 0;

	kbuffer_load_subbuffer(kb, (void *)page);
	rb_page_load(&rb, page, PAGE, long8);
	for (;;) {
		unsigned long long kts = 0;
		uint64_t rts = 0;
		void *kd = kbuffer_read_event(kb, &kts);
		const void *rd = rb_page_read(&rb, &rts);

		assert_ptr_equal(kd, rd);
		if (!kd)
			break;
		assert_true(kts == rts);
		assert_int_equal(kbuffer_event_size(kb), rb_page_event_size(&rb));
		assert_int_equal(kbuffer_curr_offset(kb), rb_page_offset(&rb));
		assert_int_equal(kbuffer_missed_events(kb), rb_page_missed(&rb));
		kbuffer_next_event(kb, NULL);
		rb_page_next(&rb);
		events++;
	}
	kbuffer_free(kb);
	(void)events;
}

static void pages_of_every_entry(void **state)
{
	static unsigned char page[PAGE];
	struct ta_error err;
	int i;

	(void)state;
	assert_int_equal(trace_library_load("for the test", &err), 0);
	for (i = 0; i < 20000; i++) {
		bool long8 = i % 4 != 3;

		make_page(page, long8);
		same_events(page, long8);
	}
}

static void an_empty_page(void **state)
{
	static unsigned char page[PAGE];
	struct ta_error err;

	(void)state;
	assert_int_equal(trace_library_load("for the test", &err), 0);
	memset(page, 0, PAGE);
	same_events(page, true);
	page[11] = 0x80;	/* events missed before a page with none */
	same_events(page, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pages_of_every_entry),
		cmocka_unit_test(an_empty_page),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
