/*
 * test_text_parse.c - one line of each trace format into struct kmem_event.
 * The lines are copied from the corpus (../shared/corpus) unless noted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <ctype.h>
#include <stdio.h>

#include "text_parse.h"

struct fixture {
	struct trace_strings strings;
	struct parser parser;
	struct kmem_event ev;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	trace_strings_init(&f->strings);
	parser_init(&f->parser, &f->strings, WANT_ALL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	parser_release(&f->parser);
	trace_strings_release(&f->strings);
	free(f);
	return 0;
}

static bool parse(struct fixture *f, const char *line)
{
	return parse_line(&f->parser, line, strlen(line), 7, &f->ev) == LINE_EVENT;
}

static const char *call_site(struct fixture *f)
{
	return strtab_get(&f->strings.call_sites, f->ev.call_site);
}

static void tracefs_6_1_kmalloc(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "          <idle>-0       [000] d....     0.280867: kmalloc: "
			     "call_site=allocate_probes+0x29/0x33 ptr=00000000f38f641d bytes_req=64 "
			     "bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"));
	assert_int_equal(f->ev.kind, KMEM_KMALLOC);
	assert_int_equal(f->ev.line, 7);
	assert_int_equal(f->ev.cpu, 0);
	assert_int_equal(f->ev.pid, 0);
	assert_string_equal(strtab_get(&f->strings.comms, f->ev.comm), "<idle>");
	assert_int_equal(f->ev.ts_ns, 280867000ull);
	assert_int_equal(f->ev.ptr, 0xf38f641dull);
	assert_int_equal(f->ev.bytes_req, 64);
	assert_int_equal(f->ev.bytes_alloc, 64);
	assert_int_equal(f->ev.node, -1);
	assert_int_equal(f->ev.accounted, ACCOUNTED_FALSE);
	assert_string_equal(call_site(f), "allocate_probes+0x29/0x33");
	assert_string_equal(strtab_get(&f->strings.gfps, f->ev.gfp), "GFP_KERNEL");
}

static void tracefs_6_18_cache_alloc_with_name(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "             gcc-4090    [000] .....  1187.655895: kmem_cache_alloc: "
			     "call_site=getname_flags.part.0+0x24/0x1f0 ptr=0000000047aa5998 "
			     "name=names_cache bytes_req=4096 bytes_alloc=4096 gfp_flags=GFP_KERNEL "
			     "node=-1 accounted=false"));
	assert_int_equal(f->ev.kind, KMEM_CACHE_ALLOC);
	assert_int_equal(f->ev.pid, 4090);
	assert_string_equal(strtab_get(&f->strings.comms, f->ev.comm), "gcc");
	assert_string_equal(strtab_get(&f->strings.caches, f->ev.cache), "names_cache");
	assert_string_equal(call_site(f), "getname_flags.part.0+0x24/0x1f0");
	assert_int_equal(f->ev.ts_ns, 1187655895000ull);
}

static void comm_with_dashes_and_colons(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, " kworker/1:2-479     [001] ..s1.  10.000001: kfree: "
			     "call_site=rcu_core+0x1/0x2 ptr=0000000000000000"));
	assert_int_equal(f->ev.kind, KMEM_KFREE);
	assert_int_equal(f->ev.pid, 479);
	assert_int_equal(f->ev.cpu, 1);
	assert_int_equal(f->ev.ptr, 0);
	assert_string_equal(strtab_get(&f->strings.comms, f->ev.comm), "kworker/1:2");
}

static void trace_cmd_report_kmalloc(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "             gcc-4090  [000]  1187.655972: kmalloc:              "
			     "(alloc_bprm+0x45) call_site=alloc_bprm+0x45 ptr=0xffff888209d3f000 "
			     "bytes_req=408 bytes_alloc=512 gfp_flags=GFP_KERNEL|__GFP_ZERO node=-1 "
			     "accounted=false"));
	assert_int_equal(f->ev.kind, KMEM_KMALLOC);
	assert_int_equal(f->ev.ptr, 0xffff888209d3f000ull);
	assert_string_equal(call_site(f), "alloc_bprm+0x45");
	assert_int_equal(f->ev.bytes_alloc, 512);
	assert_int_equal(f->ev.pid, 4090);
}

static void trace_cmd_null_is_nil(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "             gcc-4090  [000]  1187.655980: kfree:                "
			     "(ida_alloc_range+0x39b) call_site=ida_alloc_range+0x39b ptr=(nil)"));
	assert_int_equal(f->ev.kind, KMEM_KFREE);
	assert_int_equal(f->ev.ptr, 0);
}

static void perf_script_kmem_prefix(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "           wl.sh 19425 [000]  2678.277893:                 "
			     "kmem:kmem_cache_alloc: call_site=mas_preallocate+0x3ef "
			     "ptr=0xffff88810c478f00 name=maple_node bytes_req=256 bytes_alloc=256 "
			     "gfp_flags=GFP_KERNEL node=-1 accounted=false"));
	assert_int_equal(f->ev.kind, KMEM_CACHE_ALLOC);
	assert_int_equal(f->ev.pid, 19425);
	assert_string_equal(strtab_get(&f->strings.comms, f->ev.comm), "wl.sh");
	assert_string_equal(call_site(f), "mas_preallocate+0x3ef");
}

static void old_kernel_no_flags_hex_call_site(void **state)
{
	struct fixture *f = *state;

	/* 2.6.3x layout (typed after the kmemtrace-era format) */
	assert_true(parse(f, "            bash-3103  [000]  3011.355522: kmalloc_node: "
			     "call_site=c10c8a4b ptr=f5e4a780 bytes_req=96 bytes_alloc=96 "
			     "gfp_flags=GFP_KERNEL node=0"));
	assert_int_equal(f->ev.kind, KMEM_KMALLOC_NODE);
	assert_int_equal(f->ev.cpu, 0);
	assert_int_equal(f->ev.node, 0);
	assert_int_equal(f->ev.accounted, ACCOUNTED_ABSENT);
	assert_string_equal(call_site(f), "c10c8a4b");
	assert_int_equal(f->ev.ptr, 0xf5e4a780ull);
}

static void module_call_site_keeps_module(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "  mount-77 [001] ..... 5.000000: kmalloc: "
			     "call_site=ext4_fill_super+0x4d/0x2ff0 [ext4] ptr=0000000012345678 "
			     "bytes_req=10 bytes_alloc=16 gfp_flags=GFP_KERNEL node=-1 accounted=false"));
	assert_string_equal(call_site(f), "ext4_fill_super+0x4d/0x2ff0 [ext4]");
	assert_int_equal(f->ev.bytes_req, 10);
}

/* Call sites alike in length and in their first and last eight bytes stay apart, in any order. */
static void call_sites_alike_at_both_ends(void **state)
{
	struct fixture *f = *state;
	static const char *const site[] = { "do_thing_a+0x10/0x20", "do_thing_b+0x10/0x20",
					    "do_thing_c+0x10/0x20", "short", "x" };
	const char *order = "0102301243340";
	uint32_t id[5];
	bool seen[5] = { false };
	char line[256];
	size_t i;

	for (i = 0; order[i]; i++) {
		int k = order[i] - '0';

		snprintf(line, sizeof(line),
			 "  sh-1 [000] ..... 1.000000: kmalloc: call_site=%s ptr=0000000012345678 "
			 "bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false",
			 site[k]);
		assert_true(parse(f, line));
		assert_string_equal(call_site(f), site[k]);
		if (seen[k])
			assert_int_equal(f->ev.call_site, id[k]);
		id[k] = f->ev.call_site;
		seen[k] = true;
	}
	assert_int_equal(f->strings.call_sites.count, 5);
}

static void page_alloc_fields(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "           wl.sh 19425 [000]  2678.277901:                    "
			     "kmem:mm_page_alloc: page=0x22a9b4 pfn=0x22a9b4 order=0 migratetype=0 "
			     "gfp_flags=GFP_KERNEL_ACCOUNT|__GFP_ZERO|__GFP_COMP"));
	assert_int_equal(f->ev.kind, KMEM_PAGE_ALLOC);
	assert_int_equal(f->ev.pfn, 0x22a9b4);
	assert_int_equal(f->ev.order, 0);
	assert_int_equal(f->ev.migratetype, 0);
}

static void markers_are_events(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "CPU:1 [LOST 66 EVENTS]"));
	assert_int_equal(f->ev.kind, KMEM_LOST_EVENTS);
	assert_int_equal(f->ev.cpu, 1);
	assert_int_equal(f->ev.pfn, 66);
	assert_int_equal(f->parser.stats.lost_events, 66);
	assert_true(parse(f, "##### CPU 0 buffer started ####"));
	assert_int_equal(f->ev.kind, KMEM_BUFFER_STARTED);
	assert_int_equal(f->ev.cpu, 0);
}

static void header_entries_and_cpus(void **state)
{
	struct fixture *f = *state;

	assert_false(parse(f, "# entries-in-buffer/entries-written: 9259/63178   #P:2"));
	assert_true(f->parser.header.has_entries);
	assert_int_equal(f->parser.header.entries_in_buffer, 9259);
	assert_int_equal(f->parser.header.entries_written, 63178);
	assert_int_equal(f->parser.header.cpus, 2);
	assert_int_equal(f->parser.stats.header_lines, 1);
}

static void skipped_lines_are_classified(void **state)
{
	struct fixture *f = *state;
	struct parse_stats *st = &f->parser.stats;

	assert_false(parse(f, "            init-1       [001] .....   250.161371: <stack trace>"));
	assert_false(parse(f, " => trace_event_raw_event_kmem_cache_alloc"));
	assert_int_equal(st->stack_lines, 2);
	assert_false(parse(f, "             gcc-4090    [000] ...1.  1187.655874: rss_stat: "
			      "mm_id=1372534824 curr=1 type=MM_FILEPAGES size=2895872B"));
	assert_int_equal(st->other_events, 1);
	assert_false(parse(f, "\x01\x02garbage \xff\xfe"));
	assert_false(parse(f, ""));
	assert_int_equal(st->garbage, 1);
	assert_int_equal(st->blank_lines, 1);
}

static void malformed_kmem_events_are_refused(void **state)
{
	struct fixture *f = *state;
	struct parse_stats *st = &f->parser.stats;

	/* truncated before bytes_alloc */
	assert_false(parse(f, "  a-1 [000] ..... 1.000000: kmalloc: call_site=f+0x1/0x2 "
			      "ptr=0000000012345678 bytes_req=64 bytes_al"));
	/* a number that is not one */
	assert_false(parse(f, "  a-1 [000] ..... 1.000000: kmalloc: call_site=f+0x1/0x2 "
			      "ptr=00000000123z5678 bytes_req=64 bytes_alloc=64"));
	/* bytes_alloc beyond 32 bits */
	assert_false(parse(f, "  a-1 [000] ..... 1.000000: kmalloc: call_site=f+0x1/0x2 "
			      "ptr=0000000012345678 bytes_req=64 bytes_alloc=99999999999"));
	/* a NUL byte inside the pointer */
	const char nul_line[] = "  a-1 [000] ..... 1.000000: kfree: call_site=f+0x1/0x2 ptr=00\0000001";

	assert_true(parse_line(&f->parser, nul_line, sizeof(nul_line) - 1, 9, &f->ev) != LINE_EVENT);
	assert_int_equal(st->malformed, 4);
	assert_int_equal(st->events[KMEM_KMALLOC], 0);
	assert_int_equal(f->parser.first_malformed_line, 7);
}

static void crlf_line_ending(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "  a-1 [000] ..... 1.000000: kfree: call_site=f+0x1/0x2 ptr=00000000000000ab\r"));
	assert_int_equal(f->ev.ptr, 0xab);
}

static void nanosecond_timestamps(void **state)
{
	struct fixture *f = *state;

	assert_true(parse(f, "  a-1 [000] ..... 12.000000123: kfree: call_site=f+0x1/0x2 ptr=1"));
	assert_int_equal(f->ev.ts_ns, 12000000123ull);
}

enum { TIME, MALFORMED, NOT_EVENT };

/*
 * Each shape of timestamp token is a time, a malformed event (a token of
 * digits and dots that is no time, or past 2^64 ns), or no event at all.
 */
static void timestamps_of_every_shape(void **state)
{
	static const struct {
		const char *token;
		int want;
		uint64_t ns;
	} cases[] = {
		{ "0.280867", TIME, 280867000ull },
		{ "26304.266989", TIME, 26304266989000ull },
		{ "12.000000123", TIME, 12000000123ull },
		{ "1.1234567891", TIME, 1123456789ull },	/* past the ninth decimal: dropped */
		{ "7", TIME, 7000000000ull },
		{ "1234567.12345678", TIME, 1234567123456780ull },
		{ "12345678.5", TIME, 12345678500000000ull },	/* no dot in the first 8 bytes */
		{ "123456789.5", TIME, 123456789500000000ull },
		{ "12.34x", NOT_EVENT, 0 },
		{ "12.3/4", NOT_EVENT, 0 },
		{ "0000000000000000001.5", TIME, 1500000000ull },	/* 19 digits */
		{ "18446744073.709551615", TIME, UINT64_MAX },
		{ "18446744073.709551616", MALFORMED, 0 },
		{ "18446744074.1", MALFORMED, 0 },
		{ "999999999999999999.1", MALFORMED, 0 },
		{ "12345678901234567890.1", MALFORMED, 0 },
		{ "1.2.3", MALFORMED, 0 },
		{ "5.", MALFORMED, 0 },
		{ "5..1", MALFORMED, 0 },
		{ ".5", NOT_EVENT, 0 },
		{ "5x.1", NOT_EVENT, 0 },
	};
	struct fixture *f = *state;
	char line[160];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t malformed = f->parser.stats.malformed;

		snprintf(line, sizeof(line), "  a-1 [000] ..... %s: kfree: call_site=f+0x1/0x2 ptr=1",
			 cases[i].token);
		bool ok = parse(f, line);

		assert_int_equal(ok, cases[i].want == TIME);
		if (ok)
			assert_true(f->ev.ts_ns == cases[i].ns);
		assert_int_equal(f->parser.stats.malformed - malformed, cases[i].want == MALFORMED);
	}
}

/* What a timestamp token is, by the definition (DESIGN.md section 4), slowly. */
static int token_by_definition(const char *t, uint64_t *ns)
{
	size_t n = strlen(t), i, dots = 0, dot = n;
	unsigned __int128 secs = 0, frac = 0;
	int decimals = 0;

	if (n == 0 || t[0] < '0' || t[0] > '9')
		return NOT_EVENT;
	for (i = 0; i < n; i++) {
		if (t[i] == '.') {
			if (dots++ == 0)
				dot = i;
		} else if (t[i] < '0' || t[i] > '9') {
			return NOT_EVENT;
		}
	}
	if (dots > 1 || dot > 19 || (dots && dot == n - 1))
		return MALFORMED;
	for (i = 0; i < dot; i++)
		secs = secs * 10 + (unsigned)(t[i] - '0');
	for (i = dot + 1; i < n && decimals < 9; i++, decimals++)
		frac = frac * 10 + (unsigned)(t[i] - '0');
	for (; decimals < 9; decimals++)
		frac *= 10;
	if (secs * 1000000000u + frac > UINT64_MAX)
		return MALFORMED;
	*ns = (uint64_t)(secs * 1000000000u + frac);
	return TIME;
}

/* Random tokens of digits, dots and other bytes, 1 to 24 long: read as the definition says. */
static void timestamps_as_defined(void **state)
{
	static const char alphabet[] = "0123456789012345678901234567890123456789....x:/\x80\xb9\xff";
	struct fixture *f = *state;
	uint64_t seed = 0x243F6A8885A308D3ull;
	char token[32], line[160];
	int round, tested[3] = { 0, 0, 0 };

	for (round = 0; round < 200000; round++) {
		size_t n, i;
		uint64_t want_ns = 0, malformed = f->parser.stats.malformed;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		n = 1 + (seed >> 59) % 24;
		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			token[i] = alphabet[(seed >> 33) % (sizeof(alphabet) - 1)];
		}
		token[n] = '\0';
		int want = token_by_definition(token, &want_ns);

		if (strchr(token, ':'))
			continue;	/* the colon would end the token early */
		snprintf(line, sizeof(line), "  a-1 [000] ..... %s: kfree: call_site=f+0x1/0x2 ptr=1",
			 token);
		bool ok = parse(f, line);

		if (ok != (want == TIME) ||
		    f->parser.stats.malformed - malformed != (uint64_t)(want == MALFORMED) ||
		    (ok && f->ev.ts_ns != want_ns))
			fail_msg("token '%s': want %d (%llu ns)", token, want,
				 (unsigned long long)want_ns);
		tested[want]++;
	}
	assert_true(tested[TIME] > 1000 && tested[MALFORMED] > 1000 && tested[NOT_EVENT] > 1000);
}

/*
 * The CPU column however the flags before the timestamp are laid out: the
 * usual "[ddd] fffff " at once, any other by the walk; the same number.
 */
static void cpu_column_of_every_layout(void **state)
{
	static const struct {
		const char *before;	/* the line up to the timestamp */
		int32_t cpu;
	} cases[] = {
		{ "          <idle>-0       [001] ..... ", 1 },
		{ "          <idle>-0       [013] d..1. ", 13 },
		{ "          <idle>-0       [255] d..1 ", 255 },	/* four flags */
		{ "          <idle>-0       [7] d..1 ", 7 },
		{ "          <idle>-0       [0042] d..1. ", 42 },
		{ "          <idle>-0       [002]  d..1 ", 2 },	/* two spaces */
		{ "          <idle>-0       [003] ", 3 },		/* no flags */
		{ "    a-1 [004] d..1. ", 4 },
		{ "a-1 [005] ..... ", 5 },
		{ "[006] ..... ", 6 },
		{ " [007] d]..1 ", 7 },	/* a ']' among the flags: the walk reads past it */
		{ "  sh-12 [1x1] ..... ", -1 },
		{ "  sh-12 (008) ..... ", -1 },
	};
	struct fixture *f = *state;
	char line[200];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(line, sizeof(line), "%s12.5: kfree: call_site=f+0x1/0x2 ptr=1",
			 cases[i].before);
		if (!parse(f, line))
			fail_msg("'%s' not read", line);
		if (f->ev.cpu != (cases[i].cpu < 0 ? CPU_UNKNOWN : cases[i].cpu))
			fail_msg("'%s': cpu %d, want %d", line, f->ev.cpu, cases[i].cpu);
	}
}

/*
 * A 16-digit pointer is read eight digits at a time: every byte value at
 * every position is accepted exactly when it is a hex digit, and the value
 * is the one strtoull reads.
 */
static void every_byte_at_every_place_of_a_pointer(void **state)
{
	struct fixture *f = *state;
	char digits[17], line[128];
	int pos, byte;

	for (pos = 0; pos < 16; pos++) {
		for (byte = 1; byte < 256; byte++) {
			size_t len;

			if (byte == ' ')
				continue;	/* it would end the value */
			memcpy(digits, "ffff8881A2b3C4d5", 17);
			digits[pos] = (char)byte;
			len = (size_t)snprintf(line, sizeof(line), "  a-1 [000] ..... 1.000000: kfree: "
					       "call_site=f+0x1/0x2 ptr=%s x=1", "0000000000000000");
			memcpy(strstr(line, "ptr=") + 4, digits, 16);
			bool ok = parse_line(&f->parser, line, len, 1, &f->ev) == LINE_EVENT;

			assert_int_equal(ok, isxdigit(byte) != 0);
			if (ok)
				assert_true(f->ev.ptr == strtoull(digits, NULL, 16));
		}
	}
}

static void kind_names_round_trip(void **state)
{
	int k;

	(void)state;
	for (k = KMEM_KMALLOC; k <= KMEM_PAGE_ALLOC_EXTFRAG; k++) {
		const char *name = kmem_kind_name((enum kmem_kind)k);

		assert_int_equal(kmem_kind_of_name(name, strlen(name)), k);
	}
	assert_int_equal(kmem_kind_of_name("mm_page_free_direct", 19), KMEM_PAGE_FREE);
	assert_int_equal(kmem_kind_of_name("mm_pagevec_free", 15), KMEM_PAGE_FREE_BATCHED);
	assert_int_equal(kmem_kind_of_name("rss_stat", 8), KMEM_NONE);
}

/*
 * Every name with any one byte changed, cut by one or grown by one is no
 * kind (or the kind it then spells): the lookup by length and first letter
 * compares every byte, and reads none past the name.
 */
static void kind_names_near_misses(void **state)
{
	int k;

	(void)state;
	for (k = KMEM_KMALLOC; k <= KMEM_PAGE_ALLOC_EXTFRAG; k++) {
		const char *name = kmem_kind_name((enum kmem_kind)k);
		size_t n = strlen(name), i;
		char buf[64];
		int c;

		for (i = 0; i < n; i++)
			for (c = 1; c < 256; c++) {
				enum kmem_kind got;
				int j;

				if (c == (unsigned char)name[i])
					continue;
				memcpy(buf, name, n);
				buf[i] = (char)c;
				got = kmem_kind_of_name(buf, n);
				for (j = KMEM_KMALLOC; j <= KMEM_PAGE_ALLOC_EXTFRAG; j++)
					if (strlen(kmem_kind_name((enum kmem_kind)j)) == n &&
					    memcmp(kmem_kind_name((enum kmem_kind)j), buf, n) == 0)
						break;
				assert_int_equal(got, j <= KMEM_PAGE_ALLOC_EXTFRAG ? j : KMEM_NONE);
			}
		/* a heap copy of exactly n - 1 and n + 1 bytes: ASan sees any read past them */
		char *cut = malloc(n - 1), *grown = malloc(n + 1);

		memcpy(cut, name, n - 1);
		memcpy(grown, name, n);
		grown[n] = 's';
		assert_int_equal(kmem_kind_of_name(cut, n - 1), KMEM_NONE);
		assert_int_equal(kmem_kind_of_name(grown, n + 1), KMEM_NONE);
		free(cut);
		free(grown);
	}
	assert_int_equal(kmem_kind_of_name("", 0), KMEM_NONE);
	assert_int_equal(kmem_kind_of_name("kma", 3), KMEM_NONE);
	assert_int_equal(kmem_kind_of_name("kmem_cache_alloc_node_and_some_more_bytes", 41), KMEM_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(tracefs_6_1_kmalloc, setup, teardown),
		cmocka_unit_test_setup_teardown(tracefs_6_18_cache_alloc_with_name, setup, teardown),
		cmocka_unit_test_setup_teardown(comm_with_dashes_and_colons, setup, teardown),
		cmocka_unit_test_setup_teardown(trace_cmd_report_kmalloc, setup, teardown),
		cmocka_unit_test_setup_teardown(trace_cmd_null_is_nil, setup, teardown),
		cmocka_unit_test_setup_teardown(perf_script_kmem_prefix, setup, teardown),
		cmocka_unit_test_setup_teardown(old_kernel_no_flags_hex_call_site, setup, teardown),
		cmocka_unit_test_setup_teardown(module_call_site_keeps_module, setup, teardown),
		cmocka_unit_test_setup_teardown(call_sites_alike_at_both_ends, setup, teardown),
		cmocka_unit_test_setup_teardown(page_alloc_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(markers_are_events, setup, teardown),
		cmocka_unit_test_setup_teardown(header_entries_and_cpus, setup, teardown),
		cmocka_unit_test_setup_teardown(skipped_lines_are_classified, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed_kmem_events_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(crlf_line_ending, setup, teardown),
		cmocka_unit_test_setup_teardown(nanosecond_timestamps, setup, teardown),
		cmocka_unit_test_setup_teardown(timestamps_of_every_shape, setup, teardown),
		cmocka_unit_test_setup_teardown(timestamps_as_defined, setup, teardown),
		cmocka_unit_test_setup_teardown(cpu_column_of_every_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(every_byte_at_every_place_of_a_pointer, setup, teardown),
		cmocka_unit_test(kind_names_round_trip),
		cmocka_unit_test(kind_names_near_misses),
	};

	return cmocka_run_group_tests_name("parse", tests, NULL, NULL);
}
