#!/usr/bin/env bats
# /proc/allocinfo snapshots read with -f: known by their first line, rows
# summed per key as an independent Python sum says (tests/tools/ref_allocinfo.py),
# duplicates summed, bad rows counted and named, bad files refused with
# nothing written. The fixture is 38 lines of a real 6.12 kernel's.

load ../lib/helpers

SNAP="$FIX/allocinfo-6.12.txt"

setup() {
	cd "$BATS_TEST_TMPDIR"
}


@test "allocinfo: a row per site, its bytes and allocations live, as the rows sum" {
	"$TA" -q -f "$SNAP" -c got.csv --format csv
	python3 "$TOP/tests/tools/ref_allocinfo.py" callsite "$SNAP" > want
	allocinfo_rows got.csv > got
	diff -u want got
	grep -q '^fs/ext4/extents_status.c:483 __es_alloc_extent \[ext4\] 81520 2038$' got
	# the text account: the largest first, the average and share
	run "$TA" -q -f "$SNAP" -c - --top 2
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "bytes live:"*" 1433816" ]]
	[[ "$output" == *"kernel/fork.c:322 alloc_thread_stack_node  787968     240  3283  54.96%      1      true"* ]]
}

@test "allocinfo --group-by function, file, dir (with -b), module: each the rows summed by it" {
	local g
	for g in function file dir module; do
		"$TA" -q -f "$SNAP" -c got.csv --format csv --group-by $g
		python3 "$TOP/tests/tools/ref_allocinfo.py" $g "$SNAP" > want
		allocinfo_rows got.csv > got
		diff -u want got || { echo "--group-by $g differs"; return 1; }
	done
	grep -q '^ext4 ' got && grep -q '^jbd2 ' got && grep -q '^vmlinux ' got
	# -b: the sites under a directory, no tree needed
	"$TA" -q -f "$SNAP" -c got.csv --format csv --group-by dir -b fs
	python3 "$TOP/tests/tools/ref_allocinfo.py" dir --branch fs "$SNAP" > want
	allocinfo_rows got.csv > got
	diff -u want got
	grep -q '^fs/ext4 ' got
}

@test "allocinfo: one key listed twice (an inline function's tag per file) is summed and counted" {
	{ echo 'allocinfo - version: 1.0'
	  echo '#     <size>  <calls> <tag info>'
	  echo '         100        2 kernel/sched/sched.h:2632 func:alloc_user_cpus_ptr '
	  echo '          64        1 mm/slub.c:10 func:other '
	  echo '          28        3 kernel/sched/sched.h:2632 func:alloc_user_cpus_ptr '; } > dup.txt
	run "$TA" -f dup.txt -c - --summary s.json --format csv
	[ "$status" -eq 0 ]
	[[ "$output" == *"callsite,kernel/sched/sched.h:2632 alloc_user_cpus_ptr,128,5,25,66.67,1,true"* ]]
	[[ "$output" == *"note: 1 row of a key listed before (as 'kernel/sched/sched.h:2632 alloc_user_cpus_ptr'"* ]]
	"$TA" -q -f dup.txt --summary s.json --format json
	[ "$(jq '.snapshots.duplicate_rows' s.json)" = 1 ]
	[ "$(jq '.snapshots.sites' s.json)" = 2 ]
	python3 "$TOP/tests/tools/check_consumers.py" json s.json
}

@test "allocinfo: a row that does not parse is counted, named, and not used; the rest is read" {
	{ head -n 5 "$SNAP"; echo '        1x24        1 mm/slub.c:99 func:bad '; tail -n +6 "$SNAP"; } > bad.txt
	run "$TA" -f bad.txt -c got.csv --format csv --summary s.json
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: 1 row not parsed, not counted: the first, bad.txt line 6: '        1x24        1 mm/slub.c:99 func:bad'"* ]]
	"$TA" -q -f bad.txt --summary s.json --format json
	[ "$(jq -r '.snapshots.first_bad_row' s.json)" = "bad.txt line 6:         1x24        1 mm/slub.c:99 func:bad" ]
	# the other rows: the file's without it
	"$TA" -q -f "$SNAP" -c want.csv --format csv
	cmp want.csv got.csv
	# a cut file: its last line has no newline
	head -c -20 "$SNAP" > cut.txt
	run "$TA" -f cut.txt -c cut.csv --format csv
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'cut.txt' is not a usable allocinfo snapshot: truncated: line 38 ends after $(tail -n 1 cut.txt | wc -c) bytes with no newline (the file is cut there)" ]
	[ ! -e cut.csv ]
	# beside a log too, and from standard input
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --allocinfo cut.txt -c cut.txt.acc
	[ "$status" -eq 1 ] && [[ "$output" == *"'cut.txt' is not a usable allocinfo snapshot: truncated: line 38"* ]]
	run "$TA" -f - -c cut.csv < cut.txt
	[ "$status" -eq 1 ] && [[ "$output" == *"'standard input' is not a usable allocinfo snapshot"* ]]
}

@test "allocinfo: a newer version, an empty file, no row, a binary file: refused, nothing written" {
	{ echo 'allocinfo - version: 9.0'; tail -n +2 "$SNAP"; } > v9.txt
	run "$TA" -f v9.txt -c out.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'v9.txt' is allocinfo version 9.0: this trace_analyze reads versions 1.x and 2.x" ]
	[ ! -e out.txt ]
	printf 'allocinfo - version: 1.0\n#     <size>  <calls> <tag info>\n     12 x mm/a.c:1 func:f \n' > nothing.txt
	run "$TA" -f nothing.txt -c out.txt
	[ "$status" -eq 1 ]
	[[ "$output" == "trace_analyze: error: 'nothing.txt' has no allocinfo row that can be read" ]]
	[ ! -e out.txt ]
	: > empty.txt
	run "$TA" -f empty.txt -c out.txt
	[ "$status" -eq 1 ]
	[ ! -e out.txt ]
	head -c 4096 /dev/urandom > binary.bin
	run "$TA" -f binary.bin -c out.txt
	[ "$status" -eq 1 ]
	[ ! -e out.txt ]
	# one of a series that is not a snapshot
	run "$TA" "$SNAP" v9.txt -c out.txt
	[ "$status" -eq 1 ]
	[ ! -e out.txt ]
}

@test "allocinfo version 2: accurate:no marks the row; its counts are read all the same" {
	sed -e '1s/1.0/2.0/' -e '3s/ $/ accurate:no /' "$SNAP" > v2.txt
	run "$TA" -f v2.txt -c got.csv --format csv --group-by file
	[ "$status" -eq 0 ]
	[[ "$output" == *"note: 1 site say accurate:no: their counts are not exact, their changes are"* ]]
	grep -q '^file,arch/x86/kernel/e820.c,[0-9]*,[0-9]*,[0-9]*,[0-9.]*,[0-9]*,false$' got.csv
	"$TA" -q -f "$SNAP" -c want.csv --format csv --group-by file
	[ "$(cut -d, -f1-4 want.csv)" = "$(cut -d, -f1-4 got.csv)" ]
}

@test "allocinfo: plain, compressed, on standard input, rows without a header: the same account" {
	"$TA" -q -f "$SNAP" -c file.csv --format csv
	xz -c "$SNAP" > s.xz
	"$TA" -q -f s.xz -c xz.csv --format csv
	"$TA" -q -f - -c stdin.csv --format csv < "$SNAP"
	gzip -c "$SNAP" | "$TA" -q -f - -c pipe.csv --format csv
	tail -n +3 "$SNAP" > rows-only.txt
	"$TA" -q -f rows-only.txt -c rows.csv --format csv
	for f in xz stdin pipe rows; do
		cmp file.csv $f.csv || { echo "$f differs"; return 1; }
	done
}

@test "allocinfo: what needs events, or groupings of events, is a usage error" {
	run "$TA" -f "$SNAP" --outstanding -
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "trace_analyze: error: '$SNAP' is an allocinfo snapshot: --outstanding needs a kmem log's events" ]]
	run "$TA" -f "$SNAP" -c - --group-by cache
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"its sites are grouped by callsite, function, file, dir or module, not cache" ]]
	run "$TA" -f "$SNAP" -c - --comm bash
	[ "$status" -eq 2 ]
	# --group-by file is a snapshot's: a kmem log has no source files
	run "$TA" -f "$FIX/trace-pipe-6.18.log" -c - --group-by file
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"--group-by file groups an allocinfo snapshot's sites"* ]]
	# on standard input the snapshot is known once read: a runtime error then, nothing written
	run "$TA" -f - --outstanding out.txt < "$SNAP"
	[ "$status" -eq 1 ]
	[[ "$output" == *"is an allocinfo snapshot: --outstanding needs a kmem log's events (allocinfo gives -c, -r, --summary, --growth, --pprof, --openmetrics, --timeline, --html)"* ]]
	[ ! -e out.txt ]
}

@test "allocinfo: the JSON and CSV load in their consumers (schema, csv module)" {
	"$TA" -q -f "$SNAP" -c a.json --summary s.json --format json
	python3 "$TOP/tests/tools/check_consumers.py" json a.json s.json
	"$TA" -q -f "$SNAP" -c a.csv --summary s.csv --format csv --group-by module
	python3 "$TOP/tests/tools/check_consumers.py" csv a.csv a.totals.csv s.csv s.snapshots.csv
}

@test "allocinfo -r: a ringchart of live bytes by source directory, no tree needed" {
	"$TA" -q -f "$SNAP" -r rings.png
	[ "$(head -c 8 rings.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
	"$TA" -q -f "$SNAP" -r fs.png -b fs
	[ -s fs.png ]
	run "$TA" -q -f "$SNAP" -r no.png -b nosuch
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: branch 'nosuch' holds no allocation site of '$SNAP'" ]
	[ ! -e no.png ]
}

@test "top --allocinfo: no tracing; each refresh the rows' live allocations and bytes and their change" {
	cp "$SNAP" live.txt
	TA_TEST_ALLOCINFO=live.txt TA_TEST_PAUSE=top-refreshed "$TA" top --allocinfo --iterations 2 \
		--interval 0.1 --format csv --group-by module > out.csv &
	pid=$!
	wait_stopped $pid	# the first refresh: nothing changed since the start
	# ext4 frees an object of 81520 bytes in 2038 allocations, a module "demo" allocates
	sed 's/^       81520     2038 fs\/ext4/           0        0 fs\/ext4/' "$SNAP" > next.txt
	echo '        4096        1 drivers/demo/demo.c:12 [demo] func:demo_init ' >> next.txt
	mv next.txt live.txt
	kill -CONT $pid
	wait_stopped $pid	# the second
	kill -CONT $pid
	wait $pid
	[ "$(head -n 1 out.csv)" = "time_s,group_by,key,allocs,allocs_change,live_bytes,live_change_bytes" ]
	# the first refresh: the start's figures, no change
	python3 "$TOP/tests/tools/ref_allocinfo.py" module "$SNAP" > want
	ext4=$(awk '$1 == "ext4" { print $3 "," $2 }' want)
	grep -q "^[0-9.]*,module,ext4,${ext4%,*},0,${ext4#*,},0$" out.csv
	# the second: ext4 down by what it freed, demo new; the largest change first
	[ "$(grep -c ',module,ext4,' out.csv)" = 2 ]
	grep -q "^[0-9.]*,module,ext4,$(( ${ext4%,*} - 2038 )),-2038,$(( ${ext4#*,} - 81520 )),-81520$" out.csv
	grep -q '^[0-9.]*,module,demo,1,1,4096,4096$' out.csv
	# a trace's groupings are not the file's, and back
	run "$TA" top --allocinfo --group-by cache
	[ "$status" -eq 2 ]
	run "$TA" top --group-by module
	[ "$status" -eq 2 ]
	TA_TEST_ALLOCINFO=missing.txt run "$TA" top --allocinfo --iterations 1
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'missing.txt' does not exist (a kernel without CONFIG_MEM_ALLOC_PROFILING, or older than 6.10): top --allocinfo has nothing to read" ]
}

@test "--allocinfo beside a log: it needs -c, a grouping by function, module or dir, and a log" {
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --allocinfo "$SNAP"
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"--allocinfo adds allocinfo's figures to the account: give -c FILE" ]]
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --allocinfo "$SNAP" -c - --group-by cache
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"--allocinfo compares by function (--group-by callsite or function), module or dir, not cache" ]]
	run "$TA" -f "$SNAP" --allocinfo "$SNAP" -c -
	[ "$status" -eq 2 ]
	# a log of another kernel: nothing matches, every row counted on its side
	"$TA" -q -f "$FIX/trace-pipe-6.18.log" --allocinfo "$SNAP" -c out.json --format json --group-by module
	[ "$(jq '.allocinfo_match.matched' out.json)" = 1 ]	# vmlinux
	[ "$(jq '.allocinfo_match.allocinfo_only' out.json)" = 2 ]	# ext4, jbd2
}

@test "--allocinfo beside a log: a filter a tag cannot carry is refused by name, not applied to one side" {
	local f opt want
	for f in "--comm sh:task or gfp flags" "--pid 1:task or gfp flags" "--gfp GFP_KERNEL:task or gfp flags" \
		 "--malloc:allocator family" "--cache:allocator family" "--time 1,2:time"; do
		run "$TA" -f "$FIX/trace-pipe-6.18.log" --allocinfo "$SNAP" -c - ${f%%:*}
		[ "$status" -eq 2 ]
		opt=${f%%:*}
		want="trace_analyze: error: --allocinfo: ${opt%% *} filters the trace only: an allocinfo tag has no ${f#*:}"
		[[ "${lines[0]}" == "$want"* ]]
	done
}

@test "allocinfo series: a site growing steadily is a leak suspect, judged as a log's; the others are not" {
	mkdir series
	for i in 0 1 2 3 4 5 6 7 8 9; do
		awk -v i=$i '/kernel\/fork.c:322 / { printf "%12d %8d %s %s \n", $1 + i * 100000, $2 + i * 25, $3, $4; next } { print }' \
			"$SNAP" > series/snap-$i
	done
	"$TA" -q -f series --summary s.json --growth g.json --format json
	[ "$(jq -r '[.leak_suspects[].key] | join(",")' s.json)" = "kernel/fork.c:322 alloc_thread_stack_node" ]
	# no object ages in counts: at most medium, and said so
	[ "$(jq -r '.leak_suspects[0].confidence' s.json)" = medium ]
	[ "$(jq '.leak_suspects[0].oldest_age_pct' s.json)" = null ]
	[[ "$(jq -r '.leak_suspects[0].why' s.json)" == *"no object's age is known"* ]]
	[ "$(jq '.leak_suspects[0].grew_bytes' s.json)" = 900000 ]
	[ "$(jq '.snapshots.untimed_snapshots' s.json)" = 10 ]
	# without times, no rate and no span: the snapshots are numbered, as the chart's axis
	[ "$(jq '.rows[0].bytes_per_s' g.json)" = null ]
	[ "$(jq -c '[.leak_suspects[0] | .over_s, .bytes_per_s]' s.json)" = '[null,null]' ]
	[[ "$(jq -r '.leak_suspects[0].why' s.json)" == "grew 878.9 KiB over 10 snapshots "* ]]
	[ "$(jq '.snapshots | has("span_s")' s.json)" = false ]
	[ "$(jq -c '[.rows[0] | .most_from_s, .most_to_s, .peak_s]' g.json)" = '[3,5,10]' ]
	python3 "$TOP/tests/tools/check_consumers.py" json s.json g.json
	# with record's time lines, 10 s apart: 10,000 bytes a second
	for i in 0 1 2 3 4 5 6 7 8 9; do
		{ echo "# trace_analyze allocinfo snapshot: $((100 + 10 * i)).000000000 s (CLOCK_MONOTONIC)"; cat series/snap-$i; } > series/t
		mv series/t series/snap-$i
	done
	"$TA" -q -f series --summary s.json --growth g.json --format json
	[ "$(jq '.rows[0].bytes_per_s' g.json)" = 10000 ]
	[ "$(jq '.snapshots.span_s' s.json)" = 90 ]
}

@test "allocinfo series out of time order, or timed and numbered mixed: refused at the line, the file before named; in order, read" {
	for t in 100.5 50.25; do
		printf '# trace_analyze allocinfo snapshot: %s s (CLOCK_MONOTONIC)\nallocinfo - version: 1.0\n4096 1 mm/a.c:1 func:fa\n' $t > at-$t.txt
	done
	run "$TA" -q --growth g.txt at-100.5.txt at-50.25.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'at-50.25.txt' line 1: this snapshot, taken at 50.250000 s, is before the one before it (100.500000 s, in 'at-100.5.txt'): a series is read in time order; give its files oldest first" ]
	[ ! -e g.txt ]
	cat at-100.5.txt at-50.25.txt > both.txt
	run "$TA" -q --growth g.txt both.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'both.txt' line 4: this snapshot, taken at 50.250000 s, is before the one before it (100.500000 s): a series is read in time order; give its files oldest first" ]
	"$TA" -q --growth g.txt at-50.25.txt at-100.5.txt
	# a number is no time: timed and numbered snapshots in one series are refused
	printf 'allocinfo - version: 1.0\n4096 1 mm/a.c:1 func:fa\n' > untimed.txt
	run "$TA" -q --growth g2.txt at-50.25.txt untimed.txt at-100.5.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'untimed.txt' line 1: this snapshot has no time line and the ones before have one: a series is timed throughout (record --allocinfo) or not at all" ]
	run "$TA" -q --growth g2.txt untimed.txt at-50.25.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'at-50.25.txt' line 2: this snapshot has a time line and the ones before have none: a series is timed throughout (record --allocinfo) or not at all" ]
	[ ! -e g2.txt ]
}

@test "allocinfo: an hour of snapshots a second is thinned evenly over its whole span, its first kept" {
	# 3,600 snapshots, 1 s apart, a site growing 64 bytes a second from 4,096
	python3 - > hour.txt <<'PY'
for i in range(3600):
    print("# trace_analyze allocinfo snapshot: %d.000000000 s (CLOCK_MONOTONIC)" % (1000 + i))
    print("allocinfo - version: 1.0")
    print("%d %d mm/a.c:1 func:fa" % (4096 + 64 * i, 1 + i))
    print("100 1 mm/c.c:3 func:fc")
PY
	"$TA" -q hour.txt --growth g.csv --format csv --timeline t.csv
	python3 - g.csv t.csv <<'PY'
import csv, sys
g = {r["key"]: r for r in csv.DictReader(open(sys.argv[1]))}
a = g["mm/a.c:1 fa"]
assert (int(a["start_bytes"]), int(a["end_bytes"]), int(a["grew_bytes"])) == (4096, 4096 + 64 * 3599, 64 * 3599), a
ts = sorted({float(r["time_s"]) for r in csv.DictReader(open(sys.argv[2]))})
assert ts[0] == 1000 and ts[-1] == 4599, (ts[0], ts[-1])
gaps = {round(b - a, 6) for a, b in zip(ts, ts[1:-1])}
assert len(gaps) == 1, sorted(gaps)	# evenly: one step between kept samples (the last apart)
PY
}

@test "allocinfo: sums that would wrap are refused at their line; a count below zero (-1 printed unsigned) is none" {
	printf 'allocinfo - version: 1.0\n9223372036854775807 1 mm/a.c:1 func:fa\n9223372036854775807 1 mm/a.c:1 func:fa\n100 1 mm/c.c:3 func:fc\n' > wrap.txt
	run "$TA" -q -c out.txt wrap.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'wrap.txt' line 3: the snapshot's live bytes or allocations add up past 2^63-1 here: no kernel holds that much; is the file damaged?" ]
	[ ! -e out.txt ]
	# the kernel's calls are a sum of per-CPU counters: -1 prints as 18446744073709551615
	printf 'allocinfo - version: 1.0\n4096 18446744073709551615 mm/a.c:1 func:fa\n100 1 mm/c.c:3 func:fc\n' > neg.txt
	"$TA" -q -c neg.json --format json neg.txt
	[ "$(jq '.totals.allocs' neg.json)" = 1 ]
}
