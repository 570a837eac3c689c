#!/usr/bin/env bats
# page_owner's files as inputs: the full dump (/sys/kernel/debug/page_owner)
# and show_stacks (page_owner_stacks), excerpts of the 6.12 guest's at moment
# C (tests/fixtures/page_owner-6.12), read as the page allocations they
# hold. The pages per origin, order and migratetype equal
# tests/tools/ref_pageowner.py's count, which reads the files by itself; the
# flame graph, pprof and folded stacks draw the pages; cut and garbled
# records are named by line.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	PO="$FIX/page_owner-6.12"
	cd "$BATS_TEST_TMPDIR"
}

# csv_rows FILE: "key value" of a --page CSV's origins (key, pages)
origin_rows() {
	python3 -c 'import csv, sys; [print("origin", r["key"], r["pages"]) for r in csv.DictReader(open(sys.argv[1]))]' "$1"
}

@test "page_owner's dump: its page blocks by origin, order and migratetype, as counted apart" {
	run --separate-stderr "$TA" -f "$PO/dump.txt" --page p.csv --format csv
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "trace_analyze: '$PO/dump.txt' is page_owner's dump: 650 page blocks, 777 base pages held" ]
	python3 "$TOP/tests/tools/ref_pageowner.py" "$PO/dump.txt" "$TOP/data/allocators.txt" "$TOP/data/wrappers.txt" > want
	[ "$(origin_rows p.origins.csv)" = "$(grep '^origin ' want)" ]
	# every block held: the totals, and the order x migratetype table
	[ "$(grep '^totals,live_requests,' p.totals.csv | cut -d, -f3)" = "$(grep -c '^Page allocated' "$PO/dump.txt")" ]
	[ "$(grep '^totals,live_kb,' p.totals.csv | cut -d, -f3)" = $(( $(grep '^pages ' want | cut -d' ' -f2) * 4 )) ]
	python3 - p.csv want <<'PY'
import csv, sys
names = ["unmovable", "movable", "reclaimable", "highatomic", "cma", "isolate"]
want = {}
for l in open(sys.argv[2]):
    f = l.split()
    if f[0] == "order":
        want[(int(f[1]), f[2].lower())] = int(f[3])
got = {}
for r in csv.DictReader(open(sys.argv[1])):
    for n in names:
        if int(r[n]):
            got[(int(r["key"]), n)] = int(r[n])
assert got == want, (got, want)
PY
}

@test "page_owner's show_stacks: pages per stack, each stack's origin, from a file, compressed or a pipe" {
	"$TA" -q -f "$PO/stacks.txt" --page p.csv --format csv
	python3 "$TOP/tests/tools/ref_pageowner.py" "$PO/stacks.txt" "$TOP/data/allocators.txt" "$TOP/data/wrappers.txt" > want
	[ "$(origin_rows p.origins.csv)" = "$(grep '^origin ' want)" ]
	[ "$(grep '^pages ' want)" = "pages $(awk -F': ' '/^nr_base_pages/ { s += $2 } END { print s }' "$PO/stacks.txt")" ]
	xz -c "$PO/stacks.txt" > s.xz
	"$TA" -q -f s.xz --page xz.csv --format csv
	"$TA" -q -f - --page pipe.csv --format csv < "$PO/stacks.txt"
	cmp p.origins.csv xz.origins.csv
	cmp p.origins.csv pipe.origins.csv
}

@test "a show_stacks stack of 2^30 pages (a 4 TB host's page cache) is read as its count's bits; past 2^40 refused" {
	# its first stack's 1 page made 2^30: 2^30 + 528 pages, as many allocations, all live
	awk '/^nr_base_pages:/ && !d { print "nr_base_pages: 1073741824"; d = 1; next } { print }' "$PO/stacks.txt" > big.txt
	rss=$(python3 -c 'import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
		"$TA" -q -f big.txt --page b.csv --folded-pages b.folded --format csv)
	[ "$(grep -E '^totals,(alloc_requests|alloc_kb|live_requests|live_kb),' b.totals.csv | cut -d, -f3 | tr '\n' ' ')" = "$((1073741824 + 528)) $(((1073741824 + 528) * 4)) $((1073741824 + 528)) $(((1073741824 + 528) * 4)) " ]
	[ "$(python3 -c 'import sys; print(sum(int(l.split()[-1]) for l in open(sys.argv[1])))' b.folded)" = $(((1073741824 + 528) * 4096)) ]
	# a page each would be 2^30 live entries (tens of GB): the bits of the count take a few MB
	[[ "$TA" == */san/* ]] || [ "$rss" -lt 65536 ]
	awk '/^nr_base_pages:/ && !d { print "nr_base_pages: 1099511627776"; d = 1; next } { print }' "$PO/stacks.txt" > huge.txt
	run "$TA" -q -f huge.txt --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'huge.txt' line 33 is not a stack's page count within a machine's pages (all stacks' past 2^40)" ]
	# a trace's pfn where those blocks are numbered is no machine's: the line is malformed
	printf '%s\n' '       bash-1  [000] .....   1.000001: mm_page_alloc: page=00000000a1b2c3d4 pfn=0x10000000000000 order=0 migratetype=0 gfp_flags=GFP_KERNEL' \
		'       bash-1  [000] .....   1.000002: mm_page_alloc: page=00000000a1b2c3d5 pfn=0x1000 order=0 migratetype=0 gfp_flags=GFP_KERNEL' > t.log
	"$TA" -q -f t.log --page p.csv --format csv
	[ "$(grep '^totals,alloc_requests,' p.totals.csv | cut -d, -f3)" = 1 ]
}

@test "page_owner's pages drawn: folded stacks, a flame graph, a pprof of inuse_space in bytes" {
	"$TA" -q -f "$PO/dump.txt" --folded-pages f.txt --flame f.svg --pprof p.pb.gz
	# folded: each line "frame;frame weight", weights the bytes of the pages held
	[ "$(awk '{ s += $NF } END { print s }' f.txt)" = $(( 777 * 4096 )) ]
	grep -q '^[^ ]*;__rb_allocate_pages [0-9]*$' f.txt
	[ -s f.svg ]
	if command -v go > /dev/null; then
		go tool pprof -raw p.pb.gz > raw.txt 2>&1
		grep -q 'inuse_space/bytes' raw.txt
		[ "$(go tool pprof -top -sample_index=inuse_space p.pb.gz 2>/dev/null | sed -n 's/.*Total samples = \([0-9.]*\)kB.*/\1/p')" = $(( 777 * 4 )) ]
	fi
}

@test "cut and garbled page_owner records are named by line; a healthy dump is never refused" {
	head -n 5 "$PO/dump.txt" | head -c -1 > cut
	run "$TA" -f cut --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'cut' is cut: its last line has no newline" ]
	head -n 1 "$PO/dump.txt" > nopfn
	run "$TA" -f nopfn --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'nopfn' is cut: its last record has no PFN line" ]
	{ head -n 1 "$PO/dump.txt"; echo 'not a pfn line'; } > badpfn
	run "$TA" -f badpfn --page -
	[ "$output" = "trace_analyze: error: 'badpfn' line 2 is not a page_owner record's PFN line" ]
	{ sed -n 1,4p "$PO/dump.txt"; sed -n 1,4p "$PO/dump.txt"; } > noblank
	run "$TA" -f noblank --page -
	[ "$output" = "trace_analyze: error: 'noblank' line 5 is not the blank line that ends a record (a record's first line came before it)" ]
	{ echo 'Page allocated via order 99, mask 0x0(), pid 0, tgid 0 (swapper), ts 1 ns'; } > badorder
	run "$TA" -f badorder --page -
	[ "$output" = "trace_analyze: error: 'badorder' line 1 is not a page_owner record's first line (Page allocated via order O, mask 0xM(FLAGS), pid P, tgid T (COMM), ts NS ns)" ]
	# show_stacks: a stack without its count, a count without its stack
	head -n 3 "$PO/stacks.txt" > nocount
	run "$TA" -f nocount --page -
	[ "$output" = "trace_analyze: error: 'nocount' is cut: its last record has no page count" ]
	{ head -n 2 "$PO/stacks.txt"; echo 'nr_base_pages: x'; } > badcount
	run "$TA" -f badcount --page -
	[ "$output" = "trace_analyze: error: 'badcount' line 3 is not a stack's page count (nr_base_pages: N)" ]
}

@test "--page-owner beside a trace: its live pages found by pfn, the dump's others counted apart" {
	# constructed: a trace of three pages, two of them (pfns 0x100, 0x101) in the dump,
	# allocated there at 0.208 s, before this trace's 10 s: freed and allocated again; the
	# dump holds 644 other blocks allocated before it, 4 after it (awk: ts past 10e9 ns)
	{
		echo '# tracer: nop'
		echo '            bash-1     [000] .....    10.000000: mm_page_alloc: page=00000000deadbeef pfn=0x100 order=0 migratetype=0 gfp_flags=GFP_KERNEL'
		echo '            bash-1     [000] .....    10.000100: mm_page_alloc: page=00000000deadbef0 pfn=0x101 order=0 migratetype=0 gfp_flags=GFP_KERNEL'
		echo '            bash-1     [000] .....    10.000200: mm_page_alloc: page=00000000deadbef1 pfn=0x9999999 order=0 migratetype=0 gfp_flags=GFP_KERNEL'
	} > t.log
	"$TA" -q -f t.log --page-owner "$PO/dump.txt" --page p.json --format json
	[ "$(awk '/^Page allocated/ && $(NF - 1) > 10000000000' "$PO/dump.txt" | wc -l)" = 4 ]
	[ "$(jq -c '.page_owner | [.trace_live, .in_dump, .same_allocation, .allocated_again, .not_in_dump, .before_trace, .after_trace]' p.json)" = "[3,2,0,2,1,644,4]" ]
	python3 "$TOP/tests/tools/check_consumers.py" json p.json
	# what it needs: --page; a dump, not show_stacks (no pfn)
	run "$TA" -f t.log --page-owner "$PO/dump.txt" -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --page-owner adds page_owner's pages to the page report: give --page FILE" ]
	run "$TA" -f t.log --page-owner "$PO/stacks.txt" --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: '$PO/stacks.txt' is page_owner's show_stacks: --page-owner matches pages by pfn, which only the dump (/sys/kernel/debug/page_owner) has" ]
}

@test "a dump's blocks of no gfp flag are counted under their mask; a stackless last record is cut; a dump beside itself refused" {
	"$TA" -q -f "$PO/dump.txt" --page p.csv --format csv
	[ "$(grep '^gfp_flags,0x0,' p.gfp.csv | cut -d, -f3)" = "$(grep -c 'mask 0x0()' "$PO/dump.txt")" ]
	[ "$(tail -n +2 p.gfp.csv | awk -F, '{ s += $3 } END { print s }')" = "$(grep -c '^Page allocated' "$PO/dump.txt")" ]
	head -n 2 "$PO/dump.txt" > nostack
	run "$TA" -f nostack --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'nostack' is cut: its last record has no stack" ]
	run "$TA" -f "$PO/dump.txt" --page-owner "$PO/dump.txt" --page -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$PO/dump.txt' is page_owner's file: --page-owner goes beside a kmem trace of the same boot" ]
}

# rows_of CSV WORD: "WORD key pages" of a --page CSV's rows table
rows_of() {
	python3 -c 'import csv, sys; [print(sys.argv[2], r["key"], r["pages"]) for r in csv.DictReader(open(sys.argv[1]))]' "$1" "$2"
}

@test "page_owner's dump by task name, task and module of the origin: as counted apart" {
	python3 "$TOP/tests/tools/ref_pageowner.py" "$PO/dump.txt" "$TOP/data/allocators.txt" "$TOP/data/wrappers.txt" > want
	for g in comm pid module; do
		"$TA" -q -f "$PO/dump.txt" --page $g.csv --format csv --group-by $g
		[ "$(rows_of $g.rows.csv $g)" = "$(grep "^$g " want)" ] || { echo "$g"; return 1; }
	done
	# the table says what a row is; by origin it stays the origins table
	"$TA" -q -f "$PO/dump.txt" --page - --group-by comm | grep -qx 'page allocations by task name'
	"$TA" -q -f "$PO/dump.txt" --page o.csv --format csv --group-by origin
	[ -s o.origins.csv ] && [ ! -e o.rows.csv ]
}

@test "a log's page stacks by module: a frame's [module] is kept, its name stays the function's" {
	cat > mod.log <<'LOG'
# tracer: nop
#
          insmod-210     [000] .....    10.000000: mm_page_alloc: page=0xffffea0000100000 pfn=0x4000 order=1 migratetype=0 gfp_flags=GFP_KERNEL
          insmod-210     [000] .....    10.000001: <stack trace>
 => __alloc_pages_noprof+0x108/0x1ba
 => loop_add+0x29d/0x31b [loop]
 => loop_init+0x10/0x20 [loop]
 => do_one_initcall+0x4e/0x1c0
            bash-100     [001] .....    10.000100: mm_page_alloc: page=0xffffea0000100080 pfn=0x4002 order=0 migratetype=1 gfp_flags=GFP_KERNEL
            bash-100     [001] .....    10.000101: <stack trace>
 => __alloc_pages_noprof+0x108/0x1ba
 => pipe_write+0x1b2/0x6f0
 => vfs_write+0x2a1/0x3f0
            bash-100     [001] .....    10.000200: mm_page_free: page=0xffffea0000100080 pfn=0x4002 order=0
LOG
	run "$TA" -q -f mod.log --page - --group-by module
	[ "$status" -eq 0 ]
	[ "${lines[-4]}" = "module   allocations  pages  KB  still held" ]
	[ "${lines[-2]}" = "loop               1      2   8           2" ]
	[ "${lines[-1]}" = "vmlinux            1      1   4           0" ]
	run "$TA" -q -f mod.log --folded-pages -
	[ "${lines[0]}" = "do_one_initcall;loop_init;loop_add 8192" ]
	run "$TA" -q -f mod.log --page - --group-by pid
	[ "${lines[-2]}" = "insmod-210            1      2   8           2" ]
	# a log whose frames name no module says nothing of theirs: not vmlinux, unknown
	sed 's/ \[loop\]$//' mod.log > bare.log
	run "$TA" -q -f bare.log --page - --group-by module
	[ "${lines[-1]}" = "(unknown)            2      3  12           2" ]
}

@test "--page-owner beside a trace with page stacks: each same allocation's origin set against the dump's" {
	cat > t.log <<'LOG'
# tracer: nop
#
          insmod-210     [000] .....    10.000000: mm_page_alloc: page=0xffffea0000100000 pfn=0x4000 order=1 migratetype=0 gfp_flags=GFP_KERNEL
          insmod-210     [000] .....    10.000001: <stack trace>
 => __alloc_pages_noprof+0x108/0x1ba
 => loop_add+0x29d/0x31b [loop]
 => loop_init+0x10/0x20 [loop]
            bash-100     [001] .....    10.000100: mm_page_alloc: page=0xffffea0000100080 pfn=0x4002 order=0 migratetype=1 gfp_flags=GFP_KERNEL
            bash-100     [001] .....    10.000101: <stack trace>
 => __alloc_pages_noprof+0x108/0x1ba
 => pipe_write+0x1b2/0x6f0
 => vfs_write+0x2a1/0x3f0
            bash-100     [001] .....    10.000200: mm_page_alloc: page=0xffffea0000100100 pfn=0x4004 order=0 migratetype=1 gfp_flags=GFP_KERNEL
            bash-100     [001] .....    11.000000: mm_page_alloc: page=0xffffea0000100140 pfn=0x4005 order=0 migratetype=1 gfp_flags=GFP_KERNEL
LOG
	# the dump: pfn 0x4000 by the same origin, 0x4002 by another, 0x4004 (no stack in the trace)
	block() {
		printf 'Page allocated via order %s, mask 0xcc0(GFP_KERNEL), pid 100, tgid 100 (bash), ts %s ns\n' "$1" "$2"
		printf 'PFN %s type Movable Block 8 type Movable Flags 0x0(zone=1)\n' "$3"
		printf ' post_alloc_hook+0x6d/0xbc\n get_page_from_freelist+0x59b/0x6f7\n __alloc_pages_noprof+0x108/0x1ba\n %s\n\n' "$4"
	}
	{ block 1 10000000000 0x4000 'loop_add+0x29d/0x31b [loop]'
	  block 0 10000100000 0x4002 'shmem_alloc_folio+0x20/0x40'
	  block 0 10000200000 0x4004 'pipe_write+0x1b2/0x6f0'; } > dump.txt
	"$TA" -q -f t.log --page-owner dump.txt --page p.json --format json
	[ "$(jq -c '.page_owner | [.trace_live, .in_dump, .same_allocation, .same_with_stack, .same_origin, .other_origin]' p.json)" = "[4,3,3,2,1,1]" ]
	[ "$(jq -c '[.page_owner_origins[] | [.origin, .pages]]' p.json)" = '[["loop_add",2],["pipe_write",1],["shmem_alloc_folio",1]]' ]
	python3 -c "import json,jsonschema,sys; jsonschema.validate(json.load(open('p.json')), json.load(open(sys.argv[1])))" \
		"$TOP/data/schema/page.schema.json"
	run "$TA" -q -f t.log --page-owner dump.txt --page -
	[[ "$output" == *"  whose origin (the stack's top past the allocators) is the dump's: 1"* ]]
}

@test "6.19's show_handles named by show_stacks_handles: the same pages as show_stacks; each file alone says what to give" {
	cp "$PO/stacks.txt" stacks.txt
	awk -v map=map.txt -f "$TOP/tests/tools/stacks_to_handles.awk" stacks.txt
	[ "$(head -2 stacks.txt.handles)" = "$(printf 'handle: 4136\nnr_base_pages: 1')" ]
	"$TA" -q -f stacks.txt --page s.csv --folded-pages s.folded --format csv
	run --separate-stderr "$TA" -f stacks.txt.handles --stack-handles map.txt --page h.csv \
		--folded-pages h.folded --format csv
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "trace_analyze: 'stacks.txt.handles' is page_owner's show_handles: 150 stacks, 529 base pages held (each stack's count handed on as power-of-two blocks; no pfn, order, task or time)" ]
	for t in "" .origins .totals .gfp .other; do cmp s$t.csv h$t.csv; done
	cmp s.folded h.folded
	# show_handles alone: its stacks unnamed; show_stacks_handles alone: no count
	run "$TA" -q -f stacks.txt.handles --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'stacks.txt.handles' is page_owner's show_handles: its pages are counted by stack handle; name the stacks with --stack-handles FILE (show_stacks_handles of the same boot)" ]
	run "$TA" -q -f map.txt --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'map.txt' is page_owner's show_stacks_handles: it names each stack's handle but counts no page; give it with --stack-handles, beside show_handles files (or read show_stacks)" ]
	run "$TA" -q -f stacks.txt.handles --stack-handles stacks.txt --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'stacks.txt' line 17 counts pages: --stack-handles takes show_stacks_handles (stacks and their handles)" ]
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" --stack-handles map.txt -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --stack-handles names the stacks of page_owner's show_handles: give them with -f" ]
}

@test "a handle show_stacks_handles does not name is a row of its own; a handle given twice in a record, or two stacks for one, refused" {
	cp "$PO/stacks.txt" stacks.txt
	awk -v map=map.txt -f "$TOP/tests/tools/stacks_to_handles.awk" stacks.txt
	printf 'handle: 7\nnr_base_pages: 3\n\n' >> stacks.txt.handles
	run --separate-stderr "$TA" -f stacks.txt.handles --stack-handles map.txt --page p.csv --format csv
	[ "$status" -eq 0 ]
	[ "${stderr_lines[1]}" = "trace_analyze: note: 1 of show_handles' stacks are not in 'map.txt' (allocated since it was read?): each is shown as (handle H)" ]
	grep -qx 'origin,(handle 7),3,3,12,3' p.origins.csv
	printf 'handle: 9\nhandle: 9\nnr_base_pages: 1\n\n' > twice.txt
	run "$TA" -q -f twice.txt --stack-handles map.txt --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'twice.txt' line 2 is not a stack's one handle (handle: H)" ]
	{ head -18 map.txt; sed -n 2,16p map.txt; echo 'handle: 4136'; echo; } > two.txt
	run "$TA" -q -f stacks.txt.handles --stack-handles two.txt --page -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'two.txt' gives handle 4136 two stacks" ]
}
