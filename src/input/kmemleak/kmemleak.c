/*
 * kmemleak.c - kmemleak's report read into its objects (kmemleak.h): line
 * by line, each checked against its place in an object. Not here: the
 * events made of them (the engine), the match with a trace (the reports).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kmemleak.h"
#include "lowerbound.h"

#define FRAMES_MAX 64	/* kmemleak keeps 16 (MAX_TRACE) */

bool kmemleak_is_report(const unsigned char *head, size_t n)
{
	static const char start[] = "unreferenced object 0x";

	return n >= sizeof(start) - 1 && memcmp(head, start, sizeof(start) - 1) == 0;
}

void kmemleak_report_init(struct kmemleak_report *r)
{
	memset(r, 0, sizeof(*r));
}

void kmemleak_report_release(struct kmemleak_report *r)
{
	free(r->o);
	memset(r, 0, sizeof(*r));
}

enum place { IN_NOTHING, AFTER_HEADER, AFTER_COMM, IN_HEX_DUMP, IN_BACKTRACE };

struct reading {
	const char *name;
	struct trace_strings *s;
	struct kmemleak_report *r;
	enum place place;
	struct kmemleak_object cur;
	uint32_t frames[FRAMES_MAX];
	char *frame_text[FRAMES_MAX];	/* the frames as printed: the call site is one */
	uint32_t nframes;
	char line[4096];
};

static int bad(struct reading *g, const char *what, struct ta_error *err)
{
	return error_set(err, "'%s' line %" PRIu64 " is not %s", g->name, g->r->lines, what);
}

/* kmemleak's hooks and the allocators: frames before the call site */
static bool is_allocator_frame(const char *f)
{
	static const char *const hooks[] = {	/* kmemleak's own, by name */
		"kmemleak_alloc", "kmemleak_alloc_recursive", "kmemleak_vmalloc",
		"kmemleak_alloc_percpu", "kmemleak_alloc_phys", NULL,
	};
	static const char *const prefixes[] = {
		"__kmalloc", "kmalloc", "__kmem_cache", "kmem_cache_alloc",
		"__do_kmalloc", "kvmalloc", "__kvmalloc", "__vmalloc", "vmalloc", "__alloc_percpu",
		"pcpu_alloc", "alloc_percpu", "slab_", "__slab_", "___slab_", "krealloc",
		"kstrdup", "kmemdup", "alloc_large_system_hash", "memblock_alloc", NULL,
	};
	size_t i, len = strcspn(f, "+ ");

	for (i = 0; hooks[i]; i++)
		if (strlen(hooks[i]) == len && strncmp(f, hooks[i], len) == 0)
			return true;
	for (i = 0; prefixes[i]; i++)
		if (strncmp(f, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return false;
}

static void free_frame_texts(struct reading *g)
{
	uint32_t i;

	for (i = 0; i < g->nframes; i++)
		free(g->frame_text[i]);
	g->nframes = 0;
}

/* The object read so far into the report: its call site and stack from its frames. */
static void finish_object(struct reading *g)
{
	struct kmemleak_report *r = g->r;
	uint32_t i;

	if (g->place == IN_NOTHING)
		return;
	g->cur.call_site = STR_NONE;
	for (i = 0; i < g->nframes && g->cur.call_site == STR_NONE; i++)
		if (!is_allocator_frame(g->frame_text[i]))
			g->cur.call_site = strtab_intern(&g->s->call_sites, g->frame_text[i],
							 strlen(g->frame_text[i]));
	if (g->cur.call_site == STR_NONE)	/* every object is counted at a call site */
		g->cur.call_site = strtab_intern(&g->s->call_sites, "(no backtrace)", 14);
	g->cur.stack = g->nframes ? stack_intern(&g->s->stacks, g->frames, g->nframes)
				  : STACK_NONE;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->o = xrealloc(r->o, r->cap * sizeof(*r->o));
	}
	r->o[r->n++] = g->cur;
	r->reports++;
	free_frame_texts(g);
	g->place = IN_NOTHING;
}

static int read_header(struct reading *g, struct ta_error *err)
{
	unsigned long long addr, size;
	int used = 0;

	if (sscanf(g->line, "unreferenced object 0x%llx (size %llu):%n", &addr, &size, &used) != 2 ||
	    g->line[used] != '\0' || size > (1ull << 40))
		return bad(g, "an object's first line (unreferenced object 0xADDR (size N):)", err);
	memset(&g->cur, 0, sizeof(g->cur));
	g->cur.addr = addr;
	g->cur.size = size;
	g->cur.line = g->r->lines;
	g->cur.pid = -1;
	g->cur.comm = STR_NONE;
	g->place = AFTER_HEADER;
	return 0;
}

/* '  comm "insmod", pid 61, jiffies 4294892918' (older: ' (age 12.3s)' after it) */
static int read_comm(struct reading *g, struct ta_error *err)
{
	const char *what = "an object's task line (comm \"NAME\", pid P, jiffies J)";
	char *q = strstr(g->line, "comm \""), *end;
	unsigned long long jiffies;
	int pid;

	if (!q || strncmp(g->line, "  comm \"", 8) != 0)
		return bad(g, what, err);
	q += 6;
	end = strstr(q, "\", pid ");
	if (!end || sscanf(end, "\", pid %d, jiffies %llu", &pid, &jiffies) != 2 || pid < 0)
		return bad(g, what, err);
	g->cur.comm = strtab_intern(&g->s->comms, q, (size_t)(end - q));
	g->cur.pid = pid;
	g->cur.jiffies = jiffies;
	g->place = AFTER_COMM;
	return 0;
}

/*
 * "    63 65 5f 65 ...  ce_event_type_fu": 16 bytes at most, padded, then
 * their text, a character each: a line cut anywhere lacks some of it.
 */
static bool is_hex_dump_line(const char *s)
{
	unsigned bytes = 0;

	if (strncmp(s, "    ", 4) != 0)
		return false;
	s += 4;
	while (bytes < 16 && s[0] && s[1] && strchr("0123456789abcdef", s[0]) &&
	       strchr("0123456789abcdef", s[1]) && s[2] == ' ') {
		bytes++;
		s += 3;
	}
	if (!bytes || *s != ' ')
		return false;
	while (*s == ' ' && strlen(s) > bytes)
		s++;
	return strlen(s) == bytes;
}

/* "    func+0x1/0x2 [module]", or before 6.6 "    [<ffffffff81234567>] func+0x1/0x2" */
static int read_frame(struct reading *g, struct ta_error *err)
{
	char *f = g->line + 4, *plus;
	size_t len;

	if (strncmp(g->line, "    ", 4) != 0 || f[0] == ' ' || !f[0])
		return bad(g, "a backtrace's frame", err);
	if (f[0] == '[' && f[1] == '<') {
		char *close = strstr(f, ">] ");

		if (!close)
			return bad(g, "a backtrace's frame ([<ADDRESS>] func+0x1/0x2)", err);
		f = close + 3;
	}
	if (g->nframes == FRAMES_MAX)
		return bad(g, "a frame of a backtrace of at most 64", err);
	plus = strchr(f, '+');
	len = plus ? (size_t)(plus - f) : strcspn(f, " ");
	g->frames[g->nframes] = strtab_intern(&g->s->frames, f, len);
	g->frame_text[g->nframes++] = xstrdup(f);
	return 0;
}

static int read_line(struct reading *g, struct ta_error *err)
{
	char *l = g->line;

	if (strncmp(l, "unreferenced object ", 20) == 0) {
		if (g->place == AFTER_HEADER)
			return bad(g, "an object's task line (comm \"NAME\", pid P, jiffies J)", err);
		finish_object(g);
		return read_header(g, err);
	}
	switch (g->place) {
	case IN_NOTHING:
		return *l ? bad(g, "an object's first line (unreferenced object 0xADDR (size N):)",
				err) : 0;
	case AFTER_HEADER:
		return read_comm(g, err);
	case AFTER_COMM:
	case IN_HEX_DUMP:
		if (strncmp(l, "  hex dump (first ", 18) == 0 && g->place == AFTER_COMM) {
			g->place = IN_HEX_DUMP;
			return 0;
		}
		if (strncmp(l, "  backtrace", 11) == 0) {
			g->place = IN_BACKTRACE;
			return 0;
		}
		if (g->place == IN_HEX_DUMP && is_hex_dump_line(l))
			return 0;
		return bad(g, g->place == IN_HEX_DUMP ? "a hex dump line (16 bytes, then their text)"
			   : "an object's hex dump or backtrace", err);
	case IN_BACKTRACE:
	default:
		return read_frame(g, err);
	}
}

static int by_address(const void *pa, const void *pb)
{
	const struct kmemleak_object *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Sorted by address; an object reported by several scans is its last report. */
static void one_per_address(struct kmemleak_report *r)
{
	size_t i, n = 0;

	if (!r->n)
		return;
	qsort(r->o, r->n, sizeof(*r->o), by_address);
	for (i = 0; i < r->n; i++) {
		if (n && r->o[n - 1].addr == r->o[i].addr)
			n--;
		r->o[n++] = r->o[i];
	}
	r->n = n;
}

int kmemleak_read(struct input *in, const char *name, struct trace_strings *s,
		  struct kmemleak_report *r, struct ta_error *err)
{
	struct reading *g = xcalloc(1, sizeof(*g));
	struct chunk c;
	int rc;

	g->name = name;
	g->s = s;
	g->r = r;
	chunk_init(&c, INPUT_CHUNK_SIZE);
	while ((rc = input_read_chunk(in, &c, err)) > 0) {
		const char *line = c.data, *end = c.data + c.len, *nl;

		for (; rc > 0 && line < end; line = nl + 1) {
			size_t n;

			nl = memchr(line, '\n', (size_t)(end - line));
			if (!nl)
				nl = end;
			n = (size_t)(nl - line);
			r->lines++;
			if (n >= sizeof(g->line)) {
				rc = bad(g, "a kmemleak line (under 4096 bytes)", err);
				break;
			}
			memcpy(g->line, line, n);
			g->line[n] = '\0';
			if (n && g->line[n - 1] == '\r')
				g->line[n - 1] = '\0';
			if (read_line(g, err) < 0)
				rc = -1;
		}
		if (rc < 0)
			break;
	}
	if (rc == 0 && in->truncated_last_line)
		rc = error_set(err, "'%s' is cut: its last line has no newline", name);
	if (rc == 0 && (g->place == AFTER_HEADER || g->place == AFTER_COMM ||
			g->place == IN_HEX_DUMP))
		rc = error_set(err, "'%s' is cut: its last object has no backtrace", name);
	if (rc == 0)
		finish_object(g);
	free_frame_texts(g);
	chunk_release(&c);
	free(g);
	if (rc == 0)
		one_per_address(r);
	return rc < 0 ? -1 : 0;
}

static int address_against(const void *key, const void *element)
{
	uint64_t addr = *(const uint64_t *)key, at = ((const struct kmemleak_object *)element)->addr;

	return (addr > at) - (addr < at);
}

const struct kmemleak_object *kmemleak_find(const struct kmemleak_report *r, uint64_t addr)
{
	size_t i = lower_bound(&addr, r->o, r->n, sizeof(*r->o), address_against);

	return i < r->n && r->o[i].addr == addr ? &r->o[i] : NULL;
}
