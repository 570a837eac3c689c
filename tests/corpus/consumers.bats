#!/usr/bin/env bats
# Every report in every format, read by what its users read it with
# (tests/tools/check_consumers.py): Python's csv (and pandas when it is
# installed) for each CSV file, jq and the JSON Schema of data/schema/ for
# each JSON document, flamegraph.pl's line rule for each folded file.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
	WORK="$CORPUS/linux-6.1-tiny/workload-kmem.log"
	BOOT="$CORPUS/linux-6.1-tiny/boot-kmem.log"
	TREE="$CORPUS/linux-6.1-tiny/tree"
	STACKS="$CORPUS/host-6.18/stack-kmem.log"
}

check() {	# KIND FILE...
	python3 "$TOP/tests/tools/check_consumers.py" "$@"
}

# every_report FORMAT: each report of the corpus logs in FORMAT, into ./FORMAT/
every_report() {
	local f=$1 x=$1
	mkdir -p "$f"
	"$TA" -q -f "$STACKS" --format "$f" -c "$f/account.$x" --stats "$f/stats.$x" \
		--summary "$f/summary.$x" --outstanding "$f/outstanding.$x" --page "$f/page.$x"
	"$TA" -q -f "$STACKS" --format "$f" --group-by origin -c "$f/origins.$x"
	"$TA" -q -f "$WORK" --format "$f" --peak "$f/peak.$x" --lifetimes "$f/lifetimes.$x" \
		--growth "$f/growth.$x" --group-by cache
	"$TA" -q -f "$CORPUS/host-6.18/overrun-kmem.log" --format "$f" \
		--outstanding "$f/outstanding-overrun.$x" --summary "$f/summary-overrun.$x"
	"$TA" -q -f "$WORK" -k "$TREE" --format "$f" -l "$f/callers.$x" -b fs \
		--summary "$f/summary-b.$x" -c "$f/by-dir.$x" --group-by dir
	"$TA" -q -k "$TREE" --format "$f" -c "$f/static.$x"
	"$TA" -q -f "$BOOT" --save-db boot.db
	"$TA" -q -f "$WORK" --save-db work.db
	"$TA" diff -q --format "$f" -c "$f/diff.$x" boot.db work.db
	"$TA" diff -q --format "$f" --per 1000 -c "$f/diff-per.$x" boot.db work.db
	# and every report of tables the report table lists, so that a new one is read too
	local r opt
	for r in $("$TA" --reports-helper | awk '$3 == "tables" && ($4 == "log" || $4 == "-") { print $1 ":" $2 }'); do
		opt=${r#*:}
		"$TA" -q -f "$STACKS" --format "$f" "$opt" "$f/table-${r%%:*}.$x"
	done
}

@test "CSV: one table a file, its header first, as many fields on every row" {
	every_report csv
	# the reports of several tables wrote them beside the file, one a file
	[ -s csv/account.totals.csv ] && [ -s csv/summary.findings.csv ] && [ -s csv/page.totals.csv ]
	check csv csv/*.csv
	[ "$(ls csv/*.csv | wc -l)" -ge 20 ]
	# the keyed tables name what their rows are
	[ "$(head -n 1 csv/account.csv)" = "group_by,key,total_dynamic,waste,current_dynamic,current_req,alloc_count,free_count,total_req,total_waste" ]
	[ "$(sed -n 2p csv/origins.csv | cut -d, -f1)" = origin ]
	[ "$(sed -n 2p csv/by-dir.csv | cut -d, -f1)" = dir ]
	[ "$(head -n 1 csv/account.totals.csv)" = "block,key,value" ]
	# the totals file and the rows agree: allocs is the sum of alloc_count
	python3 - <<'PY'
import csv
rows = list(csv.DictReader(open("csv/account.csv")))
totals = {r["key"]: int(r["value"]) for r in csv.DictReader(open("csv/account.totals.csv"))}
assert totals["allocs"] == sum(int(r["alloc_count"]) for r in rows), totals
assert totals["callers"] == len(rows)
PY
}

@test "CSV to standard output: the main table only, and a note naming what is left out" {
	run --separate-stderr "$TA" -f "$STACKS" --format csv -c -
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "group_by,key,"* ]]
	[ "${#lines[@]}" -gt 10 ]
	[[ "$stderr" == *"trace_analyze: --format csv writes a table a file: standard output has the account report's callers only; name a file to have its other tables beside it"* ]]
}

@test "JSON: unique keys, numbers as numbers, every document valid against its schema" {
	every_report json
	"$TA" diff -q --static --format json -c json/diff-static.json "$TREE" "$TREE"
	for j in json/*.json; do
		jq -e '.schema_version == 2' "$j" > /dev/null || { echo "$j"; false; }
	done
	check json json/*.json
	# numbers jq can do sums with
	[ "$(jq '.totals.after - .totals.before' json/diff.json)" -gt 0 ]
	[ "$(jq '.summary.up - .summary.down == .summary.net' json/diff.json)" = true ]
	# the schema can fail: a number as a string is refused
	jq '.totals.allocs = "12"' json/account.json > bad.json
	run check json bad.json
	[ "$status" -ne 0 ]
	[[ "$output" == *"is not of type 'integer'"* ]]
}

@test "folded stacks: every line 'frames count', no frame empty or with a space" {
	"$TA" -q -f "$STACKS" --folded slab.folded --folded-pages pages.folded
	"$TA" -q -f "$STACKS" --malloc --folded malloc.folded
	"$TA" -q -f "$STACKS" --weight count --folded count.folded
	# a log without stacks: each allocation under [no_stack] and its function
	"$TA" -q -f "$WORK" --folded nostack.folded
	check folded slab.folded pages.folded malloc.folded count.folded nostack.folded
	grep -q '^\[no_stack\];alloc_inode [0-9]*$' nostack.folded
}

# pprof_totals FILE: the four sample values of a profile summed, by go tool pprof -raw
pprof_totals() {
	go tool pprof -symbolize=none -raw "$1" 2> /dev/null |
		awk '/^Samples:/ {s = 1; next} /^[A-Z]/ {s = 0}
		     s && NF >= 5 && $1 ~ /^[0-9]+$/ {a += $1; b += $2; c += $3; d += $4}
		     END {print a, b, c, d}'
}

@test "--pprof: go tool pprof reads it, and its totals are the account's" {
	command -v go > /dev/null || skip "no go (scripts/deps.sh: golang-go)"
	"$TA" -q -f "$STACKS" --pprof stacks.pb.gz -c account.json --outstanding out.json --format json
	run go tool pprof -symbolize=none -raw stacks.pb.gz
	[ "$status" -eq 0 ]
	[ "${lines[4]}" = "alloc_objects/count alloc_space/bytes inuse_objects/count inuse_space/bytes" ]
	# allocations, bytes allocated, objects and bytes still held: the account's
	want="$(jq '.totals.allocs' account.json) $(jq '[.callers[].total_dynamic] | add' account.json)"
	want="$want $(jq '.totals.allocations' out.json) $(jq '.totals.current_bytes_allocated' account.json)"
	[ "$(pprof_totals stacks.pb.gz)" = "$want" ]
	# -top: the functions of the call chains, the heaviest first
	run go tool pprof -symbolize=none -top -sample_index=alloc_space stacks.pb.gz
	[ "$status" -eq 0 ]
	[[ "$output" == *"Type: alloc_space"* ]]
	[[ "${lines[5]}" == *" getname_flags.part.0" ]]
	# no stacks: a sample per call site's function; with -k, each function's object as its file
	"$TA" -q -f "$WORK" -k "$TREE" --pprof work.pb.gz -c work.json --format json
	[ "$(pprof_totals work.pb.gz | cut -d' ' -f1)" = "$(jq '.totals.allocs' work.json)" ]
	go tool pprof -symbolize=none -raw work.pb.gz 2> /dev/null | grep -q '^[0-9]*: 0x0/0x0/0x0 fs/dcache.o  \[FN\]$'
}
