#!/usr/bin/env bats
# Call chains on the real stack-trace logs of the corpus, against
# tests/tools/ref_stacks.py (an independent replay of DESIGN.md section 9):
# origins, page origins and folded stacks of every weight; the same from a
# DB, with one thread or two, from a file or a pipe; the flame graph.

load ../lib/helpers

setup() {
	require_corpus
	STACK618="$CORPUS/host-6.18/stack-kmem.log"
	STACK61="$CORPUS/linux-6.1-tiny/stacktrace-kmem.log"
	PERF="$CORPUS/host-6.18/perf-callchain/perf-callchain.perf-script.txt"
	cd "$BATS_TEST_TMPDIR"	# the summaries written here, never in the source tree
}

# ref_stacks LOG [ARGS]: the reference replay, cached like ref_account
ref_stacks() {
	mkdir -p "$REF_CACHE"
	local key
	# the arguments, and the replay's text and lists: a changed replay runs again
	key=stacks-$({ printf '%s\n' "$@"; cat "$TOP/tests/tools/ref_stacks.py" \
		"$TOP/data/wrappers.txt"; } | sha1sum | cut -c1-16)
	if [ ! -s "$REF_CACHE/$key" ]; then
		python3 "$TOP/tests/tools/ref_stacks.py" "$@" > "$REF_CACHE/$key.tmp" &&
			mv "$REF_CACHE/$key.tmp" "$REF_CACHE/$key"
	fi
	echo "$REF_CACHE/$key"
}

@test "6.18 stack log: origins, page origins and folded stacks equal the reference" {
	python3 "$TOP/tests/tools/check_stacks.py" "$TA" "$STACK618" "$(ref_stacks "$STACK618")"
}

@test "6.1 stack log: origins, page origins and folded stacks equal the reference" {
	python3 "$TOP/tests/tools/check_stacks.py" "$TA" "$STACK61" "$(ref_stacks "$STACK61")"
}

@test "perf callchains, with and without --user-frames, equal the reference" {
	python3 "$TOP/tests/tools/check_stacks.py" "$TA" "$PERF" "$(ref_stacks "$PERF")"
	python3 "$TOP/tests/tools/check_stacks.py" "$TA" "$PERF" \
		"$(ref_stacks "$PERF" --user-frames)" --user-frames
}

@test "the summary counts stacks as the reference pairs them" {
	for log in "$STACK618" "$STACK61" "$PERF"; do
		"$TA" -f "$log" --group-by origin -c /dev/null 2> summary
		python3 - "$(ref_stacks "$log")" summary <<'PY'
import json, re, sys
ref = json.load(open(sys.argv[1]))["stacks"]
text = open(sys.argv[2]).read()
def n(label):
    m = re.search(r"\n  +" + re.escape(label) + r" +(\d+)\n", text)
    return int(m.group(1)) if m else 0
got = {"blocks": n("stack traces:"), "kmem_paired": n("of kmem events"),
       "other_paired": n("of other events"), "orphans": n("with no event"),
       "events_with": n("kmem events with stack:"),
       "events_without": n("kmem events without one:")}
assert got == ref, (got, ref)
PY
	done
	# the numbers the corpus README gives, read with the nesting rule:
	# 19,828 entries, 3,811 of them rss_stat's; 4 the README counted as
	# orphans belong to events an interrupt had nested stacks inside
	"$TA" -f "$STACK618" --group-by origin -c /dev/null 2> summary
	grep -q "^  stack traces:                  19828$" summary
	grep -q "^    of other events               3811$" summary
	! grep -q "with no event" summary
}

@test "a DB keeps the stacks: origins, folded stacks and flame graphs are byte-identical" {
	cd "$BATS_TEST_TMPDIR"
	for log in "$STACK618" "$PERF"; do
		"$TA" -q -f "$log" --save-db s.db
		for opts in "--group-by origin -c" "--folded" "--folded-pages" "--outstanding" \
			"--page" "--flame" "--group-by origin --stats"; do
			ext=""; [ "$opts" = "--flame" ] && ext=.svg
			"$TA" -q -f "$log" $opts "log$ext"
			"$TA" -q --db-file s.db $opts "db$ext"
			cmp "log$ext" "db$ext" || { echo "$log: $opts differs"; return 1; }
		done
		"$TA" -q -f "$log" --flame log.png
		"$TA" -q --db-file s.db --flame db.png
		cmp log.png db.png
	done
}

@test "one thread or two, a file or a pipe: the same origins and folded stacks" {
	cd "$BATS_TEST_TMPDIR"
	for log in "$STACK618" "$STACK61" "$PERF"; do
		"$TA" -q -f "$log" --threads 1 --group-by origin -c a1 --folded f1
		"$TA" -q -f "$log" --threads 2 --group-by origin -c a2 --folded f2
		cat "$log" | "$TA" -q -f - --threads 2 --group-by origin -c a3 --folded f3
		cmp a1 a2 && cmp a1 a3 && cmp f1 f2 && cmp f1 f3
	done
}

@test "the flame graph of the 6.18 log: each box as wide as its share, callees within callers" {
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f "$STACK618" --flame flame.svg --folded folded.txt
	python3 - flame.svg folded.txt <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
total = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[2]))
boxes = []
for g in root.findall("s:g", ns):
    r = g.find("s:rect", ns)
    t = g.find("s:title", ns).text
    m = re.match(r"^(.*) \((\d+) bytes, [0-9.]+%\)$", t)
    assert m, t
    boxes.append((float(r.get("x")), float(r.get("y")), float(r.get("width")), int(m.group(2))))
root_box = [b for b in boxes if b[3] == total]
assert root_box, "no box holds the total"
scale = root_box[0][2] / total
for x, y, w, weight in boxes:
    assert abs(w - weight * scale) < 0.01, (x, y, w, weight)
    if y < root_box[0][1]:   # a callee: inside some box one row below
        assert any(abs(y2 - (y + 17)) < 0.01 and x2 - 0.01 <= x and x + w <= x2 + w2 + 0.01
                   for x2, y2, w2, _ in boxes), (x, y, w)
PY
}

@test "the maple tree's helpers are wrappers: its nodes' origin is the code that stores" {
	"$TA" -q -f "$STACK618" --group-by origin -c origins.txt
	! grep -q ' mas_[a-z_]*$\| mt_[a-z_]*$\| __mt_[a-z_]*$' origins.txt
	grep -q '^ *58880 .* 230/3 *__mmap_region$' origins.txt
	grep -q '^ *44288 .* 173/0 *__split_vma$' origins.txt
}
