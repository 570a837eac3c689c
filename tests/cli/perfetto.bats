#!/usr/bin/env bats
# --perfetto: the heap over time as a Perfetto trace, read by its consumer:
# protoc --decode with Perfetto's own schema (tests/tools/check_perfetto.py
# checks what the UI needs: one sequence, tracks described before their
# values, counters on counter tracks, named marks, slices ended, time order),
# then the figures against the account and the log.

load ../lib/helpers

SCHEMA="$PERFETTO_SCHEMA"
WORK="$CORPUS/linux-6.1-tiny/workload-kmem.log"

setup() {
	command -v protoc > /dev/null || skip "no protoc (scripts/deps.sh: protobuf-compiler)"
	require_shared "$SCHEMA"
	cd "$BATS_TEST_TMPDIR"
}

line() {	# CPU TS EVENT FIELDS: one 6.1 tracefs line
	printf '            init-1       [%03d] .....     %s: %s: %s\n' "$1" "$2" "$3" "$4"
}

# track NAME FIELD: a field of a track of the checked trace's summary (t.json)
track() {
	jq -r --arg n "$1" ".tracks[\$n].$2" t.json
}

@test "--perfetto of a real log: Perfetto's schema decodes it; the last values are the account's" {
	require_corpus
	"$TA" -q -f "$WORK" --perfetto heap.pftrace -c a.csv --format csv --top 5
	python3 "$TOP/tests/tools/check_perfetto.py" heap.pftrace "$SCHEMA" > t.json
	# live slab bytes at the end: the account's current bytes
	[ "$(track 'live slab bytes' last_value)" = "$(awk -F, '$1 == "totals" && $2 == "current_bytes_allocated" { print $3 }' a.totals.csv)" ]
	[ "$(track 'live slab bytes' unit)" = UNIT_SIZE_BYTES ]
	# five row tracks and "other", on one y axis; each row's last value its account row's
	[ "$(jq '[.tracks | to_entries[] | select(.key | startswith("live: ")) | select(.value.share == "rows")] | length' t.json)" = 6 ]
	for row in $(jq -r '.tracks | keys[] | select(startswith("live: ")) | select(startswith("live: other") | not) | ltrimstr("live: ")' t.json); do
		want=$(awk -F, -v k="$row" '$2 == k { print $5 }' a.csv)
		[ "$(track "live: $row" last_value)" = "$want" ] || { echo "$row: $want"; false; }
	done
	# other: the rest
	shown=$(jq '[.tracks | to_entries[] | select(.key | startswith("live: ")) | select(.key | startswith("live: other") | not) | .value.last_value] | add' t.json)
	[ "$(jq -r '.tracks | to_entries[] | select(.key | startswith("live: other")) | .value.last_value' t.json)" = "$(( $(track 'live slab bytes' last_value) - shown ))" ]
	# every timestamp inside the log's span, in ns of its clock
	first=$(awk '/: (kmalloc|kmem_cache_alloc|kfree|kmem_cache_free|mm_page)/ { sub(/:$/, "", $4); print $4; exit }' "$WORK")
	last=$(awk '/: (kmalloc|kmem_cache_alloc|kfree|kmem_cache_free|mm_page)/ { t = $4 } END { sub(/:$/, "", t); print t }' "$WORK")
	python3 - "$first" "$last" <<'PY'
import json, sys
d = json.load(open("t.json"))
lo, hi = round(float(sys.argv[1]) * 1e9), round(float(sys.argv[2]) * 1e9)
for name, t in d["tracks"].items():
    if t["events"]:
        assert lo <= t["first_ts"] and t["last_ts"] <= hi, (name, t["first_ts"], t["last_ts"], lo, hi)
for m in d["marks"]:
    assert lo <= m["ts"] <= hi, m
PY
	# the peak: the peak report's
	"$TA" -q -f "$WORK" --peak p.json --format json
	[ "$(jq -c '[.marks[] | select(.name == "peak of live slab bytes") | [.ts, .args.bytes]][0]' t.json)" = \
	  "$(jq -c '[(.moment.time_s * 1e9 | round), .moment.live_bytes]' p.json)" ]
	# the counters reach their marks: live slab bytes the peak's, each row its own exact peak
	[ "$(track 'live slab bytes' max_value)" = "$(jq .moment.live_bytes p.json)" ]
	"$TA" -q -f "$WORK" --growth g.json --format json
	for row in $(jq -r '.tracks | keys[] | select(startswith("live: ")) | select(startswith("live: other") | not) | ltrimstr("live: ")' t.json); do
		want=$(jq --arg k "$row" '.rows[] | select(.key == $k) | .peak_bytes' g.json)
		[ "$(track "live: $row" max_value)" = "$want" ] || { echo "$row: $want"; false; }
	done
	# thinned: not a point per event
	[ "$(jq '.packets' t.json)" -lt 20000 ]
}

@test "--perfetto: a double free marked at its time with its line; lost events as a slice" {
	{
		line 0 2.000000 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 2.000100 kfree "call_site=g+0x2/0x10 ptr=ffff888000000100"
		line 0 2.000200 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000200 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 2.000300 kfree "call_site=g+0x2/0x10 ptr=ffff888000000100"
		echo "CPU:1 [LOST 12 EVENTS]"
		line 1 2.500000 kmalloc "call_site=h+0x3/0x10 ptr=ffff888000000300 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	} > log
	"$TA" -q -f log --perfetto t.pftrace
	python3 "$TOP/tests/tools/check_perfetto.py" t.pftrace "$SCHEMA" > t.json
	[ "$(jq -c '[.marks[] | select(.name == "double free") | [.ts, .args.line, .args.freed_before_at_line]]' t.json)" = '[[2000300000,4,2]]' ]
	[ "$(jq -c '[.marks[] | select(.type == "TYPE_SLICE_BEGIN") | [.name, .ts, .args.until_ns]]' t.json)" = '[["events lost (a lost-events marker)",2000300000,2500000000]]' ]
	[ "$(track 'live slab bytes' last_value)" = 72 ]
}

@test "--perfetto from a trace.dat, a perf.data and a DB: each decodes; the DB's is the log's, byte for byte" {
	local f
	for f in "$FIX/small-stacks.dat" "$FIX/small-callchain.perf.data"; do
		"$TA" -q -f "$f" --perfetto b.pftrace
		python3 "$TOP/tests/tools/check_perfetto.py" b.pftrace "$SCHEMA" > /dev/null
	done
	"$TA" -q -f "$FIX/trace-pipe-6.18.log" --perfetto log.pftrace --save-db l.db
	"$TA" -q --db-file l.db --perfetto db.pftrace
	cmp log.pftrace db.pftrace
}

@test "--perfetto with nothing to place in time: said, exit 1, nothing written" {
	{
		line 0 2.000000 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	} > log
	run "$TA" -q -f log --perfetto t.pftrace --time 5,6
	[ "$status" -eq 1 ]
	[[ "$output" == *"gives no slab event with a timestamp: nothing to place on a trace viewer's timeline"* ]]
	[ ! -e t.pftrace ]
}

@test "--perfetto: a peak at the log's last time is a point before the end's, so every counter ends at the account's and reaches its peak" {
	for i in $(seq 0 9); do
		line 0 "1.0${i}0000" kmalloc "call_site=fa+0x10/0x100 ptr=ffff88800010000$i bytes_req=1024 bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	done > log
	line 0 2.000000 kmalloc "call_site=fb+0x10/0x100 ptr=ffff888000209999 bytes_req=65536 bytes_alloc=65536 gfp_flags=GFP_KERNEL node=-1 accounted=false" >> log
	line 0 2.000000 kfree "call_site=fb+0x20/0x100 ptr=ffff888000209999" >> log
	"$TA" -q -f log --perfetto t.pftrace --group-by function
	python3 "$TOP/tests/tools/check_perfetto.py" t.pftrace "$SCHEMA" > t.json
	[ "$(track 'live slab bytes' last_value)" = 10240 ]
	[ "$(track 'live slab bytes' max_value)" = 75776 ]
	[ "$(track 'live: fb' last_value)" = 0 ]
	[ "$(track 'live: fb' max_value)" = 65536 ]
	[ "$(track 'live: fa' last_value)" = 10240 ]
}
