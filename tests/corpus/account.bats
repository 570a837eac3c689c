#!/usr/bin/env bats
# The account of every slab log of the real corpus equals the independent
# Python replay of DESIGN.md section 5 (tests/tools/ref_account.py), for
# every family filter and several orders. One differing number fails.

load ../lib/helpers

setup() {
	require_corpus
	MAP="$CORPUS/linux-6.1-tiny/tree/System.map"
}

check_account() {	# LOG [options...]
	local log="$1"; shift
	ref_account "$log" "$@" > "$BATS_TEST_TMPDIR/expected"
	"$TA" -q -f "$log" -c "$BATS_TEST_TMPDIR/actual" "$@"
	diff_or_fail "$BATS_TEST_TMPDIR/expected" "$BATS_TEST_TMPDIR/actual"
}

check_all_families() {	# LOG [options...]
	ref_accounts_ahead "$1" "${*:2}" "${*:2} --malloc" "${*:2} --cache"
	check_account "$@"
	check_account "$@" --malloc
	check_account "$@" --cache
}

@test "6.1 boot log: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/linux-6.1-tiny/boot-kmem.log"
}

@test "6.1 boot+workload log: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/linux-6.1-tiny/workload-kmem.log"
}

@test "6.1 stack-trace log: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/linux-6.1-tiny/stacktrace-kmem.log"
}

@test "6.1 raw-pointer log (empty gfp_flags/name fields): account equals the reference" {
	check_all_families "$CORPUS/linux-6.1-tiny/raw-ptr-kmem.log"
}

@test "6.1 hex call-site log with System.map: account equals the reference" {
	check_all_families "$CORPUS/linux-6.1-tiny/boot-kmem-hexaddr.log" --system-map "$MAP"
}

@test "6.18 snapshot: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/host-6.18/small-kmem.log"
}

@test "6.18 stack-trace capture: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/host-6.18/stack-kmem.log"
}

@test "6.18 overrun capture: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/host-6.18/overrun-kmem.log"
}

@test "trace-cmd report text: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/host-6.18/trace-cmd-report.txt"
}

@test "perf script text: account equals the reference, all/malloc/cache" {
	check_all_families "$CORPUS/host-6.18/perf-kmem/kmem.perf-script.txt"
}

@test "every order key and --group-by function equal the reference (workload log)" {
	local log="$CORPUS/linux-6.1-tiny/workload-kmem.log" key
	ref_accounts_ahead "$log" "-o total_dynamic" "-o current_dynamic" "-o alloc_count" \
		"-o free_count" "-o waste" "--group-by function" "--group-by function --malloc -o waste"
	for key in total_dynamic current_dynamic alloc_count free_count waste; do
		check_account "$log" -o "$key"
	done
	check_account "$log" --group-by function
	check_account "$log" --group-by function --malloc -o waste
}

@test "hex call sites resolved through the tree's System.map give the symbolic twin's account" {
	local opt
	for opt in "" --malloc --cache; do
		"$TA" -q -f "$CORPUS/linux-6.1-tiny/boot-kmem.log" $opt -c "$BATS_TEST_TMPDIR/sym"
		"$TA" -q -k "$CORPUS/linux-6.1-tiny/tree" -f "$CORPUS/linux-6.1-tiny/boot-kmem-hexaddr.log" \
			$opt -c "$BATS_TEST_TMPDIR/hex"
		diff_or_fail "$BATS_TEST_TMPDIR/sym" "$BATS_TEST_TMPDIR/hex"
	done
}

@test "trace-cmd report and tracefs text of the same events give the same account" {
	local opt
	for opt in "" --malloc --cache "--group-by function"; do
		"$TA" -q -f "$CORPUS/host-6.18/trace-cmd-report.txt" $opt -c "$BATS_TEST_TMPDIR/tc"
		"$TA" -q -f "$CORPUS/host-6.18/trace-cmd-same-events.tracefs.log" $opt -c "$BATS_TEST_TMPDIR/fs"
		diff_or_fail "$BATS_TEST_TMPDIR/fs" "$BATS_TEST_TMPDIR/tc"
	done
}

@test "one and two parser threads give the same account" {
	local log="$CORPUS/linux-6.1-tiny/workload-kmem.log"
	"$TA" -q --threads 1 -f "$log" -c "$BATS_TEST_TMPDIR/t1"
	"$TA" -q --threads 2 -f "$log" -c "$BATS_TEST_TMPDIR/t2"
	"$TA" -q --threads 4 -f "$log" -c "$BATS_TEST_TMPDIR/t4"
	diff_or_fail "$BATS_TEST_TMPDIR/t1" "$BATS_TEST_TMPDIR/t2"
	diff_or_fail "$BATS_TEST_TMPDIR/t1" "$BATS_TEST_TMPDIR/t4"
}

@test "CSV and JSON accounts of the 6.18 snapshot carry the text account's numbers" {
	local log="$CORPUS/host-6.18/small-kmem.log" f
	for f in txt csv json; do
		"$TA" -q -f "$log" -c "$BATS_TEST_TMPDIR/a.$f" --format "${f/txt/text}"
	done
	python3 "$TOP/tests/tools/account_formats.py" "$BATS_TEST_TMPDIR/a.txt" \
		"$BATS_TEST_TMPDIR/a.csv" "$BATS_TEST_TMPDIR/a.json"
}
