#!/usr/bin/env bats
# --format csv|json: real parsers (Python's csv and json) read the outputs,
# and they carry the numbers of the text account, row for row.

load ../lib/helpers

same_numbers_in_all_formats() {	# LOG [options...]
	local log="$1"; shift
	"$TA" -q -f "$log" -c "$BATS_TEST_TMPDIR/a.txt" "$@"
	"$TA" -q -f "$log" -c "$BATS_TEST_TMPDIR/a.csv" --format csv "$@"
	"$TA" -q -f "$log" -c "$BATS_TEST_TMPDIR/a.json" --format json "$@"
	python3 "$TOP/tests/tools/account_formats.py" "$BATS_TEST_TMPDIR/a.txt" \
		"$BATS_TEST_TMPDIR/a.csv" "$BATS_TEST_TMPDIR/a.json"
}

@test "the account as CSV and JSON carries the text account's numbers" {
	same_numbers_in_all_formats "$FIX/trace-pipe-6.18.log"
	same_numbers_in_all_formats "$FIX/tracefs-6.1-rawptr.log" -o waste
	same_numbers_in_all_formats "$FIX/old-2.6-hex.log" --system-map "$FIX/old-2.6.System.map" --malloc
}

@test "the account as CSV: one table a file, a header row, RFC 4180, exact" {
	cd "$BATS_TEST_TMPDIR"
	run "$TA" -f "$FIX/perf-script-6.18.txt" -c account.csv --format csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"trace_analyze: --format csv writes a table a file: 'account.csv' holds the account report's callers, 'account.totals.csv' the rest"* ]]
	run cat account.csv
	[ "${lines[0]}" = "group_by,key,total_dynamic,waste,current_dynamic,current_req,alloc_count,free_count,total_req,total_waste" ]
	[ "${lines[1]}" = "callsite,mas_preallocate+0x3ef,2048,0,2048,2048,8,0,2048,0" ]
	[ "${lines[5]}" = "callsite,perf_event_mmap+0x155,16384,0,0,0,4,4,16384,0" ]
	run cat account.totals.csv
	[ "${lines[0]}" = "block,key,value" ]
	[ "${lines[1]}" = "totals,current_bytes_allocated,3072" ]
	[ "${#lines[@]}" -eq 7 ]
	# by function: the same columns, the grouping named
	"$TA" -q -f "$FIX/perf-script-6.18.txt" -c by-function.csv --format csv --group-by function
	[ "$(sed -n 2p by-function.csv)" = "function,mas_preallocate,2048,0,2048,2048,8,0,2048,0" ]
}

@test "an empty account is valid JSON too" {
	# a snapshot of an empty trace buffer: the ftrace header and nothing else
	head -n 12 "$FIX/tracefs-6.1-rawptr.log" > "$BATS_TEST_TMPDIR/empty.log"
	"$TA" -q -f "$BATS_TEST_TMPDIR/empty.log" -c - --format json 2> /dev/null |
		python3 -m json.tool > /dev/null
}

@test "an unknown --format is a usage error" {
	run "$TA" -f "$FIX/perf-script-6.18.txt" --format xml
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: unknown --format 'xml' (text, csv, json, ndjson)" ]
}

# csv_files_of OPTION ARGS...: the report run with --format csv into its own
# directory (FILE is out.csv there), its files checked against the man page's list
csv_files_of() {
	local option=$1 d
	shift
	d=$(mktemp -d "$BATS_TEST_TMPDIR/csv.XXXXXX")
	(cd "$d" && "$TA" "$@" --format csv) || { echo "failed: $*"; return 1; }
	python3 "$TOP/tests/tools/csv_files.py" "$TOP/man/trace_analyze.1" "$option" "$d"
}

# a log with a leak suspect: one site allocating steadily, another freeing all it allocates
steady_leak_log() {
	awk 'BEGIN { print "# tracer: nop"
		for (i = 0; i < 400; i++) { t = 1 + i * 0.25
			printf "  leak-100   [000] .....  %.6f: kmalloc: call_site=leaky_alloc+0x10/0x40 ptr=%016x bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false\n", t, 4096 + i * 128
			printf "  leak-100   [001] .....  %.6f: kmalloc: call_site=churn+0x10/0x40 ptr=%016x bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false\n", t + 0.01, 999999 + i
			printf "  leak-100   [001] .....  %.6f: kfree: call_site=churn_free+0x5/0x10 ptr=%016x\n", t + 0.02, 999999 + i } }'
}

@test "CSV: every report writes the files the man page lists, each table led by its key" {
	local small="$FIX/trace-pipe-6.18.log" stacks="$TOP/tests/fixtures/stack-nested-6.1.log"
	local tree="$BATS_TEST_TMPDIR/linux"
	steady_leak_log > "$BATS_TEST_TMPDIR/leak.log"
	mkdir -p "$tree/mm"
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > "$tree/Makefile"
	echo 'void *kmalloc_order(int n) { return (void *)(long)n; }' > "$tree/mm/slub.c"
	gcc -O2 -c "$tree/mm/slub.c" -o "$tree/mm/slub.o"
	nm "$tree/mm/slub.o" | awk '{ print "ffffffff81000000 T " $3 }' > "$tree/System.map"
	for log in "$small" "$stacks" "$BATS_TEST_TMPDIR/leak.log"; do
		csv_files_of -c -q -f "$log" -c out.csv
		csv_files_of --stats -q -f "$log" --stats out.csv
		csv_files_of --summary -q -f "$log" --summary out.csv
		csv_files_of --outstanding -q -f "$log" --outstanding out.csv
		csv_files_of --page -q -f "$log" --page out.csv
		csv_files_of --timeline -q -f "$log" --timeline out.csv
		csv_files_of -l -q -k "$tree" -f "$log" -l out.csv
	done
	csv_files_of -k -q -k "$tree" -c out.csv
	csv_files_of diff diff -q "$small" "$BATS_TEST_TMPDIR/leak.log" -c out.csv
	csv_files_of "diff --static" diff -q --static "$tree" "$tree" -c out.csv
	# the conditional ones were seen: suspects, stacks, origins of pages
	ls "$BATS_TEST_TMPDIR"/csv.*/out.leak_suspects.csv "$BATS_TEST_TMPDIR"/csv.*/out.stacks.csv > /dev/null
	# every table's header starts with its key; every list file is block,key,value;
	# the timeline's pages held and lost marks are series in time
	local f
	for f in "$BATS_TEST_TMPDIR"/csv.*/*.csv; do
		head -n 1 "$f" | grep -Eq '^(group_by,key(,|$)|block,key,value$|time_s(,pages_held)?$)' ||
			{ echo "$f: $(head -n 1 "$f")"; return 1; }
	done
}
