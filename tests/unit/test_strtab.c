/*
 * test_strtab.c - interning: one id per distinct string, dense and in
 * order of first sight, stable across growth of the index.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "strtab.h"

static void ids_are_dense_and_stable(void **state)
{
	struct strtab t;
	char name[32];
	uint32_t i;

	(void)state;
	strtab_init(&t);
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "alloc_inode+0x%x", i);
		assert_int_equal(strtab_intern(&t, name, strlen(name)), i);
	}
	for (i = 0; i < 5000; i += 7) {
		snprintf(name, sizeof(name), "alloc_inode+0x%x", i);
		assert_int_equal(strtab_intern(&t, name, strlen(name)), i);
		assert_int_equal(strtab_find(&t, name, strlen(name)), i);
		assert_string_equal(strtab_get(&t, i), name);
		assert_int_equal(strtab_length(&t, i), strlen(name));
	}
	assert_int_equal(t.count, 5000);
	assert_int_equal(strtab_find(&t, "kmalloc", 7), STR_NONE);
	strtab_release(&t);
}

static void lengths_not_terminators_delimit(void **state)
{
	struct strtab t;
	const char line[] = "filp names_cache";

	(void)state;
	strtab_init(&t);
	assert_int_equal(strtab_intern(&t, line, 4), 0);	/* "filp" */
	assert_int_equal(strtab_intern(&t, line + 5, 11), 1);	/* "names_cache" */
	assert_int_equal(strtab_intern(&t, "filp", 4), 0);
	assert_int_equal(strtab_intern(&t, "fil", 3), 2);
	assert_int_equal(strtab_intern(&t, "", 0), 3);
	assert_string_equal(strtab_get(&t, 1), "names_cache");
	strtab_release(&t);
}

static void packed_tables_load_or_say_what_is_wrong(void **state)
{
	static const char good[] = "kmalloc\0filp\0";	/* two strings, ids 0 and 1 */
	static const char repeated[] = "filp\0filp\0";
	static const char trailing[] = "a\0b\0c\0";
	struct strtab t;

	(void)state;
	strtab_init(&t);
	assert_null(strtab_load_packed(&t, good, sizeof(good) - 1, 2));
	assert_string_equal(strtab_get(&t, 1), "filp");
	strtab_release(&t);
	strtab_init(&t);
	assert_string_equal(strtab_load_packed(&t, good, sizeof(good) - 1, 3),
			    "a string table is cut short");
	strtab_release(&t);
	strtab_init(&t);
	assert_string_equal(strtab_load_packed(&t, good, sizeof(good) - 2, 2),
			    "a string table is cut short");
	strtab_release(&t);
	strtab_init(&t);
	assert_string_equal(strtab_load_packed(&t, repeated, sizeof(repeated) - 1, 2),
			    "a string table repeats a string");
	strtab_release(&t);
	strtab_init(&t);
	assert_string_equal(strtab_load_packed(&t, trailing, sizeof(trailing) - 1, 2),
			    "a string table has bytes past its strings");
	strtab_release(&t);
	strtab_init(&t);
	assert_null(strtab_load_packed(&t, NULL, 0, 0));
	strtab_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ids_are_dense_and_stable),
		cmocka_unit_test(lengths_not_terminators_delimit),
		cmocka_unit_test(packed_tables_load_or_say_what_is_wrong),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
