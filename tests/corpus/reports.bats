#!/usr/bin/env bats
# The reports beyond the account on real logs: perf kmem parity (summary,
# per call site, page allocator) read from perf's own output files; the
# findings, slab caches, page tables and outstanding allocations against an
# independent Python count (tests/tools/ref_report.py); the three formats
# of every table; a time window against a log cut with awk; and the same
# reports from a DB.

load ../lib/helpers

setup() {
	require_corpus
	PERF="$CORPUS/host-6.18/perf-kmem"
	WORK="$CORPUS/linux-6.1-tiny/workload-kmem.log"
	SMALL="$CORPUS/host-6.18/small-kmem.log"
	OVERRUN="$CORPUS/host-6.18/overrun-kmem.log"
}

@test "perf kmem stat: totals, and hits, bytes and ping-pong of all 75 call sites" {
	local d="$BATS_TEST_TMPDIR"
	"$TA" -q -f "$PERF/kmem.perf-script.txt" --summary "$d/s.json" --format json
	"$TA" -q -f "$PERF/kmem.perf-script.txt" --stats "$d/st.csv" --format csv
	run python3 "$TOP/tests/tools/perf_kmem_check.py" "$PERF" "$d/s.json" "$d/st.csv"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "perf kmem: 75 call sites agree; bytes freed 91999392 (perf counts 200 more"* ]]
}

@test "perf kmem --page stat: totals and the order x migratetype table" {
	"$TA" -q -f "$PERF/kmem.perf-script.txt" --page "$BATS_TEST_TMPDIR/p.json" --format json
	python3 "$TOP/tests/tools/ref_report.py" perf-pages "$PERF/perf-kmem-page.txt" "$BATS_TEST_TMPDIR/p.json"
	python3 "$TOP/tests/tools/ref_report.py" pages "$PERF/kmem.perf-script.txt" "$BATS_TEST_TMPDIR/p.json"
}

@test "findings and slab caches equal an independent count on four real logs" {
	local log
	for log in "$WORK" "$SMALL" "$OVERRUN" "$PERF/kmem.perf-script.txt"; do
		"$TA" -q -f "$log" --summary "$BATS_TEST_TMPDIR/s.json" --format json
		python3 "$TOP/tests/tools/ref_report.py" findings "$log" "$BATS_TEST_TMPDIR/s.json"
	done
	# the overrun capture has its "buffer started" marker, the perf one 5
	# frees of extent_status objects freed before: slab objects, so their
	# allocation may be a bulk one (no event), not double frees
	"$TA" -q -f "$OVERRUN" --summary "$BATS_TEST_TMPDIR/o.csv" --format csv
	grep -qx 'finding,lost_marker,1,[0-9]*,.*' "$BATS_TEST_TMPDIR/o.findings.csv"
	"$TA" -q -f "$PERF/kmem.perf-script.txt" --summary "$BATS_TEST_TMPDIR/p.csv" --format csv
	grep -qx 'finding,free_of_untraced_alloc,5,"113512 (freed at line 40681), .*' "$BATS_TEST_TMPDIR/p.findings.csv"
	grep -qx 'finding,double_free,0,,.*' "$BATS_TEST_TMPDIR/p.findings.csv"
}

@test "page tables equal an independent count on the 6.1 and 6.18 logs" {
	local log
	for log in "$WORK" "$SMALL" "$OVERRUN"; do
		"$TA" -q -f "$log" --page "$BATS_TEST_TMPDIR/p.json" --format json
		python3 "$TOP/tests/tools/ref_report.py" pages "$log" "$BATS_TEST_TMPDIR/p.json"
	done
}

@test "outstanding allocations and their ages equal an independent count, with --min-age" {
	local log age n=0
	cd "$BATS_TEST_TMPDIR"
	for log in "$WORK" "$SMALL"; do
		for age in 0 1.5; do
			n=$((n + 1))
			"$TA" -q -f "$log" --outstanding o$n.json --min-age "$age" --format json
			echo "outstanding '$log' o$n.json $age" >> checks
		done
	done
	python3 "$TOP/tests/tools/ref_report.py" batch < checks	# each log parsed once
}

@test "--peak: the peak of live slab bytes and each row's part in it equal an independent replay; --peak-at any moment" {
	local log at
	cd "$BATS_TEST_TMPDIR"
	for log in "$WORK" "$SMALL" "$CORPUS/linux-6.1-tiny/boot-kmem.log"; do
		"$TA" -q -f "$log" --peak p-$(basename "$log").json --format json
		echo "peak '$log' p-$(basename "$log").json" >> checks
		# the rows' bytes at the peak add up to it
		[ "$(jq '[.rows[].bytes] | add' p-$(basename "$log").json)" = "$(jq .moment.live_bytes p-$(basename "$log").json)" ]
	done
	for at in 0.29 50.5 93.855825 98.96; do
		"$TA" -q -f "$WORK" --peak p-$at.json --peak-at "$at" --format json
		echo "peak '$WORK' p-$at.json $at" >> checks
	done
	# a DB gives the same; a row merged by function or cache has the peak of its sum
	"$TA" -q -f "$WORK" --save-db w.db
	"$TA" -q -f w.db --peak db.json --format json
	"$TA" -q -f "$WORK" --peak log.json --format json
	cmp db.json log.json
	for by in function cache; do
		"$TA" -q -f "$WORK" --peak f-$by.json --group-by $by --format json
		echo "peak '$WORK' f-$by.json - $by" >> checks
		[ "$(jq '[.rows[] | select(.own_peak_bytes == null)] | length' f-$by.json)" = 0 ]
		[ "$(jq '[.rows[].bytes] | add' f-$by.json)" = "$(jq .moment.live_bytes log.json)" ]
		"$TA" -q -f w.db --peak fdb.json --group-by $by --format json
		cmp f-$by.json fdb.json
	done
	python3 "$TOP/tests/tools/ref_report.py" batch < checks	# each log parsed once
	run "$TA" -f "$WORK" --peak-at 5
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --peak-at says when --peak looks: give that too" ]
	# a moment outside the log's clock is no moment of it: refused, saying where it runs
	for at in 0 1000; do
		run "$TA" -f "$WORK" --peak p.txt --peak-at "$at"
		[ "$status" -eq 1 ]
		[[ "$output" == *"error: --peak-at $at.000000 is outside '$WORK': its clock runs from 0.2"*" to 98.9"*" s ("* ]]
		[ ! -e p.txt ]
	done
	run "$TA" --db-file w.db --peak p.txt --peak-at 1000
	[ "$status" -eq 1 ] && [[ "$output" == *"--peak-at 1000.000000 is outside"* ]]
}

@test "--lifetimes: per row, objects freed and never freed, median, p90 and p99 equal an independent replay" {
	local log
	cd "$BATS_TEST_TMPDIR"
	for log in "$WORK" "$SMALL" "$CORPUS/linux-6.1-tiny/boot-kmem.log"; do
		"$TA" -q -f "$log" --lifetimes l.json --format json
		python3 "$TOP/tests/tools/ref_report.py" lifetimes "$log" l.json
		# every object is freed or not: the account's allocations
		[ "$(jq '[.rows[] | .freed + .never_freed] | add' l.json)" -le \
			"$("$TA" -q -f "$log" --summary - --format json | jq .events.allocations)" ]
		# a row's buckets add up to its freed objects
		jq -e '([.rows[] | {(.key): .freed}] | add) as $f | [.buckets | group_by(.key)[] | {key: .[0].key, value: (map(.objects) | add)}] | all(.value == $f[.key])' l.json > /dev/null
	done
	# by function: the call sites' counts added up
	"$TA" -q -f "$WORK" --lifetimes f.json --group-by function --format json
	[ "$(jq '[.rows[].freed] | add' f.json)" = "$("$TA" -q -f "$WORK" --lifetimes - --format json | jq '[.rows[].freed] | add')" ]
	python3 "$TOP/tests/tools/check_consumers.py" json f.json
}

@test "objects allocated before events were lost are uncertain, not held: the overrun log's 121 objects" {
	local log="$CORPUS/host-6.18/overrun-kmem.log"
	cd "$BATS_TEST_TMPDIR"
	# its header: 63178 entries written, 9259 in the buffer; a buffer-started marker
	grep -q 'entries-in-buffer/entries-written: 9259/63178' "$log"
	"$TA" -q -f "$log" --outstanding o.json --summary s.json --format json
	python3 "$TOP/tests/tools/ref_report.py" uncertain "$log" o.json
	[ "$(jq '[.totals.allocations, .totals.uncertain_allocations, .totals.loss_windows] | join(" ")' o.json)" = '"106 121 2"' ]
	[ "$(jq '.uncertain.objects, .uncertain.bytes, .uncertain.held_bytes' s.json | tr '\n' ' ')" = "121 35584 32600 " ]
	# held + uncertain = what the account counts live
	[ "$(jq '.uncertain.bytes + .uncertain.held_bytes == .bytes.live' s.json)" = true ]
	# a complete log (nothing dropped, no marker) has no window, whatever its silences
	for log in "$WORK" "$SMALL"; do
		"$TA" -q -f "$log" --outstanding o.json --summary s.json --format json
		python3 "$TOP/tests/tools/ref_report.py" uncertain "$log" o.json
		[ "$(jq 'has("uncertain")' s.json)" = false ]
	done
}

@test "--growth: each row's end is the account's live bytes (an independent replay), start, peak and growth agree" {
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f "$WORK" --growth g.json --format json
	python3 "$TOP/tests/tools/ref_account.py" "$WORK" > ref.account
	# the net column of the replay's account is each call site's live bytes at the end
	awk 'NR > 9 && $3 > 0 { print $NF, $3 }' ref.account | sort > ref.end
	jq -r '.rows[] | select(.end_bytes > 0) | "\(.key) \(.end_bytes)"' g.json | sort > got.end
	diff -u ref.end got.end
	jq -e 'all(.rows[]; .grew_bytes == .end_bytes - .start_bytes and .peak_bytes >= .start_bytes and .peak_bytes >= .end_bytes and .r2 >= 0 and .r2 <= 1)' g.json
	python3 "$TOP/tests/tools/check_consumers.py" json g.json
	# by slab cache
	"$TA" -q -f "$CORPUS/host-6.18/stack-kmem.log" --growth c.json --group-by cache --format json
	[ "$(jq -r '.rows[0].group_by' c.json)" = cache ]
}

@test "--growth: every row's peak is its own exact highest and when, by call site, function and cache, from a log and from a DB" {
	local log by
	cd "$BATS_TEST_TMPDIR"
	for log in "$WORK" "$SMALL"; do
		"$TA" -q -f "$log" --save-db g.db
		for by in callsite function cache; do
			"$TA" -q -f "$log" --growth g-$(basename "$log")-$by.json --group-by $by --format json
			echo "growth '$log' g-$(basename "$log")-$by.json $by" >> checks
			"$TA" -q -f g.db --growth gdb.json --group-by $by --format json
			cmp g-$(basename "$log")-$by.json gdb.json
		done
	done
	python3 "$TOP/tests/tools/ref_report.py" batch < checks	# each log parsed once
	# the highest timeline sample was taken for it once: names_cache 12288 of a true 20480
	"$TA" -q -f "$SMALL" --growth g.json --group-by cache --format json
	[ "$(jq '.rows[] | select(.key == "names_cache") | .peak_bytes' g.json)" = 20480 ]
}

@test "--timeline's data reaches the peak: the samples' total tops out at --peak's bytes, each shown row at its --growth peak" {
	local log
	cd "$BATS_TEST_TMPDIR"
	for log in "$WORK" "$SMALL"; do
		"$TA" -q -f "$log" --timeline t.csv --top 6
		"$TA" -q -f "$log" --peak p.json --growth g.json --format json
		python3 - t.csv p.json g.json <<'PY'
import csv, json, sys
# a sample: the block of a line per row shown that "(other)" ends (a row's own
# peak between samples is a line of its own before it)
rows = list(csv.DictReader(open(sys.argv[1])))
n = len({r['key'] for r in rows})
totals, top, pending = [], {}, []
for r in rows:
    top[r['key']] = max(top.get(r['key'], 0), int(r['live_bytes']))
    pending.append(int(r['live_bytes']))
    if r['key'] == '(other)':
        totals.append(sum(pending[-n:]))
        pending = []
peak = json.load(open(sys.argv[2]))['moment']['live_bytes']
assert max(totals) == peak, (max(totals), peak)
growth = {g['key']: g['peak_bytes'] for g in json.load(open(sys.argv[3]))['rows']}
shown = [k for k in top if k != '(other)']
assert len(shown) == 6, shown
for k in shown:
    assert top[k] == growth[k], (k, top[k], growth[k])
PY
	done
}

@test "every table of every report says the same in text, CSV and JSON" {
	local rep f
	for rep in summary stats outstanding page; do
		for f in text csv json; do
			"$TA" -q -f "$SMALL" --$rep "$BATS_TEST_TMPDIR/r.$f" --format $f
		done
		python3 "$TOP/tests/tools/report_formats.py" "$BATS_TEST_TMPDIR/r.text" \
			"$BATS_TEST_TMPDIR/r.csv" "$BATS_TEST_TMPDIR/r.json"
	done
	# (the account's text is trace_analyze.py's layout: tests/tools/account_formats.py)
	for f in text csv json; do
		"$TA" -q -k "$CORPUS/linux-6.1-tiny/tree" -c "$BATS_TEST_TMPDIR/st.$f" --format $f
		"$TA" -q -k "$CORPUS/linux-6.1-tiny/tree" -f "$SMALL" -l "$BATS_TEST_TMPDIR/cl.$f" --format $f
	done
	python3 "$TOP/tests/tools/report_formats.py" "$BATS_TEST_TMPDIR/cl.text" \
		"$BATS_TEST_TMPDIR/cl.csv" "$BATS_TEST_TMPDIR/cl.json"
	python3 "$TOP/tests/tools/report_formats.py" "$BATS_TEST_TMPDIR/st.text" \
		"$BATS_TEST_TMPDIR/st.csv" "$BATS_TEST_TMPDIR/st.json"
}

@test "--time: the account of a window is the account of the log cut to it" {
	local d="$BATS_TEST_TMPDIR"
	# keep the header and the events with 20 <= timestamp <= 60
	awk '/^#/ {print; next}
	     {for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {t = $i + 0; if (t >= 20 && t <= 60) print; next}}' \
		"$WORK" > "$d/cut.log"
	ref_account "$d/cut.log" > "$d/expected"
	"$TA" -q -f "$WORK" --time 20,60 -c "$d/actual"
	diff_or_fail "$d/expected" "$d/actual"
	"$TA" -q -f "$d/cut.log" --stats "$d/cut.stats"
	"$TA" -q -f "$WORK" --time 20,60 --stats "$d/window.stats"
	diff_or_fail "$d/cut.stats" "$d/window.stats"
	# open ends
	"$TA" -q -f "$WORK" --time ,60 -c "$d/to60"
	"$TA" -q -f "$WORK" --time 0,60 -c "$d/0to60"
	diff_or_fail "$d/0to60" "$d/to60"
}

@test "summary, stats, outstanding and page reports are identical from a DB" {
	local d="$BATS_TEST_TMPDIR" rep
	"$TA" -q -f "$PERF/kmem.perf-script.txt" --save-db "$d/p.db"
	for rep in "--summary" "--stats" "--outstanding" "--page"; do
		"$TA" -q -f "$PERF/kmem.perf-script.txt" $rep "$d/from-log" -o pingpong
		"$TA" -q --db-file "$d/p.db" $rep "$d/from-db" -o pingpong
		diff_or_fail "$d/from-log" "$d/from-db"
	done
	# a log with page events between slab events, and a marker
	for log in "$WORK" "$OVERRUN"; do
		"$TA" -q -f "$log" --save-db "$d/x.db"
		"$TA" -q -f "$log" --summary "$d/x-log" --outstanding "$d/o-log"
		"$TA" -q --db-file "$d/x.db" --summary "$d/x-db" --outstanding "$d/o-db"
		diff_or_fail "$d/x-log" "$d/x-db"
		diff_or_fail "$d/o-log" "$d/o-db"
	done
	"$TA" -q -f "$PERF/kmem.perf-script.txt" --time 2679,2679.5 --summary "$d/w-log" -c "$d/wa-log"
	"$TA" -q --db-file "$d/p.db" --time 2679,2679.5 --summary "$d/w-db" -c "$d/wa-db"
	diff_or_fail "$d/w-log" "$d/w-db"
	diff_or_fail "$d/wa-log" "$d/wa-db"
}

@test "total_waste of every call site equals bytes_alloc - bytes_req summed from the log's text" {
	for log in "$CORPUS/linux-6.1-tiny/boot-kmem.log" "$CORPUS/linux-6.1-tiny/workload-kmem.log" \
		   "$CORPUS/host-6.18/small-kmem.log"; do
		python3 "$TOP/tests/tools/check_total_waste.py" "$log" "$TA"
	done
	run "$TA" -q -f "$CORPUS/linux-6.1-tiny/boot-kmem.log" -c - -o total_waste --malloc
	[ "$status" -eq 0 ]
}

@test "--group-by comm and pid on a real log: each task's allocations as an independent count" {
	"$TA" -q -f "$SMALL" --group-by pid -c "$BATS_TEST_TMPDIR/pid.json" --format json
	python3 - "$SMALL" "$BATS_TEST_TMPDIR/pid.json" <<'PY'
import json, re, sys
allocs = {}
line_re = re.compile(r"^\s*(.*?)-(\d+)\s+\[\d+\].*?\s(kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): ")
for line in open(sys.argv[1], errors="replace"):
    m = line_re.match(line)
    if m and "ptr=0000000000000000" not in line:
        key = "%s-%s" % (m.group(1), m.group(2))
        allocs[key] = allocs.get(key, 0) + 1
got = {r["key"]: r["alloc_count"] for r in json.load(open(sys.argv[2]))["callers"]}
assert got == allocs, sorted(set(got.items()) ^ set(allocs.items()))[:10]
print(len(got), "tasks agree")
PY
}

@test "--comm: the account of one task is its row of --group-by comm, from the log and the DB" {
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f "$SMALL" --group-by comm -c comm.txt --save-db s.db
	for task in cat ld bash; do
		row=$(awk -v t="$task" '$NF == t { print $1, $3, $4 }' comm.txt)
		[ -n "$row" ]
		for src in "-f $SMALL" "--db-file s.db"; do
			# shellcheck disable=SC2086
			"$TA" -q $src --comm "$task" -c one.txt
			got=$(awk '/^current bytes allocated:/ { net = $NF } /^number of allocs:/ { a = $NF }
				/^number of frees:/ { f = $NF }
				NR > 9 { total += $1 } END { print total, net, a "/" f }' one.txt)
			[ "$got" = "$row" ] || { echo "$task from $src: $got, not $row"; return 1; }
		done
	done
}

# every report a log gives without a tree, from the report table itself
# (trace_analyze --reports-helper: NAME OPTION SHAPE NEEDS SNAPSHOTS)
ALL_REPORTS=$("$TA" --reports-helper | awk '($4 == "log" || $4 == "-") { print $1 }' | tr '\n' ' ')
# report_option NAME PREFIX: its option and a file PREFIX.NAME[.ext] of its shape
report_option() {
	"$TA" --reports-helper | awk -v r="$1" -v p="$2" '$1 == r {
		ext = $3 == "chart" ? ".png" : $3 == "chart-or-data" ? ".csv" : ""
		print $2, p "." r ext }'
}

@test "a report's numbers are the same asked alone or beside every other report" {
	[ "$(echo $ALL_REPORTS | wc -w)" -ge 15 ]	# the table read, not nothing
	# growth, asked alone, once read a timeline without the page events' times, and
	# --outstanding's suspects a timeline without the caches' names (reclaimable or not)
	cd "$BATS_TEST_TMPDIR"
	for log in "$OVERRUN" "$SMALL" "$WORK" "$CORPUS/host-6.18/perf-callchain/perf-callchain.perf-script.txt"; do
		all=""
		for r in $ALL_REPORTS; do all="$all $(report_option "$r" all)"; done
		# shellcheck disable=SC2086
		"$TA" -q -f "$log" $all
		for r in $ALL_REPORTS; do
			# shellcheck disable=SC2046
			"$TA" -q -f "$log" $(report_option "$r" one)
			f=$(report_option "$r" one | cut -d' ' -f2)
			cmp "$f" "all.${f#one.}" || { echo "$log: $r differs"; return 1; }
		done
	done
}
