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
