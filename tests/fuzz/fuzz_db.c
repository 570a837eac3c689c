/*
 * fuzz_db.c - a libFuzzer target for the DB reader: whatever bytes the
 * file holds, db_open either refuses them with a message or yields tables
 * that every reader of the DB (the three accounts, the event replay, the
 * kept report data) can walk without a crash, a leak or undefined
 * behaviour; then every report that reads the kept data is made from it.
 *
 * Built with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION, binfile.c takes
 * every checksum as good, so mutations reach the checks behind them.
 * `make fuzz` builds it with clang; `make check` runs the seed corpus
 * (tests/fuzz/corpus/db) through it as a regression test.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_file.h"
#include "account.h"
#include "db.h"
#include "dirtree.h"
#include "engine.h"
#include "options.h"
#include "pipeline.h"
#include "reports.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_event(void *ctx, const struct kmem_event *ev)
{
	struct account *a = ctx;

	account_apply(a, ev);
}

static void read_everything(struct db *db, struct trace_strings *strings)
{
	static const unsigned families[3] = { FAMILY_ALL, FAMILY_MALLOC, FAMILY_CACHE };
	struct ta_error err;
	struct account a;
	uint32_t id;
	int i;

	for (i = 0; i < 3; i++) {
		account_init(&a, families[i]);
		if (db_load_account(db, families[i], strings->call_sites.count, &a, &err) == 0)
			for (id = 0; id < a.nsites; id++)
				if (account_site(&a, id))
					(void)strtab_get(&strings->call_sites, id);
		account_release(&a);
	}
	account_init(&a, FAMILY_ALL);
	(void)db_replay(db, strings, count_event, &a, &err);
	account_release(&a);
}

/*
 * Every report of a log from the DB at path but those that draw (charts,
 * the page: cairo's time is not the DB reader's), as trace_analyze
 * --db-file makes them: those its kept data answer, and the replay of the
 * others. The list is the report table's.
 */
static void report_from(const char *path)
{
	struct options o;
	struct ta_error err;
	int id;

	memset(&o, 0, sizeof(o));
	for (id = 0; id < REPORT_COUNT; id++)
		if (report_table[id].shape != SHAPE_CHART &&
		    report_table[id].shape != SHAPE_CHART_OR_DATA && id != REPORT_HTML &&
		    !(report_table[id].requires & (REQUIRES_TREE | REQUIRES_KSNAPSHOT)))
			o.report_path[id] = "/dev/null";
	o.req.db_path = path;
	o.req.families = FAMILY_ALL;
	o.req.quiet = true;
	o.rings_attr = ATTR_CURRENT_DYNAMIC;
	o.page_size = 4096;
	(void)pipeline_run(&o, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path;
	struct trace_strings strings;
	struct ta_error err;
	struct db db;

	path = fuzz_file_of("db", data, size);
	trace_strings_init(&strings);
	if (db_open(&db, path, &strings, &err) == 0) {
		read_everything(&db, &strings);
		db_close(&db);
		(void)analysis_check_db_parts(path, &err);	/* every pass's part taken */
		report_from(path);
	}
	trace_strings_release(&strings);
	return 0;
}
