/*
 * test_outfile.c - outputs appear whole or not at all, and the path check
 * tells one file from another however it is spelt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "outfile.h"
#include "pathcheck.h"

static char dir[256], target[300], other[300];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/ta-outfile-XXXXXX", P_tmpdir);
	assert_non_null(mkdtemp(dir));
	snprintf(target, sizeof(target), "%s/account.txt", dir);
	snprintf(other, sizeof(other), "%s/other.txt", dir);
	return 0;
}

static int teardown(void **state)
{
	char cmd[400];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void assert_content(const char *path, const char *text)
{
	char buf[256] = { 0 };
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) < sizeof(buf));
	fclose(f);
	assert_string_equal(buf, text);
}

static int files_in_dir(void)
{
	char cmd[400];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_int_equal(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

static void test_nothing_under_the_name_before_commit(void **state)
{
	struct outfile o;
	struct ta_error err;

	(void)state;
	write_text(target, "old\n");
	assert_int_equal(outfile_open(&o, target, &err), 0);
	fputs("new\n", outfile_stream(&o));
	fflush(outfile_stream(&o));
	assert_content(target, "old\n");
	assert_int_equal(files_in_dir(), 2);	/* the target and the temporary */
	assert_int_equal(outfile_commit(&o, false, &err), 0);
	assert_content(target, "new\n");
	assert_int_equal(files_in_dir(), 1);
}

static void test_abort_keeps_the_old_file(void **state)
{
	struct outfile o;
	struct ta_error err;

	(void)state;
	write_text(target, "old\n");
	assert_int_equal(outfile_open(&o, target, &err), 0);
	fputs("half", outfile_stream(&o));
	outfile_abort(&o);
	assert_content(target, "old\n");
	assert_int_equal(files_in_dir(), 1);
}

static void test_mode_of_an_existing_file_is_kept(void **state)
{
	struct outfile o;
	struct ta_error err;
	struct stat st;

	(void)state;
	write_text(target, "old\n");
	chmod(target, 0604);
	assert_int_equal(outfile_open(&o, target, &err), 0);
	fputs("new\n", outfile_stream(&o));
	assert_int_equal(outfile_commit(&o, true, &err), 0);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0604);
}

static void test_a_directory_is_refused(void **state)
{
	struct outfile o;
	struct ta_error err;

	(void)state;
	assert_int_equal(outfile_open(&o, dir, &err), -1);
	assert_non_null(strstr(err.msg, "Is a directory"));
}

static void test_a_missing_directory_is_refused(void **state)
{
	struct outfile o;
	struct ta_error err;
	char path[400];

	(void)state;
	snprintf(path, sizeof(path), "%s/no/such/file", dir);
	assert_int_equal(outfile_open(&o, path, &err), -1);
	assert_non_null(strstr(err.msg, "No such file or directory"));
}

static int check(const char *in, const char *out1, const char *out2, struct ta_error *err)
{
	struct file_roles r;

	file_roles_init(&r);
	file_roles_add_input(&r, "-f", in);
	file_roles_add_output(&r, "-c", out1);
	file_roles_add_output(&r, "--stats", out2);
	return file_roles_check(&r, err);
}

static void test_paths_are_compared_as_files(void **state)
{
	struct ta_error err;
	char dotted[400], hard[400], absent[400], absent2[400];

	(void)state;
	write_text(target, "log\n");
	snprintf(dotted, sizeof(dotted), "%s/./account.txt", dir);
	snprintf(hard, sizeof(hard), "%s/hard.txt", dir);
	assert_int_equal(link(target, hard), 0);
	assert_int_equal(check(target, other, NULL, &err), 0);
	assert_int_equal(check(target, dotted, NULL, &err), -1);
	assert_int_equal(check(target, hard, NULL, &err), -1);	/* a hard link is the same file */
	assert_int_equal(check(target, "-", "/dev/null", &err), 0);
	assert_int_equal(check(target, "/dev/null", "/dev/null", &err), 0);
	snprintf(absent, sizeof(absent), "%s/new.txt", dir);
	snprintf(absent2, sizeof(absent2), "%s/../%s/new.txt", dir, strrchr(dir, '/') + 1);
	assert_int_equal(check(target, absent, absent2, &err), -1);
	assert_string_equal(err.msg + strlen(err.msg) - strlen("give each output a file of its own"),
			    "give each output a file of its own");
	assert_int_equal(check(NULL, absent, other, &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nothing_under_the_name_before_commit, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_abort_keeps_the_old_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode_of_an_existing_file_is_kept, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_a_directory_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_missing_directory_is_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_paths_are_compared_as_files, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
