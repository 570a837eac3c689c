/*
 * allocinfo.c - /proc/allocinfo snapshots read into a series of live
 * bytes and allocations per allocation site (allocinfo.h): rows parsed by
 * hand (a 10,000-row snapshot is read in a few milliseconds), duplicate
 * keys summed, bad rows counted and the first one kept, each snapshot
 * given its time, the reader told of it once complete.
 *
 * Not here: what a site is grouped under, or any report.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "allocinfo.h"

#define HEADER "allocinfo - version: "
#define NS_PER_S 1000000000ull

void alloc_series_init(struct alloc_series *s)
{
	memset(s, 0, sizeof(*s));
	strtab_init(&s->names);
	strtab_init(&s->keys);
}

void alloc_series_release(struct alloc_series *s)
{
	strtab_release(&s->names);
	strtab_release(&s->keys);
	free(s->sites);
	free(s->bytes);
	free(s->calls);
	free(s->inaccurate);
	free(s->listed_in);
	memset(s, 0, sizeof(*s));
}

/* ---- one row ---------------------------------------------------------------- */

struct alloc_row {
	int64_t bytes;
	uint64_t calls;
	const char *file, *module, *func;
	size_t file_len, module_len, func_len;
	uint32_t line;
	bool inaccurate;
};

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Decimal digits at *p into *v (no overflow); false if none or too many. */
static bool take_number(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;

	*v = 0;
	while (q < end && *q >= '0' && *q <= '9') {
		uint64_t d = (uint64_t)(*q - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return false;
		*v = *v * 10 + d;
		q++;
	}
	if (q == *p)
		return false;
	*p = q;
	return true;
}

/* The end of the token at p: the next blank or the end. */
static const char *token_end(const char *p, const char *end)
{
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* "file:line": the last ':' is followed by the line number alone. */
static bool take_file_line(const char *p, const char *e, struct alloc_row *r)
{
	const char *colon = e;
	uint64_t line;

	while (colon > p && colon[-1] != ':')
		colon--;
	if (colon <= p + 1)
		return false;
	r->file = p;
	r->file_len = (size_t)(colon - 1 - p);
	p = colon;
	if (!take_number(&p, e, &line) || p != e || line > UINT32_MAX)
		return false;
	r->line = (uint32_t)line;
	return true;
}

/* The tokens after "func:name": key:value pairs; "accurate:no" marks the row. */
static bool take_pairs(const char *p, const char *end, struct alloc_row *r)
{
	while ((p = skip_blanks(p, end)) < end) {
		const char *e = token_end(p, end);

		if (!memchr(p, ':', (size_t)(e - p)) || *p == ':')
			return false;
		if (e - p == 11 && memcmp(p, "accurate:no", 11) == 0)
			r->inaccurate = true;
		p = e;
	}
	return true;
}

static bool parse_row(const char *p, size_t len, struct alloc_row *r)
{
	const char *end = p + len, *e;
	uint64_t v;
	bool negative;

	while (end > p && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	memset(r, 0, sizeof(*r));
	p = skip_blanks(p, end);
	negative = p < end && *p == '-';
	p += negative;
	if (!take_number(&p, end, &v) || v > INT64_MAX || p == end || *p != ' ')
		return false;
	r->bytes = negative ? -(int64_t)v : (int64_t)v;
	p = skip_blanks(p, end);
	if (!take_number(&p, end, &r->calls) || p == end || *p != ' ')
		return false;
	p = skip_blanks(p, end);
	e = token_end(p, end);
	if (!take_file_line(p, e, r))
		return false;
	p = skip_blanks(e, end);
	if (p < end && *p == '[') {
		e = token_end(p, end);
		if (e - p < 3 || e[-1] != ']')
			return false;
		r->module = p + 1;
		r->module_len = (size_t)(e - p - 2);
		p = skip_blanks(e, end);
	}
	e = token_end(p, end);
	if (e - p <= 5 || memcmp(p, "func:", 5) != 0)
		return false;
	r->func = p + 5;
	r->func_len = (size_t)(e - p - 5);
	return take_pairs(e, end, r);
}

bool allocinfo_is_snapshot(const unsigned char *head, size_t n)
{
	const char *p = (const char *)head;
	const char *nl = memchr(p, '\n', n);
	struct alloc_row r;

	if ((n >= strlen(HEADER) && memcmp(p, HEADER, strlen(HEADER)) == 0) ||
	    (n >= strlen(ALLOCINFO_TIME_LINE) &&
	     memcmp(p, ALLOCINFO_TIME_LINE, strlen(ALLOCINFO_TIME_LINE)) == 0))
		return true;
	return nl && parse_row(p, (size_t)(nl - p + 1), &r);
}

/* ---- sites and snapshots ---------------------------------------------------- */

static uint32_t site_of(struct alloc_series *s, const struct alloc_row *r)
{
	char key[1024];
	int n = r->module ? snprintf(key, sizeof(key), "%.*s:%u %.*s [%.*s]", (int)r->file_len,
				     r->file, r->line, (int)r->func_len, r->func,
				     (int)r->module_len, r->module)
			  : snprintf(key, sizeof(key), "%.*s:%u %.*s", (int)r->file_len, r->file,
				     r->line, (int)r->func_len, r->func);
	uint32_t id = strtab_intern(&s->keys, key, (size_t)n < sizeof(key) ? (size_t)n
									     : sizeof(key) - 1);
	struct alloc_site *site;

	if (id < s->nsites)
		return id;
	if (s->nsites == s->sites_cap) {
		uint32_t cap = s->sites_cap ? s->sites_cap * 2 : 1024;

		s->sites = xrealloc(s->sites, cap * sizeof(*s->sites));
		s->bytes = xrealloc(s->bytes, cap * sizeof(*s->bytes));
		s->calls = xrealloc(s->calls, cap * sizeof(*s->calls));
		s->inaccurate = xrealloc(s->inaccurate, cap * sizeof(*s->inaccurate));
		s->listed_in = xrealloc(s->listed_in, cap * sizeof(*s->listed_in));
		s->sites_cap = cap;
	}
	site = &s->sites[s->nsites];
	site->file = strtab_intern(&s->names, r->file, r->file_len);
	site->line = r->line;
	site->func = strtab_intern(&s->names, r->func, r->func_len);
	site->module = r->module ? strtab_intern(&s->names, r->module, r->module_len) : STR_NONE;
	s->bytes[id] = 0;
	s->calls[id] = 0;
	s->inaccurate[id] = 0;
	s->listed_in[id] = 0;
	s->nsites++;
	return id;
}

/* The snapshot read last is complete: the reader is told. */
static void tell_last_snapshot(struct alloc_series *s)
{
	if (s->snapshots > s->told) {
		if (s->on_snapshot)
			s->on_snapshot(s->ctx, s);
		s->told = s->snapshots;
	}
}

/*
 * A new snapshot: its time (the time line's, else a second after the last:
 * numbered), values cleared; -1 with err when a series would mix timed and
 * numbered snapshots (a number is no time: no order or span between them).
 */
static int begin_snapshot(struct alloc_series *s, const char *name, uint64_t lineno,
			  struct ta_error *err)
{
	uint64_t ts = s->pending_ns;

	if (s->snapshots && (s->untimed != 0) != !ts)
		return error_set(err, "'%s' line %llu: this snapshot has %s time line and the ones "
				 "before %s: a series is timed throughout (record --allocinfo) or "
				 "not at all", name, (unsigned long long)lineno, ts ? "a" : "no",
				 ts ? "have none" : "have one");
	if (!ts) {
		ts = s->snapshots ? s->last_ns + NS_PER_S : NS_PER_S;
		s->untimed++;
	}
	tell_last_snapshot(s);
	if (!s->snapshots)
		s->first_ns = ts;
	s->last_ns = ts;
	s->snapshots++;
	s->pending_ns = 0;
	if (s->nsites) {	/* (no site yet: no arrays yet) */
		memset(s->bytes, 0, s->nsites * sizeof(*s->bytes));
		memset(s->calls, 0, s->nsites * sizeof(*s->calls));
		memset(s->inaccurate, 0, s->nsites * sizeof(*s->inaccurate));
	}
	s->rows = s->duplicates = s->inaccurate_sites = 0;
	s->snap_bytes = s->snap_calls = 0;
	s->duplicate_key[0] = '\0';
	s->major = 1;
	s->minor = 0;
	s->in_snapshot = true;
	return 0;
}

/*
 * A row's bytes and calls added to the snapshot's sums, which no later sum
 * (a site, a group, a total, pprof's int64 values) can then pass: false if
 * they would pass INT64_MAX, which no kernel's memory reaches.
 */
static bool sums_stay_exact(struct alloc_series *s, const struct alloc_row *r)
{
	uint64_t bytes, calls;

	if (__builtin_add_overflow(s->snap_bytes, r->bytes > 0 ? (uint64_t)r->bytes : 0, &bytes) ||
	    __builtin_add_overflow(s->snap_calls, r->calls, &calls) ||
	    bytes > INT64_MAX || calls > INT64_MAX)
		return false;
	s->snap_bytes = bytes;
	s->snap_calls = calls;
	return true;
}

static void take_row(struct alloc_series *s, const struct alloc_row *r)
{
	uint32_t id = site_of(s, r);

	s->rows++;
	if (s->listed_in[id] == s->snapshots) {
		if (!s->duplicates++)
			snprintf(s->duplicate_key, sizeof(s->duplicate_key), "%s",
				 strtab_get(&s->keys, id));
	} else {
		s->listed_in[id] = s->snapshots;
	}
	s->bytes[id] += r->bytes > 0 ? (uint64_t)r->bytes : 0;
	s->calls[id] += r->calls;
	if (r->inaccurate && !s->inaccurate[id]) {
		s->inaccurate[id] = 1;
		s->inaccurate_sites++;
	}
}

static void note_bad_row(struct alloc_series *s, const char *name, uint64_t line,
			 const char *text, size_t len)
{
	if (!s->bad_rows++) {
		snprintf(s->first_bad.source, sizeof(s->first_bad.source), "%s", name);
		s->first_bad.line = line;
		while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
			       text[len - 1] == ' '))
			len--;
		snprintf(s->first_bad.text, sizeof(s->first_bad.text), "%.*s", (int)len, text);
	}
}

/* "allocinfo - version: M.m": the version, or -1 when it is not one we read. */
static int take_header(struct alloc_series *s, const char *p, size_t len, const char *name,
		       uint64_t lineno, struct ta_error *err)
{
	const char *end = p + len;
	uint64_t major, minor = 0;

	p += strlen(HEADER);
	if (!take_number(&p, end, &major))
		return error_set(err, "'%s' is not a usable allocinfo snapshot: its header has no "
				 "version number", name);
	if (p < end && *p == '.') {
		p++;
		if (!take_number(&p, end, &minor))
			minor = 0;
	}
	if (major == 0 || major > ALLOCINFO_MAJOR_MAX)
		return error_set(err, "'%s' is allocinfo version %llu.%llu: this trace_analyze reads "
				 "versions 1.x and 2.x", name, (unsigned long long)major,
				 (unsigned long long)minor);
	if (s->in_snapshot && s->rows)
		s->in_snapshot = false;	/* the next snapshot of a file of several */
	if (!s->in_snapshot && begin_snapshot(s, name, lineno, err) < 0)
		return -1;
	s->major = (unsigned)major;
	s->minor = (unsigned)minor;
	return 0;
}

/*
 * "# trace_analyze allocinfo snapshot: 1234.567890123 s ...": the next
 * snapshot's time; -1 with err when it is before the snapshot before it
 * (a series is read in time order: its growth, rates and timeline need it).
 */
static int take_time_line(struct alloc_series *s, const char *p, size_t len, const char *name,
			  uint64_t lineno, struct ta_error *err)
{
	const char *end = p + len;
	uint64_t sec, frac = 0, scale = NS_PER_S;

	p += strlen(ALLOCINFO_TIME_LINE);
	if (!take_number(&p, end, &sec) || sec > UINT64_MAX / NS_PER_S - 1)
		return 0;
	if (p < end && *p == '.')
		for (p++; p < end && *p >= '0' && *p <= '9'; p++)
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(*p - '0') * scale;
			}
	s->pending_ns = sec * NS_PER_S + frac;
	if (!s->pending_ns)
		s->pending_ns = 1;	/* 0 says "no time" */
	s->in_snapshot = false;	/* it stands before the next snapshot's header */
	if (s->snapshots && !s->untimed && s->pending_ns < s->last_ns) {
		bool before = s->snapshots == s->snapshots_at_file;	/* in the file before */

		return error_set(err, "'%s' line %llu: this snapshot, taken at %.6f s, is before "
				 "the one before it (%.6f s%s%s%s): a series is read in time order; "
				 "give its files oldest first", name, (unsigned long long)lineno,
				 (double)s->pending_ns / 1e9, (double)s->last_ns / 1e9,
				 before ? ", in '" : "", before ? s->last_source : "",
				 before ? "'" : "");
	}
	return 0;
}

/* One line of a snapshot file; -1 with err on a header we do not read. */
static int take_line(struct alloc_series *s, const char *p, size_t len, uint64_t lineno,
		     const char *name, uint64_t *rows, struct ta_error *err)
{
	struct alloc_row r;

	if (len >= strlen(HEADER) && memcmp(p, HEADER, strlen(HEADER)) == 0)
		return take_header(s, p, len, name, lineno, err);
	if (len >= strlen(ALLOCINFO_TIME_LINE) &&
	    memcmp(p, ALLOCINFO_TIME_LINE, strlen(ALLOCINFO_TIME_LINE)) == 0) {
		return take_time_line(s, p, len, name, lineno, err);
	}
	if (*p == '#' || skip_blanks(p, p + len) == p + len || *skip_blanks(p, p + len) == '\n')
		return 0;
	if (!parse_row(p, len, &r)) {
		note_bad_row(s, name, lineno, p, len);
		return 0;
	}
	if (!s->in_snapshot && begin_snapshot(s, name, lineno, err) < 0)
		return -1;	/* (rows with no header line: version 1.0) */
	if (r.calls > INT64_MAX)	/* a per-CPU sum that went below zero, printed unsigned */
		r.calls = 0;
	if (!sums_stay_exact(s, &r))
		return error_set(err, "'%s' line %llu: the snapshot's live bytes or allocations add up "
				 "past 2^63-1 here: no kernel holds that much; is the file damaged?",
				 name, (unsigned long long)lineno);
	take_row(s, &r);
	(*rows)++;
	return 0;
}

int alloc_series_read(struct alloc_series *s, struct input *in, const char *name,
		      struct ta_error *err)
{
	struct chunk c;
	uint64_t lineno = 0, rows = 0;
	int rc;

	chunk_init(&c, INPUT_CHUNK_SIZE);
	s->in_snapshot = false;	/* a file begins a snapshot of its own */
	s->snapshots_at_file = s->snapshots;
	while ((rc = input_read_chunk(in, &c, err)) > 0) {
		const char *p = c.data, *end = c.data + c.len;

		lineno += c.dropped_lines;
		for (uint64_t i = 0; i < c.dropped_lines; i++)
			note_bad_row(s, name, lineno, "(a line too long to read)", 25);
		while (p < end && rc > 0) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t len = (size_t)(nl - p) + 1;

			if (take_line(s, p, len, ++lineno, name, &rows, err) < 0)
				rc = -1;
			p += len;
		}
		if (rc < 0)
			break;
	}
	chunk_release(&c);
	if (rc < 0)
		return -1;
	if (in->truncated_last_line)
		return error_set(err, "'%s' is not a usable allocinfo snapshot: truncated: line %llu "
				 "ends after %llu bytes with no newline (the file is cut there)", name,
				 (unsigned long long)lineno + 1,
				 (unsigned long long)in->truncated_bytes);
	s->bytes_read += in->bytes_read;
	s->files++;
	if (s->files == 1)
		snprintf(s->first_source, sizeof(s->first_source), "%s", name);
	snprintf(s->last_source, sizeof(s->last_source), "%s", name);
	s->in_snapshot = false;
	if (!rows)
		return error_set(err, "'%s' has no allocinfo row%s", name,
				 s->bad_rows ? " that can be read" : "");
	return 0;
}

/* One file of a series: opened, known for a snapshot by its first line, read. */
static int read_one_file(struct alloc_series *s, const char *path, struct ta_error *err)
{
	struct input in;
	unsigned char head[256];
	size_t got = 0;
	int rc;

	if (input_open(&in, path, err) < 0)
		return -1;
	rc = input_peek(&in, head, sizeof(head), &got, err);
	if (rc == 0 && got == 0)
		rc = error_set(err, "'%s' is empty", path);
	else if (rc == 0 && !allocinfo_is_snapshot(head, got))
		rc = error_set(err, "'%s' is not an allocinfo snapshot (its first line is neither "
			       "\"allocinfo - version: N.M\" nor a row of one)", path);
	if (rc == 0)
		rc = alloc_series_read(s, &in, strcmp(path, "-") ? path : "standard input", err);
	input_close(&in);
	return rc;
}

static int not_hidden(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

int alloc_series_read_path(struct alloc_series *s, const char *path, struct ta_error *err)
{
	struct dirent **names;
	struct stat st;
	int n, i, rc = 0, read = 0;

	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return read_one_file(s, path, err);
	n = scandir(path, &names, not_hidden, versionsort);
	if (n < 0)
		return error_set_errno(err, errno, "cannot read directory '%s'", path);
	for (i = 0; i < n; i++) {
		char file[4096];

		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (rc == 0 && stat(file, &st) == 0 && S_ISREG(st.st_mode)) {
			rc = read_one_file(s, file, err);
			read++;
		}
		free(names[i]);
	}
	free(names);
	if (rc == 0 && !read)
		rc = error_set(err, "directory '%s' holds no allocinfo snapshot", path);
	return rc;
}

void alloc_series_finish(struct alloc_series *s)
{
	tell_last_snapshot(s);
}
