/*
 * test_input_decompress.c - formats known by their first bytes; a gzip stream
 * written in many members comes back whole through the pipe, with its
 * compressed size counted; a cut one is reported once the pipe ends.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <cmocka.h>

#include "input_decompress.h"

static void magic_bytes_name_the_format(void **state)
{
	(void)state;
	assert_int_equal(compression_of((const unsigned char *)"\x1f\x8b\x08", 3), COMPRESSION_GZIP);
	assert_int_equal(compression_of((const unsigned char *)"\xfd" "7zXZ\0", 6), COMPRESSION_XZ);
	assert_int_equal(compression_of((const unsigned char *)"\xfd" "7zXZ", 5), COMPRESSION_NONE);
	assert_int_equal(compression_of((const unsigned char *)"\x28\xb5\x2f\xfd", 4),
			 COMPRESSION_ZSTD);
	assert_int_equal(compression_of((const unsigned char *)"  bash-1", 8), COMPRESSION_NONE);
	assert_int_equal(compression_of((const unsigned char *)"\x1f", 1), COMPRESSION_NONE);
	assert_string_equal(compression_name(COMPRESSION_ZSTD), "zstd");
}

/* text as n gzip members, one after the other */
static size_t gzip_members(const char *text, size_t len, int n, unsigned char *out, size_t cap)
{
	size_t used = 0, per = len / (size_t)n;

	for (int i = 0; i < n; i++) {
		size_t from = per * (size_t)i, part = i == n - 1 ? len - from : per;
		z_stream z;

		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
					      Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (unsigned char *)text + from;
		z.avail_in = (uInt)part;
		z.next_out = out + used;
		z.avail_out = (uInt)(cap - used);
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		used += z.total_out;
		deflateEnd(&z);
	}
	return used;
}

/* Decompress packed[0..n) (its first 2 bytes given as already read); the text out. */
static char *through_decompressor(const unsigned char *packed, size_t n, size_t *got,
				  int *finish, uint64_t *consumed)
{
	struct ta_error err;
	struct decompressor *d;
	int source, out;
	size_t cap = 1 << 22, used = 0;
	char *text = malloc(cap);
	ssize_t r;

	FILE *f = tmpfile();	/* a file, not a pipe: nothing waits on a reader */

	assert_non_null(f);
	assert_int_equal(fwrite(packed, 1, n, f), n);
	fflush(f);
	source = fileno(f);
	lseek(source, 2, SEEK_SET);
	d = decompressor_start(COMPRESSION_GZIP, source, packed, 2, "test.gz", &out, &err);
	assert_non_null(d);
	while ((r = read(out, text + used, cap - used)) > 0)
		used += (size_t)r;
	*finish = decompressor_finish(d, &err);
	*consumed = decompressor_consumed(d);
	if (*finish < 0)
		assert_non_null(strstr(err.msg, "'test.gz': the gzip data ends early"));
	close(out);
	fclose(f);
	decompressor_free(d);
	*got = used;
	return text;
}

static void members_come_back_whole(void **state)
{
	size_t len = 3 << 20, n, got;
	char *text = malloc(len);
	unsigned char *packed = malloc(len + 4096);
	uint64_t consumed;
	int finish;

	(void)state;
	for (size_t i = 0; i < len; i++)	/* lines of varying text: not all one run */
		text[i] = i % 61 == 60 ? '\n' : (char)('a' + (i * 7 + i / 61) % 26);
	n = gzip_members(text, len, 5, packed, len + 4096);
	char *back = through_decompressor(packed, n, &got, &finish, &consumed);

	assert_int_equal(finish, 0);
	assert_int_equal(got, len);
	assert_memory_equal(back, text, len);
	assert_int_equal(consumed, n);
	free(back);

	back = through_decompressor(packed, n - 20, &got, &finish, &consumed);	/* cut */
	assert_int_equal(finish, -1);
	assert_true(got < len);
	assert_memory_equal(back, text, got);	/* what came out is right, but not all */
	free(back);
	free(text);
	free(packed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(magic_bytes_name_the_format),
		cmocka_unit_test(members_come_back_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
