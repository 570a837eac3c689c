#!/usr/bin/env bats
# --format ndjson (JSON Lines: an object a row, every table, each list) and
# --tag: the host, kernel, boot_id and time columns that make many hosts'
# files one table; given, or taken from what the input says of itself (a
# snapshot folder's 'snapshot' file), and refused where it says nothing.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR"
}

@test "--format ndjson: an object a line, a line a row of every table and one a list, as JSON has them" {
	"$TA" -q -f "$FIX/allocinfo-6.12.txt" -c a.json --format json
	"$TA" -q -f "$FIX/allocinfo-6.12.txt" -c a.ndjson --format ndjson
	# every line an object; the sites' lines are JSON's rows, in order, with report and table
	jq -c . a.ndjson > /dev/null
	[ "$(jq -c 'select(.table == "sites") | del(.report, .table)' a.ndjson)" = "$(jq -c '.sites[]' a.json)" ]
	[ "$(jq -c 'select(.table == "totals") | del(.report, .table)' a.ndjson)" = "$(jq -c '.totals' a.json)" ]
	[ "$(jq -r '.report' a.ndjson | sort -u)" = allocinfo ]
	# a log's reports too
	"$TA" -q -f "$FIX/trace-pipe-6.18.log" --summary s.ndjson --format ndjson
	[ "$(jq -r '.table' s.ndjson | sort -u | tr '\n' ' ')" = "bytes caches events findings source uncertain " ]
}

@test "--tag NAME=VALUE: CSV rows end in the tag columns, NDJSON lines and JSON's tags carry them" {
	"$TA" -q -f "$FIX/allocinfo-6.12.txt" -c a.csv --format csv --tag time=2026-11-29T01:00:00Z,host=web1
	# in the order host, kernel, boot_id, time whatever the order given
	[ "$(head -n 1 a.csv)" = "group_by,key,bytes,allocs,avg_bytes,share_pct,sites,accurate,host,time" ]
	[ "$(sed -n 2p a.csv | cut -d, -f9-)" = "web1,2026-11-29T01:00:00Z" ]
	[ "$(head -n 1 a.totals.csv)" = "block,key,value,host,time" ]
	"$TA" -q -f "$FIX/allocinfo-6.12.txt" -c a.ndjson --format ndjson --tag host=web1,kernel=6.12.8
	[ "$(jq -r '[.host, .kernel] | join(" ")' a.ndjson | sort -u)" = "web1 6.12.8" ]
	"$TA" -q -f "$FIX/allocinfo-6.12.txt" -c a.json --format json --tag boot=b1
	[ "$(jq -c .tags a.json)" = '{"boot_id":"b1"}' ]
	python3 -c "import json,jsonschema,sys; jsonschema.validate(json.load(open('a.json')), json.load(open(sys.argv[1])))" \
		"$TOP/data/schema/allocinfo.schema.json"
}

@test "--tag NAME alone: the snapshot's own host, kernel, boot id and time; refused where the input says none" {
	mkdir snap
	cp -r "$FIX/ksnapshot-6.12-A/." snap/
	printf '# trace_analyze snapshot 0.1: the files beside were copied from /proc and /sys/fs/cgroup at this moment\nmonotonic: 100.5\nrealtime: 1795900000.25\nhost: guest\nrelease: 6.12.8\nboot_id: 0f2e\n' > snap/snapshot
	"$TA" -q -f snap --ledger l.ndjson --format ndjson --tag host,kernel,boot,time
	[ "$(jq -r '[.host, .kernel, .boot_id, .time] | join(" ")' l.ndjson | sort -u)" = "guest 6.12.8 0f2e 2026-11-28T21:06:40Z" ]
	run "$TA" -q -f "$FIX/allocinfo-6.12.txt" -c - --format csv --tag host
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: '$FIX/allocinfo-6.12.txt' does not say its host (a snapshot folder's 'snapshot' file does, a trace.dat or perf.data its kernel): give --tag host=VALUE" ]
}

@test "--tag's mistakes are usage errors: text output, an unknown name, a name twice, a control character" {
	run "$TA" -f "$FIX/allocinfo-6.12.txt" -c - --tag host=a
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --tag marks the rows of CSV, NDJSON and JSON reports, --pprof's samples and --openmetrics' series: give --format csv, ndjson or json, --pprof FILE or --openmetrics FILE" ]
	run "$TA" -f "$FIX/allocinfo-6.12.txt" -c - --format csv --tag rack=7
	[ "${lines[0]}" = "trace_analyze: error: --tag takes host, kernel, boot and time (each alone, or NAME=VALUE), not 'rack'" ]
	run "$TA" -f "$FIX/allocinfo-6.12.txt" -c - --format csv --tag host=a,host=b
	[ "${lines[0]}" = "trace_analyze: error: --tag names 'host' twice" ]
	run "$TA" -f "$FIX/allocinfo-6.12.txt" -c - --format csv --tag "host=a$(printf '\t')b"
	[ "${lines[0]}" = "trace_analyze: error: --tag host=: a value of printable text, no control character" ]
	run "$TA" -f "$FIX/allocinfo-6.12.txt" -c - --format csv --tag host=
	[ "${lines[0]}" = "trace_analyze: error: --tag host= wants a value of 1 to 255 bytes" ]
}
