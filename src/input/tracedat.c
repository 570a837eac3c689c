/*
 * tracedat.c - trace-cmd's trace.dat read into kmem events (binread.h),
 * through libtracecmd (the file's sections, compressed or not, its
 * per-CPU pages merged in timestamp order, as trace-cmd report merges
 * them) and libtraceevent (the event formats and kallsyms inside it).
 *
 * Each record is decoded by tepkmem.h, kernel_stack records paired with
 * their events by recpair.h; lost events (a page that says events were
 * dropped before it) become lost-event markers, as trace-cmd report's
 * "CPU:N [M EVENTS DROPPED]" lines. Line numbers are those of trace-cmd
 * report's text: "cpus=N" first, a line per record, one more per frame of
 * a stack and per marker. Not here: what the events mean.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <zlib.h>
#include <zstd.h>

#include "binread.h"
#include "recpair.h"
#include "tepkmem.h"

struct tracedat_read {
	const struct binread_config *cfg;
	struct read_result *out;
	struct binread_facts *facts;
	struct tepkmem k;
	struct recpair pair;
	uint64_t line;
	uint64_t by_kallsyms, by_map;	/* addresses named by the file's kallsyms, by the user's */
	struct symbol_table file_syms;	/* the file's kallsyms (see tep_parse_kallsyms) */
};

/*
 * Opening a trace.dat, libtracecmd hands libtraceevent the format of every
 * event the recording machine had (2,000 of 101 systems on a 6.18 host)
 * and its whole kallsyms (5 MB): parsing them is 80% of the time of
 * reading a 10 MB kmem capture, for a few formats and a few hundred
 * addresses. So this program defines tep_parse_event() and
 * tep_parse_kallsyms() itself (the dynamic linker binds libtracecmd's
 * calls to the executable's symbols): while tracedat_read opens a file on
 * this thread, only the formats of the kmem and ftrace systems are parsed
 * (records of other events are passed over as the text's other lines are),
 * and the kallsyms text goes to symbols.c, read with libtraceevent's rule
 * among aliases so that names are trace-cmd report's. Any other caller, or
 * this one outside an open, gets the library's own functions.
 */
static __thread struct symbol_table *opening;	/* the file's kallsyms go here */

static void *library_function(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	enum tep_errno (*parse)(struct tep_handle *, const char *, unsigned long, const char *);

	if (opening && sys && strcmp(sys, "kmem") != 0 && strcmp(sys, "ftrace") != 0)
		return TEP_ERRNO__SUCCESS;
	parse = (enum tep_errno (*)(struct tep_handle *, const char *, unsigned long,
				    const char *))library_function("tep_parse_event");
	return parse ? parse(tep, buf, size, sys) : TEP_ERRNO__MEM_ALLOC_FAILED;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	int (*parse)(struct tep_handle *, const char *);
	struct ta_error ignored;

	if (opening) {
		symbols_release(opening);
		if (symbols_parse_tep_kallsyms(opening, kallsyms, strlen(kallsyms), "kallsyms",
					       &ignored) < 0)
			symbols_release(opening);
		return 0;
	}
	parse = (int (*)(struct tep_handle *, const char *))library_function("tep_parse_kallsyms");
	return parse ? parse(tep, kallsyms) : -1;
}

/* Functions from the file's kallsyms first, then the symbols the user gave. */
static const char *resolve(void *ctx, uint64_t addr, uint64_t *start)
{
	struct tracedat_read *r = ctx;
	const struct ksym *s;

	if (r->file_syms.count && (s = symbols_lookup(&r->file_syms, addr))) {
		*start = s->addr;
		r->by_kallsyms++;
		return ksym_name(&r->file_syms, s);
	}
	if (r->cfg->syms && r->cfg->syms->count && (s = symbols_lookup(r->cfg->syms, addr))) {
		*start = s->addr;
		r->by_map++;
		return ksym_name(r->cfg->syms, s);
	}
	if (r->cfg->kallsyms && (s = symbols_lookup(r->cfg->kallsyms, addr))) {
		*start = s->addr;
		r->by_map++;
		return ksym_name(r->cfg->kallsyms, s);
	}
	return NULL;
}

static void emit(void *ctx, const struct kmem_event *ev)
{
	struct tracedat_read *r = ctx;

	r->cfg->on_event(r->cfg->ctx, ev);
}

static void lost_marker(struct tracedat_read *r, int cpu, long long missed)
{
	struct kmem_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = KMEM_LOST_EVENTS;
	ev.line = ++r->line;
	ev.call_site = ev.cache = ev.gfp = ev.comm = STR_NONE;
	ev.stack = STACK_NONE;
	ev.pid = -1;
	ev.cpu = cpu;
	ev.node = NODE_ABSENT;
	ev.order = ev.migratetype = ev.fallback_order = ev.fallback_migratetype = -1;
	ev.percpu_refill = ev.change_ownership = -1;
	ev.pfn = missed > 0 ? (uint64_t)missed : 0;
	r->out->stats.events[KMEM_LOST_EVENTS]++;
	r->out->stats.lost_events += ev.pfn;
	recpair_event(&r->pair, &ev);
}

static int take_record(struct tracecmd_input *handle, struct tep_record *rec, int cpu, void *ctx)
{
	struct tracedat_read *r = ctx;
	struct parse_stats *st = &r->out->stats;
	struct kmem_event ev;
	const uint32_t *frames;
	uint32_t n;

	(void)handle;
	rec->cpu = cpu;
	if (r->cfg->usec_timestamps)
		rec->ts = (rec->ts + 500) / 1000 * 1000;	/* trace-cmd report rounds */
	if (rec->missed_events)
		lost_marker(r, cpu, rec->missed_events);
	r->facts->records++;
	r->line++;
	st->lines++;
	switch (tepkmem_decode(&r->k, rec, &ev)) {
	case TEPKMEM_EVENT:
		ev.line = r->line;
		st->events[ev.kind]++;
		if (kmem_is_page(ev.kind) && !(r->cfg->want & WANT_PAGE))
			recpair_other(&r->pair, cpu);	/* as the text parser passes them over */
		else
			recpair_event(&r->pair, &ev);
		break;
	case TEPKMEM_STACK:
		frames = tepkmem_stack(&r->k, &n);
		st->stack_lines += 1 + n;
		st->lines += n;
		r->line += n;
		recpair_stack(&r->pair, cpu, frames, n);
		break;
	case TEPKMEM_MALFORMED:
		st->malformed++;
		if (!r->out->first_malformed_line)
			r->out->first_malformed_line = r->line;
		recpair_other(&r->pair, cpu);
		break;
	default:
		st->other_events++;
		recpair_other(&r->pair, cpu);
		break;
	}
	return 0;
}

/* ---- the file's layout, checked before libtracecmd reads it ---- */

/*
 * libtracecmd trusts the sizes and offsets a trace.dat gives and can crash
 * on a damaged one (3.1 dereferences a half-made handle when an open
 * fails), so the layout is walked first: every size within the file, every
 * section and CPU's data where the file has it. What is inside the
 * sections (the formats' text, the pages) is the libraries' to read, but
 * for each CPU's first page: libtracecmd 3.1 reads it while opening and,
 * when it is bad, closes a handle whose later CPUs are not set up yet.
 */
struct layout {
	const unsigned char *p;
	uint64_t size, at;
	bool bad;
	uint32_t page_size;
	unsigned long_size;
	const char *compression;	/* v7: "none", "zstd", "zlib" */
};

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

static void lay_string(struct layout *l)
{
	const unsigned char *nul = l->bad ? NULL : memchr(l->p + l->at, '\0', l->size - l->at);

	if (!nul)
		l->bad = true;
	else
		l->at = (uint64_t)(nul - l->p) + 1;
}

static bool lay_within(const struct layout *l, uint64_t off, uint64_t n)
{
	return off <= l->size && n <= l->size - off;
}

/* Where the kernel's ring-buffer page header says the page's data ends. */
static bool page_header_ok(const struct layout *l, const unsigned char *page, uint64_t n)
{
	uint64_t commit = 0;

	if (n < 8 + l->long_size)
		return false;
	memcpy(&commit, page + 8, l->long_size);
	return (commit & ((1u << 27) - 1)) <= l->page_size;
}

/* A CPU's data stored as it is: its first page. */
static bool first_page_ok(const struct layout *l, uint64_t off, uint64_t size)
{
	return page_header_ok(l, l->p + off, size);
}

static bool inflate_chunk(const char *compression, const unsigned char *in, uint32_t n_in,
			  unsigned char *out, uint32_t n_out)
{
	if (strcmp(compression, "zstd") == 0)
		return !ZSTD_isError(ZSTD_decompress(out, n_out, in, n_in));
	if (strcmp(compression, "zlib") == 0) {
		uLongf got = n_out;

		return uncompress(out, &got, in, n_in) == Z_OK;
	}
	return false;	/* libtracecmd refuses what it cannot decompress */
}

/* A CPU's data in compressed chunks: every chunk in the file, the first one's first page. */
static bool first_chunk_ok(const struct layout *l, uint64_t off, uint64_t size)
{
	const unsigned char *p = l->p + off;
	uint32_t count, zsize, rsize, i;
	uint64_t at = 4;
	unsigned char *page;
	bool ok;

	if (size < 4)
		return false;
	memcpy(&count, p, 4);
	for (i = 0; i < count; i++) {
		if (l->size - off - at < 8)
			return false;
		memcpy(&zsize, p + at, 4);
		at += 8 + (uint64_t)zsize;
		if (at > l->size - off)
			return false;
	}
	if (!count)
		return true;
	memcpy(&zsize, p + 4, 4);
	memcpy(&rsize, p + 8, 4);
	if (rsize < 16 || rsize > (64u << 20))
		return false;
	page = xmalloc(rsize);
	ok = inflate_chunk(l->compression, p + 12, zsize, page, rsize) &&
	     page_header_ok(l, page, rsize);
	free(page);
	return ok;
}

/* Version 6: the header's parts one after the other, then each CPU's data. */
static bool v6_layout_ok(struct layout *l)
{
	uint64_t i, n, cpus;

	for (i = 0; i < 2; i++) {	/* header_page, header_event */
		lay_string(l);
		lay_take(l, lay_u(l, 8));
	}
	n = lay_u(l, 4);		/* ftrace formats */
	for (i = 0; i < n && !l->bad; i++)
		lay_take(l, lay_u(l, 8));
	n = lay_u(l, 4);		/* event systems */
	for (i = 0; i < n && !l->bad; i++) {
		uint64_t j, events;

		lay_string(l);
		events = lay_u(l, 4);
		for (j = 0; j < events && !l->bad; j++)
			lay_take(l, lay_u(l, 8));
	}
	lay_take(l, lay_u(l, 4));	/* kallsyms */
	lay_take(l, lay_u(l, 4));	/* printk formats */
	lay_take(l, lay_u(l, 8));	/* cmdlines */
	cpus = lay_u(l, 4);
	if (l->bad || cpus > 8192)
		return false;
	if (lay_take(l, 10) && memcmp(l->p + l->at - 10, "options  ", 10) == 0) {
		uint16_t id;

		while (!l->bad && (id = (uint16_t)lay_u(l, 2)) != 0)
			lay_take(l, lay_u(l, 4));
		lay_take(l, 10);
	}
	if (l->bad || memcmp(l->p + l->at - 10, "flyrecord", 10) != 0)
		return false;	/* a latency trace: no events to read */
	for (i = 0; i < cpus && !l->bad; i++) {
		uint64_t off = lay_u(l, 8), size = lay_u(l, 8);

		if (size && (!lay_within(l, off, size) || !first_page_ok(l, off, size)))
			return false;
	}
	return !l->bad;
}

/*
 * Version 7: one options section's options in o (the file itself, or the
 * section decompressed), from o->at to end; the offsets they give are
 * checked in the file. Sets *next to the next options section, 0 at the last.
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
		if (id == 0) {	/* DONE: the next options section */
			*next = len >= 8 ? lay_u(o, 8) : 0;
			break;
		}
		if (id >= 16 && id <= 21 && len >= 8 &&
		    !lay_within(file, lay_u(o, 8), 16))	/* a section's header */
			return false;
		if (id == 3 && len >= 8) {	/* BUFFER: its CPUs' data */
			uint64_t off = lay_u(o, 8), cpus, i;

			if (!lay_within(file, off, 16))
				return false;
			lay_string(o);
			lay_string(o);
			lay_u(o, 4);
			cpus = lay_u(o, 4);
			for (i = 0; i < cpus && !o->bad && o->at <= opt + len; i++) {
				uint64_t data_off, data_size;

				lay_u(o, 4);
				data_off = lay_u(o, 8);
				data_size = lay_u(o, 8);
				if (!data_size || o->bad)
					continue;
				if (!lay_within(file, data_off, data_size))
					return false;
				if (!(strcmp(file->compression, "none") == 0
				      ? first_page_ok(file, data_off, data_size)
				      : first_chunk_ok(file, data_off, data_size)))
					return false;
			}
		}
		o->at = opt + len;
	}
	return !o->bad;
}

/* A compressed options section: its block decompressed, then walked. */
static bool v7_compressed_options_ok(const struct layout *l, uint64_t at, uint64_t size,
				     uint64_t *next)
{
	struct layout o;
	uint32_t zsize, rsize;
	unsigned char *buf;
	bool ok;

	if (size < 8)
		return false;
	memcpy(&zsize, l->p + at, 4);
	memcpy(&rsize, l->p + at + 4, 4);
	if (zsize > size - 8 || rsize > (64u << 20))
		return false;
	buf = xmalloc(rsize ? rsize : 1);
	ok = inflate_chunk(l->compression, l->p + at + 8, zsize, buf, rsize);
	if (ok) {
		o = *l;
		o.p = buf;
		o.size = rsize;
		o.at = 0;
		ok = v7_options_ok(l, &o, rsize, next);
	}
	free(buf);
	return ok;
}

/* Version 7: the chain of options sections, and what their options point at. */
static bool v7_layout_ok(struct layout *l)
{
	uint64_t next, sections = 0;

	l->compression = (const char *)l->p + l->at;
	lay_string(l);	/* compression name */
	lay_string(l);	/* and version */
	next = lay_u(l, 8);
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
				  : v7_options_ok(l, l, l->at + size, &next)))
			return false;
	}
	return !l->bad;
}

static bool layout_ok(int fd, int version)
{
	struct stat st;
	struct layout l;
	void *map;
	bool ok;

	if (fstat(fd, &st) < 0 || st.st_size < 20)
		return false;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return false;
	l.p = map;
	l.size = (uint64_t)st.st_size;
	l.at = 10;
	l.bad = false;
	lay_string(&l);		/* the version */
	lay_u(&l, 1);		/* endian: only little is read */
	l.long_size = lay_u(&l, 1) == 4 ? 4 : 8;
	l.page_size = (uint32_t)lay_u(&l, 4);
	l.compression = "none";
	ok = !l.bad && (version == 6 ? v6_layout_ok(&l) : v7_layout_ok(&l));
	munmap(map, (size_t)st.st_size);
	return ok;
}

int tracedat_read(int fd, const struct binread_config *cfg, struct read_result *out,
		  struct binread_facts *facts, struct ta_error *err);

int tracedat_read(int fd, const struct binread_config *cfg, struct read_result *out,
		  struct binread_facts *facts, struct ta_error *err)
{
	struct tracedat_read r;
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	int dup_fd = dup(fd), rc;

	if (dup_fd < 0)
		return error_set_errno(err, errno, "cannot read '%s'", cfg->name);
	if (!layout_ok(fd, facts->version)) {
		close(dup_fd);
		return error_set(err, "'%s' is a damaged or cut trace.dat: its sections or CPU data "
				 "are not where its header says or are damaged", cfg->name);
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	lseek(dup_fd, 0, SEEK_SET);
	memset(&r, 0, sizeof(r));
	symbols_init(&r.file_syms);
	opening = &r.file_syms;
	handle = tracecmd_open_fd(dup_fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	opening = NULL;
	if (!handle) {
		symbols_release(&r.file_syms);
		close(dup_fd);
		return error_set(err, "'%s' is a trace.dat that libtracecmd cannot open: damaged, "
				 "cut short, or of a version it does not read", cfg->name);
	}
	tep = tracecmd_get_tep(handle);
	r.cfg = cfg;
	r.out = out;
	r.facts = facts;
	tepkmem_init(&r.k, tep, cfg->strings, cfg->want, resolve, &r);
	recpair_init(&r.pair, cfg->strings, &out->stats.stacks, (cfg->want & WANT_STACK) != 0,
		     emit, &r);
	out->header.cpus = tep_get_cpus(tep);
	r.line = 1;	/* trace-cmd report's "cpus=N" */
	out->stats.lines = 1;
	out->stats.header_lines = out->stats.trace_headers = 1;
	rc = tracecmd_iterate_events(handle, NULL, 0, take_record, &r);
	recpair_flush(&r.pair);
	facts->symbols_from = r.by_kallsyms ? "the file's kallsyms"
			      : r.by_map ? cfg->syms->path : NULL;
	recpair_release(&r.pair);
	tepkmem_release(&r.k);
	tracecmd_close(handle);
	symbols_release(&r.file_syms);
	if (rc < 0)
		return error_set(err, "'%s': libtracecmd could not read its events to the end "
				 "(a damaged or cut trace.dat)", cfg->name);
	return 0;
}
