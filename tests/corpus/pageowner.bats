#!/usr/bin/env bats
# page_owner of the 6.12 guest (../shared/corpus/linux-6.12-ledger/boot1):
# the whole dumps at A and C and show_stacks at A, B and C, each origin's
# pages equal to tests/tools/ref_pageowner.py's count of the same file.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	require_corpus
	BOOT="$CORPUS/linux-6.12-ledger/boot1"
	[ -d "$BOOT" ] || skip "no linux-6.12-ledger in the corpus"
	cd "$BATS_TEST_TMPDIR"
}

origin_rows() {
	python3 -c 'import csv, sys; [print("origin", r["key"], r["pages"]) for r in csv.DictReader(open(sys.argv[1]))]' "$1"
}

@test "the dumps at A and C and show_stacks at A, B, C: each origin's pages as counted apart" {
	local f
	for f in page_owner-A.txt.xz page_owner-C.txt.xz page_owner_stacks-A.txt \
		page_owner_stacks-B.txt page_owner_stacks-C.txt; do
		"$TA" -q -f "$BOOT/$f" --page p.csv --format csv
		case $f in
		*.xz) xz -dc "$BOOT/$f" > plain ;;
		*) cp "$BOOT/$f" plain ;;
		esac
		python3 "$TOP/tests/tools/ref_pageowner.py" plain "$TOP/data/allocators.txt" \
			"$TOP/data/wrappers.txt" > want
		[ "$(origin_rows p.origins.csv)" = "$(grep '^origin ' want)" ] || { echo "$f"; return 1; }
	done
	# at C: 68,448 page blocks of 69,753 pages; the trace ring buffer's 21,418 of them
	[ "$(grep '^records ' want)" = "records 889" ]
	"$TA" -q -f "$BOOT/page_owner-C.txt.xz" --page c.csv --format csv
	[ "$(grep '^totals,live_requests,' c.totals.csv | cut -d, -f3)" = 68448 ]
	[ "$(grep '^totals,live_kb,' c.totals.csv | cut -d, -f3)" = $((69753 * 4)) ]
	[ "$(grep '^origin,__rb_allocate_pages,' c.origins.csv | cut -d, -f4)" = 21418 ]
}

# rows_of CSV WORD: "WORD key pages" of a --page CSV's rows table
rows_of() {
	python3 -c 'import csv, sys; [print(sys.argv[2], r["key"], r["pages"]) for r in csv.DictReader(open(sys.argv[1]))]' "$1" "$2"
}

@test "show_stacks at B by module, directory (-k), task; the dump at C by task: as counted apart" {
	local tree="$CORPUS/linux-6.12-ledger/tree"
	python3 "$TOP/tests/tools/ref_pageowner.py" "$BOOT/page_owner_stacks-B.txt" \
		"$TOP/data/allocators.txt" "$TOP/data/wrappers.txt" "$tree" > want
	"$TA" -q -f "$BOOT/page_owner_stacks-B.txt" --page m.csv --format csv --group-by module
	[ "$(rows_of m.rows.csv module)" = "$(grep '^module ' want)" ]
	# ext4's own functions hold 443 of the pages at B, jbd2's 20
	grep -qx 'module ext4 443' want
	"$TA" -q -k "$tree" -f "$BOOT/page_owner_stacks-B.txt" --page d.csv --format csv --group-by dir
	[ "$(rows_of d.rows.csv dir)" = "$(grep '^dir ' want)" ]
	# show_stacks names no task
	"$TA" -q -f "$BOOT/page_owner_stacks-B.txt" --page c.csv --format csv --group-by comm
	[ "$(rows_of c.rows.csv comm)" = "comm (no task) 46036" ]
	xz -dc "$BOOT/page_owner-C.txt.xz" > plain
	python3 "$TOP/tests/tools/ref_pageowner.py" plain "$TOP/data/allocators.txt" \
		"$TOP/data/wrappers.txt" > want
	for g in comm pid module; do
		"$TA" -q -f "$BOOT/page_owner-C.txt.xz" --page $g.csv --format csv --group-by $g
		[ "$(rows_of $g.rows.csv $g)" = "$(grep "^$g " want)" ] || { echo "$g"; return 1; }
	done
}

@test "show_stacks at A, B, C as a series: each origin's pages in each file, and its growth, as counted apart" {
	local f
	for f in A B C; do
		python3 "$TOP/tests/tools/ref_pageowner.py" "$BOOT/page_owner_stacks-$f.txt" \
			"$TOP/data/allocators.txt" "$TOP/data/wrappers.txt" > want-$f
	done
	"$TA" -q -f "$BOOT/page_owner_stacks-A.txt" "$BOOT/page_owner_stacks-B.txt" \
		"$BOOT/page_owner_stacks-C.txt" --growth g.csv --format csv
	python3 - g.csv g.series.csv want-A want-B want-C <<'PY'
import csv, sys
want = []
for path in sys.argv[3:]:
    pages = {}
    for line in open(path):
        f = line.split()
        if f[0] == "origin":
            pages[f[1]] = int(f[2])
    want.append(pages)
names = set().union(*want)
series = {}
for r in csv.DictReader(open(sys.argv[2])):
    series[(r["key"], int(r["file_no"]))] = int(r["pages"])
assert {k for k, _ in series} == names, names ^ {k for k, _ in series}
for name in names:
    for i, w in enumerate(want):
        assert series[(name, i + 1)] == w.get(name, 0), (name, i)
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == len(names)
grew = [int(r["grew_pages"]) for r in rows]
assert grew == sorted(grew, reverse=True)
for r in rows:
    p = [w.get(r["key"], 0) for w in want]
    assert int(r["pages_first"]) == p[0] and int(r["pages_last"]) == p[-1], r
    assert int(r["grew_pages"]) == p[-1] - p[0] and int(r["peak_pages"]) == max(p), r
    assert int(r["peak_at"]) == p.index(max(p)) + 1, r
PY
	"$TA" -q -f "$BOOT/page_owner_stacks-A.txt" "$BOOT/page_owner_stacks-C.txt" --group-by module \
		--growth m.json --format json
	python3 -c "import json,jsonschema,sys; jsonschema.validate(json.load(open('m.json')), json.load(open(sys.argv[1])))" \
		"$TOP/data/schema/page_owner_growth.schema.json"
	[ "$(jq -c '[.growth[] | [.key, .pages_first, .pages_last]][0]' m.json)" = "[\"vmlinux\",27976,55749]" ]
	# the shmem files of workload b grew most: 2,104 pages at A, 28,653 at C
	[ "$(sed -n 2p g.csv | cut -d, -f2-5)" = "shmem_get_folio_gfp,2104,28653,26549" ]
	# a file given twice, or another kind after page_owner's, is no series
	run "$TA" -f "$BOOT/page_owner_stacks-A.txt" "$BOOT/page_owner_stacks-A.txt" --growth -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$BOOT/page_owner_stacks-A.txt' is given twice: a series is of page_owner files taken one after another" ]
	run "$TA" -f "$BOOT/page_owner_stacks-A.txt" "$BOOT/allocinfo-B.txt" --growth -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$BOOT/allocinfo-B.txt' is no page_owner file: a series after '$BOOT/page_owner_stacks-A.txt' is of page_owner dumps or show_stacks files, in time order" ]
}

@test "show_stacks at A and C as 6.19's show_handles, named by one show_stacks_handles: the same series and growth" {
	cp "$BOOT/page_owner_stacks-A.txt" A.txt
	cp "$BOOT/page_owner_stacks-C.txt" C.txt
	awk -v map=map.txt -f "$TOP/tests/tools/stacks_to_handles.awk" A.txt C.txt
	"$TA" -q -f A.txt C.txt --growth s.csv --format csv
	run --separate-stderr "$TA" -f A.txt.handles C.txt.handles --stack-handles map.txt \
		--growth h.csv --format csv
	[ "$status" -eq 0 ]
	[[ "${stderr_lines[0]}" == "trace_analyze: 'C.txt.handles' is page_owner's show_handles: "*"; the last of a series" ]]
	cmp s.csv h.csv
	cmp s.series.csv h.series.csv
	[ "$(sed -n 2p h.csv | cut -d, -f1-4)" = "$(sed -n 2p s.csv | cut -d, -f1-4)" ]
}
