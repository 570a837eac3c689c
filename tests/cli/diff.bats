#!/usr/bin/env bats
# trace_analyze diff: what changed between two runs (logs or DBs) and two
# kernel trees, in bloat-o-meter's layout; the CI gate's exit status; bad
# input. OLD is the first 40 lines of the 6.1 raw-pointer fixture (23
# allocations), NEW the whole fixture (34): the two accounts, made apart,
# are in the first test.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	NEW="$FIX/tracefs-6.1-rawptr.log"
	head -n 40 "$NEW" > old.log
}

@test "the rows are the two accounts' differences, biggest first" {
	# old: vm_area_dup 816, anon_vma_alloc 312, mas_alloc_nodes 256 held;
	# new: vm_area_dup 1360, anon_vma_alloc 520, mas_alloc_nodes freed (0),
	# alloc_pid 128 new. Totals 11816 and 12696 (the accounts' headers).
	run "$TA" diff old.log "$NEW"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "add/remove: 1/1 grow/shrink: 4/0 up/down: 1136/-256 (880)" ]
	[ "${lines[1]}" = "function         old   new  delta    delta%  change" ]
	[ "${lines[3]}" = "vm_area_dup      816  1360   +544   +66.67%  " ]
	[ "${lines[4]}" = "mas_alloc_nodes  256     -   -256  -100.00%  removed" ]
	[ "${lines[6]}" = "alloc_pid          -   128   +128         -  added" ]
	[ "${lines[9]}" = "Total: Before=11816, After=12696, chg +7.45%" ]
	[[ "$output" == *"figure:  current_dynamic by function"* ]]
	[[ "$output" == *"scaling: none: raw figures"* ]]
}

@test "two identical inputs: an all-zero diff, exit 0" {
	run "$TA" diff "$NEW" "$NEW"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)" ]
	[ "${lines[3]}" = "Total: Before=12696, After=12696, chg +0.00%" ]
}

@test "-o picks the figure: alloc_count, waste, free_count" {
	run "$TA" diff -o alloc_count old.log "$NEW"
	[ "${lines[0]}" = "add/remove: 1/0 grow/shrink: 4/0 up/down: 11/0 (11)" ]
	[ "${lines[3]}" = "vm_area_dup       6   10     +4  +66.67%  " ]
	run "$TA" diff -o free_count old.log "$NEW"
	[ "${lines[0]}" = "add/remove: 1/0 grow/shrink: 0/0 up/down: 1/0 (1)" ]
	run "$TA" diff -o waste --format csv old.log "$NEW"
	[[ "$output" == *$'\nfunction,anon_vma_alloc,24,40,+16,+66.67,'* ]]
}

@test "a DB on one side, a log on the other, and standard input" {
	"$TA" -q -f old.log --save-db old.db
	"$TA" diff old.log "$NEW" > from-logs
	"$TA" diff old.db "$NEW" > from-db
	cat "$NEW" | "$TA" diff old.db - > from-pipe
	diff <(head -n 11 from-logs) <(head -n 11 from-db)
	diff <(head -n 11 from-logs) <(head -n 11 from-pipe)
	run "$TA" diff - - < "$NEW"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: only one side can be standard input" ]
}

@test "--per scales both sides to N allocations and says so" {
	run "$TA" diff --per 100 old.log "$NEW"
	# vm_area_dup: 816 * 100/23 = 3547.83, 1360 * 100/34 = 4000.00
	[[ "$output" == *"vm_area_dup       3547.83   4000.00    +452.17   +12.75%"* ]]
	# what scales the figures is said first, before any of them
	[ "${lines[3]}" = "scaling: per 100 allocations (old x4.34783, new x2.94118)" ]
	[[ "${lines[0]}" == "old: "* ]]
	[[ "${lines[4]}" == "add/remove: "* ]]
	# unscaled, bloat-o-meter's line stays the first
	run "$TA" diff old.log "$NEW"
	[[ "${lines[0]}" == "add/remove: "* ]]
	[ "${lines[-1]}" = "scaling: none: raw figures" ]
}

@test "--fail-above: exit 3 when the total grows more, 0 when not" {
	run "$TA" diff --fail-above 1000 old.log "$NEW"
	[ "$status" -eq 0 ]
	run "$TA" diff --fail-above 800 old.log "$NEW"
	[ "$status" -eq 3 ]
	[ "${lines[-1]}" = "trace_analyze: diff: current_dynamic grew by 880 (+7.45%), more than --fail-above 800 allows" ]
	run "$TA" diff --fail-above 7.5% old.log "$NEW"
	[ "$status" -eq 0 ]
	run "$TA" diff --fail-above 7.4% old.log "$NEW"
	[ "$status" -eq 3 ]
	# a shrink never fails the gate
	run "$TA" diff --fail-above 0 "$NEW" old.log
	[ "$status" -eq 0 ]
}

@test "bad input: a missing side, bare addresses without a kernel, usage errors" {
	run "$TA" diff old.log missing.log
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open 'missing.log': No such file or directory" ]
	run "$TA" diff old.log "$FIX/old-2.6-hex.log"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "trace_analyze: error: NEW '$FIX/old-2.6-hex.log' names its call sites by address: give its kernel's tree with -k or --new-kernel, or the functions of the two sides cannot be matched" ]
	run "$TA" diff --new-kernel "$FIX/old-2.6.System.map" old.log "$FIX/old-2.6-hex.log"
	[ "$status" -eq 1 ]
	run "$TA" diff old.log
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: diff compares two sides: give OLD and NEW" ]
	[ "${lines[-1]}" = "Try 'trace_analyze diff --help' for more information." ]
	run "$TA" diff --group-by dir old.log "$NEW"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --group-by dir needs the kernel tree of both sides (-k, or --old-kernel and --new-kernel)" ]
	run "$TA" diff --fail-above lots old.log "$NEW"
	[ "${lines[0]}" = "trace_analyze: error: --fail-above wants bytes (10000) or a percentage (2.5%), not 'lots'" ]
	run "$TA" diff -c old.log old.log "$NEW"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: -c 'old.log' would overwrite the input of OLD: refusing to write over an input" ]
}

@test "diff --help" {
	run "$TA" diff --help
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "usage: trace_analyze diff [-k DIR|INDEX | --old-kernel D --new-kernel D]" ]
	[[ "$output" == *"--fail-above LIMIT"* ]]
}

@test "JSON: the same numbers, with the counts as a list" {
	"$TA" diff --format json old.log "$NEW" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["report"] == "diff"
assert d["summary"]["added"] == 1 and d["summary"]["net"] == 880, d["summary"]
assert d["rows"][0] == {"group_by": "function", "key": "vm_area_dup", "old": 816, "new": 1360, "delta": 544,
                        "delta_pct": 66.67, "change": ""}, d["rows"][0]
assert d["rows"][1]["new"] is None and d["rows"][1]["change"] == "removed"
assert d["totals"]["before"] == 11816'
}

# tree DIR VERSION: a tiny built tree, compiled now, under Linux's top Makefile
make_tree() {
	mkdir -p "$1/mm" "$1/fs"
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > "$1/Makefile"
	if [ "$2" = old ]; then
		printf 'int table[64];\nstatic const char names[] = "one two three";\nint grow(int x) { return x + names[x & 7]; }\nint keep(int x) { return x * 3; }\n' > "$1/mm/a.c"
		printf 'long counter;\nlong gone(long x) { return x - counter; }\n' > "$1/fs/gone.c"
	else
		printf 'int table[128];\nstatic const char names[] = "one two three four five";\nint grow(int x) { int s = 0; for (int i = 0; i < x; i++) s += names[i & 15] * i; return s + x; }\nint keep(int x) { return x * 3; }\n' > "$1/mm/a.c"
		printf 'char buffer[4096];\nlong fresh(long x) { return x + buffer[x & 4095]; }\n' > "$1/fs/fresh.c"
	fi
	for c in "$1"/*/*.c; do gcc -O1 -fno-common -c "$c" -o "${c%.c}.o"; done
}

@test "--static: symbols, objects, directories and sections against readelf" {
	make_tree old old
	make_tree new new
	"$TA" diff --static --format json old new > d.json
	python3 "$TOP/tests/tools/ref_ktree.py" symbols old > old.syms
	python3 "$TOP/tests/tools/ref_ktree.py" symbols new > new.syms
	python3 "$TOP/tests/tools/ref_ktree.py" objects old > old.objs
	python3 "$TOP/tests/tools/ref_ktree.py" objects new > new.objs
	python3 - d.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def table(path, total):
    t = {}
    for line in open(path):
        f = line.split()
        t[f[0]] = sum(int(x) for x in f[1:]) if total else int(f[1])
    return t
for key, block, files, total in (("symbol", "symbols", ("old.syms", "new.syms"), False),
                                 ("object", "objects", ("old.objs", "new.objs"), True)):
    old, new = table(files[0], total), table(files[1], total)
    want = {k: (old.get(k), new.get(k)) for k in set(old) | set(new) if old.get(k) != new.get(k)}
    got = {r["key"]: (r["old"], r["new"]) for r in d[block] if r["group_by"] == key}
    assert len(got) == len(d[block])
    assert got == want, (block, got, want)
    assert d[block + "_totals"]["before"] == sum(old.values()) or block != "symbols"
PY
	run "$TA" diff --static old new
	[ "${lines[0]}" = "add/remove: 2/2 grow/shrink: 3/0 up/down: 4420/-19 (4401)" ]
	[[ "$output" == *"buffer     -  4096  +4096         -  added"* ]]
	[[ "$output" == *"fs/gone.o    19     -    -19  -100.00%  removed"* ]]
	run "$TA" diff --static --fail-above 4000 old new
	[ "$status" -eq 3 ]
	run "$TA" diff --static new new
	[ "${lines[0]}" = "add/remove: 0/0 grow/shrink: 0/0 up/down: 0/0 (0)" ]
}

# a function-local static that gcc numbers by its order in the file: buf.1
# of f and buf.0 of g in the old object, g's alone (buf.0) in the new one
make_renumbered_static() {
	printf 'int f(int i) { static int buf[4]; buf[i]++; return buf[0]; }\nint g(int i) { static int buf[8]; buf[i]++; return buf[1]; }\n' > old/mm/s.c
	printf 'int g(int i) { static int buf[8]; buf[i]++; return buf[1]; }\n' > new/mm/s.c
	gcc -O1 -c old/mm/s.c -o old/mm/s.o
	gcc -O1 -c new/mm/s.c -o new/mm/s.o
}

@test "--static is bloat-o-meter: its first and Total lines, its rows and order; a renumbered static one row" {
	make_tree old old
	make_tree new new
	make_renumbered_static
	python3 "$TOP/tests/tools/ref_bloat.py" old new > ref.txt
	run "$TA" diff --static old new
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(head -n 1 ref.txt)" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -m 1 '^Total:')" = "$(tail -n 1 ref.txt)" ]
	"$TA" diff --static --format json old new > d.json
	python3 - d.json ref.txt <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = [l.split() for l in open(sys.argv[2]).read().splitlines()[1:-1]]
def fig(v):
    return "-" if v is None else str(int(v))
got = [[r["key"], fig(r["old"]), fig(r["new"]), "%+d" % r["delta"]] for r in d["symbols"]]
assert got == want, (got, want)
PY
	grep -qx 'buf 48 32 -16' ref.txt	# one row, not buf.1 removed and buf.0 unchanged
	# two objects, as bloat-o-meter takes them
	python3 "$TOP/tests/tools/ref_bloat.py" old/mm/s.o new/mm/s.o > ref2.txt
	run "$TA" diff --static old/mm/s.o new/mm/s.o
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(head -n 1 ref2.txt)" ]
	[ "$(printf '%s\n' "${lines[@]}" | grep -m 1 '^Total:')" = "$(tail -n 1 ref2.txt)" ]
	[ "${lines[0]}" = "add/remove: 0/1 grow/shrink: 0/1 up/down: 0/-37 (-37)" ]
}

@test "--static of two kernel indexes, and of an index older than its symbol table" {
	make_tree old old
	make_tree new new
	"$TA" -q -k old --save-index old.kidx
	"$TA" -q -k new --save-index new.kidx
	diff <("$TA" diff --static old new) <("$TA" diff --static old.kidx new.kidx)
	# an index as the releases before the symbol table made it: no section 8
	python3 "$TOP/tests/tools/drop_section.py" old.kidx older.kidx 8
	run "$TA" diff --static older.kidx new.kidx
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: kernel index 'older.kidx' was made by an older trace_analyze: it lacks the symbol table diff --static compares; make it again with --save-index" ]
	# it still serves every other use of an index
	"$TA" -q -k older.kidx -c static.txt
	"$TA" -q -k old.kidx -c static2.txt
	diff static.txt static2.txt
}

@test "--static refuses run options, and a tree without objects" {
	run "$TA" diff --static --per 10 a b
	[ "$status" -eq 2 ]
	mkdir empty
	make_tree new new
	run "$TA" diff --static empty new
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: kernel tree 'empty' has no objects: is it built? (looked for .o files with a .c or .S source beside them)" ]
}
