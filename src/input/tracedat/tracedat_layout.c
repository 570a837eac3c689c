/*
 * tracedat_layout.c - a trace.dat's layout walked before libtracecmd reads it.
 *
 * libtracecmd 3.1 trusts the sizes and offsets a trace.dat gives: it
 * allocates what a size field says (4 GB for a damaged kallsyms size),
 * dereferences a half-made handle when an open fails, and reads each CPU's
 * first page while opening (a bad one crashes its clean-up). So every size
 * and offset is checked against the file first, version 6's parts in a row
 * and version 7's sections wherever its options point (compressed ones
 * decompressed as libtracecmd will), each CPU's pages too (the kbuffer
 * reader reads past a page whose header lies);
 * and the formats libtraceevent will parse are tried in a child first
 * (tepguard.h). What the sections say, and the pages past the first, are
 * the libraries' to read. Layout: trace-cmd.dat.v6(5), trace-cmd.dat.v7(5).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <zlib.h>
#include <zstd.h>

#include "bigmem.h"
#include "tracedat_layout.h"
#include "error.h"
#include "tepguard.h"

/* What libtracecmd will decompress at most: a section or a chunk. */
#define INFLATED_MAX (256u << 20)

/* The v7 sections the options point at (trace-cmd's TRACECMD_OPTION_*). */
enum {
	OPT_DONE = 0, OPT_BUFFER = 3, OPT_CPUCOUNT = 8, OPT_STRINGS = 15, OPT_HEADER_INFO = 16,
	OPT_FTRACE_EVENTS = 17, OPT_EVENT_FORMATS = 18, OPT_KALLSYMS = 19, OPT_PRINTK = 20,
	OPT_CMDLINES = 21,
};

/* A walk over bytes: the file, a section of it, or a section decompressed. */
struct layout {
	const unsigned char *p;
	uint64_t size, at;
	bool bad;
	uint32_t page_size;
	unsigned long_size;
	const char *compression;	/* v7: "none", "zstd", "zlib" */
	struct tepguard *guard;		/* the formats libtraceevent will parse */
	struct dat_flyrecord *fly;	/* what is learnt of the top buffer's pages */
	const unsigned char *map;	/* the file's map, which checked pages of leave */
	uint64_t map_size;
	struct page_runs *later;	/* uncompressed pages, checked once the walk is known */
};

/* A CPU's uncompressed pages in the file, and whether they are the top buffer's. */
struct page_run {
	uint64_t off, size;
	bool top;
};

struct page_runs {
	struct page_run *runs;
	size_t n, cap;
};

/* trace-cmd's options that make libtracecmd change the pages' timestamps */
enum { OPT_DATE = 1, OPT_OFFSET = 7, OPT_TIME_SHIFT = 12, OPT_GUEST = 13, OPT_TSC2NSEC = 14 };

static void note_option(const struct layout *l, unsigned id)
{
	if (id == OPT_DATE || id == OPT_OFFSET || id == OPT_TIME_SHIFT || id == OPT_GUEST ||
	    id == OPT_TSC2NSEC)
		l->fly->ts_changed = true;
}

/* The top buffer's CPU i: its pages at off, size bytes; cpu its number (-1: v6's, i). */
static void note_top_cpu(const struct layout *l, uint64_t i, uint64_t cpus, int64_t cpu,
			 uint64_t off, uint64_t size)
{
	struct dat_flyrecord *f = l->fly;

	if (i == 0) {
		f->offset = xrealloc(f->offset, (size_t)cpus * sizeof(*f->offset));
		f->size = xrealloc(f->size, (size_t)cpus * sizeof(*f->size));
		f->ncpus = 0;
	}
	if (cpu >= 0 && (uint64_t)cpu != i)
		f->ts_changed = true;	/* CPUs left out: libtracecmd's numbering, not ours */
	f->offset[i] = off;
	f->size[i] = size;
	f->ncpus = (int)i + 1;
}

static const unsigned char *lay_take(struct layout *l, uint64_t n)
{
	const unsigned char *q = l->p + l->at;

	if (l->bad || n > l->size - l->at) {
		l->bad = true;
		return NULL;
	}
	l->at += n;
	return q;
}

static uint64_t lay_u(struct layout *l, unsigned n)
{
	const unsigned char *q = lay_take(l, n);
	uint64_t v = 0;

	if (q)
		memcpy(&v, q, n);	/* little-endian: the only byte order read */
	return v;
}

/* A NUL-terminated string; its start, or NULL. */
static const char *lay_string(struct layout *l)
{
	const unsigned char *nul = l->bad ? NULL : memchr(l->p + l->at, '\0', l->size - l->at);
	const char *s = (const char *)l->p + l->at;

	if (!nul) {
		l->bad = true;
		return NULL;
	}
	l->at = (uint64_t)(nul - l->p) + 1;
	return s;
}

static bool lay_within(const struct layout *l, uint64_t off, uint64_t n)
{
	return off <= l->size && n <= l->size - off;
}

/* A part of n bytes after a size field of width bytes; its start, or NULL. */
static const char *lay_sized(struct layout *l, unsigned width, uint64_t *n)
{
	*n = lay_u(l, width);
	return (const char *)lay_take(l, *n);
}

/* ---- the parts: version 6 has them in a row, version 7 a section each ---- */

/* Where text lies in the file, when it does (not decompressed): false if not. */
static bool text_in_file(const struct layout *l, const char *text, uint64_t n, struct dat_text *t)
{
	const unsigned char *p = (const unsigned char *)text;

	if (!text || !l->map || p < l->map || n > l->map_size ||
	    p - l->map > (ptrdiff_t)(l->map_size - n))
		return false;
	t->off = (uint64_t)(p - l->map);
	t->len = n;
	return true;
}

/*
 * Where a part lies, noted once: a part given twice, or not in the file as
 * it is (decompressed), leaves the file to libtracecmd (m->repeated).
 */
static void note_text(const struct layout *l, bool *has, struct dat_text *t, const char *text,
		      uint64_t n)
{
	struct dat_meta *m = &l->fly->meta;

	if (*has || !text_in_file(l, text, n, t))
		m->repeated = true;
	*has = true;
}

static void note_format(const struct layout *l, const char *text, uint64_t n, const char *system)
{
	struct dat_meta *m = &l->fly->meta;
	struct dat_text t;

	if (!text_in_file(l, text, n, &t)) {
		m->repeated = true;
		return;
	}
	if (m->nformats == m->formats_cap) {
		m->formats_cap = m->formats_cap ? m->formats_cap * 2 : 32;
		m->formats = xrealloc(m->formats, m->formats_cap * sizeof(*m->formats));
	}
	m->formats[m->nformats].text = t;
	m->formats[m->nformats++].system = system;
}

/* header_page, header_event: a label and a sized text each. */
static void walk_header_info(struct layout *l)
{
	const char *text;
	uint64_t n;

	lay_string(l);
	text = lay_sized(l, 8, &n);
	if (text) {
		tepguard_header_page(l->guard, text, n);
		note_text(l, &l->fly->meta.has_header_page, &l->fly->meta.header_page, text, n);
	}
	lay_string(l);
	lay_sized(l, 8, &n);
}

/* ftrace's own formats (kernel_stack among them). */
static void walk_ftrace_formats(struct layout *l)
{
	uint64_t i, count = lay_u(l, 4), n;

	for (i = 0; i < count && !l->bad; i++) {
		const char *text = lay_sized(l, 8, &n);

		if (text) {
			tepguard_add(l->guard, text, n, "ftrace");
			note_format(l, text, n, "ftrace");
		}
	}
}

/* The event systems and their formats; the kmem system's are parsed (tracedat.c). */
static void walk_event_formats(struct layout *l)
{
	uint64_t i, j, systems = lay_u(l, 4), n;

	for (i = 0; i < systems && !l->bad; i++) {
		const char *sys = lay_string(l);
		uint64_t events = lay_u(l, 4);

		for (j = 0; j < events && !l->bad; j++) {
			const char *text = lay_sized(l, 8, &n);

			if (text && sys && (strcmp(sys, "kmem") == 0 || strcmp(sys, "ftrace") == 0)) {
				tepguard_add(l->guard, text, n, sys);
				note_format(l, text, n, strcmp(sys, "kmem") == 0 ? "kmem" : "ftrace");
			}
		}
	}
}

static void walk_part(struct layout *l, int id)
{
	struct dat_meta *m = &l->fly->meta;
	const char *text;
	uint64_t n;

	switch (id) {
	case OPT_HEADER_INFO:
		walk_header_info(l);
		break;
	case OPT_FTRACE_EVENTS:
		walk_ftrace_formats(l);
		break;
	case OPT_EVENT_FORMATS:
		walk_event_formats(l);
		break;
	case OPT_KALLSYMS:
		if ((text = lay_sized(l, 4, &n)) != NULL)
			note_text(l, &m->has_kallsyms, &m->kallsyms, text, n);
		break;
	case OPT_PRINTK:
		lay_sized(l, 4, &n);
		break;
	case OPT_CMDLINES:
		if ((text = lay_sized(l, 8, &n)) != NULL)
			note_text(l, &m->has_cmdlines, &m->cmdlines, text, n);
		break;
	default:
		break;
	}
}

/* ---- decompression, as libtracecmd does it ---- */

/* n_in bytes into exactly n_out: false for anything else. */
static bool inflate_exactly(const char *compression, const unsigned char *in, uint64_t n_in,
			    unsigned char *out, uint64_t n_out)
{
	if (strcmp(compression, "zstd") == 0) {
		size_t got = ZSTD_decompress(out, n_out, in, n_in);

		return !ZSTD_isError(got) && got == n_out;
	}
	if (strcmp(compression, "zlib") == 0) {
		uLongf got = n_out;

		return uncompress(out, &got, in, n_in) == Z_OK && got == n_out;
	}
	return false;	/* libtracecmd refuses what it cannot decompress */
}

/*
 * A compressed block at p (size bytes): u32 compressed size, u32 size, the
 * data. Its bytes decompressed, owned by the guard; NULL if it is damaged.
 */
static unsigned char *inflate_block(const struct layout *l, const unsigned char *p,
				    uint64_t size, uint32_t *n_out)
{
	uint32_t zsize, rsize;
	unsigned char *out;

	if (size < 8)
		return NULL;
	memcpy(&zsize, p, 4);
	memcpy(&rsize, p + 4, 4);
	if (zsize > size - 8 || rsize > INFLATED_MAX)
		return NULL;
	out = xmalloc(rsize ? rsize : 1);
	if (!inflate_exactly(l->compression, p + 8, zsize, out, rsize)) {
		free(out);
		return NULL;
	}
	tepguard_own(l->guard, out);
	*n_out = rsize;
	return out;
}

/* ---- each CPU's pages ---- */

/*
 * A ring-buffer page (n bytes of it in the file) as the kernel writes it:
 * a timestamp and a commit word (the data's size, and flags), then the
 * data, then the count of lost events when the flags say it is stored
 * there. libtraceevent's kbuffer reads that count at data + size before
 * it checks the size against the page, so a page that breaks the kernel's
 * rule is refused here.
 */
bool dat_page_ok(const unsigned char *page, uint64_t n, uint32_t page_size, unsigned long_size)
{
	uint64_t commit = 0, header = 8 + long_size, size, lost_count;

	if (n < header || page_size < header)
		return false;
	memcpy(&commit, page + 8, long_size);
	size = commit & ((1u << 27) - 1);
	lost_count = (commit >> 30) & 1 ? long_size : 0;	/* MISSING_STORED */
	return size + lost_count <= page_size - header && size + lost_count <= n - header;
}

/* The file's pages in [from, to) of the map given back: checked, and read again later. */
static void release_checked(const struct layout *l, const unsigned char *from,
			    const unsigned char *to)
{
	if (from >= l->map && to <= l->map + l->map_size)	/* not bytes decompressed */
		pages_give_back(from, (size_t)(to - from));
}

/*
 * Pages one after another, n bytes in all; the last may be cut short.
 * What was checked is given back as it goes (a 76 MB file is not held whole).
 */
static bool pages_ok(const struct layout *l, const unsigned char *p, uint64_t n)
{
	uint64_t at, released = 0;

	for (at = 0; at < n; at += l->page_size) {
		if (!dat_page_ok(p + at, n - at < l->page_size ? n - at : l->page_size, l->page_size,
				 l->long_size))
			return false;
		if (at - released >= (4u << 20)) {
			release_checked(l, p + released, p + at);
			released = at;
		}
	}
	return true;
}

/* A CPU's data in compressed chunks: every chunk in the file, decompressed, its pages. */
static bool chunks_ok(const struct layout *l, uint64_t off, uint64_t size)
{
	const unsigned char *p = l->p + off;
	uint32_t count, zsize, rsize, i;
	uint64_t at = 4;
	unsigned char *pages = NULL;
	size_t cap = 0;
	bool ok = true;

	if (size < 4)
		return false;
	memcpy(&count, p, 4);
	for (i = 0; i < count && ok; i++) {
		if (l->size - off - at < 8)
			return free(pages), false;
		memcpy(&zsize, p + at, 4);
		memcpy(&rsize, p + at + 4, 4);
		if (zsize > l->size - off - at - 8 || rsize > INFLATED_MAX)
			return free(pages), false;
		if (rsize > cap) {
			cap = rsize;
			pages = xrealloc(pages, cap);
		}
		ok = inflate_exactly(l->compression, p + at + 8, zsize, pages, rsize) &&
		     pages_ok(l, pages, rsize);
		at += 8 + (uint64_t)zsize;
	}
	free(pages);
	return ok;
}

/*
 * A CPU's data: within the file, and (compressed) its chunks and pages;
 * uncompressed pages are noted to be checked at the end, when it is known
 * whether the top buffer's will be walked in place, which checks each
 * page as it reads it (tracedat_pages.c): a 76 MB file was otherwise
 * read twice, 8 ms of its 90.
 */
static bool cpu_data_ok(const struct layout *l, uint64_t off, uint64_t size, bool top)
{
	struct page_runs *later = l->later;

	if (!size)
		return true;
	if (!lay_within(l, off, size))
		return false;
	if (strcmp(l->compression, "none") != 0)
		return chunks_ok(l, off, size);
	if (later->n == later->cap) {
		later->cap = later->cap ? later->cap * 2 : 16;
		later->runs = xrealloc(later->runs, later->cap * sizeof(*later->runs));
	}
	later->runs[later->n++] = (struct page_run){ off, size, top };
	return true;
}

/* The pages noted, but the top buffer's when they are walked in place. */
static bool noted_pages_ok(const struct layout *l, bool top_walked)
{
	size_t i;

	for (i = 0; i < l->later->n; i++) {
		const struct page_run *r = &l->later->runs[i];

		if (!(top_walked && r->top) && !pages_ok(l, l->p + r->off, r->size))
			return false;
	}
	return true;
}

/* ---- version 6 ---- */

static bool v6_layout_ok(struct layout *l)
{
	uint64_t i, cpus, n;

	walk_part(l, OPT_HEADER_INFO);
	walk_part(l, OPT_FTRACE_EVENTS);
	walk_part(l, OPT_EVENT_FORMATS);
	walk_part(l, OPT_KALLSYMS);
	walk_part(l, OPT_PRINTK);
	walk_part(l, OPT_CMDLINES);
	cpus = lay_u(l, 4);
	if (l->bad || cpus > 8192)
		return false;
	l->fly->meta.cpus = cpus;
	if (lay_take(l, 10) && memcmp(l->p + l->at - 10, "options  ", 10) == 0) {
		uint64_t id;

		while (!l->bad && (id = lay_u(l, 2)) != OPT_DONE) {
			const char *opt;

			note_option(l, (unsigned)id);
			opt = lay_sized(l, 4, &n);
			if (opt && id == OPT_CPUCOUNT && n >= 4) {
				uint32_t count;

				memcpy(&count, opt, 4);
				l->fly->meta.cpus = count;
			}
		}
		lay_take(l, 10);
	}
	if (l->bad || memcmp(l->p + l->at - 10, "flyrecord", 10) != 0)
		return false;	/* a latency trace: no events to read */
	for (i = 0; i < cpus && !l->bad; i++) {
		uint64_t off = lay_u(l, 8), size = lay_u(l, 8);

		if (!cpu_data_ok(l, off, size, true))
			return false;
		note_top_cpu(l, i, cpus, -1, off, size);
	}
	l->fly->top_seen = true;
	l->fly->page_size = l->page_size;
	return !l->bad;
}

/* ---- version 7 ---- */

/* The section an option points at: its header in the file, its part walked. */
static bool v7_section_ok(const struct layout *file, uint64_t off, int id)
{
	struct layout c = *file;
	uint16_t flags;
	uint64_t size;
	uint32_t n;

	if (!lay_within(file, off, 16))
		return false;
	memcpy(&flags, file->p + off + 2, 2);
	memcpy(&size, file->p + off + 8, 8);
	if (!lay_within(file, off + 16, size))
		return false;
	c.p = file->p + off + 16;
	c.size = size;
	c.at = 0;
	if (flags & 1) {	/* compressed */
		c.p = inflate_block(file, file->p + off + 16, size, &n);
		if (!c.p)
			return false;
		c.size = n;
	}
	walk_part(&c, id);
	return !c.bad;
}

/* A BUFFER option: its section and each of its CPUs' data. */
static bool v7_buffer_ok(const struct layout *file, struct layout *o, uint64_t end)
{
	uint64_t off = lay_u(o, 8), cpus, i, page_size;
	const char *name;
	bool top;

	if (!lay_within(file, off, 16))
		return false;
	name = lay_string(o);	/* the instance's name: "" the top buffer */
	lay_string(o);	/* its clock */
	page_size = lay_u(o, 4);
	cpus = lay_u(o, 4);
	top = name && !*name && !file->fly->top_seen && cpus <= 8192;
	for (i = 0; i < cpus && !o->bad && o->at <= end; i++) {
		uint64_t data_off, data_size, cpu;

		cpu = lay_u(o, 4);
		data_off = lay_u(o, 8);
		data_size = lay_u(o, 8);
		if (!o->bad && !cpu_data_ok(file, data_off, data_size, top))
			return false;
		if (top && !o->bad)
			note_top_cpu(file, i, cpus, (int64_t)cpu, data_off, data_size);
	}
	if (top && !o->bad) {
		file->fly->top_seen = true;
		file->fly->page_size = (uint32_t)page_size;
	}
	return true;
}

/*
 * One options section's options in o (the file itself, or the section
 * decompressed), from o->at on: libtracecmd reads them up to the DONE
 * option whatever size the section says, each option's size allocated
 * first, so each must fit in what is left. Sets *next to the next options
 * section, 0 at the last.
 */
static bool v7_options_ok(const struct layout *file, struct layout *o, uint64_t end,
			  uint64_t *next)
{
	*next = 0;
	while (!o->bad && o->at < end) {
		uint16_t id = (uint16_t)lay_u(o, 2);
		uint32_t len = (uint32_t)lay_u(o, 4);
		uint64_t opt = o->at;

		if (!lay_within(o, opt, len) || opt + len > end)
			return false;
		if (id == OPT_DONE) {
			*next = len >= 8 ? lay_u(o, 8) : 0;
			break;
		}
		note_option(file, id);
		if (id == OPT_CPUCOUNT && len >= 4)
			file->fly->meta.cpus = lay_u(o, 4);
		if (id >= OPT_HEADER_INFO && id <= OPT_CMDLINES && len >= 8 &&
		    !v7_section_ok(file, lay_u(o, 8), id))
			return false;
		if (id == OPT_BUFFER && len >= 8 && !v7_buffer_ok(file, o, opt + len))
			return false;
		o->at = opt + len;
	}
	return !o->bad;
}

/* A compressed options section: its block decompressed, then walked. */
static bool v7_compressed_options_ok(const struct layout *l, uint64_t at, uint64_t size,
				     uint64_t *next)
{
	struct layout o = *l;
	uint32_t n;

	o.p = inflate_block(l, l->p + at, size, &n);
	if (!o.p)
		return false;
	o.size = n;
	o.at = 0;
	return v7_options_ok(l, &o, n, next);
}

/*
 * libtracecmd first reads every section from the end of the file's header
 * on, one after another, for the strings sections (their descriptions):
 * a strings section's size, compressed or not, is allocated before it is
 * read, so each must be within the file and decompress to what it says.
 * The walk ends, as libtracecmd's, where no whole section header is left;
 * a size that sends it backwards (a negative offset) would make it loop.
 */
static bool v7_strings_ok(const struct layout *l, uint64_t at)
{
	uint32_t n;

	while (lay_within(l, at, 16)) {
		uint16_t id, flags;
		uint64_t size;

		memcpy(&id, l->p + at, 2);
		memcpy(&flags, l->p + at + 2, 2);
		memcpy(&size, l->p + at + 8, 8);
		if (id == OPT_STRINGS &&
		    (!lay_within(l, at + 16, size) || size > INFLATED_MAX ||
		     ((flags & 1) && !inflate_block(l, l->p + at + 16, size, &n))))
			return false;
		/* libtracecmd seeks by the size as a signed offset: past the end it
		 * stops, before the start its seek fails and it stops, but a walk
		 * sent back into the file reads the same headers again for ever */
		if ((int64_t)size < 0)
			return (int64_t)(at + 16) + (int64_t)size < 0;
		if (size > l->size)
			break;
		at += 16 + size;
	}
	return true;
}

/* The chain of options sections, and what their options point at. */
static bool v7_layout_ok(struct layout *l)
{
	uint64_t next, sections = 0;

	l->compression = lay_string(l);	/* the compression's name */
	lay_string(l);			/* and version */
	if (!l->compression)
		return false;
	next = lay_u(l, 8);
	if (l->bad || !v7_strings_ok(l, l->at))
		return false;
	while (next && !l->bad && sections++ < 1024) {
		uint64_t size;
		uint16_t flags;

		if (!lay_within(l, next, 16))
			return false;
		l->at = next;
		lay_u(l, 2);
		flags = (uint16_t)lay_u(l, 2);
		lay_u(l, 4);
		size = lay_u(l, 8);
		if (!lay_within(l, l->at, size))
			return false;
		if (!((flags & 1) ? v7_compressed_options_ok(l, l->at, size, &next)
				  : v7_options_ok(l, l, l->size, &next)))
			return false;
	}
	return !l->bad;
}

void dat_flyrecord_release(struct dat_flyrecord *fly)
{
	free(fly->offset);
	free(fly->size);
	free(fly->meta.formats);
	memset(fly, 0, sizeof(*fly));
}

enum dat_layout datlayout_check(int fd, int version, struct dat_flyrecord *fly)
{
	struct dat_flyrecord none;
	struct tepguard guard;
	struct layout l;
	struct stat st;
	enum dat_layout verdict = DAT_LAYOUT_DAMAGED;
	struct page_runs later = { NULL, 0, 0 };
	uint64_t long_byte;
	bool big_endian, walk = false;
	void *map;

	if (fstat(fd, &st) < 0 || st.st_size < 20)
		return DAT_LAYOUT_DAMAGED;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return DAT_LAYOUT_DAMAGED;
	memset(&l, 0, sizeof(l));
	l.p = map;
	l.map = map;
	l.map_size = (uint64_t)st.st_size;
	l.size = (uint64_t)st.st_size;
	l.at = 10;
	lay_string(&l);		/* the version */
	big_endian = lay_u(&l, 1) != 0;	/* only little is read */
	long_byte = lay_u(&l, 1);
	l.long_size = long_byte == 4 ? 4 : 8;
	l.page_size = (uint32_t)lay_u(&l, 4);
	l.compression = "none";
	tepguard_init(&guard, (int)l.long_size);
	l.guard = &guard;
	if (!fly)
		fly = &none;
	memset(fly, 0, sizeof(*fly));
	l.fly = fly;
	l.later = &later;
	if (!l.bad && (version == 6 ? v6_layout_ok(&l) : v7_layout_ok(&l))) {
		walk = fly != &none && fly->top_seen && !fly->ts_changed &&
		       strcmp(l.compression, "none") == 0 && fly->page_size >= 64 &&
		       fly->page_size == l.page_size && fly->meta.has_header_page &&
		       !fly->meta.repeated && !big_endian && (long_byte == 4 || long_byte == 8);
		verdict = !noted_pages_ok(&l, walk) ? DAT_LAYOUT_DAMAGED
			: !tepguard_formats_survive(&guard) ? DAT_FORMATS_CRASH
			: !tepguard_header_page_agrees(&guard) ? DAT_HEADER_PAGE_BAD : DAT_LAYOUT_OK;
	}
	tepguard_release(&guard);
	free(later.runs);
	fly->long_size = l.long_size;
	fly->walkable = verdict == DAT_LAYOUT_OK && walk;
	munmap(map, (size_t)st.st_size);	/* l.compression pointed into it */
	if (fly == &none || verdict != DAT_LAYOUT_OK)
		dat_flyrecord_release(fly);	/* nothing to walk */
	return verdict;
}
