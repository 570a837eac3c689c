/*
 * perfdata.c - perf's perf.data (file mode) read into kmem events
 * (binread.h), by its documented layout (tools/perf/Documentation/
 * perf.data-file-format.txt): the header, the attrs with their
 * sample_type and sample ids, the records of the data section, and the
 * features after it, of which HEADER_TRACING_DATA holds the event formats
 * (parsed with libtraceevent), HEADER_OSRELEASE and HEADER_BUILD_ID say
 * which kernel it was recorded on, HEADER_NRCPUS its CPUs.
 *
 * Records come in the order perf script gives them: queued by timestamp
 * and flushed at each PERF_RECORD_FINISHED_ROUND up to the latest time of
 * the round before, as perf's ordered events are. A sample's
 * PERF_SAMPLE_RAW is a tracepoint record, decoded by tepkmem.h; its
 * PERF_SAMPLE_CALLCHAIN the stack (kernel frames after PERF_CONTEXT_KERNEL;
 * user frames, after PERF_CONTEXT_USER, only with --user-frames, named by
 * the mapping that holds them, "[libc.so.6]"). Task names are perf's: the
 * thread's comm as PERF_RECORD_COMM and _FORK set it by then, ":TID" for
 * a thread never named. Line numbers are perf script's: one per sample,
 * and with a callchain one per frame and a blank line.
 *
 * Compressed records (perf record -z: PERF_RECORD_COMPRESSED, zstd) are
 * decompressed first, the whole data section into an unnamed file that is
 * then read as the data section is.
 *
 * The file is mapped and every offset and length checked against it: a
 * damaged or cut file is refused with a message. Big-endian and 32-bit
 * recordings are refused, saying so. Not here: what the events mean.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <tracefs.h>

#include <zstd.h>

#include "bigmem.h"
#include "binread.h"
#include "scratch.h"
#include "text_stacks.h"
#include "tepguard.h"
#include "tepkmem.h"
#include "tracelib.h"
#include "ziplib.h"

/* perf_event.h's, spelled here (the kernel's uapi header is not a build dependency) */
#define RELEASE_AT_ONCE (16u << 20)	/* bytes of read records given back at a time */

#define SAMPLE_IP		(1ull << 0)
#define SAMPLE_TID		(1ull << 1)
#define SAMPLE_TIME		(1ull << 2)
#define SAMPLE_ADDR		(1ull << 3)
#define SAMPLE_READ		(1ull << 4)
#define SAMPLE_CALLCHAIN	(1ull << 5)
#define SAMPLE_ID		(1ull << 6)
#define SAMPLE_CPU		(1ull << 7)
#define SAMPLE_PERIOD		(1ull << 8)
#define SAMPLE_STREAM_ID	(1ull << 9)
#define SAMPLE_RAW		(1ull << 10)
#define SAMPLE_IDENTIFIER	(1ull << 16)

#define FORMAT_TOTAL_TIME_ENABLED	(1ull << 0)
#define FORMAT_TOTAL_TIME_RUNNING	(1ull << 1)
#define FORMAT_ID			(1ull << 2)
#define FORMAT_GROUP			(1ull << 3)
#define FORMAT_LOST			(1ull << 4)

#define CONTEXT_HV		((uint64_t)-32)
#define CONTEXT_KERNEL		((uint64_t)-128)
#define CONTEXT_USER		((uint64_t)-512)
#define CONTEXT_GUEST		((uint64_t)-2048)
#define CONTEXT_GUEST_KERNEL	((uint64_t)-2176)
#define CONTEXT_GUEST_USER	((uint64_t)-2560)
#define CONTEXT_MAX		((uint64_t)-4095)

enum {
	REC_MMAP = 1, REC_LOST = 2, REC_COMM = 3, REC_EXIT = 4, REC_FORK = 7, REC_SAMPLE = 9,
	REC_MMAP2 = 10, REC_LOST_SAMPLES = 13, REC_HEADER_ATTR = 64, REC_HEADER_TRACING_DATA = 66,
	REC_FINISHED_ROUND = 68, REC_HEADER_FEATURE = 80, REC_COMPRESSED = 81, REC_COMPRESSED2 = 83,
};

enum {
	FEAT_TRACING_DATA = 1, FEAT_BUILD_ID = 2, FEAT_OSRELEASE = 4, FEAT_NRCPUS = 7,
	FEAT_COMPRESSED = 27, FEAT_BITS = 256,
};

#define TYPE_TRACEPOINT 2
#define ATTR_SAMPLE_ID_ALL (1ull << 18)
#define MAX_ATTRS 4096

struct section {
	uint64_t offset, size;
};

struct attr {
	uint32_t type;
	uint64_t config, sample_type, read_format, flags;
	const uint64_t *ids;
	uint64_t nids;
};

/* A sample id and the attr it belongs to: the index attr_of_id searches. */
struct id_attr {
	uint64_t id;
	uint32_t attr;		/* the first attr listing it, as the scan found it */
};

/* A record queued until its time comes. */
struct queued {
	uint64_t ts;
	uint64_t seq;		/* file order, for ties */
	uint64_t offset;	/* of the record in the file */
};

/* What perf calls a thread: its comm, by tid. */
struct thread_name {
	int32_t tid;		/* any value: perf writes -1 for "unknown" */
	uint32_t comm;		/* id in the comms table */
	bool used;
};

/* A user mapping, for naming user frames with --user-frames. */
struct mapping {
	int32_t pid;
	uint64_t start, end;
	uint32_t name;		/* frame id: "[libc.so.6]" */
};

struct perf_read {
	const struct binread_config *cfg;
	struct read_result *out;
	struct binread_facts *facts;
	const unsigned char *map;
	uint64_t size;
	struct section data;
	struct attr *attrs;
	uint32_t nattrs;
	struct id_attr *by_id;	/* every attr's sample ids, sorted */
	uint64_t nby_id;
	uint32_t *attr_at;	/* ids close together: 1 + the attr of id id_base + i, 0 none */
	uint64_t id_base, id_span;
	uint64_t id_all_type;	/* the sample_type of the sample_id trailer of other records */
	struct tep_handle *tep;
	struct tepkmem k;
	struct symbol_table running;	/* /proc/kallsyms, when it is the file's kernel */
	/* /proc/kallsyms: NONE when not the file's kernel's, or unreadable */
	enum { RUNNING_NONE, RUNNING_NOT_READ, RUNNING_READ } running_state;
	uint64_t by_map, by_kallsyms, by_running;
	struct queued *q, *q_spare;	/* the queue; room to merge it into */
	size_t nq, qcap;
	uint64_t seq, next_flush, max_ts;
	uint64_t released;		/* the mapping's bytes up to here were given back */
	struct thread_name *threads;	/* open addressing by tid */
	uint32_t nthreads, threads_cap;
	struct mapping *maps;
	size_t nmaps, maps_cap;
	uint32_t *frames;
	uint32_t frames_cap;
	uint64_t line;
	uint32_t user_mark;		/* USER_FRAMES_MARK's frame id */
	char err_msg[512];
	bool failed;
	bool pipe;		/* pipe mode (perf record -o -): attributes and formats in records */
	struct section pipe_formats;	/* its HEADER_TRACING_DATA's data */
	const unsigned char *file_map;	/* the file, when map is its records decompressed */
	uint64_t file_size;
	uint64_t compressed_records;
	bool salvaging;		/* --salvage of an unfinished file: no formats, no data size */
};

/* ---- bounds-checked reads of the mapped file ---- */

static bool in_file(const struct perf_read *r, uint64_t off, uint64_t len)
{
	return off <= r->size && len <= r->size - off;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void fail(struct perf_read *r, const char *what)
{
	if (!r->failed)
		snprintf(r->err_msg, sizeof(r->err_msg), "%s", what);
	r->failed = true;
}

/* ---- features ---- */

static bool feature(const struct perf_read *r, const uint64_t *bits, int bit,
		    struct section *out)
{
	uint64_t at = r->data.offset + r->data.size;
	int b;

	if (!(bits[bit / 64] >> (bit % 64) & 1))
		return false;
	for (b = 0; b < bit; b++)
		if (bits[b / 64] >> (b % 64) & 1)
			at += sizeof(struct section);
	if (!in_file(r, at, sizeof(struct section)))
		return false;
	out->offset = u64_at(r->map + at);
	out->size = u64_at(r->map + at + 8);
	return in_file(r, out->offset, out->size);
}

/* A perf header string: u32 length, then the string padded with NULs. */
static bool feature_string(const struct perf_read *r, const struct section *s, char *out,
			   size_t cap)
{
	uint32_t len;

	if (s->size < 4)
		return false;
	len = u32_at(r->map + s->offset);
	if (len > s->size - 4)
		return false;
	snprintf(out, cap, "%.*s", (int)strnlen((const char *)r->map + s->offset + 4, len),
		 (const char *)r->map + s->offset + 4);
	return true;
}

/* ---- the tracing data: event formats for libtraceevent ---- */

struct cursor {
	const unsigned char *p, *end;
	bool bad;
};

static const unsigned char *take(struct cursor *c, uint64_t n)
{
	const unsigned char *at = c->p;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return at;
}

static uint64_t take_u64(struct cursor *c)
{
	const unsigned char *p = take(c, 8);

	return p ? u64_at(p) : 0;
}

static uint32_t take_u32(struct cursor *c)
{
	const unsigned char *p = take(c, 4);

	return p ? u32_at(p) : 0;
}

static const char *take_string(struct cursor *c)
{
	const unsigned char *nul = c->bad ? NULL : memchr(c->p, '\0', (size_t)(c->end - c->p));

	if (!nul) {
		c->bad = true;
		return NULL;
	}
	return (const char *)take(c, (uint64_t)(nul - c->p) + 1);
}

static int parse_tracing_data(struct perf_read *r, const struct section *s, struct ta_error *err)
{
	struct cursor c = { r->map + s->offset, r->map + s->offset + s->size, false };
	const unsigned char *magic = take(&c, 10);
	const char *version, *label;
	unsigned char endian, long_size;
	uint32_t page_size, n, i, systems;
	uint64_t size;
	struct tepguard guard;
	int parsed = 0;

	if (!magic || memcmp(magic, TRACEDAT_MAGIC, 10) != 0)
		return error_set(err, "'%s': its event formats (HEADER_TRACING_DATA) are damaged",
				 r->cfg->name);
	version = take_string(&c);
	endian = take(&c, 1) ? c.p[-1] : 0;
	long_size = take(&c, 1) ? c.p[-1] : 0;
	page_size = take_u32(&c);
	if (c.bad || !version)
		return error_set(err, "'%s': its event formats (HEADER_TRACING_DATA) are cut short",
				 r->cfg->name);
	if (endian != 0)
		return error_set(err, "'%s' was recorded on a big-endian machine: only little-endian "
				 "perf.data files are read", r->cfg->name);
	if (long_size != 8)
		return error_set(err, "'%s' was recorded on a %d-bit kernel: only 64-bit "
				 "recordings are read", r->cfg->name, long_size * 8);
	tep_set_file_bigendian(r->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(r->tep, long_size);
	tep_set_page_size(r->tep, (int)page_size);
	tepguard_init(&guard, long_size);
	label = take_string(&c);	/* "header_page" */
	size = take_u64(&c);
	if (!label || c.bad || !take(&c, size)) {
		tepguard_release(&guard);
		return error_set(err, "'%s': its ring buffer page format is damaged", r->cfg->name);
	}
	tepguard_header_page(&guard, (const char *)c.p - size, size);
	label = take_string(&c);	/* "header_event" */
	size = take_u64(&c);
	if (!label || c.bad || !take(&c, size)) {
		tepguard_release(&guard);
		return error_set(err, "'%s': its event header format is damaged", r->cfg->name);
	}
	n = take_u32(&c);	/* ftrace's own formats */
	for (i = 0; i < n && !c.bad; i++) {
		size = take_u64(&c);
		if (take(&c, size))
			tepguard_add(&guard, (const char *)c.p - size, size, "ftrace");
	}
	systems = take_u32(&c);
	for (i = 0; i < systems && !c.bad; i++) {
		const char *sys = take_string(&c);
		uint32_t j, events = take_u32(&c);

		for (j = 0; j < events && !c.bad && sys; j++) {
			size = take_u64(&c);
			if (take(&c, size))
				tepguard_add(&guard, (const char *)c.p - size, size, sys);
		}
	}
	if (c.bad) {
		tepguard_release(&guard);
		return error_set(err, "'%s': its event formats (HEADER_TRACING_DATA) are cut short",
				 r->cfg->name);
	}
	if (!tepguard_formats_survive(&guard)) {
		tepguard_release(&guard);
		return error_set(err, "'%s' is a damaged perf.data: its event formats make "
				 "libtraceevent crash", r->cfg->name);
	}
	if (tep_parse_header_page(r->tep, (char *)guard.header_page, guard.header_page_len,
				  long_size) != 0) {
		tepguard_release(&guard);
		return error_set(err, "'%s': its ring buffer page format is damaged", r->cfg->name);
	}
	for (i = 0; i < guard.n; i++)
		if (tep_parse_event(r->tep, guard.formats[i].text, guard.formats[i].len,
				    guard.formats[i].system) == 0 &&
		    strcmp(guard.formats[i].system, "ftrace") != 0)
			parsed++;
	tepguard_release(&guard);
	if (!parsed)
		return error_set(err, "'%s' holds no event format: was it recorded with tracepoints "
				 "(perf record -e 'kmem:*')?", r->cfg->name);
	return 0;
}

/* ---- the kernel it was recorded on ---- */

/* The running kernel's GNU build-id, from /sys/kernel/notes; false if unknown. */
static bool running_build_id(unsigned char *id, size_t *len)
{
	unsigned char notes[4096];
	FILE *f = fopen("/sys/kernel/notes", "re");
	size_t n = f ? fread(notes, 1, sizeof(notes), f) : 0, at = 0;

	if (f)
		fclose(f);
	while (at + 12 <= n) {
		uint32_t namesz = u32_at(notes + at), descsz = u32_at(notes + at + 4),
			 type = u32_at(notes + at + 8);
		size_t name_at = at + 12, desc_at = name_at + ((namesz + 3) & ~3u);

		if (desc_at + descsz > n)
			break;
		if (type == 3 && namesz == 4 && memcmp(notes + name_at, "GNU", 4) == 0 &&
		    descsz <= 20) {
			memcpy(id, notes + desc_at, descsz);
			*len = descsz;
			return true;
		}
		at = desc_at + ((descsz + 3) & ~3u);
	}
	return false;
}

/* The build-id the file records for [kernel.kallsyms]; false if none. */
static bool file_kernel_build_id(const struct perf_read *r, const struct section *s,
				 unsigned char *id, size_t *len)
{
	uint64_t at = s->offset, end = s->offset + s->size;

	while (at + 8 <= end) {
		uint16_t size;

		memcpy(&size, r->map + at + 6, 2);
		if (size < 8 + 4 + 24 || at + size > end)
			break;
		/* header, pid, build_id[20] + 4 (size byte, padding), filename */
		if (strncmp((const char *)r->map + at + 8 + 4 + 24, "[kernel.kallsyms]",
			    (size_t)size - 36) == 0) {
			uint8_t n = r->map[at + 8 + 4 + 20];

			*len = n && n <= 20 ? n : 20;
			memcpy(id, r->map + at + 8 + 4, *len);
			return true;
		}
		at += size;
	}
	return false;
}

/*
 * /proc/kallsyms names this kernel's functions: used only when the file
 * was recorded on it (HEADER_OSRELEASE, and the build-id when both have
 * one); otherwise a note says why not. It is read when an address first
 * needs it: the kernel takes 30-40 ms to write it out, wasted when -k or
 * --kallsyms names every address.
 */
static void note_running_kernel(struct perf_read *r, const uint64_t *bits)
{
	struct section s;
	struct utsname u;
	unsigned char fid[20], rid[20];
	size_t flen = 0, rlen = 0;

	r->running_state = RUNNING_NONE;
	if (!r->cfg->running_kallsyms || uname(&u) != 0)
		return;
	/* a salvaged file's events are the running kernel's (its ids matched) */
	if (!r->salvaging &&
	    (!r->facts->os_release[0] || strcmp(r->facts->os_release, u.release) != 0))
		return;
	if (feature(r, bits, FEAT_BUILD_ID, &s) && file_kernel_build_id(r, &s, fid, &flen) &&
	    running_build_id(rid, &rlen) && (flen != rlen || memcmp(fid, rid, flen) != 0))
		return;
	r->running_state = RUNNING_NOT_READ;
}

static void read_running_kallsyms(struct perf_read *r)
{
	struct ta_error ignored;

	symbols_init(&r->running);
	if (symbols_load_kallsyms(&r->running, "/proc/kallsyms", &ignored) == 0 &&
	    r->running.count > 1 && r->running.syms[r->running.count - 1].addr != 0) {
		r->running_state = RUNNING_READ;
		/* where each module lies: none of its names past its code */
		(void)symbols_load_modules(&r->running, "/proc/modules", &ignored);
	} else {
		symbols_release(&r->running);
		r->running_state = RUNNING_NONE;
	}
}

/* ---- symbols ---- */

static const char *lookup(const struct symbol_table *t, uint64_t addr, uint64_t *start,
			  const char **module)
{
	const struct ksym *s = t && t->count ? symbols_lookup(t, addr) : NULL;

	if (!s)
		return NULL;
	*start = s->addr;
	*module = ksym_module(t, s);
	return ksym_name(t, s);
}

/* -k/System.map, then --kallsyms, then /proc/kallsyms when it is the file's kernel. */
static const char *resolve(void *ctx, uint64_t addr, uint64_t *start, const char **module)
{
	struct perf_read *r = ctx;
	const char *fn;

	if ((fn = lookup(r->cfg->syms, addr, start, module))) {
		r->by_map++;
		return fn;
	}
	if ((fn = lookup(r->cfg->kallsyms, addr, start, module))) {
		r->by_kallsyms++;
		return fn;
	}
	if (r->running_state == RUNNING_NOT_READ)
		read_running_kallsyms(r);
	if (r->running_state == RUNNING_READ && (fn = lookup(&r->running, addr, start, module))) {
		r->by_running++;
		return fn;
	}
	return NULL;
}

/* ---- attrs ---- */

static int read_attrs(struct perf_read *r, uint64_t attr_size, const struct section *s,
		      struct ta_error *err)
{
	uint64_t i, n;

	if (attr_size < 64 + 16 || attr_size > 4096 || s->size % attr_size ||
	    !in_file(r, s->offset, s->size))
		return error_set(err, "'%s': its event attributes are damaged", r->cfg->name);
	n = s->size / attr_size;
	if (n == 0 || n > MAX_ATTRS)
		return error_set(err, "'%s' has %llu event attributes", r->cfg->name,
				 (unsigned long long)n);
	r->attrs = xcalloc(n, sizeof(*r->attrs));
	r->nattrs = (uint32_t)n;
	for (i = 0; i < n; i++) {
		const unsigned char *a = r->map + s->offset + i * attr_size;
		struct attr *t = &r->attrs[i];
		uint64_t ids_off = u64_at(a + attr_size - 16), ids_size = u64_at(a + attr_size - 8);

		t->type = u32_at(a);
		t->config = u64_at(a + 8);
		t->sample_type = u64_at(a + 24);
		t->read_format = u64_at(a + 32);
		t->flags = u64_at(a + 40);
		if (ids_size % 8 || !in_file(r, ids_off, ids_size))
			return error_set(err, "'%s': the sample ids of an event are damaged",
					 r->cfg->name);
		t->ids = (const uint64_t *)(const void *)(r->map + ids_off);
		t->nids = ids_size / 8;
	}
	r->id_all_type = r->attrs[0].sample_type;
	return 0;
}

static int by_id_then_attr(const void *a, const void *b)
{
	const struct id_attr *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->attr < y->attr ? -1 : x->attr > y->attr;
}

#define ID_TABLE_MAX (1u << 20)	/* ids a table spans at most */

/*
 * perf numbers a file's ids from one counter, so they lie close together:
 * then a table indexed by id - id_base finds a sample's attr in one step,
 * without the search's branches, which a mix of events mispredicts (the
 * search was a quarter of parse_sample). Ids spread wider than 64 slots a
 * listed one, or over more than ID_TABLE_MAX (4 MB of table: a damaged
 * file's, whose ids could ask for gigabytes), keep to the search.
 */
static void index_close_ids(struct perf_read *r)
{
	uint64_t k, span;

	if (!r->nby_id)
		return;
	r->id_base = r->by_id[0].id;
	span = r->by_id[r->nby_id - 1].id - r->id_base;
	if (span >= 64 * r->nby_id + 64 || span >= ID_TABLE_MAX)
		return;
	r->id_span = span + 1;
	r->attr_at = xcalloc(r->id_span, sizeof(*r->attr_at));
	for (k = r->nby_id; k > 0; k--)	/* the first attr listing an id is written last */
		r->attr_at[r->by_id[k - 1].id - r->id_base] = r->by_id[k - 1].attr + 1;
}

/*
 * Every attr's sample ids sorted once. perf record -a gives each event an
 * id per CPU: 10 kmem events on a 128-CPU machine are 1,280 ids, which a
 * scan went through twice a sample; a search takes 11 steps.
 */
static void index_sample_ids(struct perf_read *r)
{
	uint64_t n = 0, j;
	uint32_t i;

	for (i = 0; i < r->nattrs; i++)
		n += r->attrs[i].nids;
	r->by_id = xcalloc(n ? n : 1, sizeof(*r->by_id));
	for (i = 0; i < r->nattrs; i++)
		for (j = 0; j < r->attrs[i].nids; j++) {
			memcpy(&r->by_id[r->nby_id].id, &r->attrs[i].ids[j], 8);
			r->by_id[r->nby_id++].attr = i;
		}
	qsort(r->by_id, r->nby_id, sizeof(*r->by_id), by_id_then_attr);
	index_close_ids(r);
}

/* The attr of a sample id: the first that lists it, as the scan this replaced found it. */
static const struct attr *attr_of_id(const struct perf_read *r, uint64_t id)
{
	uint64_t lo = 0, hi = r->nby_id;

	if (r->nattrs == 1)
		return &r->attrs[0];
	if (r->attr_at) {
		uint32_t at = id - r->id_base < r->id_span ? r->attr_at[id - r->id_base] : 0;

		return at ? &r->attrs[at - 1] : NULL;
	}
	while (lo < hi) {	/* the first entry not below id */
		uint64_t mid = lo + (hi - lo) / 2;

		if (r->by_id[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nby_id && r->by_id[lo].id == id ? &r->attrs[r->by_id[lo].attr] : NULL;
}

/* ---- samples ---- */

struct sample {
	const struct attr *attr;
	uint32_t pid, tid, cpu;
	uint64_t time;
	bool has_time;
	const uint64_t *chain;	/* unaligned: read with memcpy */
	uint64_t nchain;
	const unsigned char *raw;
	uint32_t raw_size;
};

/* The id of a sample: first with SAMPLE_IDENTIFIER, else after IP, TID, TIME, ADDR. */
static bool sample_id(const struct perf_read *r, const unsigned char *p, uint64_t len,
		      uint64_t *id)
{
	uint64_t type = r->attrs[0].sample_type, at = 0;

	if (r->nattrs == 1) {
		*id = 0;
		return true;
	}
	if (type & SAMPLE_IDENTIFIER) {
		if (len < 8)
			return false;
		*id = u64_at(p);
		return true;
	}
	at += (type & SAMPLE_IP) ? 8 : 0;
	at += (type & SAMPLE_TID) ? 8 : 0;
	at += (type & SAMPLE_TIME) ? 8 : 0;
	at += (type & SAMPLE_ADDR) ? 8 : 0;
	if (!(type & SAMPLE_ID) || at + 8 > len)
		return false;
	*id = u64_at(p + at);
	return true;
}

static uint64_t read_size(uint64_t fmt, const unsigned char *p, uint64_t room, bool *ok)
{
	uint64_t per = 8 + ((fmt & FORMAT_ID) ? 8 : 0) + ((fmt & FORMAT_LOST) ? 8 : 0);
	uint64_t times = ((fmt & FORMAT_TOTAL_TIME_ENABLED) ? 8 : 0) +
			 ((fmt & FORMAT_TOTAL_TIME_RUNNING) ? 8 : 0);

	if (!(fmt & FORMAT_GROUP))
		return per + times;
	if (room < 8) {
		*ok = false;
		return 0;
	}
	return 8 + times + u64_at(p) * per;
}

static bool parse_sample(const struct perf_read *r, const unsigned char *p, uint64_t len,
			 struct sample *s)
{
	uint64_t id, type, at = 0;
	bool ok = true;

	memset(s, 0, sizeof(*s));
	if (!sample_id(r, p, len, &id) || !(s->attr = attr_of_id(r, id)))
		return false;
	type = s->attr->sample_type;
#define NEED(n) do { if ((n) > len - at || at > len) return false; } while (0)
	if (type & SAMPLE_IDENTIFIER) { NEED(8); at += 8; }
	if (type & SAMPLE_IP) { NEED(8); at += 8; }
	if (type & SAMPLE_TID) { NEED(8); s->pid = u32_at(p + at); s->tid = u32_at(p + at + 4); at += 8; }
	if (type & SAMPLE_TIME) { NEED(8); s->time = u64_at(p + at); s->has_time = true; at += 8; }
	if (type & SAMPLE_ADDR) { NEED(8); at += 8; }
	if (type & SAMPLE_ID) { NEED(8); at += 8; }
	if (type & SAMPLE_STREAM_ID) { NEED(8); at += 8; }
	if (type & SAMPLE_CPU) { NEED(8); s->cpu = u32_at(p + at); at += 8; }
	if (type & SAMPLE_PERIOD) { NEED(8); at += 8; }
	if (type & SAMPLE_READ) {
		uint64_t n = read_size(s->attr->read_format, p + at, len - at, &ok);

		if (!ok)
			return false;
		NEED(n);
		at += n;
	}
	if (type & SAMPLE_CALLCHAIN) {
		NEED(8);
		s->nchain = u64_at(p + at);
		at += 8;
		if (s->nchain > (len - at) / 8)
			return false;
		s->chain = (const uint64_t *)(const void *)(p + at);
		at += s->nchain * 8;
	}
	if (type & SAMPLE_RAW) {
		NEED(4);
		s->raw_size = u32_at(p + at);
		at += 4;
		NEED(s->raw_size);
		s->raw = p + at;
	}
#undef NEED
	return true;
}

/* The sample_id trailer of another record: its time (and tid, cpu); false if none. */
static bool trailer_time(const struct perf_read *r, const unsigned char *p, uint64_t len,
			 uint64_t *ts)
{
	uint64_t type = r->id_all_type, back = 0;

	if (!(r->attrs[0].flags & ATTR_SAMPLE_ID_ALL) || !(type & SAMPLE_TIME))
		return false;
	back += (type & SAMPLE_IDENTIFIER) ? 8 : 0;
	back += (type & SAMPLE_CPU) ? 8 : 0;
	back += (type & SAMPLE_STREAM_ID) ? 8 : 0;
	back += (type & SAMPLE_ID) ? 8 : 0;
	back += 8;	/* the time itself */
	if (back > len)
		return false;
	*ts = u64_at(p + len - back);
	return true;
}

/* ---- threads and mappings ---- */

static uint32_t hash_tid(int32_t tid, uint32_t cap)
{
	return ((uint32_t)tid * 2654435761u) & (cap - 1);
}

static struct thread_name *thread_slot(struct perf_read *r, int32_t tid, bool add)
{
	uint32_t i;

	if (add && (r->nthreads + 1) * 2 > r->threads_cap) {
		uint32_t cap = r->threads_cap ? r->threads_cap * 2 : 1024, j;
		struct thread_name *t = xmalloc(cap * sizeof(*t));

		for (j = 0; j < cap; j++)
			t[j].used = false;
		for (j = 0; j < r->threads_cap; j++) {
			if (!r->threads[j].used)
				continue;
			for (i = hash_tid(r->threads[j].tid, cap); t[i].used; i = (i + 1) & (cap - 1))
				;
			t[i] = r->threads[j];
		}
		free(r->threads);
		r->threads = t;
		r->threads_cap = cap;
	}
	if (!r->threads_cap)
		return NULL;
	for (i = hash_tid(tid, r->threads_cap); r->threads[i].used;
	     i = (i + 1) & (r->threads_cap - 1))
		if (r->threads[i].tid == tid)
			return &r->threads[i];
	if (!add)
		return NULL;
	r->threads[i].tid = tid;
	r->threads[i].used = true;
	r->nthreads++;
	return &r->threads[i];
}

static void set_comm(struct perf_read *r, int32_t tid, const char *comm, size_t n)
{
	struct thread_name *t = thread_slot(r, tid, true);

	t->comm = n ? strtab_intern(&r->cfg->strings->comms, comm, n) : STR_NONE;
}

/* perf's name of a thread: its comm, or ":TID" when it was never named. */
static uint32_t comm_of(struct perf_read *r, int32_t tid)
{
	const struct thread_name *t = thread_slot(r, tid, false);
	char unnamed[16];
	int n;

	if (t)
		return t->comm;
	n = snprintf(unnamed, sizeof(unnamed), ":%d", tid);
	set_comm(r, tid, unnamed, (size_t)n);
	return thread_slot(r, tid, false)->comm;
}

static void add_mapping(struct perf_read *r, int32_t pid, uint64_t start, uint64_t len,
			const char *file, size_t n)
{
	const char *base = file + n;
	char name[256];
	int k;

	while (base > file && base[-1] != '/')
		base--;
	if (r->nmaps == r->maps_cap) {
		r->maps_cap = r->maps_cap ? r->maps_cap * 2 : 256;
		r->maps = xrealloc(r->maps, r->maps_cap * sizeof(*r->maps));
	}
	k = snprintf(name, sizeof(name), "[%.*s]", (int)(file + n - base), base);
	r->maps[r->nmaps].pid = pid;
	r->maps[r->nmaps].start = start;
	r->maps[r->nmaps].end = start + len;
	r->maps[r->nmaps].name = strtab_intern(&r->cfg->strings->frames, name,
					       (size_t)(k > 0 ? k : 0));
	r->nmaps++;
}

/* A user frame: "[dso]" of the latest mapping of that process holding it, or "[unknown]". */
static uint32_t user_frame(struct perf_read *r, int32_t pid, uint64_t ip)
{
	size_t i;

	for (i = r->nmaps; i > 0; i--)
		if (r->maps[i - 1].pid == pid && ip >= r->maps[i - 1].start && ip < r->maps[i - 1].end)
			return r->maps[i - 1].name;
	return strtab_intern(&r->cfg->strings->frames, "[unknown]", 9);
}

/* ---- one record, in time order ---- */

/* The sample's callchain as a stack: kernel frames, then user ones with --user-frames. */
static uint32_t chain_stack(struct perf_read *r, const struct sample *s, uint64_t *printed)
{
	struct stack_counts *counts = &r->out->stats.stacks;
	bool user = false, want_user = r->cfg->want & WANT_USER_FRAMES, marked = false;
	uint32_t n = 0;
	uint64_t i;

	*printed = 0;
	if (s->nchain + 1 > r->frames_cap) {
		r->frames_cap = (uint32_t)(s->nchain + 1 < STACK_MAX_FRAMES + 1 ? s->nchain + 1
									  : STACK_MAX_FRAMES + 1);
		r->frames = xrealloc(r->frames, r->frames_cap * sizeof(*r->frames));
	}
	for (i = 0; i < s->nchain; i++) {
		uint64_t ip;

		memcpy(&ip, &s->chain[i], 8);
		if (ip >= CONTEXT_MAX) {
			user = ip == CONTEXT_USER || ip == CONTEXT_GUEST_USER;
			continue;
		}
		(*printed)++;
		if (n >= r->frames_cap)
			continue;	/* deeper than a stack can be: dropped below */
		if (!user) {
			r->frames[n++] = tepkmem_frame(&r->k, ip);
		} else if (want_user) {
			if (!marked) {
				r->frames[n++] = r->user_mark;
				marked = true;
			}
			if (n < r->frames_cap)
				r->frames[n++] = user_frame(r, (int32_t)s->pid, ip);
		}
	}
	if (!*printed)
		return STACK_NONE;
	if (marked && n && r->frames[n - 1] == r->user_mark)
		n--;
	counts->blocks++;
	if (n == 0)
		return STACK_NONE;	/* user frames only, not kept */
	if (n > STACK_MAX_FRAMES) {
		counts->dropped++;
		return STACK_NONE;
	}
	counts->kmem_paired++;
	return stack_intern(&r->cfg->strings->stacks, r->frames, n);
}

static void take_sample(struct perf_read *r, const unsigned char *p, uint64_t len)
{
	struct parse_stats *st = &r->out->stats;
	struct tep_record rec;
	struct kmem_event ev;
	struct sample s;
	uint64_t printed = 0;
	uint32_t stack = STACK_NONE;
	enum tepkmem_record what;

	if (!parse_sample(r, p, len, &s)) {
		fail(r, "a sample does not fit its record (a damaged perf.data)");
		return;
	}
	if (s.attr->type != TYPE_TRACEPOINT || !s.raw)
		return;	/* perf script prints these too, but no kmem event */
	r->facts->records++;
	r->line++;
	st->lines++;
	if (s.chain) {
		if (r->cfg->want & WANT_STACK)
			stack = chain_stack(r, &s, &printed);
		else
			for (uint64_t i = 0; i < s.nchain; i++) {
				uint64_t ip;

				memcpy(&ip, &s.chain[i], 8);
				printed += ip < CONTEXT_MAX;
			}
		if (printed) {	/* perf script: a line per frame, then a blank one */
			st->stack_lines += printed;
			st->blank_lines++;
			st->lines += printed + 1;
		}
	}
	memset(&rec, 0, sizeof(rec));
	rec.ts = r->cfg->usec_timestamps ? s.time - s.time % 1000 : s.time;
	rec.cpu = (int)s.cpu;
	rec.data = (void *)s.raw;
	rec.size = (int)s.raw_size;
	what = s.raw_size >= 2 ? tepkmem_decode(&r->k, &rec, &ev) : TEPKMEM_OTHER;
	if (what == TEPKMEM_EVENT) {
		st->events[ev.kind]++;
		if (!(kmem_is_page(ev.kind) && !(r->cfg->want & WANT_PAGE))) {
			ev.line = r->line;
			ev.pid = (int32_t)s.tid;
			ev.comm = (r->cfg->want & WANT_COMM) ? comm_of(r, (int32_t)s.tid) : STR_NONE;
			ev.stack = stack;
			if (r->cfg->want & WANT_STACK) {
				if (stack == STACK_NONE)
					st->stacks.events_without++;
				else
					st->stacks.events_with++;
			}
			r->cfg->on_event(r->cfg->ctx, &ev);
		}
	} else if (what == TEPKMEM_MALFORMED) {
		st->malformed++;
		if (!r->out->first_malformed_line)
			r->out->first_malformed_line = r->line;
	} else {
		st->other_events++;
		if (stack != STACK_NONE) {	/* counted as paired above: it was another event's */
			st->stacks.kmem_paired--;
			st->stacks.other_paired++;
		}
	}
	r->line += printed ? printed + 1 : 0;
}

static void take_lost(struct perf_read *r, const unsigned char *p, uint64_t len)
{
	struct kmem_event ev;

	if (len < 8 + 16)
		return;
	kmem_event_init(&ev, KMEM_LOST_EVENTS);
	ev.line = r->line;	/* perf script prints no line: the last sample's, so lines never go back */
	ev.pfn = u64_at(p + 8 + 8);
	r->facts->lost_records += ev.pfn;
	r->out->stats.events[KMEM_LOST_EVENTS]++;
	r->out->stats.lost_events += ev.pfn;
	r->cfg->on_event(r->cfg->ctx, &ev);
}

static void take_record(struct perf_read *r, uint64_t offset)
{
	const unsigned char *p = r->map + offset;
	uint32_t type = u32_at(p);
	uint16_t size;

	memcpy(&size, p + 6, 2);
	switch (type) {
	case REC_SAMPLE:
		take_sample(r, p + 8, size - 8u);
		break;
	case REC_COMM:
		if (size >= 8 + 8 + 1) {
			const char *comm = (const char *)p + 16;

			set_comm(r, (int32_t)u32_at(p + 12), comm, strnlen(comm, size - 16u));
		}
		break;
	case REC_FORK:
		if (size >= 8 + 16) {	/* the child thread is named as its parent */
			int32_t tid = (int32_t)u32_at(p + 16), ptid = (int32_t)u32_at(p + 20);
			const struct thread_name *parent = thread_slot(r, ptid, false);

			if (parent && !thread_slot(r, tid, false)) {
				uint32_t comm = parent->comm;

				thread_slot(r, tid, true)->comm = comm;
			}
		}
		break;
	case REC_LOST:
		take_lost(r, p, size);
		break;
	case REC_MMAP:
		if (size > 8 + 32)
			add_mapping(r, (int32_t)u32_at(p + 8), u64_at(p + 16), u64_at(p + 24),
				    (const char *)p + 40, strnlen((const char *)p + 40, size - 40u));
		break;
	case REC_MMAP2:
		if (size > 8 + 64)
			add_mapping(r, (int32_t)u32_at(p + 8), u64_at(p + 16), u64_at(p + 24),
				    (const char *)p + 72, strnlen((const char *)p + 72, size - 72u));
		break;
	default:
		break;
	}
}

/* ---- ordering: perf's ordered events, flushed at each finished round ---- */

static bool earlier(const struct queued *x, const struct queued *y)
{
	return x->ts < y->ts || (x->ts == y->ts && x->seq < y->seq);
}

/* The run of records in time order that starts at i: where it ends. */
static size_t run_end(const struct queued *q, size_t i, size_t n)
{
	for (i++; i < n && !earlier(&q[i], &q[i - 1]); i++)
		;
	return i;
}

/*
 * The queue in (time, file order). A round holds each CPU's records in
 * time order, one buffer after another: a few long runs, merged pairwise
 * (a natural merge sort: one pass a doubling, linear for sorted input).
 */
static void sort_queue(struct perf_read *r)
{
	struct queued *from = r->q, *to = r->q_spare, *t;
	size_t n = r->nq;

	while (run_end(from, 0, n) < n) {
		size_t i = 0, out = 0;

		while (i < n) {
			size_t mid = run_end(from, i, n), end = mid < n ? run_end(from, mid, n) : n;
			size_t a = i, b = mid;

			while (a < mid && b < end)
				to[out++] = earlier(&from[b], &from[a]) ? from[b++] : from[a++];
			while (a < mid)
				to[out++] = from[a++];
			while (b < end)
				to[out++] = from[b++];
			i = end;
		}
		t = from;
		from = to;
		to = t;
	}
	r->q = from;
	r->q_spare = to;
}

static void flush_until(struct perf_read *r, uint64_t limit)
{
	size_t i, kept = 0;

	sort_queue(r);
	for (i = 0; i < r->nq && !r->failed; i++) {
		if (r->q[i].ts > limit)
			break;
		take_record(r, r->q[i].offset);
	}
	for (; i < r->nq; i++)
		r->q[kept++] = r->q[i];
	r->nq = kept;
}

static void queue_record(struct perf_read *r, uint64_t offset, uint64_t ts)
{
	if (r->nq == r->qcap) {
		r->qcap = r->qcap ? r->qcap * 2 : 65536;
		r->q = xrealloc(r->q, r->qcap * sizeof(*r->q));
		r->q_spare = xrealloc(r->q_spare, r->qcap * sizeof(*r->q_spare));
	}
	r->q[r->nq].ts = ts;
	r->q[r->nq].seq = r->seq++;
	r->q[r->nq].offset = offset;
	r->nq++;
	if (ts > r->max_ts)
		r->max_ts = ts;
}

/* The tracing data that follows a HEADER_TRACING_DATA record of pipe mode: its length, padded. */
static uint64_t pipe_tracing_bytes(const struct perf_read *r, uint64_t at, uint16_t size)
{
	return size >= 12 && in_file(r, at + 8, 4) ? ((uint64_t)u32_at(r->map + at + 8) + 7) / 8 * 8 : 0;
}

/*
 * Give back the pages of the file's mapping that no record still queued
 * needs: the kernel keeps them in its page cache, but they no longer
 * count in this process's memory (a 392 MB perf.data read in 20 MB
 * instead of 400). Not for a pipe's data (it holds the attributes) or
 * decompressed records (not the file's pages).
 */
static void release_read_pages(struct perf_read *r, uint64_t at)
{
	uint64_t upto = at;
	size_t i;

	if (r->pipe || r->file_map)
		return;
	for (i = 0; i < r->nq; i++)
		if (r->q[i].offset < upto)
			upto = r->q[i].offset;
	if (!r->released)
		r->released = r->data.offset;
	if (upto < r->released + RELEASE_AT_ONCE)
		return;
	pages_give_back(r->map + r->released, (size_t)(upto - r->released));
	r->released = upto;
}

static void read_data(struct perf_read *r)
{
	uint64_t at = r->data.offset, end = r->data.offset + r->data.size;

	while (at < end && !r->failed) {
		const unsigned char *p = r->map + at;
		uint32_t type;
		uint16_t size;
		uint64_t ts;
		struct sample s;

		if (end - at < 8 && r->salvaging) {
			r->facts->salvage_bytes_left = end - at;
			break;
		}
		if (end - at < 8) {
			fail(r, "its data section ends inside a record (a cut perf.data)");
			break;
		}
		type = u32_at(p);
		memcpy(&size, p + 6, 2);
		if ((size < 8 || size > end - at) && r->salvaging) {
			r->facts->salvage_bytes_left = end - at;	/* the record perf was writing */
			break;
		}
		if (size < 8 || size > end - at) {
			fail(r, "a record runs past the data section (a damaged or cut perf.data)");
			break;
		}
		if ((type == REC_COMPRESSED || type == REC_COMPRESSED2) && r->file_map) {
			fail(r, "a compressed record holds another compressed record (a damaged "
			     "perf.data)");
			break;
		}
		if (type == REC_COMPRESSED || type == REC_COMPRESSED2) {
			fail(r, "it holds a compressed record but its header says it has none (a "
			     "damaged perf.data)");
			break;
		}
		if (type == REC_HEADER_TRACING_DATA && r->pipe) {
			at += pipe_tracing_bytes(r, at, size);	/* its data follows it */
		} else if (type == REC_FINISHED_ROUND) {
			flush_until(r, r->next_flush);
			r->next_flush = r->max_ts;
			release_read_pages(r, at);
		} else if (type == REC_SAMPLE) {
			if (parse_sample(r, p + 8, size - 8u, &s) && s.has_time)
				queue_record(r, at, s.time);
			else
				take_record(r, at);
		} else if (type < 64 && trailer_time(r, p + 8, size - 8u, &ts)) {
			queue_record(r, at, ts);
		} else {
			take_record(r, at);
		}
		at += size;
	}
	if (!r->failed)
		flush_until(r, UINT64_MAX);
}

/* ---- compressed records (perf record -z) ---- */

/* Whether the data section holds a PERF_RECORD_COMPRESSED; false where it is damaged too. */
static bool has_compressed_records(const struct perf_read *r)
{
	uint64_t at = r->data.offset, end = r->data.offset + r->data.size;

	while (end - at >= 8) {
		uint32_t type = u32_at(r->map + at);
		uint16_t size;

		memcpy(&size, r->map + at + 6, 2);
		if (size < 8 || size > end - at)
			return false;
		if (type == REC_COMPRESSED || type == REC_COMPRESSED2)
			return true;
		if (type == REC_HEADER_TRACING_DATA && r->pipe)
			at += pipe_tracing_bytes(r, at, size);
		at += size;
	}
	return false;
}

/* One compressed record's zstd data, decompressed onto fd; -1 with a reason. */
static int inflate_record(ZSTD_DStream *ds, const unsigned char *data, uint64_t len, int fd,
			  unsigned char *out, size_t out_size, const char **why)
{
	ZSTD_inBuffer ib = { data, len, 0 };

	for (;;) {
		ZSTD_outBuffer ob = { out, out_size, 0 };
		size_t rc = ZSTD_decompressStream(ds, &ob, &ib);

		if (ZSTD_isError(rc)) {
			*why = ZSTD_getErrorName(rc);
			return -1;
		}
		if (ob.pos && write_whole(fd, out, ob.pos) < 0) {
			*why = NULL;
			return -1;
		}
		if (ib.pos == ib.size && ob.pos < ob.size)
			return 0;
	}
}

/*
 * The data section with every compressed record replaced by what it holds,
 * in an unnamed file in $TMPDIR (perf's decompression of one record can
 * end inside a record that the next one completes, so the stream is one):
 * the reading then maps that file as the data section.
 */
static int expand_compressed(struct perf_read *r, struct ta_error *err)
{
	uint64_t at = r->data.offset, end = r->data.offset + r->data.size;
	const char *dir = scratch_dir(), *why = NULL;
	size_t out_size = 1u << 20;
	unsigned char *out;
	ZSTD_DStream *ds;
	struct stat st;
	void *map;
	int fd, rc = 0;

	if (zstd_library_load("to read a perf.data of compressed records (perf record -z)", err) < 0)
		return -1;
	fd = scratch_file_open(dir);
	if (fd < 0)
		return error_set_errno(err, errno, "cannot make a file in '%s' to decompress the "
				       "records of '%s' into", dir, r->cfg->name);
	ds = ZSTD_createDStream();
	out = xmalloc(out_size);
	while (end - at >= 8 && rc == 0) {
		const unsigned char *p = r->map + at;
		uint32_t type = u32_at(p);
		uint16_t size;
		uint64_t skip = 0;

		memcpy(&size, p + 6, 2);
		if (size < 8 || size > end - at)
			break;	/* the reading of the records says where it is damaged */
		if (type == REC_COMPRESSED) {
			rc = inflate_record(ds, p + 8, size - 8u, fd, out, out_size, &why);
		} else if (type == REC_COMPRESSED2) {
			uint64_t n = size >= 16 ? u64_at(p + 8) : UINT64_MAX;

			if (n > size - 16u) {
				why = "its length is wrong";
				rc = -1;
			} else {
				rc = inflate_record(ds, p + 16, n, fd, out, out_size, &why);
			}
		} else {
			if (type == REC_HEADER_TRACING_DATA && r->pipe)
				skip = pipe_tracing_bytes(r, at, size);
			if (skip > end - at - size)
				break;
			rc = write_whole(fd, p, size + skip);
		}
		if (rc == 0) {
			r->compressed_records += type == REC_COMPRESSED || type == REC_COMPRESSED2;
			at += size + skip;
		}
	}
	/* what is left (a cut record) is copied for the reading to say so */
	if (rc == 0 && at < end)
		rc = write_whole(fd, r->map + at, end - at);
	free(out);
	ZSTD_freeDStream(ds);
	if (rc < 0) {
		if (why)
			error_set(err, "'%s': the compressed record at byte %llu cannot be "
				  "decompressed: %s (a damaged perf.data)", r->cfg->name,
				  (unsigned long long)at, why);
		else
			error_set_errno(err, errno, "cannot write the decompressed records of '%s' "
					"to '%s'", r->cfg->name, dir);
		close(fd);
		return -1;
	}
	if (fstat(fd, &st) < 0) {
		error_set_errno(err, errno, "cannot read back the decompressed records of '%s'",
				r->cfg->name);
		close(fd);
		return -1;
	}
	map = st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (map == MAP_FAILED)
		return error_set_errno(err, errno, "cannot map the decompressed records of '%s'",
				       r->cfg->name);
	r->file_map = r->map;
	r->file_size = r->size;
	r->map = map;
	r->size = (uint64_t)st.st_size;
	r->data.offset = 0;
	r->data.size = r->size;
	return 0;
}

/* ---- the file ---- */

/*
 * Pipe mode (perf record -o -): a 16-byte header, then records only; the
 * event attributes come as HEADER_ATTR records (the attribute, then its
 * sample ids), the event formats as a HEADER_TRACING_DATA record followed
 * by the tracing data itself. Both are found here; the records are then
 * read as a file's data section.
 */
static int read_pipe_header(struct perf_read *r, struct ta_error *err)
{
	uint64_t at = 16;
	uint32_t cap = 0;

	r->pipe = true;
	r->data.offset = 16;
	r->data.size = r->size - 16;
	while (at + 8 <= r->size) {
		const unsigned char *p = r->map + at;
		uint32_t type = u32_at(p);
		uint16_t size;

		memcpy(&size, p + 6, 2);
		if (size < 8 || size > r->size - at)
			break;	/* the reading of the records says where it is damaged */
		if (type == REC_HEADER_ATTR && size >= 8 + 8) {
			uint32_t attr_size = u32_at(p + 12);
			struct attr *t;

			if (attr_size < 48 || attr_size > size - 8u || (size - 8u - attr_size) % 8)
				return error_set(err, "'%s': an event attribute of its pipe is damaged",
						 r->cfg->name);
			if (r->nattrs == MAX_ATTRS)
				return error_set(err, "'%s' has over %d event attributes", r->cfg->name,
						 MAX_ATTRS);
			if (r->nattrs == cap) {
				cap = cap ? cap * 2 : 8;
				r->attrs = xrealloc(r->attrs, cap * sizeof(*r->attrs));
			}
			t = &r->attrs[r->nattrs++];
			memset(t, 0, sizeof(*t));
			t->type = u32_at(p + 8);
			t->config = u64_at(p + 8 + 8);
			t->sample_type = u64_at(p + 8 + 24);
			t->read_format = u64_at(p + 8 + 32);
			t->flags = u64_at(p + 8 + 40);
			t->ids = (const uint64_t *)(const void *)(p + 8 + attr_size);
			t->nids = (size - 8u - attr_size) / 8;
		} else if (type == REC_HEADER_FEATURE && size >= 16 &&
			   u64_at(p + 8) == FEAT_OSRELEASE) {
			struct section f = { at + 16, (uint64_t)size - 16 };

			feature_string(r, &f, r->facts->os_release, sizeof(r->facts->os_release));
		} else if (type == REC_HEADER_FEATURE && size >= 16 + 4 &&
			   u64_at(p + 8) == FEAT_NRCPUS) {
			r->out->header.cpus = (int)u32_at(p + 16);	/* available */
		} else if (type == REC_HEADER_TRACING_DATA) {
			uint64_t n = pipe_tracing_bytes(r, at, size);

			if (!in_file(r, at + size, n))
				return error_set(err, "'%s' is cut short: its event formats run past "
						 "its end", r->cfg->name);
			r->pipe_formats.offset = at + size;
			r->pipe_formats.size = u32_at(p + 8);
			at += n;
		}
		at += size;
	}
	if (!r->nattrs)
		return error_set(err, "'%s' (a perf.data in pipe mode) has no event attribute",
				 r->cfg->name);
	r->id_all_type = r->attrs[0].sample_type;
	return 0;
}

/*
 * Whether the event formats perf writes when it finishes a file are there:
 * a killed perf record leaves data size 0 (perf report warns of it) and
 * records where the feature sections would be.
 */
static bool formats_written(const struct perf_read *r, const uint64_t *features)
{
	struct section s;

	return feature(r, features, FEAT_TRACING_DATA, &s) && s.size >= 10 &&
	       memcmp(r->map + s.offset, TRACEDAT_MAGIC, 10) == 0;
}

static int read_header(struct perf_read *r, uint64_t *features, struct ta_error *err)
{
	uint64_t header_size, attr_size;
	struct section attrs;

	if (r->size < 104)
		return error_set(err, "'%s' is cut short: its perf.data header is incomplete",
				 r->cfg->name);
	if (memcmp(r->map, PERFDATA_MAGIC, 8) != 0)
		return error_set(err, "'%s' is no perf.data", r->cfg->name);
	header_size = u64_at(r->map + 8);
	attr_size = u64_at(r->map + 16);
	if (header_size == 16) {
		memset(features, 0, 4 * sizeof(uint64_t));
		return read_pipe_header(r, err);
	}
	if (header_size < 104)
		return error_set(err, "'%s': its perf.data header is damaged", r->cfg->name);
	attrs.offset = u64_at(r->map + 24);
	attrs.size = u64_at(r->map + 32);
	r->data.offset = u64_at(r->map + 40);
	r->data.size = u64_at(r->map + 48);
	memcpy(features, r->map + 72, 4 * sizeof(uint64_t));
	if (r->data.size == 0 && r->size > r->data.offset && !formats_written(r, features)) {
		if (!r->cfg->salvage)
			return error_set(err, "'%s' was not properly terminated (perf record was "
					 "killed before it finished the file?): its header gives no "
					 "data size and it lacks the event formats perf writes last; its "
					 "%llu bytes of records cannot be decoded without them, by perf "
					 "either (--salvage reads them with this kernel's formats, if it "
					 "is the kernel that recorded them)",
					 r->cfg->name, (unsigned long long)(r->size - r->data.offset));
		r->salvaging = true;
		r->data.size = r->size - r->data.offset;
		memset(features, 0, 4 * sizeof(uint64_t));
	}
	if (!in_file(r, r->data.offset, r->data.size))
		return error_set(err, "'%s' is cut short: its data section runs past the end of the "
				 "file (%llu bytes)", r->cfg->name, (unsigned long long)r->size);
	return read_attrs(r, attr_size, &attrs, err);
}

static bool has_tracepoints(const struct perf_read *r)
{
	uint32_t i;

	for (i = 0; i < r->nattrs; i++)
		if (r->attrs[i].type == TYPE_TRACEPOINT && (r->attrs[i].sample_type & SAMPLE_RAW))
			return true;
	return false;
}

/* ---- --salvage: an unfinished file read with the running kernel's formats ---- */

/* The id of the running kernel's kmem event name, or -1 (tracefs not mounted, no such event). */
static long running_event_id(const char *dir, const char *event)
{
	char path[512], line[32];
	FILE *f;
	long id = -1;

	snprintf(path, sizeof(path), "%s/events/kmem/%s/id", dir, event);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		id = strtol(line, NULL, 10);
	fclose(f);
	return id;
}

/* Is id the id of any tracepoint of the running kernel (events/SYSTEM/EVENT/id)? */
static bool running_any_event(const char *dir, long id)
{
	char path[1024];
	DIR *systems, *events;
	struct dirent *sys, *ev;
	bool found = false;

	snprintf(path, sizeof(path), "%s/events", dir);
	if (!(systems = opendir(path)))
		return false;
	while (!found && (sys = readdir(systems))) {
		if (sys->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, sys->d_name);
		if (!(events = opendir(path)))
			continue;
		while (!found && (ev = readdir(events))) {
			char line[32];
			FILE *f;

			if (ev->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", dir, sys->d_name, ev->d_name);
			if (!(f = fopen(path, "re")))
				continue;
			found = fgets(line, sizeof(line), f) && strtol(line, NULL, 10) == id;
			fclose(f);
		}
		closedir(events);
	}
	closedir(systems);
	return found;
}

static bool parse_running_format(struct perf_read *r, const char *dir, const char *event)
{
	char path[512], *text = NULL;
	size_t cap = 0, len = 0;
	FILE *f;
	bool ok = false;

	snprintf(path, sizeof(path), "%s/events/kmem/%s/format", dir, event);
	f = fopen(path, "re");
	if (!f)
		return false;
	for (;;) {
		size_t n;

		if (len + 4096 > cap)
			text = xrealloc(text, cap = cap ? cap * 2 : 8192);
		n = fread(text + len, 1, cap - len, f);
		if (n == 0)
			break;
		len += n;
	}
	fclose(f);
	if (len)
		ok = tep_parse_event(r->tep, text, len, "kmem") == 0;
	free(text);
	return ok;
}

/*
 * The event formats of a file perf record did not finish, from this
 * machine's tracefs: only when every tracepoint the file recorded has the
 * id of a kmem event of the running kernel (ids are given out as a kernel
 * boots: another kernel's file is refused, not decoded with wrong fields).
 */
static int running_kernel_formats(struct perf_read *r, struct ta_error *err)
{
	const char *dir = NULL;
	uint32_t i;
	int k, parsed = 0, analysed = 0;

	if (tracefs_tracing_dir_is_mounted(false, &dir) <= 0 || !dir)
		return error_set(err, "'%s' cannot be salvaged here: it lacks its event formats and "
				 "this machine has no tracefs mounted to read the kernel's from",
				 r->cfg->name);
	tep_set_file_bigendian(r->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(r->tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(r->tep, (int)sizeof(long));
	tep_set_page_size(r->tep, (int)sysconf(_SC_PAGESIZE));
	for (k = KMEM_KMALLOC; k <= KMEM_PAGE_ALLOC_EXTFRAG; k++)
		parsed += parse_running_format(r, dir, kmem_kind_name((enum kmem_kind)k));
	if (!parsed)
		return error_set(err, "'%s' cannot be salvaged: the running kernel's kmem event "
				 "formats cannot be read under '%s/events/kmem'", r->cfg->name, dir);
	for (i = 0; i < r->nattrs; i++) {
		const struct attr *a = &r->attrs[i];
		bool known = false;

		if (a->type != TYPE_TRACEPOINT)
			continue;
		for (k = KMEM_KMALLOC; k <= KMEM_PAGE_ALLOC_EXTFRAG && !known; k++)
			known = running_event_id(dir, kmem_kind_name((enum kmem_kind)k)) ==
				(long)a->config;
		analysed += known;
		/* another tracepoint (kmem:rss_stat of 'kmem:*'): read past, counted */
		if (!known)
			known = running_any_event(dir, (long)a->config);
		if (!known)
			return error_set(err, "'%s' cannot be salvaged with this kernel's event formats: "
					 "it recorded tracepoint id %llu, which is no tracepoint of the "
					 "running kernel (was it recorded on another kernel?)",
					 r->cfg->name, (unsigned long long)a->config);
	}
	if (!analysed)
		return error_set(err, "'%s' cannot be salvaged: it recorded no kmem allocation event "
				 "of the running kernel (kmalloc, kfree, kmem_cache_*, mm_page_*)",
				 r->cfg->name);
	return 0;
}

static int read_features(struct perf_read *r, const uint64_t *bits, struct ta_error *err)
{
	struct section s;
	char nrcpus[64];

	if (r->pipe) {
		if (!r->pipe_formats.size)
			return error_set(err, "'%s' (a perf.data in pipe mode) holds no event formats "
					 "(HEADER_TRACING_DATA): it has no tracepoint samples to read "
					 "(perf record -e 'kmem:*')", r->cfg->name);
		return parse_tracing_data(r, &r->pipe_formats, err);
	}

	if (r->salvaging)
		return running_kernel_formats(r, err);
	if (!feature(r, bits, FEAT_TRACING_DATA, &s))
		return error_set(err, "'%s' holds no event formats (HEADER_TRACING_DATA): it has no "
				 "tracepoint samples to read (perf record -e 'kmem:*')", r->cfg->name);
	if (feature(r, bits, FEAT_OSRELEASE, &s))
		feature_string(r, &s, r->facts->os_release, sizeof(r->facts->os_release));
	if (feature(r, bits, FEAT_NRCPUS, &s) && s.size >= 8)
		r->out->header.cpus = (int)u32_at(r->map + s.offset);	/* available */
	(void)nrcpus;
	if (feature(r, bits, FEAT_TRACING_DATA, &s))
		return parse_tracing_data(r, &s, err);
	return 0;
}

/*
 * perf record -z marks a file it finished with HEADER_COMPRESSED: only
 * then, or in a pipe or an unfinished file, are the records looked
 * through for one (a look that reads the whole data section).
 */
static bool may_hold_compressed_records(const struct perf_read *r, const uint64_t *features)
{
	struct section s;

	return r->pipe || r->salvaging || !formats_written(r, features) ||
	       feature(r, features, FEAT_COMPRESSED, &s);
}

int perfdata_read(int fd, const struct binread_config *cfg, struct read_result *out,
		  struct binread_facts *facts, struct ta_error *err)
{
	struct perf_read r;
	struct stat st;
	uint64_t features[4];
	int rc = -1;

	memset(&r, 0, sizeof(r));
	r.cfg = cfg;
	r.out = out;
	r.facts = facts;
	if (trace_library_load("to read a perf.data", err) < 0)
		return -1;
	if (fstat(fd, &st) < 0)
		return error_set_errno(err, errno, "cannot read '%s'", cfg->name);
	r.size = (uint64_t)st.st_size;
	r.map = r.size ? mmap(NULL, r.size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (r.size && r.map == MAP_FAILED)
		return error_set_errno(err, errno, "cannot read '%s'", cfg->name);
	r.tep = tep_alloc();
	if (read_header(&r, features, err) < 0)
		goto out;
	if (!has_tracepoints(&r)) {
		error_set(err, "'%s' has no tracepoint samples: record kmem events with perf record "
			  "-e 'kmem:*'", cfg->name);
		goto out;
	}
	if (read_features(&r, features, err) < 0)
		goto out;
	note_running_kernel(&r, features);
	if (may_hold_compressed_records(&r, features) && has_compressed_records(&r) &&
	    expand_compressed(&r, err) < 0)
		goto out;
	tepkmem_init(&r.k, r.tep, cfg->strings, cfg->want & ~WANT_COMM, resolve, &r);
	r.user_mark = strtab_intern(&cfg->strings->frames, USER_FRAMES_MARK,
				    strlen(USER_FRAMES_MARK));
	index_sample_ids(&r);
	read_data(&r);
	facts->salvaged = r.salvaging;
	if (r.failed) {
		error_set(err, "'%s': %s", cfg->name, r.err_msg);
	} else {
		facts->symbols_from = r.by_map ? cfg->syms->path
				      : r.by_kallsyms ? cfg->kallsyms->path
				      : r.by_running ? "/proc/kallsyms" : NULL;
		rc = 0;
	}
	tepkmem_release(&r.k);
out:
	if (r.running_state == RUNNING_READ)
		symbols_release(&r.running);
	tep_free(r.tep);
	free(r.attrs);
	free(r.by_id);
	free(r.attr_at);
	free(r.q);
	free(r.q_spare);
	free(r.threads);
	free(r.maps);
	free(r.frames);
	if (r.map && r.map != MAP_FAILED)
		munmap((void *)r.map, r.size);
	if (r.file_map)
		munmap((void *)r.file_map, r.file_size);
	return rc;
}
