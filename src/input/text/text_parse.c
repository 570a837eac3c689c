/*
 * text_parse.c - kmem trace text, one line at a time, into struct kmem_event.
 *
 * A trace line is  <comm>-<pid> [<cpu>] <flags> <secs>.<frac>: <event>: <fields>
 * with variations by source: no flags column (old kernels, trace-cmd, perf),
 * "comm pid" instead of "comm-pid" (perf), "kmem:" before the event name
 * (perf), "(sym+0xoff)" before the fields (trace-cmd). The anchor used for
 * all of them is the timestamp: the first "<digits>[.<digits>]: " on the
 * line. Everything is scanned by hand; nothing is allocated per line.
 * Not here: matching, filtering, symbol resolution, reporting.
 */
#include <string.h>

#include "input.h"
#include "text_linescan.h"
#include "text_parse.h"
#include "testhook.h"

void parser_init(struct parser *p, struct trace_strings *strings, unsigned want)
{
	memset(p, 0, sizeof(*p));
	p->strings = strings;
	p->want = want;
	p->comm_seen.id = p->gfp_seen.id = p->cache_seen.id = STR_NONE;
	memset(p->site_cache, 0xff, sizeof(p->site_cache));
	line_masks_init(&p->masks);
	p->scan = linescan_best();
	int forced = test_linescan();	/* a test comparing the ways */

	if (forced >= 0 && linescan_available((enum linescan_impl)forced))
		p->scan = (enum linescan_impl)forced;
	p->scan_line = linescan_line_way(p->scan);
}

void parser_release(struct parser *p)
{
	line_masks_release(&p->masks);
}

void parse_stats_add(struct parse_stats *a, const struct parse_stats *b)
{
	int k;

	a->lines += b->lines;
	a->bytes += b->bytes;
	for (k = 0; k < KMEM_KIND_COUNT; k++)
		a->events[k] += b->events[k];
	a->header_lines += b->header_lines;
	a->trace_headers += b->trace_headers;
	a->blank_lines += b->blank_lines;
	a->stack_lines += b->stack_lines;
	a->other_events += b->other_events;
	a->malformed += b->malformed;
	a->garbage += b->garbage;
	a->overlong += b->overlong;
	a->lost_events += b->lost_events;
	stack_counts_add(&a->stacks, &b->stacks);
}

void stack_counts_add(struct stack_counts *a, const struct stack_counts *b)
{
	a->blocks += b->blocks;
	a->kmem_paired += b->kmem_paired;
	a->other_paired += b->other_paired;
	a->orphans += b->orphans;
	a->dropped += b->dropped;
	a->stray_frames += b->stray_frames;
	a->user_blocks += b->user_blocks;
	a->events_with += b->events_with;
	a->events_without += b->events_without;
}

uint64_t parse_stats_kmem_lines(const struct parse_stats *st)
{
	uint64_t n = st->malformed;
	int k;

	for (k = KMEM_KMALLOC; k <= KMEM_PAGE_ALLOC_EXTFRAG; k++)
		n += st->events[k];
	return n;
}

uint64_t parse_stats_trace_lines(const struct parse_stats *st)
{
	/* stack frames alone do not make a trace: random text can look like one */
	return parse_stats_kmem_lines(st) + st->events[KMEM_LOST_EVENTS] +
	       st->events[KMEM_BUFFER_STARTED] + st->other_events + st->trace_headers;
}

void event_names_add(struct event_names *e, const char *name, size_t len, uint64_t lines)
{
	uint32_t i;

	if (len >= EVENT_NAME_LEN)
		len = EVENT_NAME_LEN - 1;
	for (i = 0; i < e->count; i++) {
		if (strncmp(e->name[i], name, len) == 0 && e->name[i][len] == '\0') {
			e->lines[i] += lines;
			return;
		}
	}
	if (e->count == EVENT_NAMES_MAX) {
		e->other_lines += lines;
		return;
	}
	memcpy(e->name[e->count], name, len);
	e->name[e->count][len] = '\0';
	e->lines[e->count++] = lines;
}

void event_names_merge(struct event_names *a, const struct event_names *b)
{
	uint32_t i;

	for (i = 0; i < b->count; i++)
		event_names_add(a, b->name[i], strlen(b->name[i]), b->lines[i]);
	a->other_lines += b->other_lines;
}

void trace_header_add(struct trace_header *a, const struct trace_header *b)
{
	if (!a->reclaimable[0])
		memcpy(a->reclaimable, b->reclaimable, sizeof(a->reclaimable));
	a->has_entries |= b->has_entries;
	a->entries_in_buffer += b->entries_in_buffer;
	a->entries_written += b->entries_written;
	if (b->cpus > a->cpus)
		a->cpus = b->cpus;
	if (!a->kernel_major) {
		a->kernel_major = b->kernel_major;
		a->kernel_minor = b->kernel_minor;
	}
}

bool kernel_version_of(const char *s, size_t len, int *major, int *minor)
{
	const char *end = s + len, *q = s;
	long v[2] = { 0, 0 };
	int i;

	for (i = 0; i < 2; i++) {
		if (q >= end || (unsigned)(*q - '0') > 9)
			return false;
		while (q < end && (unsigned)(*q - '0') <= 9 && v[i] < 100000)
			v[i] = v[i] * 10 + (*q++ - '0');
		if (i == 0 && (q >= end || *q++ != '.'))
			return false;
	}
	*major = (int)v[0];
	*minor = (int)v[1];
	return true;
}

/* ---- small scanners ---------------------------------------------------- */

static inline bool is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

/* One more than the value of each byte as a hex digit; 0 for none. */
static const uint8_t hex_value[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static bool starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* Bytes of x with the 0x80 bit set where the byte (< 0x80) lies in (lo, hi). */
static inline uint64_t bytes_between(uint64_t x, unsigned lo, unsigned hi)
{
	const uint64_t ones = 0x0101010101010101ull, low7 = ones * 127;

	return (ones * (127 + hi) - (x & low7)) & ~x & ((x & low7) + ones * (127 - lo)) &
	       (ones * 128);
}

/*
 * Eight hex digits (s[0] the highest) at once, as eight bytes of one word:
 * every byte checked to be a digit, then the nibbles packed pair by pair.
 * A kernel pointer is 16 digits: two of these instead of 16 steps.
 */
static bool parse_hex8(const char *s, uint32_t *out)
{
	uint64_t x, lower, digits, letters, v;

	memcpy(&x, s, 8);	/* little-endian: s[0] is the low byte */
	if (x & 0x8080808080808080ull)
		return false;
	lower = x | 0x2020202020202020ull;	/* 'A'-'F' -> 'a'-'f'; digits unchanged */
	digits = bytes_between(x, '0' - 1, '9' + 1);
	letters = bytes_between(lower, 'a' - 1, 'f' + 1);
	if ((digits | letters) != 0x8080808080808080ull)
		return false;
	/* a digit's value is its low nibble; a letter's, its low nibble + 9 */
	v = (x & 0x0f0f0f0f0f0f0f0full) + (letters >> 7) * 9;
	v = ((v << 4) | (v >> 8)) & 0x00ff00ff00ff00ffull;
	v = ((v << 8) | (v >> 16)) & 0x0000ffff0000ffffull;
	v = ((v << 16) | (v >> 32)) & 0x00000000ffffffffull;
	*out = (uint32_t)v;
	return true;
}

/* A pointer value: hex with optional 0x, or "(nil)" / "(null)" for NULL. */
static bool parse_pointer(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n >= 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
		s += 2;
		n -= 2;
	} else if (n > 0 && s[0] == '(') {
		if ((n == 5 && memcmp(s, "(nil)", 5) == 0) ||
		    (n == 6 && memcmp(s, "(null)", 6) == 0)) {
			*out = 0;
			return true;
		}
		return false;
	}
	if (n == 0 || n > 16)
		return false;
	if (n == 16) {	/* a kernel address: two words at a time */
		uint32_t hi, lo;

		if (!parse_hex8(s, &hi) || !parse_hex8(s + 8, &lo))
			return false;
		*out = (uint64_t)hi << 32 | lo;
		return true;
	}
	for (i = 0; i < n; i++) {
		uint8_t d = hex_value[(unsigned char)s[i]];

		if (d == 0)
			return false;
		v = (v << 4) | (uint64_t)(d - 1);
	}
	*out = v;
	return true;
}

static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n == 0 || n > 19)
		return false;
	for (i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool parse_u32(const char *s, size_t n, uint32_t *out)
{
	uint64_t v;

	if (!parse_u64(s, n, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static bool parse_i32(const char *s, size_t n, int32_t *out)
{
	bool neg = n > 0 && s[0] == '-';
	uint64_t v;

	if (neg) {
		s++;
		n--;
	}
	if (!parse_u64(s, n, &v) || v > (uint64_t)INT32_MAX + neg)
		return false;
	*out = neg ? (int32_t)-(int64_t)v : (int32_t)v;
	return true;
}

/* Orders, migratetypes, 0/1 flags: never negative (-1 is "absent" inside). */
static bool parse_small(const char *s, size_t n, int8_t *out)
{
	int32_t v;

	if (!parse_i32(s, n, &v) || v < 0 || v > 127)
		return false;
	*out = (int8_t)v;
	return true;
}

/* pfn= is 0x-hex on kernels since 4.x, decimal before. */
static bool parse_pfn(const char *s, size_t n, uint64_t *out)
{
	if (n > 2 && s[0] == '0' && (s[1] | 0x20) == 'x')
		return parse_pointer(s, n, out);
	return parse_u64(s, n, out);
}

/* Printable ASCII without spaces, except a " [module]" suffix. */
static bool is_printable_text(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)(s[i] - 0x20) > 0x5e)
			return false;
	return true;
}

/*
 * The id of s[0..n) in t if it is printable text, else STR_NONE. A string
 * seen before was checked then: only new ones are scanned.
 */
static uint32_t intern_printable(struct strtab *t, const char *s, size_t n)
{
	uint32_t id = strtab_find(t, s, n);

	if (id != STR_NONE)
		return id;
	return is_printable_text(s, n) ? strtab_intern(t, s, n) : STR_NONE;
}

/*
 * The same for strings that repeat from one line to the next (task names,
 * GFP flags, cache names): the last one seen is compared first, which
 * spares the hash on most lines.
 */
static uint32_t intern_recent(struct recent_string *r, struct strtab *t, const char *s,
			      size_t n)
{
	if (r->id != STR_NONE && r->len == n && memcmp(r->text, s, n) == 0)
		return r->id;
	if (n > sizeof(r->text))
		return intern_printable(t, s, n);
	r->id = intern_printable(t, s, n);
	r->len = r->id == STR_NONE ? 0 : n;
	memcpy(r->text, s, n);
	return r->id;
}


/* ---- lines that are not events ------------------------------------------ */

static void count_malformed(struct parser *p, uint64_t line_no)
{
	p->stats.malformed++;
	if (!p->first_malformed_line)
		p->first_malformed_line = line_no;
}

/* RECLAIMABLE_HEADER " dentry inode_cache ...": the names added to the list. */
static void read_reclaimable_line(struct parser *p, const char *s, size_t len)
{
	size_t skip = sizeof(RECLAIMABLE_HEADER) - 1, have = strlen(p->header.reclaimable);
	const char *q = s + skip, *end = s + len;

	while (q < end) {
		const char *w;

		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		w = q;
		while (q < end && *q != ' ' && *q != '\t')
			q++;
		if (q == w || have + (size_t)(q - w) + 2 > sizeof(p->header.reclaimable))
			continue;	/* a list too long for the room keeps its first names */
		if (have)
			p->header.reclaimable[have++] = ' ';
		memcpy(p->header.reclaimable + have, w, (size_t)(q - w));
		have += (size_t)(q - w);
		p->header.reclaimable[have] = '\0';
	}
}

/* "# entries-in-buffer/entries-written: 102828/102828   #P:2" */
static void read_header_line(struct parser *p, const char *s, size_t len)
{
	static const char key[] = "entries-in-buffer/entries-written:";
	const char *k = memmem(s, len, key, sizeof(key) - 1);
	const char *end = s + len, *q, *slash;
	uint64_t a, b;

	if (!k && starts_with(s, len, RECLAIMABLE_HEADER)) {
		read_reclaimable_line(p, s, len);
		return;
	}
	if (!k) {
		const char *linux_at = memmem(s, len, " of Linux ", 10);

		if (starts_with(s, len, "# tracer:"))
			p->stats.trace_headers++;
		if (linux_at && !p->header.kernel_major)	/* record's own header line */
			kernel_version_of(linux_at + 10, (size_t)(end - linux_at - 10),
					  &p->header.kernel_major, &p->header.kernel_minor);
		return;
	}
	p->stats.trace_headers++;
	q = k + sizeof(key) - 1;
	while (q < end && *q == ' ')
		q++;
	slash = memchr(q, '/', (size_t)(end - q));
	if (!slash)
		return;
	const char *b_end = slash + 1;

	while (b_end < end && is_digit(*b_end))
		b_end++;
	if (!parse_u64(q, (size_t)(slash - q), &a) ||
	    !parse_u64(slash + 1, (size_t)(b_end - slash - 1), &b))
		return;
	/* Concatenated snapshots have several headers: their counts add up. */
	p->header.has_entries = true;
	p->header.entries_in_buffer += a;
	p->header.entries_written += b;

	const char *cpus = memmem(b_end, (size_t)(end - b_end), "#P:", 3);
	uint32_t n;

	if (cpus) {
		q = cpus + 3;
		const char *e = q;

		while (e < end && is_digit(*e))
			e++;
		if (parse_u32(q, (size_t)(e - q), &n) && (int)n > p->header.cpus)
			p->header.cpus = (int)n;
	}
}

static void reset_event(struct kmem_event *ev, enum kmem_kind kind, uint64_t line_no)
{
	kmem_event_init(ev, kind);
	ev->line = line_no;
}

/* "##### CPU 0 buffer started ####" */
static bool read_buffer_started(struct parser *p, const char *s, size_t len,
				uint64_t line_no, struct kmem_event *ev)
{
	const char *end = s + len, *q = s;
	uint32_t cpu;

	while (q < end && *q == '#')
		q++;
	while (q < end && *q == ' ')
		q++;
	if (!starts_with(q, (size_t)(end - q), "CPU "))
		return false;
	q += 4;
	const char *e = q;

	while (e < end && is_digit(*e))
		e++;
	if (!parse_u32(q, (size_t)(e - q), &cpu) ||
	    !starts_with(e, (size_t)(end - e), " buffer started"))
		return false;
	reset_event(ev, KMEM_BUFFER_STARTED, line_no);
	ev->cpu = (int32_t)cpu;
	p->stats.events[KMEM_BUFFER_STARTED]++;
	return true;
}

/*
 * Lost events where they happened: trace_pipe's "CPU:1 [LOST 66 EVENTS]"
 * ("CPU:1 [LOST EVENTS]" when the kernel could not count them), and
 * trace-cmd report's "CPU:1 [66 EVENTS DROPPED]" ("CPU:1 [EVENTS DROPPED]").
 */
static bool read_lost_events(struct parser *p, const char *s, size_t len,
			     uint64_t line_no, struct kmem_event *ev)
{
	const char *end = s + len, *q = s + 4, *e;
	uint32_t cpu;
	uint64_t lost = 0;

	for (e = q; e < end && is_digit(*e); e++)
		;
	if (!parse_u32(q, (size_t)(e - q), &cpu) || !starts_with(e, (size_t)(end - e), " ["))
		return false;
	q = e + 2;
	if (starts_with(q, (size_t)(end - q), "LOST ")) {
		q += 5;
		if (starts_with(q, (size_t)(end - q), "EVENTS]")) {
			q += 7;
		} else {
			for (e = q; e < end && is_digit(*e); e++)
				;
			if (!parse_u64(q, (size_t)(e - q), &lost) ||
			    !starts_with(e, (size_t)(end - e), " EVENTS]"))
				return false;
			q = e + 8;
		}
	} else {
		for (e = q; e < end && is_digit(*e); e++)
			;
		if (e > q && !parse_u64(q, (size_t)(e - q), &lost))
			return false;
		q = e + (e > q);	/* the space after a count */
		if (!starts_with(q, (size_t)(end - q), "EVENTS DROPPED]"))
			return false;
		q += 15;
	}
	if (q != end)
		return false;
	reset_event(ev, KMEM_LOST_EVENTS, line_no);
	ev->cpu = (int32_t)cpu;
	ev->pfn = lost;
	p->stats.events[KMEM_LOST_EVENTS]++;
	p->stats.lost_events += lost;
	return true;
}

/* ---- stack frames ------------------------------------------------------------ */

/*
 * " => func" (tracefs prints exactly one space first), "=> func (addr)"
 * (trace-cmd), or a perf frame (a tab first). Cheap: it is asked of every
 * line, and an event line of tracefs also starts with spaces.
 */
bool is_frame_line(const char *s, size_t len)
{
	if (len < 2)
		return false;
	if (s[0] == '\t')
		return true;
	if (s[0] == '=')
		return s[1] == '>';
	return len > 2 && s[0] == ' ' && s[1] == '=' && s[2] == '>';
}

/* A frame's name must be printable text without spaces, and not absurdly long. */
static enum line_kind frame_found(struct parser *p, const char *name, size_t n,
				  enum line_kind kind)
{
	if (n == 0 || n > FRAME_NAME_MAX || !is_printable_text(name, n))
		return LINE_BAD_FRAME;
	p->frame = name;
	p->frame_len = n;
	return kind;
}

/* "func+0x1f/0x90" -> "func"; a name that starts with '+' is left whole. */
static size_t without_offset(const char *name, size_t n)
{
	const char *plus = memchr(name, '+', n);

	return plus && plus > name ? (size_t)(plus - name) : n;
}

/*
 * " => func", " => func+0x1f/0x90 [module]", " => <ffffffff81234567>"
 * (tracefs), "=> func (ffffffff81234567)", "=> ffffffff81234567" (trace-cmd).
 */
static enum line_kind read_arrow_frame(struct parser *p, const char *s, size_t len)
{
	const char *q = s, *end = s + len, *name, *tok_end;

	if (*q == ' ')
		q++;
	q += 2;		/* "=>" */
	while (q < end && *q == ' ')
		q++;
	name = q;
	while (q < end && *q != ' ')
		q++;
	tok_end = q;
	if (tok_end - name >= 3 && name[0] == '<' && tok_end[-1] == '>') {
		name++;
		tok_end--;
	}
	len = without_offset(name, (size_t)(tok_end - name));
	/* " [ext4]" after it: a module's function, kept as "func [ext4]" (callchain.h) */
	if (end - tok_end >= 4 && tok_end[1] == '[' && end[-1] == ']' &&
	    len + (size_t)(end - tok_end) <= FRAME_NAME_MAX &&
	    !memchr(tok_end + 1, ' ', (size_t)(end - tok_end - 1))) {
		memcpy(p->frame_buf, name, len);
		memcpy(p->frame_buf + len, tok_end, (size_t)(end - tok_end));
		return frame_found(p, p->frame_buf, len + (size_t)(end - tok_end), LINE_FRAME);
	}
	return frame_found(p, name, len, LINE_FRAME);
}

/* An unknown user symbol is named by its DSO: "[libc.so.6]", or "[unknown]" as is. */
static enum line_kind unknown_user_frame(struct parser *p, const char *dso, size_t n)
{
	const char *base = dso + n;

	if (n >= 2 && dso[0] == '[' && dso[n - 1] == ']')
		return frame_found(p, dso, n, LINE_USER_FRAME);
	while (base > dso && base[-1] != '/')
		base--;
	n = (size_t)(dso + n - base);
	if (n == 0 || n > FRAME_NAME_MAX)
		return LINE_BAD_FRAME;
	p->frame_buf[0] = '[';
	memcpy(p->frame_buf + 1, base, n);
	p->frame_buf[n + 1] = ']';
	return frame_found(p, p->frame_buf, n + 2, LINE_USER_FRAME);
}

static bool is_user_pseudo_dso(const char *dso, size_t n)
{
	static const char *const user[] = { "[vdso]", "[vsyscall]", "[heap]", "[stack]",
					     "[anon]", "[unknown]", "[uprobes]", "[vvar]" };
	size_t i;

	for (i = 0; i < sizeof(user) / sizeof(user[0]); i++)
		if (n == strlen(user[i]) && memcmp(dso, user[i], n) == 0)
			return true;
	return false;
}

/*
 * perf script: "\tffffffff8164e795 __kmalloc_cache_node_noprof+0x215 ([kernel.kallsyms])".
 * A frame is a kernel one by its place in the chain, as perf prints it:
 * the kernel part first, then the user part. So a frame is kernel while
 * no user frame came before it in the chain and its DSO is the kernel's
 * ("[kernel.kallsyms]", a module's "[ext4]"); a user DSO, or a pseudo one
 * such as "[unknown]", makes it and every frame after it user, whatever
 * its address (user addresses can have the top bit set). Without a DSO,
 * the address decides. An unknown symbol is named by its address (kernel)
 * or its DSO's file name (user, with WANT_USER_FRAMES).
 */
static enum line_kind read_perf_frame(struct parser *p, const char *s, size_t len)
{
	const char *q = s, *end = s + len, *addr, *addr_end, *sym, *sym_end, *dso = NULL;
	size_t dso_len = 0;
	uint64_t a;
	bool kernel;

	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	addr = q;
	while (q < end && hex_value[(unsigned char)*q])
		q++;
	addr_end = q;
	if (addr_end == addr || q == end || *q != ' ' ||
	    !parse_pointer(addr, (size_t)(addr_end - addr), &a))
		return LINE_BAD_FRAME;
	sym = q + 1;
	sym_end = end;
	if (end[-1] == ')') {
		const char *open = end - 1;

		while (open > sym && !(open[0] == '(' && open[-1] == ' '))
			open--;
		if (open > sym) {
			dso = open + 1;
			dso_len = (size_t)(end - 1 - dso);
			sym_end = open - 1;
		}
	}
	if (dso)
		kernel = dso_len > 2 && dso[0] == '[' && dso[dso_len - 1] == ']' &&
			 !is_user_pseudo_dso(dso, dso_len);
	else
		kernel = a >> 63;
	kernel = kernel && !p->chain_in_user;
	if (!kernel)
		p->chain_in_user = true;
	if (!kernel && !(p->want & WANT_USER_FRAMES))
		return LINE_USER_FRAME;	/* counted, not kept: no need to look closer */
	if (sym_end - sym == 9 && memcmp(sym, "[unknown]", 9) == 0) {
		if (kernel || !dso)
			return frame_found(p, addr, (size_t)(addr_end - addr),
					   kernel ? LINE_FRAME : LINE_USER_FRAME);
		return unknown_user_frame(p, dso, dso_len);
	}
	return frame_found(p, sym, without_offset(sym, (size_t)(sym_end - sym)),
			   kernel ? LINE_FRAME : LINE_USER_FRAME);
}

static enum line_kind read_frame_line(struct parser *p, const char *s, size_t len)
{
	p->stats.stack_lines++;
	if (!(p->want & WANT_STACK))
		return LINE_SKIPPED;
	p->frame_in_chain = s[0] == '\t';
	return p->frame_in_chain ? read_perf_frame(p, s, len) : read_arrow_frame(p, s, len);
}

/* Lines that do not start like an event: header, markers, frames, garbage. */
static enum line_kind read_non_event_line(struct parser *p, const char *s, size_t len,
					  uint64_t line_no, struct kmem_event *ev)
{
	if (s[0] == '#') {
		if (len > 5 && s[1] == '#' && read_buffer_started(p, s, len, line_no, ev))
			return LINE_EVENT;
		p->stats.header_lines++;
		read_header_line(p, s, len);
		return LINE_SKIPPED;
	}
	if (s[0] == 'C' && starts_with(s, len, "CPU:") &&
	    read_lost_events(p, s, len, line_no, ev))
		return LINE_EVENT;
	if (s[0] == 'c' && starts_with(s, len, "cpus=")) {
		uint32_t n;

		p->stats.header_lines++;
		if (parse_u32(s + 5, len - 5, &n)) {
			p->stats.trace_headers++;
			if ((int)n > p->header.cpus)
				p->header.cpus = (int)n;
		}
		return LINE_SKIPPED;
	}
	if (is_frame_line(s, len))
		return read_frame_line(p, s, len);
	p->stats.garbage++;
	return LINE_SKIPPED;
}

/* ---- the event prefix: comm, pid, cpu, timestamp --------------------------- */

/*
 * The walks below use the line's masks (p->masks, text_linescan.h): positions
 * are offsets in the line, and a run of spaces or the previous separator
 * is one bit search away.
 */

/* Where an event line's timestamp is, and what it says. */
struct stamp {
	size_t start;		/* the token */
	size_t colon;		/* the ':' that ends it */
	uint64_t ns;		/* when dot is 0 */
	size_t dot;		/* the common shape's dot: ns is read from it when needed; or 0 */
	bool valid;		/* a time: "<digits>[.<digits>]" */
};

/* The first ':' at or after from that ends a token (a space or the line's end follows); or len. */
static size_t next_token_colon(const struct parser *p, const char *s, size_t from, size_t len)
{
	size_t c = from;

	while ((c = linescan_next(p->masks.colon, c, len)) < len && c + 1 < len && s[c + 1] != ' ')
		c++;
	return c;
}

/*
 * s[0..n) as a timestamp token, checked and read in one pass: -1 when it
 * is not one (anything but digits and dots, or no digit first); 0 when it
 * is but is no time ("1.2.3", "5.", past 2^64 ns); 1 with *ns from
 * "1187.655862" (any number of decimals, or none; nanoseconds past the
 * ninth are dropped). The seconds, the nine decimals that count and the
 * rest are three tight loops: a line's timestamp is its longest number.
 */
static int read_timestamp_token(const char *s, size_t n, uint64_t *ns)
{
	uint64_t secs = 0, frac = 0;
	size_t i = 0, f, frac_end, frac_len;
	unsigned d;

	while (i < n && (d = (unsigned char)(s[i] - '0')) < 10) {
		secs = secs * 10 + d;	/* past 19 digits it is refused below */
		i++;
	}
	if (i == 0)
		return -1;
	if (i == n) {		/* no decimals */
		if (i > 19 || secs > UINT64_MAX / 1000000000u)
			return 0;
		*ns = secs * 1000000000u;
		return 1;
	}
	if (s[i] != '.')
		return -1;
	f = i + 1;
	frac_end = n - f > 9 ? f + 9 : n;	/* nanoseconds past the ninth are dropped */
	for (frac_len = 0; f + frac_len < frac_end; frac_len++) {
		d = (unsigned char)(s[f + frac_len] - '0');
		if (d >= 10)
			break;
		frac = frac * 10 + d;
	}
	for (f += frac_len; f < n; f++) {	/* the rest: more digits, or not a time */
		if ((unsigned char)(s[f] - '0') < 10)
			continue;
		if (s[f] != '.')
			return -1;
		while (++f < n)		/* a second dot: digits and dots, but no time */
			if ((unsigned char)(s[f] - '0') >= 10 && s[f] != '.')
				return -1;
		return 0;
	}
	if (i > 19 || frac_len == 0 || secs > UINT64_MAX / 1000000000u)
		return 0;
	for (; frac_len < 9; frac_len++)
		frac *= 10;
	if (secs * 1000000000u > UINT64_MAX - frac)
		return 0;	/* past 2^64 ns */
	*ns = secs * 1000000000u + frac;
	return 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/*
 * The high bit of each byte of w that is no ASCII digit: byte ^ '0' is
 * 0..9 for a digit, and 0x76 more sets the high bit from 10 up. A carry
 * into the next byte comes only from a byte of 0xba or more (not ASCII),
 * and may flag a '9' after it: never a digit after '.', ':' or ' '.
 */
static inline uint64_t nondigit_bytes(uint64_t w)
{
	uint64_t x = w ^ 0x3030303030303030ull;

	return ((x + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
}

/* Eight ASCII digits, the first the most significant, as a number. */
static inline uint64_t eight_digits(uint64_t w)
{
	w -= 0x3030303030303030ull;
	w = w * 10 + (w >> 8);
	return ((w & 0x000000ff000000ffull) * (100 + (1000000ull << 32)) +
		((w >> 16) & 0x000000ff000000ffull) * (1 + (10000ull << 32))) >> 32;
}

/* The word of the eight bytes before s[end], its first keep bytes made '0'. */
static inline uint64_t digits_before(const char *s, size_t end, unsigned zeros)
{
	uint64_t w;

	memcpy(&w, s + end - 8, 8);
	return zeros ? (w & (~0ull << (8 * zeros))) | (0x3030303030303030ull >> (64 - 8 * zeros))
		     : w;
}

/*
 * The common timestamp, s[t..c) = 1 to 8 digits, '.', 1 to 7 digits, looked
 * at eight bytes at a time from inside the line (never past it): where its
 * dot is; 0 when it is not of that shape (read_timestamp_token decides
 * then). Its value is read only for an event handed on (common_timestamp_ns):
 * most lines of a page-heavy log are events the reports do not want.
 */
static size_t common_timestamp_dot(const char *s, size_t t, size_t c)
{
	uint64_t w, mask;
	size_t dot;

	if (c < 8)
		return 0;
	memcpy(&w, s + c - 8, 8);
	mask = nondigit_bytes(w);
	if (!mask)
		return 0;	/* eight decimals or more */
	dot = c - 8 + (size_t)(63 - __builtin_clzll(mask)) / 8;	/* the last non-digit */
	if (s[dot] != '.' || dot < t + 1 || dot + 1 >= c || dot < 8 || dot - t > 8)
		return 0;
	if (nondigit_bytes(digits_before(s, dot, (unsigned)(8 - (dot - t)))))
		return 0;
	return dot;
}

/* The nanoseconds of the common timestamp s[t..c) whose dot common_timestamp_dot found. */
static uint64_t common_timestamp_ns(const char *s, size_t t, size_t dot, size_t c)
{
	static const uint32_t scale[8] = { 0, 100000000, 10000000, 1000000, 100000, 10000,
					   1000, 100 };
	size_t frac_len = c - dot - 1;
	uint64_t secs = eight_digits(digits_before(s, dot, (unsigned)(8 - (dot - t))));

	return secs * 1000000000u +
	       eight_digits(digits_before(s, c, (unsigned)(8 - frac_len))) * scale[frac_len];
}
#else
static size_t common_timestamp_dot(const char *s, size_t t, size_t c)
{
	(void)s, (void)t, (void)c;
	return 0;
}

static uint64_t common_timestamp_ns(const char *s, size_t t, size_t dot, size_t c)
{
	(void)s, (void)t, (void)dot, (void)c;
	return 0;
}
#endif

/*
 * Find the timestamp: the first ':' followed by a space or the end of the
 * line whose token is "<digits>[.<digits>]" (or any run of digits and
 * dots, a digit first: then a malformed time) preceded by a space.
 */
static bool find_timestamp(const struct parser *p, const char *s, size_t len, struct stamp *ts)
{
	size_t c, sp;

	for (c = next_token_colon(p, s, 0, len); c < len; c = next_token_colon(p, s, c + 1, len)) {
		int r;

		if ((sp = linescan_prev(p->masks.space, c)) == LINESCAN_NONE)
			continue;
		ts->dot = common_timestamp_dot(s, sp + 1, c);
		r = ts->dot ? 1 : read_timestamp_token(s + sp + 1, c - sp - 1, &ts->ns);
		if (r >= 0) {
			ts->start = sp + 1;
			ts->colon = c;
			ts->valid = r > 0;
			return true;
		}
	}
	return false;
}

/* Walk back from the timestamp over the flags column to "[cpu]": where "[" is. */
/*
 * The usual layout at once, "[ddd] fffff " or "[ddd] ffff " before the
 * timestamp (three CPU digits, five or four flags: tracefs, trace-cmd):
 * where "[" is, or 0 when the line is laid out otherwise (find_cpu walks).
 */
static size_t usual_cpu_column(const char *s, size_t ts_start, int32_t *cpu)
{
	size_t flags, r, i;

	if (ts_start < 12 || s[ts_start - 1] != ' ')
		return 0;
	flags = s[ts_start - 6] == ' ' ? 4 : 5;	/* the space before the flags */
	r = ts_start - flags - 3;			/* the ']' */
	if (s[r + 1] != ' ' || s[r] != ']' || s[r - 4] != '[' || !is_digit(s[r - 1]) ||
	    !is_digit(s[r - 2]) || !is_digit(s[r - 3]))
		return 0;
	for (i = r + 2; i < ts_start - 1; i++)
		if (s[i] == ' ' || s[i] == ']')
			return 0;
	*cpu = (s[r - 3] - '0') * 100 + (s[r - 2] - '0') * 10 + (s[r - 1] - '0');
	return r - 4;
}

static size_t find_cpu(const struct parser *p, const char *s, size_t ts_start, int32_t *cpu)
{
	const struct line_masks *m = &p->masks;
	size_t r = usual_cpu_column(s, ts_start, cpu), d;
	uint32_t v;

	if (r)
		return r;
	r = linescan_prev_clear(m->space, ts_start);

	if (r == LINESCAN_NONE)
		return ts_start;
	if (s[r] != ']') {	/* the flags column, and spaces before it */
		size_t before_flags = linescan_prev(m->space, r);

		if (before_flags == LINESCAN_NONE)
			return ts_start;
		r = linescan_prev_clear(m->space, before_flags);
		if (r == LINESCAN_NONE || s[r] != ']')
			return ts_start;	/* no [cpu]: comm-pid comes right before */
	}
	d = r;
	while (d > 0 && is_digit(s[d - 1]))
		d--;
	if (d == r || d == 0 || s[d - 1] != '[' || !parse_u32(s + d, r - d, &v) || v > INT32_MAX)
		return ts_start;
	*cpu = (int32_t)v;
	return d - 1;
}

/* "comm-pid" (tracefs, trace-cmd) or "comm pid" (perf) before position before. */
static void read_comm_pid(struct parser *p, const char *s, size_t before, struct kmem_event *ev)
{
	size_t last = linescan_prev_clear(p->masks.space, before);
	const char *start, *end, *d;
	int32_t pid;

	if (last == LINESCAN_NONE)
		return;		/* only spaces */
	start = s + linescan_next_clear(p->masks.space, 0, last);
	end = s + last + 1;
	d = end;
	while (d > start && is_digit(d[-1]))
		d--;
	if (d < end && d > start && (d[-1] == '-' || d[-1] == ' ') &&
	    parse_i32(d, (size_t)(end - d), &pid)) {
		ev->pid = pid;
		end = d - 1;
		while (end > start && end[-1] == ' ')
			end--;
	}
	if (end > start)
		ev->comm = intern_recent(&p->comm_seen, &p->strings->comms, start,
					 (size_t)(end - start));
}

/* ---- fields -------------------------------------------------------------- */

enum field_seen {
	SEEN_CALL_SITE = 1 << 0,
	SEEN_PTR = 1 << 1,
	SEEN_REQ = 1 << 2,
	SEEN_ALLOC = 1 << 3,
	SEEN_PFN = 1 << 4,
	SEEN_PAGE = 1 << 5,
};

#define KEY_IS(lit) (klen == sizeof(lit) - 1 && memcmp(key, lit, sizeof(lit) - 1) == 0)

/*
 * A call site's id: most lines name one of a few hundred, so a small
 * table by a hash of the text's first and last eight bytes finds it with
 * one compare, before the string table's full hash.
 */
static uint32_t intern_call_site(struct parser *p, const char *s, size_t n)
{
	struct strtab *t = &p->strings->call_sites;
	uint64_t head, tail;
	uint32_t *slot, id;

	if (n < 8)
		return intern_printable(t, s, n);
	memcpy(&head, s, 8);
	memcpy(&tail, s + n - 8, 8);
	slot = &p->site_cache[((head * 0x9E3779B97F4A7C15ull) ^ (tail * 0xC2B2AE3D27D4EB4Full) ^ n) >>
			      (64 - SITE_CACHE_BITS)];
	id = *slot;
	if (id != STR_NONE && strtab_length(t, id) == n && memcmp(strtab_get(t, id), s, n) == 0)
		return id;
	id = intern_printable(t, s, n);
	if (id != STR_NONE)
		*slot = id;
	return id;
}

/* call_site value, with a following " [module]" token kept as part of it. */
static bool read_call_site(struct parser *p, const char *val, size_t vlen,
			   const char **cursor, const char *end, struct kmem_event *ev)
{
	const char *q = *cursor;

	if (q + 1 < end && q[0] == ' ' && q[1] == '[') {
		const char *close = memchr(q, ']', (size_t)(end - q));

		if (close) {
			vlen = (size_t)(close + 1 - val);
			*cursor = close + 1;
		}
	}
	if (vlen == 0 || vlen > CALLSITE_TEXT_MAX)
		return false;	/* a longer one would be cut in reports: malformed, never merged */
	ev->call_site = intern_call_site(p, val, vlen);
	return ev->call_site != STR_NONE;
}

static bool read_slab_field(struct parser *p, const char *key, size_t klen,
			    const char *val, size_t vlen, const char **cursor,
			    const char *end, struct kmem_event *ev, unsigned *seen)
{
	switch (klen) {
	case 3:
		if (KEY_IS("ptr")) {
			*seen |= SEEN_PTR;
			return parse_pointer(val, vlen, &ev->ptr);
		}
		break;
	case 4:
		if (KEY_IS("node"))	/* INT32_MIN is NODE_ABSENT: no node prints it */
			return parse_i32(val, vlen, &ev->node) && ev->node != NODE_ABSENT;
		if (KEY_IS("name")) {
			if (p->want & WANT_CACHE_NAME)
				ev->cache = intern_recent(&p->cache_seen, &p->strings->caches, val, vlen);
			return true;
		}
		break;
	case 9:
		if (KEY_IS("call_site")) {
			*seen |= SEEN_CALL_SITE;
			return read_call_site(p, val, vlen, cursor, end, ev);
		}
		if (KEY_IS("bytes_req")) {
			*seen |= SEEN_REQ;
			return parse_u32(val, vlen, &ev->bytes_req);
		}
		if (KEY_IS("gfp_flags")) {
			if (p->want & WANT_GFP)
				ev->gfp = intern_recent(&p->gfp_seen, &p->strings->gfps, val, vlen);
			return true;
		}
		if (KEY_IS("accounted")) {
			if (vlen == 4 && memcmp(val, "true", 4) == 0)
				ev->accounted = ACCOUNTED_TRUE;
			else if (vlen == 5 && memcmp(val, "false", 5) == 0)
				ev->accounted = ACCOUNTED_FALSE;
			else
				return false;
			return true;
		}
		break;
	case 11:
		if (KEY_IS("bytes_alloc")) {
			*seen |= SEEN_ALLOC;
			return parse_u32(val, vlen, &ev->bytes_alloc);
		}
		break;
	}
	return true;		/* unknown keys are ignored */
}

static bool read_page_field(struct parser *p, const char *key, size_t klen,
			    const char *val, size_t vlen, struct kmem_event *ev,
			    unsigned *seen)
{
	switch (klen) {
	case 3:
		if (KEY_IS("pfn")) {
			*seen |= SEEN_PFN;
			return parse_pfn(val, vlen, &ev->pfn) && ev->pfn < KMEM_PFN_LIMIT;
		}
		if (KEY_IS("cpu")) {	/* 2.6.x zone_locked / pcpu_drain */
			int32_t cpu;

			return parse_i32(val, vlen, &cpu);
		}
		break;
	case 4:
		if (KEY_IS("page")) {	/* a kernel's pointer, or a hash below 2^52 */
			*seen |= SEEN_PAGE;
			return parse_pointer(val, vlen, &ev->ptr) &&
			       !kmem_page_key_is_made_up(ev->ptr);
		}
		break;
	case 5:
		if (KEY_IS("order"))
			return parse_small(val, vlen, &ev->order);
		break;
	case 9:
		if (KEY_IS("gfp_flags")) {
			if (p->want & WANT_GFP)
				ev->gfp = intern_recent(&p->gfp_seen, &p->strings->gfps, val, vlen);
			return true;
		}
		break;
	case 11:
		if (KEY_IS("migratetype"))
			return parse_small(val, vlen, &ev->migratetype);
		if (KEY_IS("alloc_order"))
			return parse_small(val, vlen, &ev->order);
		if (KEY_IS("fragmenting"))
			return parse_small(val, vlen, &ev->percpu_refill);
		break;
	case 13:
		if (KEY_IS("percpu_refill"))
			return parse_small(val, vlen, &ev->percpu_refill);
		break;
	case 14:
		if (KEY_IS("fallback_order"))
			return parse_small(val, vlen, &ev->fallback_order);
		break;
	case 16:
		if (KEY_IS("change_ownership"))
			return parse_small(val, vlen, &ev->change_ownership);
		break;
	case 17:
		if (KEY_IS("alloc_migratetype"))
			return parse_small(val, vlen, &ev->migratetype);
		break;
	case 20:
		if (KEY_IS("fallback_migratetype"))
			return parse_small(val, vlen, &ev->fallback_migratetype);
		break;
	}
	return true;
}

#undef KEY_IS

/* One "key=value" token: to the page or slab fields. */
static bool read_field(struct parser *p, bool page, const char *key, size_t klen,
		       const char *val, size_t vlen, const char **cursor, const char *end,
		       struct kmem_event *ev, unsigned *seen)
{
	return page ? read_page_field(p, key, klen, val, vlen, ev, seen)
		    : read_slab_field(p, key, klen, val, vlen, cursor, end, ev, seen);
}

/* The set bits of a mask in order, one word held at a time. */
struct bit_walk {
	const uint64_t *words;
	size_t nwords, word;
	uint64_t bits;		/* of words[word] still to come */
};

static inline void walk_from(struct bit_walk *b, size_t pos)
{
	b->word = pos >> 6;
	b->bits = b->word < b->nwords ? b->words[b->word] & (~0ull << (pos & 63)) : 0;
}

/* The next set bit's position, or len when none is left before it. */
static inline size_t walk_next(struct bit_walk *b, size_t len)
{
	size_t pos;

	while (!b->bits) {
		if (++b->word >= b->nwords)
			return len;
		b->bits = b->words[b->word];
	}
	pos = (b->word << 6) + (size_t)__builtin_ctzll(b->bits);
	b->bits &= b->bits - 1;
	return pos < len ? pos : len;
}

/*
 * Walk the "key=value" tokens of the line from position at to len; tokens
 * without '=' (trace-cmd's "(sym+0xoff)", padding) are passed over. False
 * if a known field is bad. One walk over the separators (spaces and '=')
 * does it: a space starts the next key, an '=' ends the key, and the
 * value runs to the next space.
 */
static bool read_fields(struct parser *p, const char *s, size_t at, size_t len,
			struct kmem_event *ev, unsigned *seen)
{
	struct bit_walk b = { p->masks.stop, (len + 63) >> 6, 0, 0 };
	bool page = kmem_is_page(ev->kind);
	size_t key = at, eq, vend;

	walk_from(&b, at);
	while ((eq = walk_next(&b, len)) < len) {
		if (s[eq] == ' ') {
			key = eq + 1;	/* a run of spaces, or a token without '=' passed */
			continue;
		}
		vend = eq;
		do
			vend = walk_next(&b, len);	/* '=' inside a value is the value's */
		while (vend < len && s[vend] != ' ');

		const char *cursor = s + vend;

		if (!read_field(p, page, s + key, eq - key, s + eq + 1, vend - eq - 1, &cursor,
				s + len, ev, seen))
			return false;
		if (cursor == s + vend) {
			key = vend + 1;
		} else {	/* a call site's " [module]" was taken too */
			key = (size_t)(cursor - s);
			walk_from(&b, key);
		}
	}
	return true;
}

static bool has_required_fields(enum kmem_kind kind, unsigned seen)
{
	const unsigned alloc = SEEN_CALL_SITE | SEEN_PTR | SEEN_REQ | SEEN_ALLOC;

	if (kmem_is_slab_alloc(kind))
		return (seen & alloc) == alloc;
	if (kmem_is_slab_free(kind))
		return (seen & SEEN_PTR) != 0;
	return (seen & (SEEN_PFN | SEEN_PAGE)) != 0;
}

static inline bool is_name_char(char c)
{
	return (unsigned char)((c | 0x20) - 'a') < 26 || is_digit(c) || c == '_' || c == ':' ||
	       c == '.';
}

/*
 * An event of another kind ("sched_switch", perf's "sched:sched_switch"),
 * or, with no "name:" after the timestamp, a function tracer line
 * ("do_sys_open <-do_syscall_64"). The name must look like one, or the
 * line is text that happened to hold " 12: " (binaries and logs of other
 * programs do). Names are kept while no kmem event was seen.
 */
static bool is_other_event(struct parser *p, const char *name, const char *name_end,
			   const char *end)
{
	const char *q = name;
	const char *stop = name_end ? name_end : end;

	while (q < stop && is_name_char(*q))
		q++;
	if (q == name || (name_end && q != name_end) ||
	    (!name_end && !(end - q > 4 && memcmp(q, " <-", 3) == 0 && is_name_char(q[3])))) {
		p->stats.garbage++;
		return false;
	}
	p->stats.other_events++;
	if (!p->seen_kmem) {
		if (name_end)
			event_names_add(&p->others, name, (size_t)(name_end - name), 1);
		else
			event_names_add(&p->others, "function", 8, 1);
	}
	return true;
}

/*
 * An event line that hands nothing on: with stacks wanted, its CPU still
 * matters (a stack entry that follows it on that CPU is its own).
 */
static enum line_kind event_not_handed_on(struct parser *p, const char *s, size_t ts_start)
{
	if (!(p->want & WANT_STACK))
		return LINE_SKIPPED;
	p->line_cpu = CPU_UNKNOWN;
	find_cpu(p, s, ts_start, &p->line_cpu);
	return LINE_OTHER_EVENT;
}

/* "<stack trace>", "<user stack trace>", trace-cmd's kernel_stack / user_stack events. */
static enum line_kind stack_entry(struct parser *p, const char *s, size_t ts_start, bool user)
{
	p->stats.stack_lines++;
	if (!(p->want & WANT_STACK))
		return LINE_SKIPPED;
	p->line_cpu = CPU_UNKNOWN;
	find_cpu(p, s, ts_start, &p->line_cpu);
	return user ? LINE_USER_STACK_ENTRY : LINE_STACK_ENTRY;
}

#define NAME_IS(lit) (nlen == sizeof(lit) - 1 && memcmp(s + name, lit, sizeof(lit) - 1) == 0)

/* parse_line of a line whose masks are in p->masks. */
static enum line_kind parse_scanned(struct parser *p, const char *s, size_t len,
				    uint64_t line_no, struct kmem_event *ev)
{
	struct stamp ts = { 0 };
	size_t name, name_end, nlen;
	enum kmem_kind kind;

	if (len > 0 && s[len - 1] == '\r')
		len--;
	if (len == 0) {
		p->stats.blank_lines++;
		return LINE_SKIPPED;
	}
	/* frames first: a stack log is mostly frames, and they hold no timestamp */
	if (is_frame_line(s, len))
		return read_frame_line(p, s, len);
	p->chain_in_user = false;	/* a callchain ends at any other line */
	if (!find_timestamp(p, s, len, &ts))
		return read_non_event_line(p, s, len, line_no, ev);

	name = linescan_next_clear(p->masks.space, ts.colon + 1, len);
	if (name < len && s[name] == '<')	/* "<stack trace>", "<user stack trace>" */
		return stack_entry(p, s, ts.start, starts_with(s + name, len - name, "<user"));
	name_end = next_token_colon(p, s, name, len);	/* the event name's end */
	if (name_end == len)
		return is_other_event(p, s + name, NULL, s + len) ? event_not_handed_on(p, s, ts.start)
								 : LINE_SKIPPED;
	if (name_end - name > 5 && memcmp(s + name, "kmem:", 5) == 0)
		name += 5;	/* perf script */
	nlen = name_end - name;
	kind = kmem_kind_of_name(s + name, nlen);
	if (kind == KMEM_NONE) {
		if (NAME_IS("kernel_stack") || NAME_IS("ftrace:kernel_stack"))	/* trace-cmd */
			return stack_entry(p, s, ts.start, false);
		if (NAME_IS("user_stack") || NAME_IS("ftrace:user_stack"))
			return stack_entry(p, s, ts.start, true);
		return is_other_event(p, s + name, s + name_end, s + len)
			       ? event_not_handed_on(p, s, ts.start)
			       : LINE_SKIPPED;
	}
	p->seen_kmem = true;
	p->stats.events[kind]++;
	if (kmem_is_page(kind) && !(p->want & WANT_PAGE))
		return event_not_handed_on(p, s, ts.start);

	reset_event(ev, kind, line_no);
	if (!ts.valid)
		goto malformed;
	ev->ts_ns = ts.dot ? common_timestamp_ns(s, ts.start, ts.dot, ts.colon) : ts.ns;

	size_t before_cpu = find_cpu(p, s, ts.start, &ev->cpu);

	if (p->want & WANT_COMM)
		read_comm_pid(p, s, before_cpu, ev);

	unsigned seen = 0;

	if (!read_fields(p, s, name_end + 1, len, ev, &seen) || !has_required_fields(kind, seen))
		goto malformed;
	return LINE_EVENT;

malformed:
	p->stats.events[kind]--;
	count_malformed(p, line_no);
	return event_not_handed_on(p, s, ts.start);
}

#undef NAME_IS

enum line_kind parse_line(struct parser *p, const char *s, size_t len, uint64_t line_no,
			  struct kmem_event *ev)
{
	if (len > INPUT_MAX_LINE) {	/* the raw length, '\r' and all, as the input module counts */
		p->stats.overlong++;
		/* a frame too long to be one spoils the stack it is in */
		if (!(p->want & WANT_STACK) || !is_frame_line(s, 16))
			return LINE_SKIPPED;
		p->frame_in_chain = s[0] == '\t';
		return LINE_BAD_FRAME;
	}
	linescan_find(p->scan, s, len, &p->masks);
	return parse_scanned(p, s, len, line_no, ev);
}

size_t parse_next_line(struct parser *p, const char *s, size_t avail, uint64_t line_no,
		       struct kmem_event *ev, enum line_kind *kind)
{
	size_t n = p->scan_line(s, avail, &p->masks);
	const char *nl;

	if (n != LINESCAN_NONE) {
		*kind = parse_scanned(p, s, n, line_no, ev);
		return n;
	}
	nl = memchr(s, '\n', avail);	/* a long line */
	n = nl ? (size_t)(nl - s) : avail;
	*kind = parse_line(p, s, n, line_no, ev);
	return n;
}
