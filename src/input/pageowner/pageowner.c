/*
 * pageowner.c - page_owner's dump and show_stacks read as page allocations
 * (pageowner.h): streamed in chunks of whole lines, a record at a time, so
 * that a dump of GBs takes the memory of its distinct stacks and strings,
 * not of its pages. Every line is checked against its place in a record.
 * Not here: what is counted of the events (the page pass), the reports.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"
#include "pageowner.h"

#define FRAMES_MAX 256		/* page_owner keeps 16 (PAGE_OWNER_STACK_DEPTH) */
#define ORDER_MAX 20		/* MAX_PAGE_ORDER is 10 on most; 20 leaves room, no more */
#define STACK_PAGES_MAX (1ull << 40)

static bool head_starts(const unsigned char *head, size_t n, const char *text)
{
	size_t len = strlen(text);

	return n >= len && memcmp(head, text, len) == 0;
}

bool page_owner_is_dump(const unsigned char *head, size_t n)
{
	return head_starts(head, n, "Page allocated via order ");
}

/* " 0xffffffffa0070338": an address no symbol named (an unloaded module's) */
static bool is_bare_address(const char *s, size_t n)
{
	size_t i;

	if (n < 4 || s[0] != ' ' || s[1] != '0' || s[2] != 'x')
		return false;
	for (i = 3; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

/* " func+0x1f/0x90": a frame as page_owner prints it (one space first), or a bare address */
static bool is_frame(const char *s, size_t n)
{
	size_t i = 1;

	if (is_bare_address(s, n))
		return true;
	if (n < 2 || s[0] != ' ' || s[1] == ' ')
		return false;
	while (i < n && s[i] != '+' && s[i] != ' ')
		i++;
	return i + 3 < n && s[i] == '+' && s[i + 1] == '0' && s[i + 2] == 'x';
}

bool page_owner_is_stacks(const unsigned char *head, size_t n)
{
	const char *nl = memchr(head, '\n', n);

	return nl && (is_frame((const char *)head, (size_t)(nl - (const char *)head)) ||
		      head_starts(head, n, "handle: "));	/* show_handles */
}

bool page_owner_is_file(const unsigned char *head, size_t n)
{
	return page_owner_is_dump(head, n) || page_owner_is_stacks(head, n);
}

/* ---- a record's lines ---- */

enum expect { EXPECT_RECORD, EXPECT_PFN, EXPECT_FRAMES };

struct reader {
	const char *name;
	struct trace_strings *s;
	void (*on_event)(void *ctx, const struct kmem_event *ev);
	void *ctx;
	struct page_owner_facts *facts;
	enum expect expect;
	bool kind_known;
	struct kmem_event ev;		/* the record being read */
	uint32_t frames[FRAMES_MAX];
	uint32_t nframes;
	bool have_handle;		/* "handle: H" read in this record */
	uint32_t handle;
	struct page_owner_handles *handles;	/* show_handles' stacks, or NULL */
	bool taking_handles;		/* reading show_stacks_handles into handles */
	uint64_t record_line;
	uint64_t next_pfn;		/* show_stacks' made-up pfns */
	char line[4096];		/* the line being read, NUL-terminated */
};

static int bad(struct reader *r, const char *what, struct ta_error *err)
{
	return error_set(err, "'%s' line %" PRIu64 " is not %s", r->name, r->facts->lines, what);
}

static uint32_t intern(struct strtab *t, const char *s, size_t n)
{
	return strtab_intern(t, s, n);
}

/* page_owner's migratetype names, as the trace numbers them (pages.h) */
static int migratetype_of(const char *s, size_t n)
{
	static const char *const names[] = { "Unmovable", "Movable", "Reclaimable", "HighAtomic",
					      "CMA", "Isolate" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
			return (int)i;
	return -1;
}

/* "Page allocated via order O, mask 0xM(FLAGS), pid P, tgid T (COMM), ts NS ns" */
static int read_header(struct reader *r, char *line, size_t n, struct ta_error *err)
{
	const char *what = "a page_owner record's first line (Page allocated via order O, mask "
			   "0xM(FLAGS), pid P, tgid T (COMM), ts NS ns)";
	char *flags, *flags_end, *comm, *comm_end;
	unsigned order;
	int pid, used = 0;
	unsigned long long ts;

	line[n] = '\0';
	if (sscanf(line, "Page allocated via order %u, mask 0x%*x(%n", &order, &used) != 1 || !used ||
	    order > ORDER_MAX)
		return bad(r, what, err);
	flags = line + used;
	flags_end = strstr(flags, "), pid ");
	comm = flags_end ? strstr(flags_end, " (") : NULL;
	comm_end = comm ? strstr(comm, "), ts ") : NULL;
	if (!flags_end || !comm_end || sscanf(flags_end, "), pid %d, tgid %*d (", &pid) != 1 ||
	    sscanf(comm_end, "), ts %llu ns", &ts) != 1 || pid < 0)
		return bad(r, what, err);
	comm += 2;
	kmem_event_init(&r->ev, KMEM_PAGE_ALLOC);
	r->ev.line = r->facts->lines;
	r->ev.order = (int8_t)order;
	r->ev.pid = pid;
	r->ev.ts_ns = ts;
	if (flags_end > flags) {
		r->ev.gfp = intern(&r->s->gfps, flags, (size_t)(flags_end - flags));
	} else {	/* "mask 0x0()": no flag; the mask as printed stands for them */
		const char *mask = strstr(line, "mask ") + 5;

		r->ev.gfp = intern(&r->s->gfps, mask, (size_t)(flags - 1 - mask));
	}
	r->ev.comm = intern(&r->s->comms, comm, (size_t)(comm_end - comm));
	r->expect = EXPECT_PFN;
	return 0;
}

/* "PFN 0xN type MIGRATETYPE Block B type BLOCKTYPE Flags ..." (older kernels: "PFN N") */
static int read_pfn(struct reader *r, char *line, size_t n, struct ta_error *err)
{
	char *end, *type, *type_end;
	unsigned long long pfn;
	int mt;

	line[n] = '\0';
	if (strncmp(line, "PFN ", 4) != 0)
		return bad(r, "a page_owner record's PFN line", err);
	pfn = strtoull(line + 4, &end, 0);
	if (end == line + 4 || strncmp(end, " type ", 6) != 0 || pfn >= PAGE_OWNER_STACK_PFN_BASE)
		return bad(r, "a page_owner record's PFN line (PFN N type MIGRATETYPE ...)", err);
	type = end + 6;
	type_end = strchr(type, ' ');
	mt = migratetype_of(type, type_end ? (size_t)(type_end - type) : strlen(type));
	r->ev.pfn = pfn;
	r->ev.migratetype = (int8_t)mt;
	r->expect = EXPECT_FRAMES;
	r->nframes = 0;
	return 0;
}

#define FRAME_TEXT_MAX 512	/* "func [module]" */

/*
 * " func+0x1f/0x90 [module]": its function, and its module when it names
 * one ("func [module]", as callchain.h reads a frame).
 */
static int add_frame(struct reader *r, const char *line, size_t n, struct ta_error *err)
{
	const char *name = line + 1, *plus = memchr(name, '+', n - 1);
	size_t len = plus ? (size_t)(plus - name) : n - 1;	/* a bare address: whole */
	const char *module = plus ? memchr(plus, ' ', (size_t)(line + n - plus)) : NULL;
	char text[FRAME_TEXT_MAX];

	if (r->nframes == FRAMES_MAX)
		return bad(r, "a frame of a stack of at most 256", err);
	if (module && module[1] == '[' && line[n - 1] == ']' &&
	    len + (size_t)(line + n - module) < sizeof(text)) {
		memcpy(text, name, len);
		memcpy(text + len, module, (size_t)(line + n - module));
		name = text;
		len += (size_t)(line + n - module);
	}
	r->frames[r->nframes++] = intern(&r->s->frames, name, len);
	return 0;
}

static void emit(struct reader *r)
{
	r->ev.stack = r->nframes ? stack_intern(&r->s->stacks, r->frames, r->nframes) : STACK_NONE;
	r->on_event(r->ctx, &r->ev);
	r->facts->records++;
	r->facts->pages += 1ull << (r->ev.order > 0 ? r->ev.order : 0);
	r->expect = EXPECT_RECORD;
}

/*
 * "nr_base_pages: N" ends a record: N base pages of stack, handed on as
 * a block for each power of two N is made of (N = 5: an order-2 block
 * and an order-0 one), so that a stack's cost is the bits of its count,
 * not its pages (an 80 GB host's page cache is 20 M pages of a stack).
 * The blocks' pfns are made up, one after another above every real pfn.
 */
static int emit_stack_pages(struct reader *r, uint32_t stack, const char *line, size_t n,
			    struct ta_error *err)
{
	char digits[24];
	uint64_t pages;
	int order;

	if (n - 15 >= sizeof(digits))
		return bad(r, "a stack's page count (nr_base_pages: N)", err);
	memcpy(digits, line + 15, n - 15);
	digits[n - 15] = '\0';
	if (!read_count(digits, STACK_PAGES_MAX, &pages))
		return bad(r, "a stack's page count (nr_base_pages: N)", err);
	if (pages > STACK_PAGES_MAX - r->facts->pages)
		return bad(r, "a stack's page count within a machine's pages (all stacks' past "
			   "2^40)", err);
	kmem_event_init(&r->ev, KMEM_PAGE_ALLOC);
	r->ev.line = r->record_line;
	r->ev.stack = stack;
	for (order = 63 - (pages ? __builtin_clzll(pages) : 63); pages && order >= 0; order--) {
		if (!(pages >> order & 1))
			continue;
		r->ev.order = (int8_t)order;
		r->ev.pfn = PAGE_OWNER_STACK_PFN_BASE + r->next_pfn;
		r->next_pfn += 1ull << order;
		r->on_event(r->ctx, &r->ev);
	}
	r->facts->records++;
	r->facts->pages += pages;
	r->nframes = 0;
	r->have_handle = false;
	return 0;
}

static int compare_handles(const void *pa, const void *pb)
{
	const struct handle_stack *a = pa, *b = pb;

	return a->handle < b->handle ? -1 : a->handle > b->handle;
}

/* The stack show_stacks_handles gave handle; one of its own, "(handle H)", when none. */
static uint32_t stack_of_handle(struct reader *r, uint32_t handle)
{
	struct handle_stack key = { handle, 0 }, *e;
	char name[32];
	uint32_t frame;

	e = bsearch(&key, r->handles->e, r->handles->n, sizeof(key), compare_handles);
	if (e)
		return e->stack;
	r->handles->unknown++;
	frame = intern(&r->s->frames, name, (size_t)snprintf(name, sizeof(name), "(handle %" PRIu32
								   ")", handle));
	return stack_intern(&r->s->stacks, &frame, 1);
}

/* "handle: H": a stackdepot handle, below 2^32 */
static int read_handle(struct reader *r, const char *line, size_t n, struct ta_error *err)
{
	char digits[16];
	uint64_t v;

	if (r->have_handle || n - 8 >= sizeof(digits))
		return bad(r, "a stack's one handle (handle: H)", err);
	memcpy(digits, line + 8, n - 8);
	digits[n - 8] = '\0';
	if (!read_count(digits, UINT32_MAX, &v))
		return bad(r, "a stack's handle (handle: H)", err);
	r->handle = (uint32_t)v;
	r->have_handle = true;
	return 0;
}

/* show_stacks_handles' record ends: its stack under its handle. */
static int take_handle(struct reader *r, struct ta_error *err)
{
	struct page_owner_handles *h = r->handles;

	if (!r->taking_handles)
		return error_set(err, "'%s' is page_owner's show_stacks_handles: it names each "
				 "stack's handle but counts no page; give it with --stack-handles, "
				 "beside show_handles files (or read show_stacks)", r->name);
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 256;
		h->e = xrealloc(h->e, h->cap * sizeof(*h->e));
	}
	h->e[h->n].handle = r->handle;
	h->e[h->n++].stack = stack_intern(&r->s->stacks, r->frames, r->nframes);
	r->facts->records++;
	r->nframes = 0;
	r->have_handle = false;
	return 0;
}

static int read_stacks_line(struct reader *r, char *line, size_t n, struct ta_error *err)
{
	if (n == 0) {
		if (r->nframes && r->have_handle)
			return take_handle(r, err);
		if (r->nframes || r->have_handle)
			return bad(r, "a stack's page count (nr_base_pages: N)", err);
		return 0;
	}
	if (is_frame(line, n)) {
		if (r->have_handle)
			return bad(r, "a blank line after a stack's handle", err);
		if (!r->nframes)
			r->record_line = r->facts->lines;
		return add_frame(r, line, n, err);
	}
	if (n > 8 && memcmp(line, "handle: ", 8) == 0) {
		if (!r->nframes)
			r->record_line = r->facts->lines;
		return read_handle(r, line, n, err);
	}
	if (n > 15 && memcmp(line, "nr_base_pages: ", 15) == 0) {
		if (r->taking_handles)
			return error_set(err, "'%s' line %" PRIu64 " counts pages: --stack-handles "
					 "takes show_stacks_handles (stacks and their handles)",
					 r->name, r->facts->lines);
		if (r->nframes)	/* show_stacks */
			return emit_stack_pages(r, stack_intern(&r->s->stacks, r->frames, r->nframes),
						line, n, err);
		if (!r->have_handle)
			return bad(r, "a stack's page count after its frames (nr_base_pages: N)", err);
		if (!r->handles)
			return error_set(err, "'%s' is page_owner's show_handles: its pages are counted "
					 "by stack handle; name the stacks with --stack-handles FILE "
					 "(show_stacks_handles of the same boot)", r->name);
		r->facts->by_handle = true;
		return emit_stack_pages(r, stack_of_handle(r, r->handle), line, n, err);
	}
	return bad(r, "a show_stacks line (a frame, handle: H or nr_base_pages: N)", err);
}

static int read_dump_line(struct reader *r, char *line, size_t n, struct ta_error *err)
{
	switch (r->expect) {
	case EXPECT_RECORD:
		if (n == 0)
			return 0;
		return read_header(r, line, n, err);
	case EXPECT_PFN:
		return read_pfn(r, line, n, err);
	case EXPECT_FRAMES:
	default:
		if (n == 0) {
			emit(r);
			return 0;
		}
		if (is_frame(line, n))
			return add_frame(r, line, n, err);
		if (n > 26 && memcmp(line, "Page allocated via order ", 25) == 0)
			return bad(r, "the blank line that ends a record (a record's first line "
				   "came before it)", err);
		r->facts->extra_lines++;	/* "Slab cache page", "Charged ... to memcg" */
		return 0;
	}
}

static int read_line(struct reader *r, const char *text, size_t n, struct ta_error *err)
{
	char *line = r->line;

	r->facts->lines++;
	if (n && text[n - 1] == '\r')
		n--;
	if (n >= sizeof(r->line))
		return bad(r, "a page_owner line (under 4096 bytes)", err);
	memcpy(line, text, n);
	line[n] = '\0';
	if (!r->kind_known) {
		if (n == 0)
			return 0;
		r->facts->stacks_only = !page_owner_is_dump((const unsigned char *)line, n);
		r->kind_known = true;
	}
	return r->facts->stacks_only ? read_stacks_line(r, line, n, err)
				     : read_dump_line(r, line, n, err);
}

static int read_file(struct reader *r, struct input *in, const char *name,
		     struct page_owner_facts *facts, struct ta_error *err);

int page_owner_read(struct input *in, const char *name, struct trace_strings *s,
		    struct page_owner_handles *handles,
		    void (*on_event)(void *ctx, const struct kmem_event *ev), void *ctx,
		    struct page_owner_facts *facts, struct ta_error *err)
{
	struct reader *r = xcalloc(1, sizeof(*r));

	*r = (struct reader){ .name = name, .s = s, .on_event = on_event, .ctx = ctx,
			      .facts = facts, .expect = EXPECT_RECORD, .handles = handles };
	return read_file(r, in, name, facts, err);
}

static void no_event(void *ctx, const struct kmem_event *ev)
{
	(void)ctx, (void)ev;
}

int page_owner_read_handles(struct input *in, const char *name, struct trace_strings *s,
			    struct page_owner_handles *h, struct ta_error *err)
{
	struct reader *r = xcalloc(1, sizeof(*r));
	struct page_owner_facts facts;
	size_t i;

	*r = (struct reader){ .name = name, .s = s, .on_event = no_event, .facts = &facts,
			      .expect = EXPECT_RECORD, .handles = h, .taking_handles = true };
	if (read_file(r, in, name, &facts, err) < 0)
		return -1;
	if (!facts.stacks_only)
		return error_set(err, "'%s' is page_owner's dump: --stack-handles takes "
				 "show_stacks_handles (stacks and their handles)", name);
	qsort(h->e, h->n, sizeof(*h->e), compare_handles);
	for (i = 1; i < h->n; i++)
		if (h->e[i].handle == h->e[i - 1].handle && h->e[i].stack != h->e[i - 1].stack)
			return error_set(err, "'%s' gives handle %" PRIu32 " two stacks", name,
					 h->e[i].handle);
	return 0;
}

void page_owner_handles_release(struct page_owner_handles *h)
{
	free(h->e);
	memset(h, 0, sizeof(*h));
}

/* The whole file through r (made by the caller, freed here). */
static int read_file(struct reader *r, struct input *in, const char *name,
		     struct page_owner_facts *facts, struct ta_error *err)
{
	struct chunk c;
	int rc;

	memset(facts, 0, sizeof(*facts));
	chunk_init(&c, INPUT_CHUNK_SIZE);
	while ((rc = input_read_chunk(in, &c, err)) > 0) {
		const char *line = c.data, *end = c.data + c.len, *nl;

		for (; rc > 0 && line < end; line = nl + 1) {
			nl = memchr(line, '\n', (size_t)(end - line));
			if (!nl)
				nl = end;
			if (read_line(r, line, (size_t)(nl - line), err) < 0)
				rc = -1;
		}
		if (rc < 0)
			break;
	}
	if (rc == 0 && in->truncated_last_line)
		rc = error_set(err, "'%s' is cut: its last line has no newline", name);
	if (rc == 0 && !facts->stacks_only && r->expect == EXPECT_FRAMES && !r->nframes)
		rc = error_set(err, "'%s' is cut: its last record has no stack", name);
	else if (rc == 0 && !facts->stacks_only && r->expect == EXPECT_FRAMES)
		emit(r);	/* the last record, without its blank line */
	else if (rc == 0 && facts->stacks_only && r->nframes && r->have_handle)
		rc = take_handle(r, err);	/* show_stacks_handles' last, without its blank line */
	else if (rc == 0 && (r->expect == EXPECT_PFN ||
			     (facts->stacks_only && (r->nframes || r->have_handle))))
		rc = error_set(err, "'%s' is cut: its last record has no %s", name,
			       facts->stacks_only ? "page count" : "PFN line");
	if (rc == 0 && !facts->records)
		rc = error_set(err, "'%s' holds no page_owner record", name);
	chunk_release(&c);
	free(r);
	return rc < 0 ? -1 : 0;
}
