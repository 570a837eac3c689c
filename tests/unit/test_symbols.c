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

/* kallsyms of two modules: a module's symbol names only its own code */
static const char two_modules[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81001000 T kmalloc\n"
	"ffffffffa0025000 t dummy_xmit\t[dummy]\n"
	"ffffffffa0025181 t dummy_cleanup_module\t[dummy]\n"
	"ffffffffa0029000 t new_handle\t[jbd2]\n"
	"ffffffffa0029100 t jbd2_journal_stop\t[jbd2]\n";

static void module_symbols_name_only_their_module(void **state)
{
	struct symbol_table t;
	struct ta_error err;
	const struct ksym *s;

	(void)state;
	symbols_init(&t);
	assert_int_equal(symbols_parse_kallsyms(&t, two_modules, sizeof(two_modules) - 1, "k",
						&err), 0);
	/* without /proc/modules: up to the page after the module's last symbol */
	s = symbols_lookup(&t, 0xffffffffa0026fffULL);
	assert_non_null(s);
	assert_string_equal(ksym_module(&t, s), "dummy");
	assert_null(symbols_lookup(&t, 0xffffffffa0027000ULL));	/* freed init text */
	assert_int_equal(symbols_why_not(&t, 0xffffffffa0027538ULL), SYMMISS_PAST_MODULE);
	/* inside the module, between two of its symbols: named */
	assert_non_null(symbols_lookup(&t, 0xffffffffa0025100ULL));
	/* built-in code is not bounded so */
	assert_non_null(symbols_lookup(&t, 0xffffffff81100000ULL));
	/* with /proc/modules: dummy is 8 KiB, jbd2's extent is cut at nothing */
	static const char mods[] = "jbd2 114688 1 - Live 0xffffffffa0029000\n"
				   "dummy 8192 0 - Live 0xffffffffa0025000\n";
	assert_int_equal(symbols_parse_modules(&t, mods, sizeof(mods) - 1, "m", &err), 0);
	assert_non_null(symbols_lookup(&t, 0xffffffffa0026fffULL));
	assert_null(symbols_lookup(&t, 0xffffffffa0027000ULL));
	assert_int_equal(symbols_why_not(&t, 0xffffffffa0027000ULL), SYMMISS_PAST_MODULE);
	assert_non_null(symbols_lookup(&t, 0xffffffffa0029150ULL));
	/* a module the file does not list: another load cycle */
	static const char only_jbd2[] = "jbd2 114688 1 - Live 0xffffffffa0029000\n";
	assert_int_equal(symbols_parse_modules(&t, only_jbd2, sizeof(only_jbd2) - 1, "m", &err), 0);
	assert_null(symbols_lookup(&t, 0xffffffffa0025100ULL));
	assert_int_equal(symbols_why_not(&t, 0xffffffffa0025100ULL), SYMMISS_OTHER_LOAD);
	/* a used-by list of any length is one field */
	char long_line[2048];
	int n = snprintf(long_line, sizeof(long_line), "dummy 8192 130 ");
	for (int k = 0; k < 130; k++)
		n += snprintf(long_line + n, sizeof(long_line) - (size_t)n, "user_module_%d,", k);
	n += snprintf(long_line + n, sizeof(long_line) - (size_t)n, " Live 0xffffffffa0025000\n");
	assert_true(n > 1024);
	assert_int_equal(symbols_parse_modules(&t, long_line, (size_t)n, "m", &err), 0);
	assert_non_null(symbols_lookup(&t, 0xffffffffa0025100ULL));
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
		cmocka_unit_test(module_symbols_name_only_their_module),
	};

	return cmocka_run_group_tests(tests, write_map, remove_map);
}
