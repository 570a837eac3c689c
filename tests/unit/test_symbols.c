/*
 * test_symbols.c - System.map lookups and call-site names: the nearest
 * code symbol at or below an address, aliases, addresses outside code, and
 * the "sym+0xoff" names trace_analyze.py gave.
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

#include "callsite.h"
#include "symbols.h"

static char map_path[256];

static int write_map(void **state)
{
	struct symbol_table *t = calloc(1, sizeof(*t));
	struct ta_error err;
	FILE *f;

	snprintf(map_path, sizeof(map_path), "%s/ta-map-%ld", P_tmpdir, (long)getpid());
	f = fopen(map_path, "w");
	fputs("0000000000000000 D __per_cpu_start\n"
	      "ffffffff81000000 T _text\n"
	      "ffffffff81000000 T startup_64\n"
	      "ffffffff8109b357 t allocate_probes\n"
	      "ffffffff8109b390 T tracepoint_probe_register\n"
	      "ffffffff81200000 t local_alias\n"
	      "ffffffff81200000 T global_alias\n"
	      "ffffffff81300000 W weak_func\n"
	      "ffffffff81400000 R some_rodata\n"
	      "ffffffff82000000 B _end\n", f);
	fclose(f);
	symbols_init(t);
	assert_int_equal(symbols_load_system_map(t, map_path, &err), 0);
	*state = t;
	return 0;
}

static int remove_map(void **state)
{
	symbols_release(*state);
	free(*state);
	unlink(map_path);
	return 0;
}

static const char *name_at(const struct symbol_table *t, uint64_t addr)
{
	const struct ksym *s = symbols_lookup(t, addr);

	return s ? ksym_name(t, s) : NULL;
}

static void nearest_code_symbol_at_or_below(void **state)
{
	const struct symbol_table *t = *state;

	assert_string_equal(name_at(t, 0xffffffff8109b380), "allocate_probes");
	assert_string_equal(name_at(t, 0xffffffff8109b357), "allocate_probes");
	assert_string_equal(name_at(t, 0xffffffff8109b390), "tracepoint_probe_register");
	assert_string_equal(name_at(t, 0xffffffff81000010), "_text");	/* first in file */
	assert_string_equal(name_at(t, 0xffffffff81200004), "global_alias");
	assert_string_equal(name_at(t, 0xffffffff81300004), "weak_func");
}

static void addresses_outside_code_stay_unresolved(void **state)
{
	const struct symbol_table *t = *state;

	assert_null(name_at(t, 0x1000));			/* per-cpu data */
	assert_null(name_at(t, 0xffffffff81400010));		/* rodata */
	assert_null(name_at(t, 0xffffffff92000000));		/* past _end */
}

static void call_site_names(void **state)
{
	const struct symbol_table *t = *state;
	char out[CALLSITE_NAME_MAX];
	struct {
		const char *text;
		bool by_function;
		const char *want;
	} cases[] = {
		{ "alloc_inode+0x4f/0x90", false, "alloc_inode+0x4f" },
		{ "alloc_inode+0x4f/0x90", true, "alloc_inode" },
		{ "getname_flags.part.0+0x24/0x1f0", false, "getname_flags.part.0+0x24" },
		{ "perf_event_mmap+0x155", false, "perf_event_mmap+0x155" },
		{ "ext4_alloc_inode+0x1a/0x150 [ext4]", false, "ext4_alloc_inode+0x1a [ext4]" },
		{ "ext4_alloc_inode+0x1a/0x150 [ext4]", true, "ext4_alloc_inode [ext4]" },
		{ "ffffffff8109b380", false, "allocate_probes+0x29" },
		{ "ffffffff8109b380", true, "allocate_probes" },
		{ "0xffffffff8109b380", false, "allocate_probes+0x29" },
		{ "ffffffff92000000", false, "ffffffff92000000" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		callsite_name(cases[i].text, strlen(cases[i].text), t, cases[i].by_function, out,
			      sizeof(out));
		assert_string_equal(out, cases[i].want);
	}
	callsite_name("ffffffff8109b380", 16, NULL, false, out, sizeof(out));
	assert_string_equal(out, "ffffffff8109b380");	/* no map: stays hex */
}

static void a_text_file_is_no_system_map(void **state)
{
	struct symbol_table t;
	struct ta_error err;
	FILE *f = fopen(map_path, "w");

	(void)state;
	fputs("this is not\na System.map\n", f);
	fclose(f);
	symbols_init(&t);
	assert_int_equal(symbols_load_system_map(&t, map_path, &err), -1);
	assert_non_null(strstr(err.msg, "is not a System.map"));
	symbols_release(&t);
}

/*
 * A trace.dat's kallsyms read as libtraceevent does, whose names trace-cmd
 * report prints: any kind of symbol, none absolute or "$", the first of
 * several at one address, nothing past the last symbol.
 */
static void kallsyms_as_libtraceevent_reads_it(void **state)
{
	static const char text[] =
		"0000000000000000 A fixed_percpu_data\n"
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 t first_alias\n"
		"ffffffff81000000 T second_alias\n"
		"ffffffff81000100 t $x\n"
		"ffffffff81200000 d some_data\n"
		"ffffffff81300000 T kfree\t[mod]\n"
		"ffffffff81400000 T last_one";
	struct symbol_table t;
	struct ta_error err;

	(void)state;
	symbols_init(&t);
	assert_int_equal(symbols_parse_tep_kallsyms(&t, text, strlen(text), "kallsyms", &err), 0);
	assert_string_equal(name_at(&t, 0xffffffff81000010), "_stext");
	assert_string_equal(name_at(&t, 0xffffffff81000110), "_stext");	/* "$x" is not kept */
	assert_string_equal(name_at(&t, 0xffffffff81200010), "some_data");
	assert_string_equal(name_at(&t, 0xffffffff81300010), "kfree");
	assert_string_equal(name_at(&t, 0xffffffff81400000), "last_one");
	assert_null(name_at(&t, 0xffffffff81400010));
	assert_null(name_at(&t, 0x10));		/* the absolute symbol is not kept */
	symbols_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nearest_code_symbol_at_or_below),
		cmocka_unit_test(addresses_outside_code_stay_unresolved),
		cmocka_unit_test(call_site_names),
		cmocka_unit_test(a_text_file_is_no_system_map),
		cmocka_unit_test(kallsyms_as_libtraceevent_reads_it),
	};

	return cmocka_run_group_tests(tests, write_map, remove_map);
}
