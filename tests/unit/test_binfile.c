/*
 * test_binfile.c - the binary container: what is written reads back, and
 * every kind of damage is refused with a message naming the problem.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "binfile.h"

#define MAGIC "TATEST\r\n"

static char path[256];
static const struct binfile_kind test_kind = {
	.magic = MAGIC, .min_major = 1, .max_major = 1, .what = "test file", .remake = "--test",
};

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/ta-binfile-%ld", P_tmpdir, (long)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void write_sample(uint16_t major)
{
	struct binfile_writer w;
	struct ta_error err;
	static const char hello[] = "hello, sections";
	uint64_t numbers[1000];
	int i;

	for (i = 0; i < 1000; i++)
		numbers[i] = (uint64_t)i * 7;
	assert_int_equal(binfile_create(&w, path, MAGIC, major, 3, &err), 0);
	assert_int_equal(binfile_add_section(&w, 1, hello, sizeof(hello) - 1, &err), 0);
	assert_int_equal(binfile_begin_section(&w, 2, &err), 0);
	for (i = 0; i < 1000; i += 100)
		assert_int_equal(binfile_write(&w, numbers + i, 100 * sizeof(uint64_t), &err), 0);
	assert_int_equal(binfile_end_section(&w, &err), 0);
	assert_int_equal(binfile_commit(&w, &err), 0);
}

static void patch(long offset, const void *bytes, size_t n)
{
	FILE *f = fopen(path, "r+b");

	assert_non_null(f);
	fseek(f, offset, SEEK_SET);
	fwrite(bytes, 1, n, f);
	fclose(f);
}

static void expect_refusal(const char *needle)
{
	struct binfile f;
	struct ta_error err;

	assert_int_equal(binfile_open(&f, path, &test_kind, &err), -1);
	if (!strstr(err.msg, needle))
		fail_msg("message '%s' lacks '%s'", err.msg, needle);
	assert_non_null(strstr(err.msg, path));
}

static void sections_read_back(void **state)
{
	struct binfile f;
	struct ta_error err;
	const uint64_t *numbers;
	size_t len;

	(void)state;
	write_sample(1);
	assert_int_equal(binfile_open(&f, path, &test_kind, &err), 0);
	assert_int_equal(f.major, 1);
	assert_int_equal(f.minor, 3);
	assert_memory_equal(binfile_section(&f, 1, &len), "hello, sections", 15);
	assert_int_equal(len, 15);
	numbers = binfile_section(&f, 2, &len);
	assert_int_equal(len, 8000);
	assert_int_equal((uintptr_t)numbers % 8, 0);	/* aligned for direct use */
	assert_int_equal(numbers[999], 999 * 7);
	assert_null(binfile_section(&f, 3, &len));
	assert_int_equal(len, 0);
	binfile_close(&f);
}

static void no_temporary_file_is_left(void **state)
{
	char tmp[300];

	(void)state;
	write_sample(1);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	assert_int_not_equal(access(tmp, F_OK), 0);
}

static void abort_leaves_nothing(void **state)
{
	struct binfile_writer w;
	struct ta_error err;

	(void)state;
	unlink(path);
	assert_int_equal(binfile_create(&w, path, MAGIC, 1, 0, &err), 0);
	assert_int_equal(binfile_add_section(&w, 1, "x", 1, &err), 0);
	binfile_abort(&w);
	assert_int_not_equal(access(path, F_OK), 0);
}

static void wrong_magic_is_refused(void **state)
{
	(void)state;
	write_sample(1);
	patch(0, "kmalloc:", 8);
	expect_refusal("wrong magic number");
}

static void older_major_is_refused_saying_how_to_remake(void **state)
{
	(void)state;
	write_sample(0);
	expect_refusal("format version 0.3 is older than this program reads (1.x): make it again "
		       "with --test");
}

static void newer_major_is_refused(void **state)
{
	(void)state;
	write_sample(2);
	expect_refusal("format version 2.3 is newer");
}

static void other_byte_order_is_refused(void **state)
{
	uint32_t swapped = __builtin_bswap32(BINFILE_ENDIAN_MARK);

	(void)state;
	write_sample(1);
	patch(offsetof(struct binfile_header, endian), &swapped, sizeof(swapped));
	expect_refusal("other byte order");
}

static void truncated_file_is_refused(void **state)
{
	(void)state;
	write_sample(1);
	assert_int_equal(truncate(path, 4000), 0);
	expect_refusal("truncated");
	assert_int_equal(truncate(path, 10), 0);
	expect_refusal("truncated");
	assert_int_equal(truncate(path, 0), 0);
	expect_refusal("empty file");
}

static void flipped_byte_is_refused(void **state)
{
	(void)state;
	write_sample(1);
	patch(64 + 16 + 100, "\xff", 1);	/* inside section 2 */
	expect_refusal("bad checksum of section 2");
}

static void text_log_is_refused(void **state)
{
	FILE *f;
	int i;

	(void)state;
	f = fopen(path, "w");
	for (i = 0; i < 10; i++)
		fputs("  init-1 [000] .....  0.1: kfree: call_site=x+0x1/0x2 ptr=0000000000000000\n", f);
	fclose(f);
	expect_refusal("wrong magic number");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(sections_read_back, setup, teardown),
		cmocka_unit_test_setup_teardown(no_temporary_file_is_left, setup, teardown),
		cmocka_unit_test_setup_teardown(abort_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(wrong_magic_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(newer_major_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(older_major_is_refused_saying_how_to_remake, setup,
						teardown),
		cmocka_unit_test_setup_teardown(other_byte_order_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(truncated_file_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(flipped_byte_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(text_log_is_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
