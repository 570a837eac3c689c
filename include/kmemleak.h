/*
 * kmemleak.h - the kernel's leak detector's report
 * (/sys/kernel/debug/kmemleak, CONFIG_DEBUG_KMEMLEAK), one scan or several
 * (an object reported again is one object), as the objects it holds:
 *
 *   unreferenced object 0xffff888000bccee0 (size 32):
 *     comm "insmod", pid 61, jiffies 4294892918
 *     hex dump (first 32 bytes):
 *       63 65 5f 65 ...  ce_event_type_fu
 *     backtrace (crc 6d022df2):          ("backtrace:" before 6.6)
 *       __kmalloc_cache_noprof+0x107/0x17d
 *       kmemleak_test_init+0x46/0x3fe [kmemleak_test]
 *       ...                               ("[<ffffffff8123>] f+0x1/0x2" before 6.6)
 *
 * Each object's call site is its backtrace's first frame past the
 * allocators and kmemleak's own hooks, as a trace's call_site names it
 * ("kmemleak_test_init+0x46/0x3fe [kmemleak_test]"). A line not of its
 * place in an object is an error naming it (a hex dump cut mid-line too).
 *
 * Not here: what the reports make of them, the match with a trace.
 */
#ifndef TA_KMEMLEAK_H
#define TA_KMEMLEAK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "event.h"
#include "input.h"

struct kmemleak_object {
	uint64_t addr;
	uint64_t size;
	uint64_t jiffies;
	uint64_t line;		/* its first line in the report */
	int32_t pid;
	uint32_t comm;		/* id in trace_strings.comms */
	uint32_t call_site;	/* id in trace_strings.call_sites, or STR_NONE */
	uint32_t stack;		/* id in trace_strings.stacks, or STACK_NONE */
};

struct kmemleak_report {
	struct kmemleak_object *o;	/* by address once read */
	size_t n, cap;
	uint64_t reports;		/* objects reported, again ones included */
	uint64_t lines;
};

/* Do n first bytes begin as a kmemleak report? */
bool kmemleak_is_report(const unsigned char *head, size_t n);

void kmemleak_report_init(struct kmemleak_report *r);
void kmemleak_report_release(struct kmemleak_report *r);

/*
 * Read the open input (named name) to its end into r, strings and stacks
 * interned in s: 0, or -1 with err. An empty input is a report of no object.
 */
int kmemleak_read(struct input *in, const char *name, struct trace_strings *s,
		  struct kmemleak_report *r, struct ta_error *err);

/* The object at addr, or NULL. */
const struct kmemleak_object *kmemleak_find(const struct kmemleak_report *r, uint64_t addr);

#endif
