/*
 * input_decompress.h - compressed logs (gzip, xz, zstd) read as if they were
 * plain text.
 *
 * Logs are copied off target boards compressed. A compressed input is
 * recognised by its magic bytes (never by its name, so standard input
 * works too) and decompressed on a thread of its own into a pipe, which
 * the input module then reads like any stream: parsing overlaps
 * decompression, and every line rule (over-long lines, a cut last line,
 * stack blocks) is the one plain logs have. Damaged or cut compressed
 * data is an error reported when the decompressed bytes end, never a
 * shorter log read as if whole.
 * This module knows nothing of lines.
 */
#ifndef TA_INPUT_DECOMPRESS_H
#define TA_INPUT_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

enum compression {
	COMPRESSION_NONE,
	COMPRESSION_GZIP,
	COMPRESSION_XZ,
	COMPRESSION_ZSTD,
};

/* The most bytes compression_of() needs to see. */
#define COMPRESSION_MAGIC_MAX 6

/* What the first n bytes of a file say it is. */
enum compression compression_of(const unsigned char *head, size_t n);
const char *compression_name(enum compression c);

struct decompressor;

/*
 * Decompress fd from its current position on a thread of its own; the
 * prefix_len bytes in prefix were already read from it and come first.
 * *out_fd is the read end of a pipe with the decompressed bytes; it
 * belongs to the caller. name is the input as messages call it.
 */
struct decompressor *decompressor_start(enum compression c, int fd, const void *prefix,
					size_t prefix_len, const char *name, int *out_fd,
					struct ta_error *err);

/*
 * Once the pipe has ended: 0 when the compressed data was whole, -1 with
 * err saying why not (damaged, cut short, unreadable).
 */
int decompressor_finish(struct decompressor *d, struct ta_error *err);

/* Compressed bytes consumed so far, for a progress display. */
uint64_t decompressor_consumed(const struct decompressor *d);

/* End the thread (whatever it is doing) and free d. */
void decompressor_free(struct decompressor *d);

#endif
