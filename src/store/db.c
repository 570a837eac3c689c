/*
 * db.c - writing and reading the DB file (layout in db.h).
 *
 * Events are stored as fixed-size packed records, streamed into the file
 * as they come, so memory does not grow with the log; the accounts of the
 * three family filters are kept as the events pass, so a re-run of an
 * account needs no replay at all. The reader checks that the sections
 * agree with each other (counts, ids in range, order) before any number
 * is taken from them. Not here: the container's checks
 * (binfile.c) and the matching rules (account.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"

enum db_section {
	SEC_META = 1,
	SEC_SOURCE = 2,
	SEC_CALL_SITES = 3,
	SEC_CACHES = 4,
	SEC_COMMS = 5,
	SEC_GFPS = 6,
	SEC_EVENTS = 7,		/* the first EVENTS_PER_SECTION records; then 16, 17, ... */
	SEC_FRAMES = 8,		/* stack frames, as the string tables */
	SEC_ACCOUNT_ALL = 9,
	SEC_ACCOUNT_MALLOC = 10,
	SEC_ACCOUNT_CACHE = 11,
	SEC_STACKS = 12,	/* per stack its frame count, then all frame ids */
	SEC_RECLAIMABLE = 13,	/* the log header's reclaimable caches; absent: none given */
	SEC_CAPTURE = 14,	/* struct db_capture_facts; absent: made from a text log */
	SEC_REORDERED = 15,	/* uint64: events of one tick put in pairing order; absent: 0 */
	SEC_MORE_EVENTS = 16,	/* sections 16 .. 16 + n - 2 continue the events */
	SEC_RESULTS = 1u << 24,	/* the passes' parts' directory (dbparts.h), then a section
				   a part; absent: none kept */
};

/* Events are cut into sections of this many records (31 MB): their
 * checksums can then be checked on two cores at once. */
#define EVENTS_PER_SECTION (1u << 19)
#define RELEASE_EVERY (1u << 16)	/* records replayed between giving their pages back */

#define RECORD_BUFFER (1u << 20)

/*
 * One event: slab events, markers (whose count rides in ptr) and page
 * events alike, in log order. 66 bytes, read in place.
 */
struct __attribute__((packed)) db_record {
	uint64_t line, ts_ns, ptr;
	union {
		struct { uint32_t bytes_req, bytes_alloc; } slab;
		uint64_t pfn;
	} u;
	uint32_t gfp, comm, stack;
	int32_t pid, cpu;
	uint8_t kind;
	union {
		struct __attribute__((packed)) {
			uint32_t call_site, cache;
			int32_t node;
			uint8_t accounted;
		} slab;
		struct {
			int8_t order, migratetype, fallback_order, fallback_migratetype;
			int8_t percpu_refill, change_ownership;
		} page;
	} v;
};

struct db_meta {
	uint64_t kind_count;		/* KMEM_KIND_COUNT of the writer */
	uint64_t event_record, site_record;	/* record sizes */
	uint64_t nevents;
	uint64_t nstrings[4];		/* call sites, caches, comms, gfps */
	uint64_t nframes, nstacks;
	uint64_t user_frames;		/* 1: stacks keep perf's user frames (--user-frames) */
	struct parse_stats stats;
	uint64_t has_entries, entries_in_buffer, entries_written, cpus;
	struct db_input_facts facts;
};

struct db_account {
	struct account_totals totals;
	uint64_t nsites;
};

/* ---- records ------------------------------------------------------------------ */

static bool is_marker(unsigned kind)
{
	return kind == KMEM_LOST_EVENTS || kind == KMEM_BUFFER_STARTED;
}

static void encode_event(const struct kmem_event *ev, struct db_record *r)
{
	memset(r, 0, sizeof(*r));
	r->line = ev->line;
	r->ts_ns = ev->ts_ns;
	r->gfp = ev->gfp;
	r->comm = ev->comm;
	r->stack = ev->stack;
	r->pid = ev->pid;
	r->cpu = ev->cpu;
	r->kind = (uint8_t)ev->kind;
	if (kmem_is_page(ev->kind)) {
		r->ptr = ev->ptr;
		r->u.pfn = ev->pfn;
		r->v.page.order = ev->order;
		r->v.page.migratetype = ev->migratetype;
		r->v.page.fallback_order = ev->fallback_order;
		r->v.page.fallback_migratetype = ev->fallback_migratetype;
		r->v.page.percpu_refill = ev->percpu_refill;
		r->v.page.change_ownership = ev->change_ownership;
		return;
	}
	r->ptr = is_marker(ev->kind) ? ev->pfn : ev->ptr;
	r->u.slab.bytes_req = ev->bytes_req;
	r->u.slab.bytes_alloc = ev->bytes_alloc;
	r->v.slab.call_site = ev->call_site;
	r->v.slab.cache = ev->cache;
	r->v.slab.node = ev->node;
	r->v.slab.accounted = ev->accounted;
}

static void decode_event(const struct db_record *r, struct kmem_event *ev)
{
	kmem_event_init(ev, (enum kmem_kind)r->kind);	/* the fields a record does not hold */
	ev->line = r->line;
	ev->ts_ns = r->ts_ns;
	ev->gfp = r->gfp;
	ev->comm = r->comm;
	ev->stack = r->stack;
	ev->pid = r->pid;
	ev->cpu = r->cpu;
	ev->kind = r->kind;
	if (kmem_is_page(r->kind)) {
		ev->ptr = r->ptr;
		ev->pfn = r->u.pfn;
		ev->order = r->v.page.order;
		ev->migratetype = r->v.page.migratetype;
		ev->fallback_order = r->v.page.fallback_order;
		ev->fallback_migratetype = r->v.page.fallback_migratetype;
		ev->percpu_refill = r->v.page.percpu_refill;
		ev->change_ownership = r->v.page.change_ownership;
		return;
	}
	if (is_marker(r->kind))
		ev->pfn = r->ptr;
	else
		ev->ptr = r->ptr;
	ev->bytes_req = r->u.slab.bytes_req;
	ev->bytes_alloc = r->u.slab.bytes_alloc;
	ev->call_site = r->v.slab.call_site;
	ev->cache = r->v.slab.cache;
	ev->node = r->v.slab.node;
	ev->accounted = r->v.slab.accounted;
}

/* ---- writing ------------------------------------------------------------------- */

struct db_writer {
	struct binfile_writer file;
	char *path;
	char *buf;			/* records not yet handed to the file */
	size_t len;
	uint32_t in_section;		/* records in the open event section */
	uint32_t sections;		/* event sections begun */
	uint64_t nevents;
	bool user_frames;		/* the run kept perf's user frames */
	struct account accounts[3];	/* all, --malloc, --cache */
};

static const unsigned family_of_account[3] = { FAMILY_ALL, FAMILY_MALLOC, FAMILY_CACHE };

struct db_writer *db_writer_create(const char *path, unsigned run_families, bool user_frames,
				   struct ta_error *err)
{
	struct db_writer *w = xcalloc(1, sizeof(*w));
	int i;

	w->path = xstrdup(path);
	w->user_frames = user_frames;
	/* the run's own account is taken from the run at the end, not kept twice */
	for (i = 0; i < 3; i++)
		account_init(&w->accounts[i],
			     family_of_account[i] == run_families ? 0 : family_of_account[i]);
	if (binfile_create(&w->file, path, DB_MAGIC, DB_MAJOR, DB_MINOR, err) < 0) {
		db_writer_abort(w);
		return NULL;
	}
	if (binfile_begin_section(&w->file, SEC_EVENTS, err) < 0) {
		db_writer_abort(w);
		return NULL;
	}
	w->sections = 1;
	w->buf = xmalloc(RECORD_BUFFER);
	return w;
}

static int flush_records(struct db_writer *w, struct ta_error *err)
{
	int rc = binfile_write(&w->file, w->buf, w->len, err);

	w->len = 0;
	return rc;
}

int db_writer_add(struct db_writer *w, const struct kmem_event *ev, struct ta_error *err)
{
	int i;

	if (w->in_section == EVENTS_PER_SECTION) {	/* start the next event section */
		if (flush_records(w, err) < 0 || binfile_end_section(&w->file, err) < 0 ||
		    binfile_begin_section(&w->file, SEC_MORE_EVENTS + w->sections - 1, err) < 0)
			return -1;
		w->sections++;
		w->in_section = 0;
	}
	if (w->len + sizeof(struct db_record) > RECORD_BUFFER && flush_records(w, err) < 0)
		return -1;
	encode_event(ev, (struct db_record *)(w->buf + w->len));
	w->len += sizeof(struct db_record);
	w->nevents++;
	w->in_section++;
	if (kmem_is_slab(ev->kind))
		for (i = 0; i < 3; i++)
			if (w->accounts[i].families != 0)
				account_apply(&w->accounts[i], ev);
	return 0;
}

static int write_strings(struct db_writer *w, uint32_t id, const struct strtab *t,
			 struct ta_error *err)
{
	uint32_t i;

	if (binfile_begin_section(&w->file, id, err) < 0)
		return -1;
	for (i = 0; i < t->count; i++)
		if (binfile_write(&w->file, strtab_get(t, i), strtab_length(t, i) + 1, err) < 0)
			return -1;
	return binfile_end_section(&w->file, err);
}

static int write_stacks(struct db_writer *w, const struct stack_table *t, struct ta_error *err)
{
	uint32_t i, n;

	if (binfile_begin_section(&w->file, SEC_STACKS, err) < 0)
		return -1;
	for (i = 0; i < t->count; i++) {
		stack_frames(t, i, &n);
		if (binfile_write(&w->file, &n, sizeof(n), err) < 0)
			return -1;
	}
	if (binfile_write(&w->file, t->frames, t->nframes * sizeof(*t->frames), err) < 0)
		return -1;
	return binfile_end_section(&w->file, err);
}

static int write_account_section(struct db_writer *w, uint32_t id, const struct account *a,
				 struct ta_error *err)
{
	struct db_account head;

	memset(&head, 0, sizeof(head));
	head.totals = a->totals;
	head.nsites = a->nsites;
	if (binfile_begin_section(&w->file, id, err) < 0 ||
	    binfile_write(&w->file, &head, sizeof(head), err) < 0 ||
	    binfile_write(&w->file, a->sites, a->nsites * sizeof(*a->sites), err) < 0)
		return -1;
	return binfile_end_section(&w->file, err);
}

static void fill_meta(struct db_meta *m, const struct db_writer *w,
		      const struct trace_strings *strings, const struct parse_stats *stats,
		      const struct trace_header *header, const struct db_input_facts *facts)
{
	memset(m, 0, sizeof(*m));
	m->kind_count = KMEM_KIND_COUNT;
	m->event_record = sizeof(struct db_record);
	m->site_record = sizeof(struct site_stats);
	m->nevents = w->nevents;
	m->nstrings[0] = strings->call_sites.count;
	m->nstrings[1] = strings->caches.count;
	m->nstrings[2] = strings->comms.count;
	m->nstrings[3] = strings->gfps.count;
	m->nframes = strings->frames.count;
	m->nstacks = strings->stacks.count;
	m->user_frames = w->user_frames;
	m->stats = *stats;
	m->has_entries = header->has_entries;
	m->entries_in_buffer = header->entries_in_buffer;
	m->entries_written = header->entries_written;
	m->cpus = (uint64_t)(int64_t)header->cpus;
	m->facts = *facts;
}

int db_writer_finish(struct db_writer *w, const char *source, const struct trace_strings *strings,
		     const struct parse_stats *stats, const struct trace_header *header,
		     const struct db_input_facts *facts, const struct db_capture_facts *capture,
		     uint64_t reordered, const struct account *run_account, unsigned families,
		     const struct db_part *parts, size_t nparts, struct ta_error *err)
{
	static const uint32_t account_ids[3] = { SEC_ACCOUNT_ALL, SEC_ACCOUNT_MALLOC,
						 SEC_ACCOUNT_CACHE };
	struct db_meta meta;
	int i, rc = -1;

	fill_meta(&meta, w, strings, stats, header, facts);
	if (flush_records(w, err) < 0 || binfile_end_section(&w->file, err) < 0 ||
	    binfile_add_section(&w->file, SEC_META, &meta, sizeof(meta), err) < 0 ||
	    binfile_add_section(&w->file, SEC_SOURCE, source, strlen(source), err) < 0 ||
	    write_strings(w, SEC_CALL_SITES, &strings->call_sites, err) < 0 ||
	    write_strings(w, SEC_CACHES, &strings->caches, err) < 0 ||
	    write_strings(w, SEC_COMMS, &strings->comms, err) < 0 ||
	    write_strings(w, SEC_GFPS, &strings->gfps, err) < 0 ||
	    write_strings(w, SEC_FRAMES, &strings->frames, err) < 0 ||
	    write_stacks(w, &strings->stacks, err) < 0 ||
	    (header->reclaimable[0] &&
	     binfile_add_section(&w->file, SEC_RECLAIMABLE, header->reclaimable,
				 strlen(header->reclaimable), err) < 0) ||
	    (capture && capture->kind &&
	     binfile_add_section(&w->file, SEC_CAPTURE, capture, sizeof(*capture), err) < 0) ||
	    (reordered &&
	     binfile_add_section(&w->file, SEC_REORDERED, &reordered, sizeof(reordered), err) < 0))
		goto out;
	for (i = 0; i < 3; i++) {
		const struct account *a = family_of_account[i] == families ? run_account
									  : &w->accounts[i];

		if (write_account_section(w, account_ids[i], a, err) < 0)
			goto out;
	}
	if (nparts && db_parts_write(&w->file, SEC_RESULTS, parts, nparts, err) < 0)
		goto out;
	rc = binfile_commit(&w->file, err);
out:
	db_writer_abort(w);	/* after a commit, only frees */
	return rc;
}

void db_writer_abort(struct db_writer *w)
{
	int i;

	if (!w)
		return;
	binfile_abort(&w->file);
	for (i = 0; i < 3; i++)
		account_release(&w->accounts[i]);
	free(w->buf);
	free(w->path);
	free(w);
}

/* ---- reading --------------------------------------------------------------------- */

static int damaged(const struct db *db, struct ta_error *err, const char *problem)
{
	return error_set(err, "'%s' is not a usable DB file: %s", db->file.path, problem);
}

static int load_strings(struct db *db, uint32_t id, uint64_t count, struct strtab *t,
			struct ta_error *err)
{
	size_t len;
	const void *s;
	const char *problem;

	if (binfile_read_section(&db->file, id, &s, &len, err) < 0)
		return -1;
	problem = strtab_load_packed(t, s, len, count);
	return problem ? damaged(db, err, problem) : 0;
}

static int check_meta(struct db *db, const struct db_meta *m, struct ta_error *err)
{
	if (m->kind_count != KMEM_KIND_COUNT || m->event_record != sizeof(struct db_record) ||
	    m->site_record != sizeof(struct site_stats))
		return damaged(db, err, "its records have another layout than this program's");
	if (m->nstrings[0] > UINT32_MAX || m->nstrings[1] > UINT32_MAX ||
	    m->nstrings[2] > UINT32_MAX || m->nstrings[3] > UINT32_MAX ||
	    m->nframes > UINT32_MAX || m->nstacks >= UINT32_MAX || m->user_frames > 1)
		return damaged(db, err, "its string counts are out of range");
	return 0;
}

static int load_stacks(struct db *db, uint64_t count, struct trace_strings *strings,
		       struct ta_error *err)
{
	size_t len;
	const void *section;
	const uint32_t *p;
	const char *problem;

	if (binfile_read_section(&db->file, SEC_STACKS, &section, &len, err) < 0)
		return -1;
	p = section;
	if (!p && count == 0)
		return 0;
	if (!p || len % sizeof(uint32_t) || count > len / sizeof(uint32_t))
		return damaged(db, err, "its stack section has the wrong length");
	problem = stack_table_load(&strings->stacks, p, count, p + count,
				   len / sizeof(uint32_t) - count, strings->frames.count);
	return problem ? damaged(db, err, problem) : 0;
}

static int load_meta(struct db *db, struct trace_strings *strings, struct ta_error *err)
{
	struct db_meta m;
	size_t len, qlen;
	const void *p, *q;

	if (binfile_read_section(&db->file, SEC_META, &p, &len, err) < 0)
		return -1;
	if (!p || len != sizeof(m))
		return damaged(db, err, "it has no valid META section");
	memcpy(&m, p, sizeof(m));
	if (check_meta(db, &m, err) < 0)
		return -1;
	db->stats = m.stats;
	db->header.has_entries = m.has_entries != 0;
	db->header.entries_in_buffer = m.entries_in_buffer;
	db->header.entries_written = m.entries_written;
	db->header.cpus = (int)(int64_t)m.cpus;
	db->facts = m.facts;
	db->nevents = m.nevents;
	if (binfile_read_section(&db->file, SEC_SOURCE, &p, &len, err) < 0)
		return -1;
	db->source = xmalloc(len + 1);
	if (len)
		memcpy(db->source, p, len);
	db->source[len] = '\0';
	if (strlen(db->source) != len)
		return damaged(db, err, "its source name holds a NUL byte");
	if (binfile_read_section(&db->file, SEC_RECLAIMABLE, &p, &len, err) < 0)
		return -1;
	if (p && (len >= sizeof(db->header.reclaimable) || memchr(p, '\0', len)))
		return damaged(db, err, "its list of reclaimable caches is damaged");
	if (p)
		memcpy(db->header.reclaimable, p, len);
	if (binfile_read_section(&db->file, SEC_CAPTURE, &p, &len, err) < 0)
		return -1;
	if (p && len != sizeof(db->capture))
		return damaged(db, err, "its facts of the capture it was made from are damaged");
	if (binfile_read_section(&db->file, SEC_REORDERED, &q, &qlen, err) < 0)
		return -1;
	if (q && qlen != sizeof(db->reordered))
		return damaged(db, err, "its count of reordered events is damaged");
	if (q)
		memcpy(&db->reordered, q, qlen);
	if (p) {
		memcpy(&db->capture, p, len);
		db->capture.os_release[sizeof(db->capture.os_release) - 1] = '\0';
	}
	if (load_strings(db, SEC_CALL_SITES, m.nstrings[0], &strings->call_sites, err) < 0 ||
	    load_strings(db, SEC_CACHES, m.nstrings[1], &strings->caches, err) < 0 ||
	    load_strings(db, SEC_COMMS, m.nstrings[2], &strings->comms, err) < 0 ||
	    load_strings(db, SEC_GFPS, m.nstrings[3], &strings->gfps, err) < 0 ||
	    load_strings(db, SEC_FRAMES, m.nframes, &strings->frames, err) < 0 ||
	    load_stacks(db, m.nstacks, strings, err) < 0)
		return -1;
	db->user_frames = m.user_frames != 0;
	/* event sections: the right length (their bytes are checked when read) */
	if (db->file.table) {
		uint32_t i;

		for (i = 0; i < db->file.nsections; i++) {
			const struct binfile_entry *e = &db->file.table[i];

			if (e->id == SEC_EVENTS || (e->id >= SEC_MORE_EVENTS && e->id < SEC_RESULTS)) {
				uint64_t k = e->id == SEC_EVENTS ? 0 : e->id - SEC_MORE_EVENTS + 1;
				uint64_t first = k * EVENTS_PER_SECTION;
				uint64_t n = db->nevents > first ? db->nevents - first : 0;

				if (n > EVENTS_PER_SECTION)
					n = EVENTS_PER_SECTION;
				if (n == 0 || e->length != n * sizeof(struct db_record))
					return damaged(db, err, "an event section has the wrong length");
			}
		}
	}
	return 0;
}

int db_open(struct db *db, const char *path, struct trace_strings *strings,
	    struct ta_error *err)
{
	memset(db, 0, sizeof(*db));
	static const struct binfile_kind kind = {
		DB_MAGIC, 2, DB_MAJOR, "DB file", "--save-db from the log", true
	};

	if (binfile_open(&db->file, path, &kind, err) < 0)
		return -1;
	if (load_meta(db, strings, err) < 0) {
		db_close(db);
		return -1;
	}
	return 0;
}

void db_close(struct db *db)
{
	binfile_close(&db->file);
	free(db->source);
	db->source = NULL;
}

int db_load_account(struct db *db, unsigned families, uint32_t ncall_sites,
		    struct account *a, struct ta_error *err)
{
	uint32_t id = families == FAMILY_MALLOC ? SEC_ACCOUNT_MALLOC
		    : families == FAMILY_CACHE ? SEC_ACCOUNT_CACHE : SEC_ACCOUNT_ALL;
	struct db_account head;
	size_t len;
	const void *section;
	const unsigned char *p;

	if (binfile_read_section(&db->file, id, &section, &len, err) < 0)
		return -1;
	p = section;
	if (!p || len < sizeof(head))
		return damaged(db, err, "it has no valid account section");
	memcpy(&head, p, sizeof(head));
	if (head.nsites > UINT32_MAX ||
	    len != sizeof(head) + head.nsites * sizeof(struct site_stats))
		return damaged(db, err, "an account section has the wrong length");
	if (head.nsites > ncall_sites)
		return damaged(db, err, "an account section names call sites it does not have");
	a->totals = head.totals;
	a->nsites = (uint32_t)head.nsites;
	a->sites_cap = a->nsites;
	a->sites = xmalloc(head.nsites ? head.nsites * sizeof(struct site_stats) : 1);
	if (head.nsites)
		memcpy(a->sites, p + sizeof(head), head.nsites * sizeof(struct site_stats));
	return 0;
}

int db_parts_kept_by(struct db *db, enum db_parts_kept *kept, struct ta_error *err)
{
	return db_parts_kept(&db->file, SEC_RESULTS, kept, err);
}

int db_find_part(struct db *db, const char *name, uint32_t *version,
		 uint32_t sizes[DB_PART_SIZES], const void **data, size_t *len,
		 struct ta_error *err)
{
	return db_parts_find(&db->file, SEC_RESULTS, name, version, sizes, data, len, err);
}

/* Is every string id of ev one its table has? */
static bool ids_in_range(const struct kmem_event *ev, const struct trace_strings *s)
{
	return (ev->call_site == STR_NONE || ev->call_site < s->call_sites.count) &&
	       (ev->cache == STR_NONE || ev->cache < s->caches.count) &&
	       (ev->comm == STR_NONE || ev->comm < s->comms.count) &&
	       (ev->gfp == STR_NONE || ev->gfp < s->gfps.count) &&
	       (ev->stack == STACK_NONE || ev->stack < s->stacks.count);
}

static uint32_t event_section_id(uint64_t k)
{
	return k ? (uint32_t)(SEC_MORE_EVENTS + k - 1) : SEC_EVENTS;
}

int db_check_events(struct db *db, struct ta_error *err)
{
	uint64_t nsections = (db->nevents + EVENTS_PER_SECTION - 1) / EVENTS_PER_SECTION, k;
	uint32_t *ids;
	int rc;

	if (nsections > db->file.nsections)
		return damaged(db, err, "an event section is missing");
	ids = xmalloc((nsections ? nsections : 1) * sizeof(*ids));
	for (k = 0; k < nsections; k++)
		ids[k] = event_section_id(k);
	rc = binfile_check_sections(&db->file, ids, (size_t)nsections, err);
	free(ids);
	return rc;
}

int db_replay(struct db *db, const struct trace_strings *strings,
	      void (*fn)(void *ctx, const struct kmem_event *ev), void *ctx,
	      struct ta_error *err)
{
	size_t len;
	const struct db_record *r = NULL;
	uint64_t i, line = 0, tick_ts = 0, tick_line = 0;
	struct kmem_event ev;

	if (db_check_events(db, err) < 0)
		return -1;
	for (i = 0; i < db->nevents; i++) {
		if (i % RELEASE_EVERY == 0 && i > 0)	/* the pages behind are done with */
			binfile_release(&db->file, &r[(i - 1) % EVENTS_PER_SECTION + 1 - RELEASE_EVERY],
					RELEASE_EVERY * sizeof(*r));
		if (i % EVENTS_PER_SECTION == 0) {
			uint64_t k = i / EVENTS_PER_SECTION;

			r = binfile_section(&db->file, event_section_id(k), &len);
			if (!r)
				return damaged(db, err, "an event section is missing");
		}
		decode_event(&r[i % EVENTS_PER_SECTION], &ev);
		if (!kmem_is_slab(ev.kind) && !kmem_is_page(ev.kind) && !is_marker(ev.kind))
			return damaged(db, err, "an event record has a bad kind");
		if (!ids_in_range(&ev, strings))
			return damaged(db, err, "an event record names a string it does not have");
		if (kmem_is_slab_alloc(ev.kind) && ev.ptr && ev.call_site == STR_NONE)
			return damaged(db, err, "an allocation record has no call site");
		/* in the log's order, but within one tick (tickorder.h), whose events
		 * the reading may have put in another order */
		if (ev.line < line && (ev.ts_ns != tick_ts || ev.line < tick_line))
			return damaged(db, err, "its events are out of order");
		if (ev.ts_ns != tick_ts || !i) {
			tick_ts = ev.ts_ns;
			tick_line = line;	/* the lines before this tick */
		}
		if (ev.line > line)
			line = ev.line;
		fn(ctx, &ev);
	}
	return 0;
}

static void ignore_event(void *ctx, const struct kmem_event *ev)
{
	(void)ctx;
	(void)ev;
}

int db_check_all(struct db *db, const struct trace_strings *strings, struct ta_error *err)
{
	static const unsigned families[] = { FAMILY_ALL, FAMILY_MALLOC, FAMILY_CACHE };
	size_t i;

	if (binfile_check_all(&db->file, err) < 0)
		return -1;
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		struct account a;

		memset(&a, 0, sizeof(a));
		if (db_load_account(db, families[i], strings->call_sites.count, &a, err) < 0)
			return -1;
		free(a.sites);
	}
	return db_replay(db, strings, ignore_event, NULL, err);
}
