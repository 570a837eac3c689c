/*
 * test_db.c - the DB file: every event of a real log comes back from it
 * exactly as the parser made it (all fields, all kinds, markers too), in
 * log order, with the same string tables; the saved accounts equal the
 * ones computed from the log; damaged files are refused.
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

#include "account.h"
#include "db.h"
#include "text_parse.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

static char path[256];

struct parsed {
	struct trace_strings strings;
	struct parser parser;
	struct kmem_event *events;
	size_t count;
	struct account accounts[3];
};

static const unsigned families[3] = { FAMILY_ALL, FAMILY_MALLOC, FAMILY_CACHE };

static void parse_fixture(const char *name, struct parsed *p)
{
	char file[512], line[8192];
	uint64_t no = 0;
	size_t cap = 0;
	int i;
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s", FIXTURES, name);
	f = fopen(file, "r");
	assert_non_null(f);
	memset(p, 0, sizeof(*p));
	trace_strings_init(&p->strings);
	parser_init(&p->parser, &p->strings, WANT_ALL);
	for (i = 0; i < 3; i++)
		account_init(&p->accounts[i], families[i]);
	while (fgets(line, sizeof(line), f)) {
		struct kmem_event ev;
		size_t n = strcspn(line, "\n");

		if (parse_line(&p->parser, line, n, ++no, &ev) != LINE_EVENT)
			continue;
		if (p->count == cap) {
			cap = cap ? cap * 2 : 256;
			p->events = realloc(p->events, cap * sizeof(*p->events));
		}
		p->events[p->count++] = ev;
		for (i = 0; i < 3; i++)
			account_apply(&p->accounts[i], &ev);
	}
	fclose(f);
	parser_release(&p->parser);
}

static void release_parsed(struct parsed *p)
{
	int i;

	for (i = 0; i < 3; i++)
		account_release(&p->accounts[i]);
	trace_strings_release(&p->strings);
	free(p->events);
}

static void save(struct parsed *p)
{
	struct ta_error err;
	struct db_input_facts facts = { 0, 0, 0, 0, 1234 };
	struct db_writer *w = db_writer_create(path, FAMILY_ALL, false, &err);
	size_t i;

	assert_non_null(w);
	for (i = 0; i < p->count; i++)
		assert_int_equal(db_writer_add(w, &p->events[i], &err), 0);
	assert_int_equal(db_writer_finish(w, "fixture.log", &p->strings, &p->parser.stats,
					  &p->parser.header, &facts, NULL, 0, &p->accounts[0],
					  FAMILY_ALL, NULL, 0, &err), 0);
}

struct replay {
	const struct parsed *p;
	size_t next;
	int mismatches;
};

static void compare_event(void *ctx, const struct kmem_event *ev)
{
	struct replay *r = ctx;

	if (r->next >= r->p->count ||
	    memcmp(ev, &r->p->events[r->next], sizeof(*ev)) != 0)
		r->mismatches++;
	r->next++;
}

static void assert_same_strings(const struct strtab *a, const struct strtab *b)
{
	uint32_t i;

	assert_int_equal(a->count, b->count);
	for (i = 0; i < a->count; i++)
		assert_string_equal(strtab_get(a, i), strtab_get(b, i));
}

static void round_trip(const char *fixture, size_t min_events)
{
	struct parsed p;
	struct trace_strings strings;
	struct replay r = { &p, 0, 0 };
	struct ta_error err;
	struct db db;
	int i;

	parse_fixture(fixture, &p);
	assert_true(p.count >= min_events);
	save(&p);
	trace_strings_init(&strings);
	assert_int_equal(db_open(&db, path, &strings, &err), 0);
	assert_string_equal(db.source, "fixture.log");
	assert_int_equal(db.facts.bytes_read, 1234);
	assert_memory_equal(&db.stats, &p.parser.stats, sizeof(db.stats));
	assert_int_equal(db.header.cpus, p.parser.header.cpus);
	assert_same_strings(&strings.call_sites, &p.strings.call_sites);
	assert_same_strings(&strings.comms, &p.strings.comms);
	assert_same_strings(&strings.gfps, &p.strings.gfps);
	assert_same_strings(&strings.caches, &p.strings.caches);
	assert_int_equal(db_replay(&db, &strings, compare_event, &r, &err), 0);
	assert_int_equal(r.mismatches, 0);
	assert_int_equal(r.next, p.count);
	for (i = 0; i < 3; i++) {
		struct account a;
		uint32_t id;

		account_init(&a, families[i]);
		assert_int_equal(db_load_account(&db, families[i], strings.call_sites.count, &a,
						 &err), 0);
		assert_memory_equal(&a.totals, &p.accounts[i].totals, sizeof(a.totals));
		for (id = 0; id < strings.call_sites.count; id++) {
			const struct site_stats *x = account_site(&a, id);
			const struct site_stats *y = account_site(&p.accounts[i], id);

			assert_true((x == NULL) == (y == NULL));
			if (x)
				assert_memory_equal(x, y, sizeof(*x));
		}
		account_release(&a);
	}
	db_close(&db);
	trace_strings_release(&strings);
	release_parsed(&p);
}

static void tracefs_6_1_events_come_back_exactly(void **state)
{
	(void)state;
	round_trip("tracefs-6.1-rawptr.log", 40);
}

static void trace_pipe_events_and_lost_markers_come_back_exactly(void **state)
{
	(void)state;
	round_trip("trace-pipe-6.18.log", 10);
}

static void trace_cmd_and_perf_events_come_back_exactly(void **state)
{
	(void)state;
	round_trip("trace-cmd-6.18.txt", 20);
	round_trip("perf-script-6.18.txt", 20);
}

static void old_hex_events_come_back_exactly(void **state)
{
	(void)state;
	round_trip("old-2.6-hex.log", 5);
}

static void a_flipped_byte_anywhere_is_refused(void **state)
{
	struct parsed p;
	struct trace_strings strings;
	struct ta_error err;
	struct db db;
	long size, at;
	FILE *f;

	(void)state;
	parse_fixture("tracefs-6.1-rawptr.log", &p);
	save(&p);
	f = fopen(path, "r+b");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	for (at = 64; at < size; at += size / 17) {
		int c;

		fseek(f, at, SEEK_SET);
		c = fgetc(f);
		fseek(f, at, SEEK_SET);
		fputc(c ^ 0x20, f);
		fflush(f);
		trace_strings_init(&strings);
		/* refused on opening, or (events, accounts: read on use) by the full check */
		if (db_open(&db, path, &strings, &err) == 0) {
			assert_int_equal(db_check_all(&db, &strings, &err), -1);
			db_close(&db);
		}
		assert_non_null(strstr(err.msg, "is not a usable DB file"));
		trace_strings_release(&strings);
		fseek(f, at, SEEK_SET);
		fputc(c, f);
		fflush(f);
	}
	fclose(f);
	release_parsed(&p);
}

static int setup(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/ta-db-%ld", P_tmpdir, (long)getpid());
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(tracefs_6_1_events_come_back_exactly, setup, teardown),
		cmocka_unit_test_setup_teardown(trace_pipe_events_and_lost_markers_come_back_exactly,
						setup, teardown),
		cmocka_unit_test_setup_teardown(trace_cmd_and_perf_events_come_back_exactly, setup,
						teardown),
		cmocka_unit_test_setup_teardown(old_hex_events_come_back_exactly, setup, teardown),
		cmocka_unit_test_setup_teardown(a_flipped_byte_anywhere_is_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
