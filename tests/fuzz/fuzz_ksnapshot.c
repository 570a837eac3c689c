/*
 * fuzz_ksnapshot.c - a libFuzzer target for the kernel's memory files
 * (ksnapshot.h): any bytes as one of them (meminfo, slabinfo, vmallocinfo,
 * vmstat, zoneinfo, buddyinfo, modules, memory.stat), known by its first
 * line or refused; what parses is put through the ledger's arithmetic
 * (its lines, what MemTotal leaves out, a series' changes against itself),
 * which must hold: MemTotal split into lines that, with unexplained, add up
 * to it; every change of a thing against itself zero. No crash, leak, hang
 * or undefined behaviour whatever the bytes.
 *
 * Its seeds are the fixture snapshot's files (tests/fuzz/make-built-seeds.sh).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ksnapshot.h"
#include "ledger.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_ledger(const struct kernel_snapshot *s)
{
	struct ledger_changes ch;
	struct ledger_static st;
	struct ta_error err;
	struct ledger l;
	int64_t sum = 0;
	unsigned i;
	size_t k;

	if (s->has_meminfo && ledger_make(&l, s, 4096, &err) == 0) {
		for (i = 1; i < l.nlines; i++)
			sum += l.lines[i].signed_bytes;
		if (l.nlines < 2 || sum != (int64_t)l.total)
			abort();	/* the lines and unexplained make MemTotal */
	}
	ledger_static_of(&st, s, 4096);
	ledger_changes_of(&ch, s, s, 4096);
	for (k = 0; k < ch.n; k++)
		if (ch.c[k].first != ch.c[k].last)
			abort();
	ledger_changes_release(&ch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kernel_snapshot s;
	struct ta_error err;
	char *text = malloc(size + 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	ksnapshot_init(&s);
	if (ksnapshot_parse_file(&s, "fuzz", text, size, &err) == 0)
		check_ledger(&s);
	ksnapshot_release(&s);
	free(text);
	return 0;
}
