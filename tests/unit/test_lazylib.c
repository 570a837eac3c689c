/*
 * test_lazylib.c - a library opened on first use: its functions found and
 * called through the table, a missing library or function failing the load
 * with the loader's reason (and failing again, not retried, the next
 * time), and a load raced by several threads done once.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zstd.h>

#include "lazylib.h"

/*
 * libm, in every glibc system: a table filled by hand (the program's
 * modules use LAZYLIB_DEFINE, whose forwarders would take libm's names).
 */
static struct {
	double (*hypot_fn)(double, double);
} math_calls;

static int look_ups;

static void look_up_math(struct lazy_library *lib)
{
	look_ups++;
	*(void **)&math_calls.hypot_fn = lazylib_symbol(lib, "hypot");
}

static struct lazy_library math_library = {
	.what = "libm",
	.sonames = { "libm.so.6" },
	.look_up = look_up_math,
};

static void functions_are_found_and_called(void **state)
{
	struct ta_error err;

	(void)state;
	assert_int_equal(lazylib_load(&math_library, "to test", &err), 0);
	assert_non_null(math_calls.hypot_fn);
	assert_true(math_calls.hypot_fn(3.0, 4.0) == 5.0);
	/* loaded once: a second load looks nothing up again */
	assert_int_equal(lazylib_load(&math_library, "to test", &err), 0);
	assert_int_equal(look_ups, 1);
}

static void look_up_nothing(struct lazy_library *lib)
{
	(void)lib;
}

static struct lazy_library missing_library = {
	.what = "nothing",
	.sonames = { "libta-test-no-such-library.so.9" },
	.look_up = look_up_nothing,
};

static void a_missing_library_fails_with_the_loaders_reason(void **state)
{
	struct ta_error err;

	(void)state;
	assert_int_equal(lazylib_load(&missing_library, "to test", &err), -1);
	assert_string_equal(err.msg, "cannot load nothing to test: libta-test-no-such-library.so.9: "
			    "cannot open shared object file: No such file or directory");
	/* the failure stays: the same message, not a retry */
	assert_int_equal(lazylib_load(&missing_library, NULL, &err), -1);
	assert_string_equal(err.msg, "cannot load nothing: libta-test-no-such-library.so.9: "
			    "cannot open shared object file: No such file or directory");
}

static void *absent_fn;

static void look_up_an_absent_function(struct lazy_library *lib)
{
	if ((absent_fn = lazylib_symbol(lib, "hypot")) == NULL)
		return;
	absent_fn = lazylib_symbol(lib, "ta_test_no_such_function");
}

static struct lazy_library old_library = {
	.what = "libm",
	.sonames = { "libm.so.6" },
	.look_up = look_up_an_absent_function,
};

static void a_missing_function_fails_the_whole_load(void **state)
{
	struct ta_error err;

	(void)state;
	assert_int_equal(lazylib_load(&old_library, "to test", &err), -1);
	assert_null(absent_fn);
	assert_non_null(strstr(err.msg, "cannot load libm to test: "));
	assert_non_null(strstr(err.msg, "undefined symbol: ta_test_no_such_function"));
}

static int race_look_ups;

static void look_up_slowly(struct lazy_library *lib)
{
	__atomic_add_fetch(&race_look_ups, 1, __ATOMIC_RELAXED);
	(void)lazylib_symbol(lib, "cos");
}

static struct lazy_library raced_library = {
	.what = "libm",
	.sonames = { "libm.so.6" },
	.look_up = look_up_slowly,
};

static void *load_it(void *arg)
{
	struct ta_error err;

	(void)arg;
	return (void *)(intptr_t)lazylib_load(&raced_library, "to test", &err);
}

static void threads_racing_load_it_once(void **state)
{
	pthread_t t[8];
	int i;

	(void)state;
	for (i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&t[i], NULL, load_it, NULL), 0);
	for (i = 0; i < 8; i++) {
		void *rc;

		assert_int_equal(pthread_join(t[i], &rc), 0);
		assert_int_equal((intptr_t)rc, 0);
	}
	assert_int_equal(race_look_ups, 1);
}

/* A module's forwarder (ziplib.c's, made by LAZYLIB_DEFINE) loads on first call. */
static void a_forwarder_loads_its_library(void **state)
{
	(void)state;
	assert_false(ZSTD_isError(0));
	assert_true(ZSTD_isError((size_t)-1));
	assert_string_equal(ZSTD_getErrorName((size_t)-1), "Error (generic)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(functions_are_found_and_called),
		cmocka_unit_test(a_missing_library_fails_with_the_loaders_reason),
		cmocka_unit_test(a_missing_function_fails_the_whole_load),
		cmocka_unit_test(threads_racing_load_it_once),
		cmocka_unit_test(a_forwarder_loads_its_library),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
