/*
 * fuzz_db.c - a libFuzzer target for the DB reader: whatever bytes the
 * file holds, db_open either refuses them with a message or yields tables
 * that every reader of the DB (the three accounts, the event replay) can
 * walk without a crash, a leak or undefined behaviour.
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
#include <unistd.h>

#include "account.h"
#include "db.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct trace_strings strings;
	struct ta_error err;
	struct db db;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/ta-fuzz-db-%ld", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	trace_strings_init(&strings);
	if (db_open(&db, path, &strings, &err) == 0) {
		read_everything(&db, &strings);
		db_close(&db);
	}
	trace_strings_release(&strings);
	return 0;
}
