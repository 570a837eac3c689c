#!/usr/bin/env bats
# Many hosts' files as one table: the allocinfo snapshots A, B, C of two
# boots (linux-6.12-ledger/boot1 and linux-6.12-modules, under the made-up
# host names alpha and beta), written with --format ndjson and csv and
# --tag host=...,boot=...,time=..., loaded unchanged into DuckDB (its Node
# package, scripts/deps-node.sh); a fleet query, the sites that grew most
# across the hosts (tests/tools/fleet_growth.sql), equals what
# trace_analyze diff says of A and C per host.

load ../lib/helpers

setup() {
	require_corpus
	command -v node > /dev/null || skip "no node: DuckDB's Node package loads the tables"
	NODE_DIR="$TOP/build/node"
	[ -f "$NODE_DIR/node_modules/@duckdb/node-api/package.json" ] ||
		skip "DuckDB's Node package is not installed: run scripts/deps-node.sh"
	cd "$BATS_TEST_TMPDIR"
}

hosts="alpha:linux-6.12-ledger/boot1 beta:linux-6.12-modules"

# write FORMAT EXT: each host's snapshots A, B, C as --format FORMAT, tagged
write_fleet() {
	local h host dir s n
	for h in $hosts; do
		host=${h%%:*} dir="$CORPUS/${h#*:}" n=0
		for s in A B C; do
			n=$((n + 1))
			"$TA" -q -f "$dir/allocinfo-$s.txt" -c "$host-$s.$2" --format "$1" \
				--tag "host=$host,boot=$host-boot,time=2026-11-29T0$n:00:00Z"
		done
	done
}

# what trace_analyze diff says of A and C, per host: host TAB site TAB delta
diff_per_host() {
	local h host dir
	for h in $hosts; do
		host=${h%%:*} dir="$CORPUS/${h#*:}"
		"$TA" diff -q "$dir/allocinfo-A.txt" "$dir/allocinfo-C.txt" --group-by callsite \
			--format csv -c "d-$host.csv"
		python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print(sys.argv[2], r["key"], int(r["delta"]), sep="\t")' \
			"d-$host.csv" "$host"
	done | sort
}

@test "JSON Lines of two hosts' snapshots into DuckDB: the sites that grew most equal diff's, per host" {
	write_fleet ndjson ndjson
	# every line one object, tagged
	[ "$(jq -s 'map(select(.host == null or .boot_id == null or .time == null)) | length' *.ndjson)" = 0 ]
	node "$TOP/tests/tools/fleet_duckdb.cjs" "$NODE_DIR" "$PWD/*.ndjson" \
		"$(cat "$TOP/tests/tools/fleet_growth.sql")" > fleet.txt
	diff_per_host > per-host.txt
	[ -s per-host.txt ]
	sort fleet.txt | diff - per-host.txt
	# the ring buffer of beta grew most of all: 514 MiB
	[ "$(head -n 1 fleet.txt)" = "$(printf 'beta\tkernel/trace/ring_buffer.c:2207 __rb_allocate_pages\t538968064')" ]
}

@test "CSV of the same, the tag columns last: DuckDB reads them unchanged, with the same answer" {
	write_fleet csv csv
	head -n 1 alpha-A.csv | grep -qx 'group_by,key,bytes,allocs,avg_bytes,share_pct,sites,accurate,host,boot_id,time'
	head -n 1 alpha-A.totals.csv | grep -qx 'block,key,value,host,boot_id,time'
	# the sites' files alone (each report's own file; its totals are beside it)
	node "$TOP/tests/tools/fleet_duckdb.cjs" "$NODE_DIR" "$PWD/*-[ABC].csv" \
		"$(sed "s/where \"table\" = 'sites'//" "$TOP/tests/tools/fleet_growth.sql")" > fleet.txt
	diff_per_host > per-host.txt
	[ -s fleet.txt ]
	sort fleet.txt | diff - per-host.txt
}

# totals_of PROFILE LABEL: "VALUE TYPE SUM" per value of LABEL and "all", from go tool pprof -raw
totals_of() {
	go tool pprof -raw "$1" 2> /dev/null | python3 "$TOP/tests/tools/pprof_raw_totals.py" "$2"
}

@test "pprof of two hosts merge (go tool pprof -proto): each sample type's totals add up, each host's kept apart" {
	command -v go > /dev/null || skip "no go: go tool pprof merges the profiles"
	# two boots' allocinfo: the in-use pair, labelled with host, kernel and module
	"$TA" -q -f "$CORPUS/linux-6.12-ledger/boot1/allocinfo-C.txt" --pprof alpha.pb.gz --tag host=alpha,kernel=6.12.8
	"$TA" -q -f "$CORPUS/linux-6.12-modules/allocinfo-C.txt" --pprof beta.pb.gz --tag host=beta,kernel=6.12.8
	go tool pprof -proto alpha.pb.gz beta.pb.gz > merged.pb.gz 2> /dev/null
	totals_of merged.pb.gz host > merged.txt
	a=$(awk '{ s += $1 } END { print s }' "$CORPUS/linux-6.12-ledger/boot1/allocinfo-C.txt")
	b=$(awk '{ s += $1 } END { print s }' "$CORPUS/linux-6.12-modules/allocinfo-C.txt")
	grep -qx "alpha inuse_space $a" merged.txt
	grep -qx "beta inuse_space $b" merged.txt
	grep -qx "all inuse_space $((a + b))" merged.txt
	[ "$(totals_of merged.pb.gz kernel | grep -c '^6.12.8 ')" = 2 ]
	# two kernels' traces: the four sample types of a heap profile, each adding up
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/boot-kmem.log" --pprof t61.pb.gz --tag host=qemu,kernel=6.1
	"$TA" -q -f "$CORPUS/host-6.18/stack-kmem.log" --pprof t618.pb.gz --tag host=desk,kernel=6.18
	go tool pprof -proto t61.pb.gz t618.pb.gz > traces.pb.gz 2> /dev/null
	totals_of t61.pb.gz host | grep '^all ' | sed 's/^all/qemu/' > want.txt
	totals_of t618.pb.gz host | grep '^all ' | sed 's/^all/desk/' >> want.txt
	totals_of traces.pb.gz host > got.txt
	[ "$(grep -v '^all ' got.txt | sort)" = "$(sort want.txt)" ]
	for t in alloc_objects alloc_space inuse_objects inuse_space; do
		[ "$(grep "^all $t " got.txt | cut -d' ' -f3)" = \
		  "$(awk -v t=$t '$2 == t { s += $3 } END { print s }' want.txt)" ] || { echo "$t"; return 1; }
	done
	# and each is the summary's: bytes allocated, live at the end
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/boot-kmem.log" --summary s.json --format json
	grep -qx "qemu alloc_space $(jq .bytes.allocated s.json)" want.txt
	grep -qx "qemu inuse_space $(jq .bytes.live s.json)" want.txt
	grep -qx "qemu alloc_objects $(jq .events.allocations s.json)" want.txt
}

@test "pprof's module labels: each module's bytes are the account's by module (ext4, jbd2, loop... of the 6.12 boot)" {
	command -v go > /dev/null || skip "no go: go tool pprof reads the profile"
	log="$CORPUS/linux-6.12-modules/stacktrace-kmem.log"
	"$TA" -q -f "$log" --pprof m.pb.gz 2> /dev/null
	totals_of m.pb.gz module | grep -v '^all ' > labels.txt
	"$TA" -q -f "$log" --group-by module -c m.csv --format csv 2> /dev/null
	python3 - m.csv labels.txt <<'PY'
import csv, sys
want = set()
for r in csv.DictReader(open(sys.argv[1])):
    want.add((r["key"], "alloc_space", int(r["total_dynamic"])))
    want.add((r["key"], "inuse_space", int(r["current_dynamic"])))
    want.add((r["key"], "alloc_objects", int(r["alloc_count"])))
got = {(m, t, int(v)) for m, t, v in (l.split() for l in open(sys.argv[2]))}
assert want <= got, sorted(want - got)
assert {m for m, _, _ in got} == {m for m, _, _ in want}
PY
	grep -qx 'ext4 inuse_space 236272' labels.txt
}
