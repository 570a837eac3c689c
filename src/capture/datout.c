/*
 * datout.c - record's log as trace-cmd's trace.dat (version 6, as
 * trace-cmd.dat.v6(5) lays it out), for `record -o FILE.dat`: trace-cmd
 * report and KernelShark open it, and so does `trace_analyze -f`.
 *
 * The records kept are written again into ring-buffer pages of our own,
 * one stream per CPU (each CPU's records in time order, as the merge
 * hands them on), so that the file holds exactly what the text log would:
 * with a task filter, the frees of other objects are not in it. A page
 * that follows lost events says so (and how many), as the kernel's pages
 * do. Each CPU's pages go to a temporary file (unlinked, beside the
 * output), and are copied after the header once the capture ends.
 * The header holds the ring buffer's formats, the kmem and kernel_stack
 * event formats, /proc/kallsyms, and the task names of the pids seen.
 *
 * Not here: reading pages (stream.c), deciding what is kept (merge.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <tracefs.h>

#include "capture_local.h"
#include "datout.h"
#include "scratch.h"

#define TS_BITS 27			/* a ring buffer event's time delta */
#define TYPE_DATA_MAX 28		/* type_len of the longest data given by type_len */
#define TYPE_TIME_EXTEND 30
#define MISSED_EVENTS (1ull << 31)	/* the page's commit flags */
#define MISSED_STORED (1ull << 30)
#define PAGE_HEADER 16			/* u64 timestamp, u64 commit */

struct cpu_pages {
	int fd;			/* the temporary file of its pages */
	uint64_t pages;
	unsigned char *page;	/* the page being filled */
	size_t used;		/* of its data, after the header */
	uint64_t last_ts;	/* of its last event */
	bool open;		/* a page is being filled */
	long long missed;	/* lost events to say on the next page (-1: some) */
};

struct dat_writer {
	struct capture *c;
	int page_size;
	struct cpu_pages *cpus;
	int ncpus;
	int *pids;		/* the pids seen, for their names */
	size_t npids, pids_cap;
	char *dir;		/* where the temporary files go */
};

static size_t data_room(const struct dat_writer *w)
{
	return (size_t)w->page_size - PAGE_HEADER;
}

int dat_writer_open(struct dat_writer **out, struct capture *c, const char *path,
		    struct ta_error *err)
{
	struct dat_writer *w = xcalloc(1, sizeof(*w));
	const char *slash = strrchr(path, '/');
	int cpu;

	*out = w;
	w->c = c;
	w->page_size = c->page_size;
	w->ncpus = c->ncpus;
	w->dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : xstrdup(".");
	if (!w->dir)
		w->dir = xstrdup(".");
	w->cpus = xcalloc((size_t)w->ncpus, sizeof(*w->cpus));
	for (cpu = 0; cpu < w->ncpus; cpu++)
		w->cpus[cpu].fd = -1;
	for (cpu = 0; cpu < w->ncpus; cpu++) {
		w->cpus[cpu].page = xcalloc(1, (size_t)w->page_size);
		w->cpus[cpu].fd = scratch_file_open(w->dir);
		if (w->cpus[cpu].fd < 0)
			return error_set_errno(err, errno, "cannot make a temporary file in '%s' for "
					       "the pages of '%s'", w->dir, path);
	}
	return 0;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void put_u64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

/* The page being filled, to its CPU's file; the lost events it says are then said. */
static int end_page(struct dat_writer *w, struct cpu_pages *cp, struct ta_error *err)
{
	uint64_t commit = cp->used;

	if (!cp->open)
		return 0;
	if (cp->missed) {
		commit |= MISSED_EVENTS;
		if (cp->missed > 0 && cp->used + 8 <= data_room(w)) {
			put_u64(cp->page + PAGE_HEADER + cp->used, (uint64_t)cp->missed);
			commit |= MISSED_STORED;
		}
		cp->missed = 0;
	}
	put_u64(cp->page + 8, commit);
	if (write_whole(cp->fd, cp->page, (size_t)w->page_size) < 0)
		return error_set_errno(err, errno, "cannot write the pages of the trace.dat");
	cp->pages++;
	cp->open = false;
	return 0;
}

static void start_page(struct dat_writer *w, struct cpu_pages *cp, uint64_t ts)
{
	memset(cp->page, 0, (size_t)w->page_size);
	put_u64(cp->page, ts);
	cp->used = 0;
	cp->last_ts = ts;
	cp->open = true;
}

static void note_pid(struct dat_writer *w, int pid)
{
	size_t i;

	if (pid <= 0)
		return;
	for (i = w->npids; i > 0 && i + 8 > w->npids; i--)	/* the latest few: most repeat */
		if (w->pids[i - 1] == pid)
			return;
	for (i = 0; i < w->npids; i++)
		if (w->pids[i] == pid)
			return;
	if (w->npids == w->pids_cap) {
		w->pids_cap = w->pids_cap ? w->pids_cap * 2 : 256;
		w->pids = xrealloc(w->pids, w->pids_cap * sizeof(*w->pids));
	}
	w->pids[w->npids++] = pid;
}

int dat_writer_add(struct dat_writer *w, const struct capture_item *it, struct ta_error *err)
{
	struct cpu_pages *cp;
	const struct tep_record *rec = it->rec;
	size_t len, need, hdr;
	uint64_t delta;
	unsigned char *p;

	if (it->cpu < 0 || it->cpu >= w->ncpus)
		return 0;
	cp = &w->cpus[it->cpu];
	if (!rec) {	/* the next page says events were lost before it */
		if (end_page(w, cp, err) < 0)
			return -1;
		cp->missed = it->lost > 0 ? it->lost : -1;
		return 0;
	}
	note_pid(w, tep_data_pid(w->c->tep, (struct tep_record *)rec));
	len = ((size_t)rec->size + 3) & ~(size_t)3;
	hdr = len <= TYPE_DATA_MAX * 4 ? 4 : 8;
	if (!cp->open)
		start_page(w, cp, rec->ts);
	delta = rec->ts >= cp->last_ts ? rec->ts - cp->last_ts : 0;
	need = hdr + len + (delta >> TS_BITS ? 8 : 0);
	if (cp->used + need + 8 > data_room(w)) {	/* 8: room for a lost count */
		if (end_page(w, cp, err) < 0)
			return -1;
		start_page(w, cp, rec->ts);
		delta = 0;
		need = hdr + len;
		if (need > data_room(w))
			return 0;	/* larger than a page: no ring buffer holds that */
	}
	p = cp->page + PAGE_HEADER + cp->used;
	if (delta >> TS_BITS) {	/* TIME_EXTEND: the high bits in the next word */
		put_u32(p, (uint32_t)TYPE_TIME_EXTEND | (uint32_t)((delta & ((1u << TS_BITS) - 1)) << 5));
		put_u32(p + 4, (uint32_t)(delta >> TS_BITS));
		p += 8;
		cp->used += 8;
		delta = 0;
	}
	if (hdr == 4) {
		put_u32(p, (uint32_t)(len / 4) | (uint32_t)(delta << 5));
	} else {
		put_u32(p, (uint32_t)(delta << 5));	/* type_len 0: the length follows */
		put_u32(p + 4, (uint32_t)len + 4);
	}
	memcpy(p + hdr, rec->data, (size_t)rec->size);
	cp->used += hdr + len;
	cp->last_ts = rec->ts;
	return 0;
}

/* ---- the header ---- */

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		while (b->len + n > b->cap)
			b->cap = b->cap ? b->cap * 2 : 1 << 16;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void add_u16(struct buf *b, uint16_t v)
{
	add(b, &v, 2);
}

static void add_u32(struct buf *b, uint32_t v)
{
	add(b, &v, 4);
}

static void add_u64(struct buf *b, uint64_t v)
{
	add(b, &v, 8);
}

static char *read_tracefs(const char *file, int *size)
{
	char *text = tracefs_instance_file_read(NULL, file, size);

	if (!text || *size < 0) {
		free(text);
		*size = 0;
		return NULL;
	}
	return text;
}

static int add_labelled(struct buf *b, const char *label, const char *file, struct ta_error *err)
{
	int size = 0;
	char *text = read_tracefs(file, &size);

	if (!text)
		return error_set(err, "cannot read '%s' of tracefs for the trace.dat", file);
	add(b, label, strlen(label) + 1);
	add_u64(b, (uint64_t)size);
	add(b, text, (size_t)size);
	free(text);
	return 0;
}

/* The formats of the events the tep knows of a system (the capture's, and only those). */
static void add_formats(struct buf *b, struct tep_handle *tep, const char *system, bool with_count)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_ID);
	uint32_t n = 0;
	size_t count_at = b->len;
	int i;

	if (with_count)
		add_u32(b, 0);	/* the count, filled in below */
	for (i = 0; events && events[i]; i++) {
		char file[512];
		char *text;
		int size = 0;

		if (strcmp(events[i]->system, system) != 0)
			continue;
		snprintf(file, sizeof(file), "events/%s/%s/format", system, events[i]->name);
		text = read_tracefs(file, &size);
		if (!text)
			continue;
		add_u64(b, (uint64_t)size);
		add(b, text, (size_t)size);
		free(text);
		n++;
	}
	memcpy(b->p + count_at, &n, 4);
}

static void add_file_u32(struct buf *b, const char *path)
{
	FILE *f = fopen(path, "re");
	struct buf text = { NULL, 0, 0 };
	char chunk[65536];
	size_t n;

	while (f && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		add(&text, chunk, n);
	if (f)
		fclose(f);
	add_u32(b, (uint32_t)text.len);
	if (text.len)
		add(b, text.p, text.len);
	free(text.p);
}

static void add_cmdlines(struct buf *b, const struct dat_writer *w)
{
	struct buf text = { NULL, 0, 0 };
	char line[64];
	size_t i;

	for (i = 0; i < w->npids; i++) {
		const char *comm = tep_data_comm_from_pid(w->c->tep, w->pids[i]);
		int n;

		if (!comm || strcmp(comm, "<...>") == 0)
			continue;
		n = snprintf(line, sizeof(line), "%d %.16s\n", w->pids[i], comm);
		add(&text, line, (size_t)n);
	}
	add_u64(b, text.len);
	if (text.len)
		add(b, text.p, text.len);
	free(text.p);
}

static int make_header(struct dat_writer *w, struct buf *b, struct ta_error *err)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	unsigned char endian_long[2] = { 0, (unsigned char)sizeof(long) };
	struct tep_handle *tep = w->c->tep;

	add(b, magic, sizeof(magic));
	add(b, "6", 2);
	add(b, endian_long, 2);
	add_u32(b, (uint32_t)w->page_size);
	if (add_labelled(b, "header_page", "events/header_page", err) < 0 ||
	    add_labelled(b, "header_event", "events/header_event", err) < 0)
		return -1;
	add_formats(b, tep, "ftrace", true);	/* kernel_stack, if stacks were recorded */
	add_u32(b, 1);				/* one system of events */
	add(b, "kmem", 5);
	add_formats(b, tep, "kmem", true);
	add_file_u32(b, "/proc/kallsyms");
	add_u32(b, 0);				/* no trace_printk formats */
	add_cmdlines(b, w);
	add_u32(b, (uint32_t)w->ncpus);
	add(b, "options  ", 10);
	add_u16(b, 0);				/* no options */
	add(b, "flyrecord", 10);
	return 0;
}

int dat_writer_finish(struct dat_writer *w, int out_fd, struct ta_error *err)
{
	struct buf h = { NULL, 0, 0 };
	uint64_t offset;
	int cpu, rc = -1;

	for (cpu = 0; cpu < w->ncpus; cpu++)
		if (end_page(w, &w->cpus[cpu], err) < 0)
			return -1;
	if (make_header(w, &h, err) < 0)
		goto out;
	offset = h.len + (uint64_t)w->ncpus * 16;
	offset = (offset + (uint64_t)w->page_size - 1) / (uint64_t)w->page_size * (uint64_t)w->page_size;
	for (cpu = 0; cpu < w->ncpus; cpu++) {
		uint64_t size = w->cpus[cpu].pages * (uint64_t)w->page_size;

		add_u64(&h, size ? offset : 0);
		add_u64(&h, size);
		offset += size;
	}
	while (h.len % (size_t)w->page_size)
		add(&h, "", 1);
	if (write_whole(out_fd, h.p, h.len) < 0) {
		error_set_errno(err, errno, "cannot write the trace.dat");
		goto out;
	}
	for (cpu = 0; cpu < w->ncpus; cpu++) {
		struct cpu_pages *cp = &w->cpus[cpu];
		unsigned char page[65536];
		ssize_t n;

		if (lseek(cp->fd, 0, SEEK_SET) < 0)
			continue;
		while ((n = read(cp->fd, page, sizeof(page))) > 0)
			if (write_whole(out_fd, page, (size_t)n) < 0) {
				error_set_errno(err, errno, "cannot write the trace.dat");
				goto out;
			}
	}
	rc = 0;
out:
	free(h.p);
	return rc;
}

void dat_writer_free(struct dat_writer *w)
{
	int cpu;

	if (!w)
		return;
	for (cpu = 0; w->cpus && cpu < w->ncpus; cpu++) {
		if (w->cpus[cpu].fd >= 0)
			close(w->cpus[cpu].fd);
		free(w->cpus[cpu].page);
	}
	free(w->cpus);
	free(w->pids);
	free(w->dir);
	free(w);
}
