/*
 * binfile.c - the sectioned, checksummed container of binary files:
 * buffered writes to a temporary file renamed into place at commit, and
 * mmap reads that verify everything before handing out a byte.
 * Not here: what any section means.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "bigmem.h"
#include "binfile.h"

#define WRITE_BUFFER (1u << 20)

_Static_assert(sizeof(struct binfile_header) == 64, "header layout");
_Static_assert(sizeof(struct binfile_entry) == 32, "table entry layout");

static void fill_int_sizes(uint8_t sizes[8])
{
	sizes[0] = sizeof(short);
	sizes[1] = sizeof(int);
	sizes[2] = sizeof(long);
	sizes[3] = sizeof(long long);
	sizes[4] = sizeof(void *);
	sizes[5] = sizeof(size_t);
	sizes[6] = sizeof(double);
	sizes[7] = 0;
}

/* ---- writing ------------------------------------------------------------------ */

static int flush_buffer(struct binfile_writer *w, struct ta_error *err)
{
	size_t done = 0;

	while (done < w->buf_len) {
		ssize_t n = write(w->out.fd, w->buf + done, w->buf_len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return error_set_errno(err, errno, "cannot write '%s'", w->out.name);
		}
		done += (size_t)n;
	}
	w->buf_len = 0;
	return 0;
}

/* Append raw bytes to the file (through the buffer), not hashed. */
static int put_bytes(struct binfile_writer *w, const void *data, size_t len,
		     struct ta_error *err)
{
	const char *p = data;

	while (len) {
		size_t room = WRITE_BUFFER - w->buf_len;
		size_t n = len < room ? len : room;

		memcpy(w->buf + w->buf_len, p, n);
		w->buf_len += n;
		w->pos += n;
		p += n;
		len -= n;
		if (w->buf_len == WRITE_BUFFER && flush_buffer(w, err) < 0)
			return -1;
	}
	return 0;
}

static int pad_to_alignment(struct binfile_writer *w, struct ta_error *err)
{
	static const char zeros[BINFILE_ALIGN];
	size_t pad = (size_t)((BINFILE_ALIGN - w->pos % BINFILE_ALIGN) % BINFILE_ALIGN);

	return put_bytes(w, zeros, pad, err);
}

int binfile_create(struct binfile_writer *w, const char *path, const char *magic,
		   uint16_t major, uint16_t minor, struct ta_error *err)
{
	struct binfile_header blank;

	memset(w, 0, sizeof(*w));
	memcpy(w->magic, magic, BINFILE_MAGIC_LEN);
	w->major = major;
	w->minor = minor;
	if (outfile_open(&w->out, path, err) < 0)
		return -1;
	if (w->out.f == stdout) {
		outfile_abort(&w->out);
		return error_set(err, "cannot write '%s' to standard output: a binary file "
				 "needs a file name", path);
	}
	w->buf = xmalloc(WRITE_BUFFER);
	w->hash_state = XXH3_createState();
	if (!w->hash_state)
		xmalloc(SIZE_MAX);	/* reports out of memory */
	memset(&blank, 0, sizeof(blank));	/* the real header comes at commit */
	if (put_bytes(w, &blank, sizeof(blank), err) < 0) {
		binfile_abort(w);
		return -1;
	}
	return 0;
}

int binfile_begin_section(struct binfile_writer *w, uint32_t id, struct ta_error *err)
{
	struct binfile_entry *e;

	if (pad_to_alignment(w, err) < 0)
		return -1;
	if (w->nentries == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		w->entries = xrealloc(w->entries, w->cap * sizeof(*w->entries));
	}
	e = &w->entries[w->nentries++];
	memset(e, 0, sizeof(*e));
	e->id = id;
	e->offset = w->pos;
	XXH3_64bits_reset(w->hash_state);
	w->in_section = true;
	return 0;
}

int binfile_write(struct binfile_writer *w, const void *data, size_t len, struct ta_error *err)
{
	if (len == 0)
		return 0;
	XXH3_64bits_update(w->hash_state, data, len);
	return put_bytes(w, data, len, err);
}

int binfile_end_section(struct binfile_writer *w, struct ta_error *err)
{
	struct binfile_entry *e = &w->entries[w->nentries - 1];

	(void)err;
	e->length = w->pos - e->offset;
	e->checksum = XXH3_64bits_digest(w->hash_state);
	w->in_section = false;
	return 0;
}

int binfile_add_section(struct binfile_writer *w, uint32_t id, const void *data, size_t len,
			struct ta_error *err)
{
	if (binfile_begin_section(w, id, err) < 0 || binfile_write(w, data, len, err) < 0)
		return -1;
	return binfile_end_section(w, err);
}

static void make_header(const struct binfile_writer *w, struct binfile_header *h,
			uint64_t table_offset, uint64_t table_checksum)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, w->magic, BINFILE_MAGIC_LEN);
	h->major = w->major;
	h->minor = w->minor;
	h->endian = BINFILE_ENDIAN_MARK;
	fill_int_sizes(h->int_sizes);
	h->nsections = w->nentries;
	h->table_offset = table_offset;
	h->file_size = table_offset + (uint64_t)w->nentries * sizeof(struct binfile_entry);
	h->table_checksum = table_checksum;
	h->header_checksum = XXH3_64bits(h, offsetof(struct binfile_header, header_checksum));
}

static int write_header(struct binfile_writer *w, const struct binfile_header *h,
			struct ta_error *err)
{
	ssize_t n;

	do
		n = pwrite(w->out.fd, h, sizeof(*h), 0);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*h))
		return error_set_errno(err, n < 0 ? errno : EIO, "cannot write '%s'", w->out.name);
	return 0;
}

int binfile_commit(struct binfile_writer *w, struct ta_error *err)
{
	struct binfile_header h;
	size_t table_len = (size_t)w->nentries * sizeof(struct binfile_entry);
	uint64_t table_offset;

	if (w->in_section && binfile_end_section(w, err) < 0)
		goto fail;
	if (pad_to_alignment(w, err) < 0)
		goto fail;
	table_offset = w->pos;
	if (put_bytes(w, w->entries, table_len, err) < 0 || flush_buffer(w, err) < 0)
		goto fail;
	make_header(w, &h, table_offset, XXH3_64bits(w->entries, table_len));
	if (write_header(w, &h, err) < 0)
		goto fail;
	if (outfile_commit(&w->out, true, err) < 0)
		goto fail;
	binfile_abort(w);	/* frees the rest; the file is in place */
	return 0;
fail:
	binfile_abort(w);
	return -1;
}

void binfile_abort(struct binfile_writer *w)
{
	outfile_abort(&w->out);
	free(w->entries);
	free(w->buf);
	if (w->hash_state)
		XXH3_freeState(w->hash_state);
	memset(w, 0, sizeof(*w));
	w->out.fd = -1;
	w->out.slot = -1;
	w->out.lock_fd = -1;	/* nothing open: a second abort closes nothing */
}

bool binfile_has_magic(const char *path, const char *magic)
{
	char head[BINFILE_MAGIC_LEN];
	struct stat st;
	bool yes;
	int fd;

	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	yes = read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
	      memcmp(head, magic, sizeof(head)) == 0;
	close(fd);
	return yes;
}

/*
 * A fuzzing build takes every checksum as good, so that mutated files get
 * past them to the checks behind (tests/fuzz/fuzz_db.c).
 */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define SUMS_DIFFER(a, b) ((void)(a), (void)(b), 0)
#else
#define SUMS_DIFFER(a, b) ((a) != (b))
#endif

/* ---- reading ------------------------------------------------------------------ */

static int refuse(struct binfile *f, struct ta_error *err, const char *what,
		  const char *problem)
{
	error_set(err, "'%s' is not a usable %s: %s", f->path, what, problem);
	binfile_close(f);
	return -1;
}

static uint32_t swap32(uint32_t v)
{
	return __builtin_bswap32(v);
}

/* Magic, byte order, sizes and version: whether this reader can read it at all. */
static int check_identity(struct binfile *f, const struct binfile_header *h,
			  const struct binfile_kind *kind, struct ta_error *err)
{
	const char *what = kind->what;
	uint8_t sizes[8];
	char msg[200];

	if (memcmp(h->magic, kind->magic, BINFILE_MAGIC_LEN) != 0)
		return refuse(f, err, what, "wrong magic number (not a file trace_analyze wrote, "
					    "or another kind of file)");
	if (h->endian != BINFILE_ENDIAN_MARK)
		return refuse(f, err, what, swap32(h->endian) == BINFILE_ENDIAN_MARK
			      ? "written on a machine of the other byte order"
			      : "bad byte-order marker");
	fill_int_sizes(sizes);
	if (memcmp(sizes, h->int_sizes, sizeof(sizes)) != 0)
		return refuse(f, err, what, "written on a machine with other integer sizes");
	if (h->major > kind->max_major) {
		snprintf(msg, sizeof(msg), "format version %u.%u is newer than this program reads "
			 "(%u.x): upgrade trace_analyze", h->major, h->minor, kind->max_major);
		return refuse(f, err, what, msg);
	}
	if (h->major < kind->min_major) {
		snprintf(msg, sizeof(msg), "format version %u.%u is older than this program reads "
			 "(%u.x): make it again with %s", h->major, h->minor, kind->min_major,
			 kind->remake);
		return refuse(f, err, what, msg);
	}
	return 0;
}

/*
 * XXH3-64 of a region of the map, hashed in 8 MiB pieces whose pages are
 * dropped from the mapping once hashed: checking a large file does not
 * leave all of it resident (the pages stay in the page cache).
 */
static uint64_t hash_region(const struct binfile *f, uint64_t off, uint64_t len)
{
	const uint64_t piece = 8u << 20;
	XXH3_state_t *st;
	uint64_t done = 0, h;

	if (len <= piece)
		return XXH3_64bits(f->map + off, (size_t)len);
	st = XXH3_createState();
	if (!st) {
		fputs("trace_analyze: error: out of memory\n", stderr);
		exit(1);
	}
	XXH3_64bits_reset(st);
	while (done < len) {
		uint64_t n = len - done < piece ? len - done : piece;

		XXH3_64bits_update(st, f->map + off + done, (size_t)n);
		pages_give_back(f->map + off + done, (size_t)n);
		done += n;
	}
	h = XXH3_64bits_digest(st);
	XXH3_freeState(st);
	return h;
}

/* The sections idx[from..to) of f, whose checksums one thread checks. */
struct section_check {
	const struct binfile *f;
	const uint32_t *idx;
	size_t from, to;
	size_t first_bad;		/* to if none */
};

static void *check_sections_thread(void *arg)
{
	struct section_check *c = arg;
	size_t i;

	c->first_bad = c->to;
	for (i = c->from; i < c->to; i++) {
		const struct binfile_entry *e = &c->f->table[c->idx[i]];

		if (SUMS_DIFFER(hash_region(c->f, e->offset, e->length), e->checksum)) {
			c->first_bad = i;
			break;
		}
	}
	return NULL;
}

/*
 * Of the sections idx[0..n), the first whose checksum is wrong, or n.
 * Many bytes are checked by two threads, each taking about half of them
 * (the DB splits its events into several sections for this).
 */
static size_t first_bad_section(const struct binfile *f, const uint32_t *idx, size_t n)
{
	struct section_check a = { f, idx, 0, n, 0 }, b = { f, idx, 0, 0, 0 };
	uint64_t total = 0, half = 0;
	pthread_t helper;
	size_t i;

	for (i = 0; i < n; i++)
		total += f->table[idx[i]].length;
	if (total < (64u << 20) || n < 2) {
		check_sections_thread(&a);
		return a.first_bad;
	}
	for (i = 0; i < n && half + f->table[idx[i]].length <= total / 2; i++)
		half += f->table[idx[i]].length;
	a.to = b.from = i;
	b.to = n;
	if (pthread_create(&helper, NULL, check_sections_thread, &b) != 0) {
		a.to = n;	/* no thread: check everything here */
		check_sections_thread(&a);
		return a.first_bad;
	}
	check_sections_thread(&a);
	pthread_join(helper, NULL);
	return a.first_bad < a.to ? a.first_bad : b.first_bad;
}

/* Check the sections idx[0..n) not checked yet (idx is reordered). */
static int check_indexes(struct binfile *f, uint32_t *idx, size_t n, struct ta_error *err)
{
	size_t i, todo = 0, bad;

	for (i = 0; i < n; i++)
		if (!f->checked[idx[i]])
			idx[todo++] = idx[i];
	bad = first_bad_section(f, idx, todo);
	if (bad < todo)
		return error_set(err, "'%s' is not a usable %s: bad checksum of section %u "
				 "(damaged file)", f->path, f->what, (unsigned)f->table[idx[bad]].id);
	for (i = 0; i < todo; i++)
		f->checked[idx[i]] = true;
	return 0;
}

int binfile_check_sections(struct binfile *f, const uint32_t *ids, size_t n,
			   struct ta_error *err)
{
	uint32_t *idx = xmalloc((f->nsections ? f->nsections : 1) * sizeof(*idx));
	size_t k = 0, j;
	uint32_t i;
	int rc;

	for (i = 0; i < f->nsections; i++)
		for (j = 0; j < n; j++)
			if (f->table[i].id == ids[j]) {
				idx[k++] = i;
				break;
			}
	rc = check_indexes(f, idx, k, err);
	free(idx);
	return rc;
}

int binfile_check_all(struct binfile *f, struct ta_error *err)
{
	uint32_t *idx = xmalloc((f->nsections ? f->nsections : 1) * sizeof(*idx));
	uint32_t i;
	int rc;

	for (i = 0; i < f->nsections; i++)
		idx[i] = i;
	rc = check_indexes(f, idx, f->nsections, err);
	free(idx);
	return rc;
}

static int check_layout(struct binfile *f, const struct binfile_header *h, const char *what,
			struct ta_error *err)
{
	uint64_t table_len = (uint64_t)h->nsections * sizeof(struct binfile_entry);
	uint32_t i;
	char msg[160];

	if (SUMS_DIFFER(XXH3_64bits(h, offsetof(struct binfile_header, header_checksum)),
			h->header_checksum))
		return refuse(f, err, what, "bad header checksum");
	if (h->file_size != f->size) {
		snprintf(msg, sizeof(msg), "%s: %zu bytes, the header says %llu",
			 h->file_size > f->size ? "truncated" : "trailing bytes", f->size,
			 (unsigned long long)h->file_size);
		return refuse(f, err, what, msg);
	}
	if (h->table_offset < sizeof(*h) || h->table_offset % BINFILE_ALIGN ||
	    h->table_offset > f->size || table_len > f->size - h->table_offset)
		return refuse(f, err, what, "the section table lies outside the file");
	f->table = (const struct binfile_entry *)(f->map + h->table_offset);
	f->nsections = h->nsections;
	if (SUMS_DIFFER(XXH3_64bits(f->table, (size_t)table_len), h->table_checksum))
		return refuse(f, err, what, "bad section table checksum");
	for (i = 0; i < f->nsections; i++) {
		const struct binfile_entry *e = &f->table[i];

		if (e->offset < sizeof(*h) || e->offset > h->table_offset ||
		    e->length > h->table_offset - e->offset || e->offset % BINFILE_ALIGN)
			return refuse(f, err, what, "a section lies outside the file");
	}
	f->checked = xcalloc(f->nsections ? f->nsections : 1, sizeof(*f->checked));
	return 0;
}

int binfile_open(struct binfile *f, const char *path, const struct binfile_kind *kind,
		 struct ta_error *err)
{
	const char *what = kind->what;
	struct binfile_header h;
	struct stat st;
	int fd;

	memset(f, 0, sizeof(*f));
	f->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return error_set_errno(err, errno, "cannot open %s '%s'", what, path);
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		int e = S_ISDIR(st.st_mode) ? EISDIR : errno;

		close(fd);
		return error_set_errno(err, e, "cannot read %s '%s'", what, path);
	}
	if ((uint64_t)st.st_size < sizeof(h)) {
		close(fd);
		return error_set(err, "'%s' is not a usable %s: %s", path, what,
				 st.st_size == 0 ? "empty file" : "truncated: shorter than a header");
	}
	f->size = (size_t)st.st_size;
	f->map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (f->map == MAP_FAILED) {
		f->map = NULL;
		return error_set_errno(err, errno, "cannot map %s '%s'", what, path);
	}
	memcpy(&h, f->map, sizeof(h));
	f->what = what;
	if (check_identity(f, &h, kind, err) < 0 ||
	    check_layout(f, &h, what, err) < 0)
		return -1;
	if (!kind->lazy_checks && binfile_check_all(f, err) < 0) {
		binfile_close(f);
		return -1;
	}
	f->major = h.major;
	f->minor = h.minor;
	return 0;
}

void binfile_close(struct binfile *f)
{
	if (f->map)
		munmap((void *)f->map, f->size);
	f->map = NULL;
	f->table = NULL;
	f->size = 0;
	f->nsections = 0;
	free(f->checked);
	f->checked = NULL;
}

const void *binfile_section(const struct binfile *f, uint32_t id, size_t *len)
{
	uint32_t i;

	for (i = 0; i < f->nsections; i++) {
		if (f->table[i].id == id) {
			if (!f->checked[i]) {	/* a reader's bug, never the file's */
				fprintf(stderr, "trace_analyze: BUG: section %u of '%s' read "
					"unchecked\n", (unsigned)id, f->path);
				abort();
			}
			*len = (size_t)f->table[i].length;
			return f->map + f->table[i].offset;
		}
	}
	*len = 0;
	return NULL;
}

int binfile_read_section(struct binfile *f, uint32_t id, const void **data, size_t *len,
			 struct ta_error *err)
{
	uint32_t i;

	for (i = 0; i < f->nsections; i++) {
		if (f->table[i].id == id) {
			uint32_t one = i;

			if (!f->checked[i] && check_indexes(f, &one, 1, err) < 0)
				return -1;
			*len = (size_t)f->table[i].length;
			*data = f->map + f->table[i].offset;
			return 0;
		}
	}
	*len = 0;
	*data = NULL;
	return 0;
}

void binfile_release(const struct binfile *f, const void *data, size_t len)
{
	(void)f;
	pages_give_back(data, len);
}
