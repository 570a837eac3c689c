/*
 * input_decompress.c - gzip (zlib), xz (liblzma) and zstd (libzstd) logs
 * decompressed on a thread of their own into a pipe.
 *
 * The thread reads the compressed source in slices (polling, so that it
 * can be told to stop even on an idle pipe), feeds the library, writes
 * what comes out to the pipe and closes it at the end; a failure is kept
 * for decompressor_finish() to report. Concatenated members and frames
 * are read as one stream, as gzip -d, xz -d and zstd -d do. Not here:
 * anything about lines, or choosing the format by a file's name.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <lzma.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "input_decompress.h"
#include "ziplib.h"

#define SOURCE_SLICE (256u << 10)
#define SINK_SLICE (256u << 10)
#define PIPE_SIZE (1 << 20)

struct decompressor {
	enum compression kind;
	int source_fd;
	int sink_fd;		/* the pipe's write end, closed by the thread when done */
	unsigned char *prefix;	/* bytes the caller read to learn the format */
	size_t prefix_len, prefix_used;
	const char *name;
	pthread_t thread;
	bool started;
	atomic_bool stop;
	_Atomic uint64_t consumed;
	bool failed;		/* written by the thread before it closes the pipe */
	char reason[512];
};

enum flow { FLOW_OK, FLOW_END, FLOW_STOPPED, FLOW_FAILED };

enum compression compression_of(const unsigned char *h, size_t n)
{
	if (n >= 2 && h[0] == 0x1f && h[1] == 0x8b)
		return COMPRESSION_GZIP;
	if (n >= 6 && memcmp(h, "\xfd" "7zXZ\0", 6) == 0)
		return COMPRESSION_XZ;
	if (n >= 4 && h[0] == 0x28 && h[1] == 0xb5 && h[2] == 0x2f && h[3] == 0xfd)
		return COMPRESSION_ZSTD;
	return COMPRESSION_NONE;
}

const char *compression_name(enum compression c)
{
	switch (c) {
	case COMPRESSION_GZIP: return "gzip";
	case COMPRESSION_XZ: return "xz";
	case COMPRESSION_ZSTD: return "zstd";
	case COMPRESSION_NONE: break;
	}
	return "plain";
}

static enum flow fail(struct decompressor *d, const char *fmt, const char *why)
{
	snprintf(d->reason, sizeof(d->reason), fmt, d->name, compression_name(d->kind), why);
	d->failed = true;
	return FLOW_FAILED;
}

static enum flow fail_errno(struct decompressor *d, int e)
{
	snprintf(d->reason, sizeof(d->reason), "cannot read '%s': %s", d->name, strerror(e));
	d->failed = true;
	return FLOW_FAILED;
}

static enum flow fail_damaged(struct decompressor *d, const char *why)
{
	return fail(d, "cannot decompress '%s': the %s data is damaged: %s", why);
}

static enum flow fail_cut(struct decompressor *d)
{
	return fail(d, "cannot decompress '%s': the %s data ends early%s", " (a truncated file?)");
}

/*
 * Up to cap compressed bytes: the prefix first, then the source. *got is
 * 0 at the source's end. Waits in slices so that a stop is seen.
 */
static enum flow read_source(struct decompressor *d, unsigned char *buf, size_t cap, size_t *got)
{
	struct pollfd p = { .fd = d->source_fd, .events = POLLIN };

	if (d->prefix_used < d->prefix_len) {
		size_t n = d->prefix_len - d->prefix_used;

		if (n > cap)
			n = cap;
		memcpy(buf, d->prefix + d->prefix_used, n);
		d->prefix_used += n;
		*got = n;
		atomic_fetch_add(&d->consumed, n);
		return FLOW_OK;
	}
	for (;;) {
		if (atomic_load(&d->stop))
			return FLOW_STOPPED;
		if (poll(&p, 1, 200) == 0)
			continue;
		ssize_t n = read(d->source_fd, buf, cap);

		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return fail_errno(d, errno);
		}
		*got = (size_t)n;
		atomic_fetch_add(&d->consumed, (uint64_t)n);
		return FLOW_OK;
	}
}

/* Hand n decompressed bytes on; FLOW_STOPPED when the reader has gone. */
static enum flow write_sink(struct decompressor *d, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(d->sink_fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return FLOW_STOPPED;	/* EPIPE: the reader closed its end */
		}
		p += w;
		n -= (size_t)w;
		if (atomic_load(&d->stop))
			return FLOW_STOPPED;
	}
	return FLOW_OK;
}

/* ---- gzip ---------------------------------------------------------------------- */

static enum flow run_gzip(struct decompressor *d, unsigned char *in, unsigned char *out)
{
	z_stream z;
	enum flow f = FLOW_OK;
	bool member_ended = false, out_full = false, later_member = false;
	size_t got;
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return fail_damaged(d, "zlib cannot start");
	for (;;) {
		if (z.avail_in == 0 && !out_full) {	/* a full output may hide more to come */
			f = read_source(d, in, SOURCE_SLICE, &got);
			if (f != FLOW_OK)
				break;
			if (got == 0) {
				f = member_ended ? FLOW_END : fail_cut(d);
				break;
			}
			z.next_in = in;
			z.avail_in = (uInt)got;
		}
		if (member_ended) {	/* more bytes after a member: the next member */
			inflateReset(&z);
			member_ended = false;
			later_member = true;
		}
		z.next_out = out;
		z.avail_out = SINK_SLICE;
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
			if (later_member && z.total_out == 0)	/* gzip -d: "trailing garbage" */
				f = fail(d, "cannot decompress '%s': what follows the %s data is "
					 "not %s", "gzip data (trailing garbage)");
			else
				f = fail_damaged(d, z.msg ? z.msg : "zlib error");
			break;
		}
		out_full = z.avail_out == 0;
		f = write_sink(d, out, SINK_SLICE - z.avail_out);
		if (f != FLOW_OK)
			break;
		if (rc == Z_STREAM_END) {	/* all its output is out */
			member_ended = true;
			out_full = false;
		}
	}
	inflateEnd(&z);
	return f;
}

/* ---- xz ------------------------------------------------------------------------ */

static const char *lzma_reason(lzma_ret rc)
{
	switch (rc) {
	case LZMA_MEM_ERROR: return "out of memory";
	case LZMA_FORMAT_ERROR: return "not in the .xz format";
	case LZMA_OPTIONS_ERROR: return "unsupported compression options";
	case LZMA_DATA_ERROR: return "corrupt data";
	case LZMA_BUF_ERROR: return "unexpected end";
	default: return "liblzma error";
	}
}

static enum flow run_xz(struct decompressor *d, unsigned char *in, unsigned char *out)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_action action = LZMA_RUN;
	enum flow f = FLOW_OK;
	size_t got;
	lzma_ret rc;

	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return fail_damaged(d, "liblzma cannot start");
	for (;;) {
		if (s.avail_in == 0 && action == LZMA_RUN) {
			f = read_source(d, in, SOURCE_SLICE, &got);
			if (f != FLOW_OK)
				break;
			if (got == 0)
				action = LZMA_FINISH;
			s.next_in = in;
			s.avail_in = got;
		}
		s.next_out = out;
		s.avail_out = SINK_SLICE;
		rc = lzma_code(&s, action);
		f = write_sink(d, out, SINK_SLICE - s.avail_out);
		if (f != FLOW_OK)
			break;
		if (rc == LZMA_STREAM_END) {
			f = FLOW_END;
			break;
		}
		if (rc == LZMA_BUF_ERROR && action == LZMA_FINISH) {
			f = fail_cut(d);
			break;
		}
		if (rc != LZMA_OK) {
			f = fail_damaged(d, lzma_reason(rc));
			break;
		}
	}
	lzma_end(&s);
	return f;
}

/* ---- zstd ---------------------------------------------------------------------- */

static enum flow run_zstd(struct decompressor *d, unsigned char *in, unsigned char *out)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, 0, 0 };
	enum flow f = FLOW_OK;
	size_t got, rc = 0;
	bool out_full = false;

	if (!ds)
		return fail_damaged(d, "libzstd cannot start");
	for (;;) {
		if (ib.pos == ib.size && !out_full) {	/* a full output may hide more to come */
			f = read_source(d, in, SOURCE_SLICE, &got);
			if (f != FLOW_OK)
				break;
			if (got == 0) {	/* rc 0: the last frame was whole and flushed */
				f = rc == 0 ? FLOW_END : fail_cut(d);
				break;
			}
			ib.size = got;
			ib.pos = 0;
		}
		ZSTD_outBuffer ob = { out, SINK_SLICE, 0 };

		rc = ZSTD_decompressStream(ds, &ob, &ib);
		if (ZSTD_isError(rc)) {
			f = fail_damaged(d, ZSTD_getErrorName(rc));
			break;
		}
		out_full = ob.pos == ob.size;
		f = write_sink(d, out, ob.pos);
		if (f != FLOW_OK)
			break;
	}
	ZSTD_freeDStream(ds);
	return f;
}

static void *decompress_thread(void *arg)
{
	struct decompressor *d = arg;
	unsigned char *in = xmalloc(SOURCE_SLICE), *out = xmalloc(SINK_SLICE);
	sigset_t all;

	sigfillset(&all);	/* signals are the main thread's; EPIPE comes back as an error */
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	switch (d->kind) {
	case COMPRESSION_GZIP: run_gzip(d, in, out); break;
	case COMPRESSION_XZ: run_xz(d, in, out); break;
	case COMPRESSION_ZSTD: run_zstd(d, in, out); break;
	case COMPRESSION_NONE: break;
	}
	free(in);
	free(out);
	close(d->sink_fd);	/* the reader sees the end */
	d->sink_fd = -1;
	return NULL;
}

/* The library of c, loaded now: failing, it fails the input, not the program. */
static int load_library_of(enum compression c, const char *name, struct ta_error *err)
{
	char purpose[PATH_MAX + 16];

	snprintf(purpose, sizeof(purpose), "to read '%s'", name);
	switch (c) {
	case COMPRESSION_GZIP: return zlib_library_load(purpose, err);
	case COMPRESSION_XZ: return lzma_library_load(purpose, err);
	case COMPRESSION_ZSTD: return zstd_library_load(purpose, err);
	case COMPRESSION_NONE: break;
	}
	return 0;
}

struct decompressor *decompressor_start(enum compression c, int fd, const void *prefix,
					size_t prefix_len, const char *name, int *out_fd,
					struct ta_error *err)
{
	struct decompressor *d;
	int p[2];

	if (load_library_of(c, name, err) < 0)
		return NULL;
	d = xcalloc(1, sizeof(*d));
	if (pipe2(p, O_CLOEXEC) < 0) {
		error_set_errno(err, errno, "cannot decompress '%s'", name);
		free(d);
		return NULL;
	}
	fcntl(p[1], F_SETPIPE_SZ, PIPE_SIZE);	/* fewer switches; the default works too */
	d->kind = c;
	d->source_fd = fd;
	d->sink_fd = p[1];
	d->name = name;
	if (prefix_len) {
		d->prefix = xmalloc(prefix_len);
		memcpy(d->prefix, prefix, prefix_len);
		d->prefix_len = prefix_len;
	}
	if (pthread_create(&d->thread, NULL, decompress_thread, d) != 0) {
		error_set(err, "cannot decompress '%s': no thread", name);
		close(p[0]);
		close(p[1]);
		free(d->prefix);
		free(d);
		return NULL;
	}
	d->started = true;
	*out_fd = p[0];
	return d;
}

static void join_thread(struct decompressor *d)
{
	if (d->started) {
		pthread_join(d->thread, NULL);
		d->started = false;
	}
}

int decompressor_finish(struct decompressor *d, struct ta_error *err)
{
	join_thread(d);
	if (d->failed)
		return error_set(err, "%s", d->reason);
	return 0;
}

uint64_t decompressor_consumed(const struct decompressor *d)
{
	return atomic_load(&((struct decompressor *)d)->consumed);
}

void decompressor_free(struct decompressor *d)
{
	if (!d)
		return;
	atomic_store(&d->stop, true);
	join_thread(d);
	free(d->prefix);
	free(d);
}
