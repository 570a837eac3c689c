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
	[ "${lines[0]}" = "trace_analyze: error: unknown --format 'xml' (text, csv, json)" ]
}
