#!/usr/bin/env bats
# --sizes: the slab allocations by requested size. A 6.1 excerpt's 34
# kmem_cache_allocs, counted by hand into their power-of-two ranges, and
# the same numbers from an awk count that knows nothing of the tool
# (tests/tools/ref_sizes.awk); --malloc, a DB and the JSON schema.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	LOG="$FIX/tracefs-6.1-rawptr.log"
}

@test "--sizes of a 6.1 excerpt: each range's allocations, bytes asked for and given, the waste" {
	run --separate-stderr "$TA" -q -f "$LOG" --sizes -
	[ "$status" -eq 0 ]
	# 11 objects of 33-64 bytes given exactly what they asked; 6 of 65-128 asked 608, were
	# given 648: 40 wasted, 40/648 = 6.17%; the totals are the account's (--summary: 12808)
	[ "$output" = "slab allocations by requested size (powers of two)
requested size  from    to  allocations  allocs%  requested  allocated  waste  waste%
-------------------------------------------------------------------------------------
33-64             33    64           11   32.35%        704        704      0   0.00%
65-128            65   128            6   17.65%        608        648     40   6.17%
129-256          129   256           12   35.29%       1792       1808     16   0.88%
513-1024         513  1024            3    8.82%       2560       2560      0   0.00%
2049-4096       2049  4096            1    2.94%       2080       2112     32   1.52%
4097-8192       4097  8192            1    2.94%       5064       5120     56   1.09%

all sizes
allocations:        34
bytes requested: 12808
bytes allocated: 12952
waste:             144
waste%:          1.11%" ]
	[ "$(awk -f "$TOP/tests/tools/ref_sizes.awk" "$LOG")" = "$("$TA" -q -f "$LOG" --format csv --sizes - | awk -F, 'NR > 1 { print $1, $4, $6, $7 }')" ]
}

@test "--sizes keeps to the account's family, from a DB too, and its JSON holds to its schema" {
	# the excerpt has no kmalloc: --malloc counts none
	"$TA" -q -f "$LOG" --malloc --format json --sizes "$BATS_TEST_TMPDIR/m.json"
	[ "$(jq -c '[.sizes, .totals.allocations]' "$BATS_TEST_TMPDIR/m.json")" = '[[],0]' ]
	"$TA" -q -f "$LOG" --save-db "$BATS_TEST_TMPDIR/k.db" --sizes "$BATS_TEST_TMPDIR/log.txt"
	"$TA" -q --db-file "$BATS_TEST_TMPDIR/k.db" --sizes "$BATS_TEST_TMPDIR/db.txt"
	diff_or_fail "$BATS_TEST_TMPDIR/log.txt" "$BATS_TEST_TMPDIR/db.txt"
	"$TA" -q -f "$LOG" --format json --sizes "$BATS_TEST_TMPDIR/s.json"
	python3 "$TOP/tests/tools/check_consumers.py" json "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/m.json"
}

@test "--sizes needs a log" {
	run "$TA" -k "$FIX" --sizes -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --sizes needs a log (-f LOG or --db-file DB)" ]
}
