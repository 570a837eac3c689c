/*
 * ziplib.c - zlib, liblzma and libzstd, each loaded when first needed.
 *
 * Only compressed input (a .gz, .xz or .zst log; a trace.dat's compressed
 * sections) and the gzipped pprof profile use them: linked, the three are
 * mapped at every start for about 0.4 ms on this VM (lazylib.c). The
 * functions below have the libraries' names and prototypes, which their
 * headers make the compiler check, and hand each call on; zlib's
 * inflateInit2() and deflateInit2() are macros over inflateInit2_() and
 * deflateInit2_(), which are the functions listed.
 *
 * Not here: decompressing (input_decompress.c, tracedat_layout.c) or compressing
 * (pprof.c). Every function of these libraries the program calls must be
 * listed below, or the link fails.
 */
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "lazylib.h"
#include "ziplib.h"

/* V(name, parameters, arguments); R(type, name, parameters, arguments) */
#define ZLIB_FUNCTIONS(V, R)							\
	R(int, deflate, (z_streamp strm, int flush), (strm, flush))		\
	R(int, deflateEnd, (z_streamp strm), (strm))				\
	R(int, deflateInit2_, (z_streamp strm, int level, int method, int window_bits,	\
			       int mem_level, int strategy, const char *version,	\
			       int stream_size),					\
	  (strm, level, method, window_bits, mem_level, strategy, version, stream_size))	\
	R(int, inflate, (z_streamp strm, int flush), (strm, flush))		\
	R(int, inflateEnd, (z_streamp strm), (strm))				\
	R(int, inflateInit2_, (z_streamp strm, int window_bits, const char *version,	\
			       int stream_size), (strm, window_bits, version, stream_size))	\
	R(int, inflateReset, (z_streamp strm), (strm))				\
	R(int, uncompress, (Bytef *dest, uLongf *dest_len, const Bytef *source, uLong source_len),	\
	  (dest, dest_len, source, source_len))

#define LZMA_FUNCTIONS(V, R)							\
	R(lzma_ret, lzma_code, (lzma_stream *strm, lzma_action action), (strm, action))	\
	V(lzma_end, (lzma_stream *strm), (strm))				\
	R(lzma_ret, lzma_stream_decoder, (lzma_stream *strm, uint64_t memlimit, uint32_t flags),	\
	  (strm, memlimit, flags))

#define ZSTD_FUNCTIONS(V, R)							\
	R(ZSTD_DStream *, ZSTD_createDStream, (void), ())			\
	R(size_t, ZSTD_decompress, (void *dst, size_t dst_capacity, const void *src,	\
				    size_t compressed_size), (dst, dst_capacity, src, compressed_size))	\
	R(size_t, ZSTD_decompressStream, (ZSTD_DStream *zds, ZSTD_outBuffer *output,	\
					  ZSTD_inBuffer *input), (zds, output, input))	\
	R(size_t, ZSTD_freeDStream, (ZSTD_DStream *zds), (zds))		\
	R(const char *, ZSTD_getErrorName, (size_t code), (code))		\
	R(unsigned, ZSTD_isError, (size_t code), (code))

#define LAZYLIB_TABLE zlib_calls
#define LAZYLIB_LIBRARY zlib_library
LAZYLIB_DEFINE(ZLIB_FUNCTIONS, .what = "zlib", .sonames = { "libz.so.1" })
#undef LAZYLIB_TABLE
#undef LAZYLIB_LIBRARY

#define LAZYLIB_TABLE lzma_calls
#define LAZYLIB_LIBRARY lzma_library
LAZYLIB_DEFINE(LZMA_FUNCTIONS, .what = "liblzma", .sonames = { "liblzma.so.5" })
#undef LAZYLIB_TABLE
#undef LAZYLIB_LIBRARY

#define LAZYLIB_TABLE zstd_calls
#define LAZYLIB_LIBRARY zstd_library
LAZYLIB_DEFINE(ZSTD_FUNCTIONS, .what = "libzstd", .sonames = { "libzstd.so.1" })

int zlib_library_load(const char *purpose, struct ta_error *err)
{
	return lazylib_load(&zlib_library, purpose, err);
}

int lzma_library_load(const char *purpose, struct ta_error *err)
{
	return lazylib_load(&lzma_library, purpose, err);
}

int zstd_library_load(const char *purpose, struct ta_error *err)
{
	return lazylib_load(&zstd_library, purpose, err);
}
