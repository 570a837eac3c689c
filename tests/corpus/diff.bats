#!/usr/bin/env bats
# trace_analyze diff on the corpus: the 6.1 boot log (OLD) against the same
# boot's log taken after a workload (NEW: boot events plus the workload's).
# Every row and total is checked against the two accounts the program
# writes apart and against tests/tools/ref_account.py (check_diff.py).

load ../lib/helpers

setup() {
	require_corpus
	BOOT="$CORPUS/linux-6.1-tiny/boot-kmem.log"
	WORK="$CORPUS/linux-6.1-tiny/workload-kmem.log"
	TREE="$CORPUS/linux-6.1-tiny/tree"
	CHECK="$TOP/tests/tools/check_diff.py"
}

@test "boot vs boot+workload: every figure by function, as both accounts say" {
	for figure in current_dynamic total_dynamic waste alloc_count free_count; do
		python3 "$CHECK" "$TA" "$BOOT" "$WORK" "$figure" function ||
			{ echo "figure $figure"; return 1; }
	done
}

@test "by call site, kmalloc only; scaled --per 1000000 allocations" {
	python3 "$CHECK" "$TA" "$BOOT" "$WORK" current_dynamic callsite --malloc
	python3 "$CHECK" "$TA" "$BOOT" "$WORK" total_dynamic function --per 1000000
	python3 "$CHECK" "$TA" "$BOOT" "$WORK" alloc_count callsite --cache
}

@test "by origin and by slab cache: the rows of the two accounts so grouped" {
	cd "$BATS_TEST_TMPDIR"
	# the 6.18 stack log, its first 100,000 lines against all of it
	head -n 100000 "$CORPUS/host-6.18/stack-kmem.log" > first.log
	for group in origin cache; do
		"$TA" -q -f first.log --group-by "$group" -c a.json --format json
		"$TA" -q -f "$CORPUS/host-6.18/stack-kmem.log" --group-by "$group" -c b.json --format json
		"$TA" diff --group-by "$group" --format json first.log "$CORPUS/host-6.18/stack-kmem.log" > d.json
		python3 - a.json b.json d.json "$group" <<'PY'
import json, sys
a, b, d = (json.load(open(p)) for p in sys.argv[1:4])
key = sys.argv[4]
va = {r["key"]: r["current_dynamic"] for r in a["callers"] if r["current_dynamic"]}
vb = {r["key"]: r["current_dynamic"] for r in b["callers"] if r["current_dynamic"]}
want = {k: (va.get(k), vb.get(k)) for k in set(va) | set(vb) if va.get(k) != vb.get(k)}
got = {r["key"]: (r["old"], r["new"]) for r in d["rows"]}
assert all(r["group_by"] == key for r in d["rows"]), key
assert got == want, (key, sorted(set(got.items()) ^ set(want.items()))[:5])
assert int(d["totals"]["before"]) == sum(va.values())
PY
	done
}

@test "by directory with the tree: the rows add up to the total change; a delta ringchart" {
	cd "$BATS_TEST_TMPDIR"
	"$TA" diff -k "$TREE" --group-by dir --format json -r delta.png "$BOOT" "$WORK" > d.json
	python3 - d.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = sum(r["delta"] for r in d["rows"])
assert rows == int(d["totals"]["after"]) - int(d["totals"]["before"]), rows
assert any(r["group_by"] == "dir" and r["key"] == "fs" for r in d["rows"])
PY
	[ "$(head -c 8 delta.png | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ]
	"$TA" diff -k "$TREE" --group-by dir -b fs "$BOOT" "$WORK" | grep -q "^fs/inode.o "
}

@test "DBs on both sides give the logs' diff" {
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f "$BOOT" --save-db boot.db
	"$TA" -q -f "$WORK" --save-db work.db
	"$TA" diff "$BOOT" "$WORK" | head -n -5 > from-logs
	"$TA" diff boot.db work.db | head -n -5 > from-dbs
	diff_or_fail from-logs from-dbs
}

@test "--static: the corpus tree against its own index is all zero" {
	cd "$BATS_TEST_TMPDIR"
	xz -dc "$TOP/data/linux-6.1-tiny.kidx.xz" > tree.kidx
	run "$TA" diff --static "$TREE" tree.kidx
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)" ]
	[ "$(grep -c '^Total: Before=\([0-9]*\), After=\1, chg +0.00%$' <<< "$output")" -eq 4 ]
}

# same_as_bloat OLD NEW: first line, rows (name old new delta, in order) and
# Total line of diff --static as tests/tools/ref_bloat.py gives them
same_as_bloat() {
	python3 "$TOP/tests/tools/ref_bloat.py" "$1" "$2" > ref.txt
	"$TA" diff --static "$1" "$2" > got.txt
	[ "$(head -n 1 got.txt)" = "$(head -n 1 ref.txt)" ]
	[ "$(grep -m 1 '^Total:' got.txt)" = "$(tail -n 1 ref.txt)" ]
	"$TA" diff --static --format json "$1" "$2" > got.json
	python3 - got.json ref.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = [l.split() for l in open(sys.argv[2]).read().splitlines()[1:-1]]
fig = lambda v: "-" if v is None else str(int(v))
got = [[r["key"], fig(r["old"]), fig(r["new"]), "%+d" % r["delta"]] for r in d["symbols"]]
assert got == want, [(g, w) for g, w in zip(got, want) if g != w][:5] or (len(got), len(want))
PY
}

@test "--static is bloat-o-meter on pairs of the corpus's objects, its vmlinux and its tree" {
	cd "$BATS_TEST_TMPDIR"
	same_as_bloat "$TREE/mm/slub.o" "$TREE/mm/slab_common.o"
	same_as_bloat "$TREE/fs/inode.o" "$TREE/fs/dcache.o"
	same_as_bloat "$TREE/vmlinux" "$TREE/kernel/fork.o"
	same_as_bloat "$TREE/vmlinux" "$TREE/vmlinux"
	[ "$(head -n 1 got.txt)" = "add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)" ]
	# trees: the sums of their objects' symbols (6,378,472 bytes for the
	# whole tree, the figure bloat-o-meter gave); a subtree is a tree too
	same_as_bloat "$TREE" "$TREE/mm"
	[ "$(grep -m 1 '^Total:' got.txt)" = "Total: Before=6378472, After=426580, chg -93.31%" ]
	same_as_bloat "$TREE/fs" "$TREE/mm"
}
