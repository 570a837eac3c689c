#!/usr/bin/env bats
# /proc/allocinfo of a real 6.12 kernel (linux-6.12-modules): A before the
# workload, B with ext4, jbd2... loaded and used, C after rmmod. Every
# figure against tests/tools/ref_allocinfo.py, an independent sum.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	require_corpus
	MODS="$CORPUS/linux-6.12-modules"
	[ -f "$MODS/allocinfo-B.txt" ] || skip "no linux-6.12-modules corpus"
	cd "$BATS_TEST_TMPDIR"
}


@test "allocinfo B: every grouping equals the rows summed by its key (ext4's and jbd2's as modules)" {
	local g
	for g in callsite function file dir module; do
		"$TA" -q -f "$MODS/allocinfo-B.txt" -c got.csv --format csv --group-by $g
		python3 "$TOP/tests/tools/ref_allocinfo.py" $g "$MODS/allocinfo-B.txt" > want
		allocinfo_rows got.csv > got
		diff -u want got || { echo "--group-by $g differs"; return 1; }
	done
	# the README's figures: 661,599,512 bytes at B, ext4's tags 1,240,392, jbd2's 109,520
	grep -qx 'total 661599512 343144' got
	grep -qx 'ext4 1240392 4214' got
	grep -qx 'jbd2 109520 820' got
	"$TA" -q -f "$MODS/allocinfo-B.txt" --summary s.json --format json
	[ "$(jq '.snapshots.duplicate_rows' s.json)" = 1 ]
	[ "$(jq -r '.snapshots.first_duplicate' s.json)" = "kernel/sched/sched.h:2632 alloc_user_cpus_ptr" ]
	[ "$(jq '.snapshots.rows' s.json)" = 1529 ]
	[ "$(jq '.totals.sites_live' s.json)" = 405 ]
}

@test "allocinfo A B C as a series: growth and the timeline end at C, the modules' peak at B" {
	"$TA" -q "$MODS/allocinfo-A.txt" "$MODS/allocinfo-B.txt" "$MODS/allocinfo-C.txt" \
		--group-by module --growth g.json --timeline t.csv --format json
	python3 "$TOP/tests/tools/ref_allocinfo.py" module "$MODS/allocinfo-A.txt" > a
	python3 "$TOP/tests/tools/ref_allocinfo.py" module "$MODS/allocinfo-B.txt" > b
	python3 "$TOP/tests/tools/ref_allocinfo.py" module "$MODS/allocinfo-C.txt" > c
	[ "$(jq '.rows[] | select(.key == "vmlinux") | .start_bytes' g.json)" = "$(awk '$1 == "vmlinux" { print $2 }' a)" ]
	[ "$(jq '.rows[] | select(.key == "vmlinux") | .end_bytes' g.json)" = "$(awk '$1 == "vmlinux" { print $2 }' c)" ]
	[ "$(jq '.rows[] | select(.key == "ext4") | .peak_bytes' g.json)" = "$(awk '$1 == "ext4" { print $2 }' b)" ]
	[ "$(jq '.rows[] | select(.key == "ext4") | .end_bytes' g.json)" = 0 ]
	# the same snapshots as a directory, read in name order ("2" before "10"), and in one file
	mkdir snaps
	cp "$MODS/allocinfo-A.txt" snaps/snap-2
	cp "$MODS/allocinfo-B.txt" snaps/snap-9
	cp "$MODS/allocinfo-C.txt" snaps/snap-10
	"$TA" -q -f snaps --group-by module --growth d.json --format json
	cmp g.json d.json
	cat "$MODS/allocinfo-A.txt" "$MODS/allocinfo-B.txt" "$MODS/allocinfo-C.txt" > all.txt
	"$TA" -q -f all.txt --group-by module --growth f.json --format json
	cmp g.json f.json
	python3 "$TOP/tests/tools/check_consumers.py" json g.json
}

@test "allocinfo: record's time lines give each snapshot its time; growth per second from them" {
	{ echo '# trace_analyze allocinfo snapshot: 100.000000000 s (CLOCK_MONOTONIC)'
	  cat "$MODS/allocinfo-A.txt"
	  echo '# trace_analyze allocinfo snapshot: 110.500000000 s (CLOCK_MONOTONIC)'
	  cat "$MODS/allocinfo-B.txt"
	  echo '# trace_analyze allocinfo snapshot: 130.000000000 s (CLOCK_MONOTONIC)'
	  cat "$MODS/allocinfo-C.txt"; } > timed.txt
	"$TA" -q -f timed.txt --group-by module --growth g.json --timeline t.csv --format json
	[ "$(jq '.rows[] | select(.key == "ext4") | .peak_s' g.json)" = 110.5 ]
	[ "$(jq '.rows[] | select(.key == "vmlinux") | .peak_s' g.json)" = 130 ]
	# the samples: one per snapshot, at its time
	[ "$(cut -d, -f3 t.csv | sort -u | grep -c '^[0-9]')" = 3 ]
	grep -q '^module,vmlinux,130.000000,702874952$' t.csv
}

@test "allocinfo --pprof: go tool pprof reads it; its totals are the snapshot's, each site at its source line" {
	command -v go > /dev/null || skip "no go (scripts/deps.sh: golang-go)"
	"$TA" -q -f "$MODS/allocinfo-B.txt" --pprof p.pb.gz
	run go tool pprof -symbolize=none -raw p.pb.gz
	[ "$status" -eq 0 ]
	[[ "$output" == *"inuse_objects/count inuse_space/bytes"* ]]
	[[ "$output" == *" ext4_alloc_inode fs/ext4/super.c:1419 s=0"* ]]
	sums=$(awk '/^Samples:/ {s = 1; next} /^[A-Z]/ {s = 0} s && $1 ~ /^[0-9]+$/ {a += $1; b += $2} END {print b, a}' <<< "$output")
	[ "total $sums" = "$(python3 "$TOP/tests/tools/ref_allocinfo.py" callsite "$MODS/allocinfo-B.txt" | tail -n 1)" ]
	# the module as the mapping
	[[ "$output" == *"0x0/0x0/0x0 ext4  [FN][FL][LN]"* ]]
}

@test "allocinfo -r with -k: the sites' bytes in the tree's directories, a site's .c in its .o" {
	"$TA" -q -f "$MODS/allocinfo-B.txt" -k "$MODS/tree" -r rings.png -c dir.csv --group-by dir \
		-b fs --format csv
	[ -s rings.png ]
	python3 "$TOP/tests/tools/ref_allocinfo.py" dir --branch fs "$MODS/allocinfo-B.txt" > want
	allocinfo_rows dir.csv > got
	diff -u want got
	# the tree's static footprint with the live bytes (-a current), or alone; neither without -k
	"$TA" -q -f "$MODS/allocinfo-B.txt" -k "$MODS/tree" -r cur.png -a current
	"$TA" -q -f "$MODS/allocinfo-B.txt" -k "$MODS/tree" -r static.png -a static
	[ -s cur.png ] && [ -s static.png ] && ! cmp -s cur.png static.png
	# in one chart, each wedge's static part drawn darker from its start: wedges of two
	# shades with -a current, none with the live bytes alone
	"$TA" -q -f "$MODS/allocinfo-B.txt" -k "$MODS/tree" -r cur.svg -a current
	"$TA" -q -f "$MODS/allocinfo-B.txt" -k "$MODS/tree" -r live.svg
	[ "$(python3 "$TOP/tests/tools/two_part_wedges.py" cur.svg)" -ge 5 ]
	[ "$(python3 "$TOP/tests/tools/two_part_wedges.py" live.svg)" -eq 0 ]
	# and so the page's sunburst, measured by current
	if command -v chromium > /dev/null; then
		"$TA" -q -f "$MODS/allocinfo-B.txt" -k "$MODS/tree" --html p.html
		for view in current current_dynamic; do
			chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chrome" \
				--virtual-time-budget=5000 --dump-dom "file://$BATS_TEST_TMPDIR/p.html#attr=$view" \
				> $view.dom 2> /dev/null
		done
		[ "$(grep -o 'class="sb-static"' current.dom | wc -l)" -ge 5 ]
		[ "$(grep -o 'class="sb-static"' current_dynamic.dom | wc -l)" -eq 0 ]
		grep -q 'darker: the static footprint; lighter: the live bytes' current.dom
	fi
	run "$TA" -q -f "$MODS/allocinfo-B.txt" -r no.png -a current
	[ "$status" -eq 2 ]
	run "$TA" -q -f "$MODS/allocinfo-B.txt" -r no.png -a waste
	[ "$status" -eq 2 ]
}

@test "diff A B of snapshots: per module, old, new and delta as the rows sum; --fail-above gates" {
	"$TA" diff -q "$MODS/allocinfo-A.txt" "$MODS/allocinfo-B.txt" --group-by module -c d.json \
		--format json
	python3 "$TOP/tests/tools/ref_allocinfo.py" module "$MODS/allocinfo-A.txt" > a
	python3 "$TOP/tests/tools/ref_allocinfo.py" module "$MODS/allocinfo-B.txt" > b
	for m in vmlinux ext4 jbd2; do
		old=$(awk -v m=$m '$1 == m { print $2 }' a)
		new=$(awk -v m=$m '$1 == m { print $2 }' b)
		[ "$(jq ".rows[] | select(.key == \"$m\") | .delta" d.json)" = "$((new - ${old:-0}))" ]
	done
	[ "$(jq -r '.rows[] | select(.key == "ext4") | .change' d.json)" = added ]
	# live allocations instead of bytes
	"$TA" diff -q "$MODS/allocinfo-A.txt" "$MODS/allocinfo-B.txt" --group-by module -o alloc_count \
		-c n.json --format json
	[ "$(jq '.rows[] | select(.key == "jbd2") | .new' n.json)" = "$(awk '$1 == "jbd2" { print $3 }' b)" ]
	run "$TA" diff -q "$MODS/allocinfo-A.txt" "$MODS/allocinfo-C.txt" --fail-above 1000000 -c /dev/null
	[ "$status" -eq 3 ]
	# the gate's words give whole numbers whole, as the rows sum them (not 6.34736e+08)
	run --separate-stderr "$TA" diff "$MODS/allocinfo-A.txt" "$MODS/allocinfo-B.txt" --fail-above 10000000 -c /dev/null
	[ "$status" -eq 3 ]
	grew=$(( $(awk '$1 == "total" { print $2 }' b) - $(python3 "$TOP/tests/tools/ref_allocinfo.py" module "$MODS/allocinfo-A.txt" | awk '$1 == "total" { print $2 }') ))
	[[ "$stderr" == *"current_dynamic grew by $grew ("*"), more than --fail-above 10000000 allows"* ]]
}

@test "diff of snapshots: another kernel's built-in sites warned of; accurate:no rows listed; a log is not a snapshot" {
	sed '3s/init\/main.c:1311/init\/main.c:1312/' "$MODS/allocinfo-A.txt" > other.txt
	run "$TA" diff "$MODS/allocinfo-A.txt" other.txt -c /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: the two snapshots list different built-in sites (1 only in '$MODS/allocinfo-A.txt', 1 only in 'other.txt')"* ]]
	run "$TA" diff "$MODS/allocinfo-A.txt" "$MODS/allocinfo-C.txt" -c /dev/null
	[[ "$output" != *"different built-in sites"* ]]
	sed -e '1s/1.0/2.0/' -e '/ring_buffer.c:2207/s/ $/ accurate:no /' "$MODS/allocinfo-C.txt" > c2.txt
	"$TA" diff -q "$MODS/allocinfo-A.txt" c2.txt --group-by file -c d.txt
	grep -q '^row: *kernel/trace/ring_buffer.c$' d.txt
	run "$TA" diff "$MODS/allocinfo-A.txt" "$FIX/trace-pipe-6.18.log"
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == *"is an allocinfo snapshot and '$FIX/trace-pipe-6.18.log' is not: diff compares two of a kind" ]]
}

@test "-f LOG --allocinfo B --module, -b: the snapshot's side filtered as the trace's, as awk sums its rows" {
	"$TA" -q -f "$MODS/workload-kmem-B.log.xz" --allocinfo "$MODS/allocinfo-B.txt" --module ext4 \
		-c m.json --format json
	[ "$(jq '[.allocinfo[], .allocinfo_only[] | .allocinfo_bytes // 0] | add' m.json)" = \
	  "$(awk '/ \[ext4\] / { b += $1 } END { print b }' "$MODS/allocinfo-B.txt")" ]
	[ "$(jq -r '[.callers[].key | select(endswith(" [ext4]") | not)] | length' m.json)" = 0 ]
	[ "$(jq -r '[.allocinfo[], .allocinfo_only[] | .key | select(endswith(" [ext4]") | not)] | length' m.json)" = 0 ]
	# -b fs/jbd2 keeps the tags whose file is under it, for every grouping (no tree needed for them)
	"$TA" -q -k "$MODS/tree" -f "$MODS/workload-kmem-B.log.xz" --allocinfo "$MODS/allocinfo-B.txt" \
		-b fs/jbd2 --group-by function -c b.json --format json
	[ "$(jq '[.allocinfo[], .allocinfo_only[] | .allocinfo_bytes // 0] | add' b.json)" = \
	  "$(awk '$3 ~ /^fs\/jbd2\// { b += $1 } END { print b }' "$MODS/allocinfo-B.txt")" ]
}

@test "-f LOG --allocinfo B: per module and per function, the trace's live bytes beside the snapshot's" {
	local g
	for g in module function; do
		"$TA" -q -f "$MODS/workload-kmem-B.log.xz" --allocinfo "$MODS/allocinfo-B.txt" \
			--group-by $g -c b.json --format json
		python3 "$TOP/tests/tools/check_consumers.py" json b.json
		python3 "$TOP/tests/tools/ref_allocinfo.py" $g "$MODS/allocinfo-B.txt" > ref
		python3 - b.json ref $g <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
ref = {}
for line in open(sys.argv[2]):
    k, b, c = line.rsplit(" ", 2)
    if k != "total":
        ref[k] = (int(b), int(c))
def key(name):
    if sys.argv[3] == "module":
        return name
    m = re.match(r"([^+ .]+)[^ ]*(?: \[(\S+)\])?$", name)
    return m.group(1) + (" [%s]" % m.group(2) if m.group(2) else "")
trace = {}
for r in doc["callers"]:
    trace[key(r["key"])] = trace.get(key(r["key"]), 0) + r["current_dynamic"]
rows = {r["key"]: r for r in doc["allocinfo"]}
assert set(rows) == set(trace), "the rows are the trace's"
for k, r in rows.items():
    assert r["trace_live_bytes"] == trace[k], k
    if k in ref:
        assert (r["allocinfo_bytes"], r["allocinfo_allocs"]) == ref[k], k
        assert r["not_in_trace_bytes"] == ref[k][0] - trace[k], k
    else:
        assert r["allocinfo_bytes"] is None, k
only = {r["key"]: r["allocinfo_bytes"] for r in doc["allocinfo_only"]}
assert only == {k: v[0] for k, v in ref.items() if k not in trace and v[0]}, "the tags never traced"
m = doc["allocinfo_match"]
assert m["matched"] == len(set(ref) & set(trace))
assert m["trace_only"] == len(set(trace) - set(ref))
assert m["allocinfo_bytes"] == sum(v[0] for v in ref.values())
PY
	done
	# the trap of the README: ext4's freed init code printed as configfs's, which has no tag live
	"$TA" -q -f "$MODS/workload-kmem-B.log.xz" --allocinfo "$MODS/allocinfo-B.txt" --group-by module \
		-c b.csv --format csv
	grep -q '^module,configfs,64,1,,,,$' b.allocinfo.csv
	grep -q '^module,jbd2,109520,820,109520,820,0,6$' b.allocinfo.csv
}
