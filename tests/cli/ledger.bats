#!/usr/bin/env bats
# --ledger: where a machine's memory went, from a kernel snapshot folder (a
# 6.12 guest's meminfo, slabinfo, vmallocinfo and cgroup files at moment B,
# copied from ../shared/corpus/linux-6.12-ledger) or one /proc/meminfo. Every
# line equals the sum of its meminfo fields as tests/tools/ref_ledger.py adds
# them, knowing nothing of the tool; the refusals name what is wrong.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	SNAP="$FIX/ksnapshot-6.12-B"
	cd "$BATS_TEST_TMPDIR"
}

@test "--ledger of a 6.12 snapshot: MemTotal split into its lines, each its fields' sum" {
	run --separate-stderr "$TA" -f "$SNAP" --ledger - --top 3
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "where MemTotal went (bytes)" ]
	# the kernel's lines: SUnreclaim 22412 kB, and vmalloc without the thread stacks that
	# vmallocinfo shows vmalloc'd by kernel_clone: VmallocUsed 1952 - KernelStack 948 kB
	[ "${lines[10]}" = "slab unreclaimable  kernel         22949888        2.22%  meminfo: SUnreclaim" ]
	[ "${lines[11]}" = "vmalloc             kernel          1028096        0.10%  meminfo: VmallocUsed - KernelStack (vmallocinfo: the stacks are vmalloc'd)" ]
	[ "${lines[15]}" = "unexplained         unexplained   118714368       11.47%  MemTotal - every line above" ]
	[ "$stderr" = "trace_analyze: kernel snapshot '$SNAP': meminfo (40 fields), slabinfo (127 caches), vmallocinfo (173 areas), 3 cgroups" ]
	# every line, and the finer files' sums, as the reference adds them
	"$TA" -q -f "$SNAP" --ledger l.csv --format csv
	python3 "$TOP/tests/tools/ref_ledger.py" "$SNAP" > ref.txt
	[ "$(python3 -c 'import csv, sys; [print(r["line"], r["bytes"]) for r in csv.DictReader(open(sys.argv[1]))]' l.csv)" = "$(head -n 13 ref.txt)" ]
	[ "$(grep '^slab_totals,slab_bytes,' l.totals.csv | cut -d, -f3)" = "$(awk '$1 == "slab_bytes" { print $2 }' ref.txt)" ]
	[ "$(grep '^vmalloc_totals,vmalloc_page_bytes,' l.totals.csv | cut -d, -f3)" = "$(awk '$1 == "vmalloc_page_bytes" { print $2 }' ref.txt)" ]
	[ "$(grep '^cgroup_gap,not_charged_bytes,' l.cgroup_gap.csv | cut -d, -f3)" = "$(awk '$1 == "not_charged_bytes" { print $2 }' ref.txt)" ]
}

@test "--ledger's cgroups: each group's memory.stat and memory.current, the root first" {
	"$TA" -q -f "$SNAP" --ledger c.json --format json
	[ "$(jq -r '.cgroups[] | [.cgroup, .current, .kernel, .slab_reclaimable] | @tsv' c.json)" = "$(printf '/\t\t4956160\t3408664\n/a\t16871424\t3350528\t3265056\n/b\t5419008\t1605632\t143608')" ]
	python3 "$TOP/tests/tools/check_consumers.py" json c.json
}

@test "--ledger of one /proc/meminfo, from a file or a pipe: the lines it gives, stacks not told apart" {
	"$TA" -q -f "$SNAP/meminfo" --ledger file.txt
	"$TA" -q -f - --ledger pipe.txt < "$SNAP/meminfo"
	diff_or_fail file.txt pipe.txt
	grep -q "VmallocUsed (with CONFIG_VMAP_STACK the stacks too: no vmallocinfo to tell)" file.txt
	gzip -c "$SNAP/meminfo" > meminfo.gz
	"$TA" -q -f meminfo.gz --ledger gz.txt
	diff_or_fail file.txt gz.txt
}

@test "a kernel snapshot gives --ledger only; --ledger needs one; broken files are named by line" {
	run "$TA" -f "$SNAP" -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$SNAP' is a kernel snapshot: -c needs a kmem log's events or allocinfo (a kernel snapshot gives --ledger)" ]
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --ledger -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --ledger needs a kernel snapshot: -f DIR (a folder with meminfo, as 'trace_analyze snapshot' writes it) or -f /proc/meminfo" ]
	run "$TA" -f "$SNAP" --ledger - --comm bash
	[ "$status" -eq 2 ]
	cp -r "$SNAP" bad
	sed -i '3s/.*/garbage line/' bad/slabinfo
	run "$TA" -f bad --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad/slabinfo' line 3 is not a slabinfo 2.1 row" ]
	cp "$SNAP/slabinfo" bad/slabinfo
	sed -i '1s/2.1/1.1/' bad/slabinfo
	run "$TA" -f bad --ledger -
	[ "$output" = "trace_analyze: error: 'bad/slabinfo' is slabinfo - version: 1.1: this build reads slabinfo version 2.1" ]
	cp "$SNAP/slabinfo" bad/slabinfo
	cp "$FIX/trace-pipe-6.18.log" bad/vmallocinfo
	run "$TA" -f bad --ledger -
	[ "$output" = "trace_analyze: error: 'bad/vmallocinfo' is not /proc/vmallocinfo (its first line is not)" ]
	cp "$SNAP/vmallocinfo" bad/vmallocinfo
	head -c 300 "$SNAP/meminfo" > bad/meminfo
	run "$TA" -f bad --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad/meminfo' is cut: its last line has no newline" ]
}

@test "vmallocinfo's flags after the kind (vpages, user) keep an area vmalloc; a meminfo without a line's field says so" {
	# constructed: two areas as a 6.18 kernel prints them, the second with its flags
	cp -r "$SNAP" s
	printf '%s\n' '0x000000001234abcd-0x00000000aaaabbbb   16384 kernel_clone+0x9b/0x3c0 pages=4 vmalloc' \
		'0x00000000aaaabbbb-0x00000000ffff0000 2105344 htab_map_alloc+0x1e/0x90 pages=513 vmalloc vpages user' > s/vmallocinfo
	"$TA" -q -f s --ledger v.json --format json
	[ "$(jq -c '[.vmalloc_callers[] | [.caller, .kind, .pages]]' v.json)" = '[["htab_map_alloc","vmalloc",513],["kernel_clone","vmalloc",4]]' ]
	[ "$(jq .vmalloc_totals.vmalloc_page_bytes v.json)" = $((517 * 4096)) ]
	# a meminfo of an old kernel, without Percpu: the line is absent, and said to be
	grep -v '^Percpu:' "$SNAP/meminfo" > s/meminfo
	run --separate-stderr "$TA" -f s --ledger -
	[ "$status" -eq 0 ]
	[[ "$output" == *"meminfo lacks (their memory is in unexplained): Percpu"* ]]
	! grep -q '^percpu ' <<< "$output"
}

@test "what a kernel snapshot cannot take is refused from a pipe too, and diff refuses one" {
	run "$TA" -f - --ledger - --save-db x.db < "$SNAP/meminfo"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'standard input' is a kernel snapshot: it has no events or sites to filter, group or place (--comm, --pid, --gfp, --module, --time, --group-by, -k, -b), save (--save-db) or put beside (--allocinfo)" ]
	[ ! -e x.db ]
	run "$TA" diff "$SNAP" "$SNAP"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$SNAP' is a kernel snapshot: diff compares kmem logs, DBs and allocinfo snapshots (a kernel snapshot gives --ledger)" ]
	run "$TA" -f nonexistent --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open 'nonexistent': No such file or directory" ]
	printf 'slabinfo - version: 2.1\n# name\nbad -5 1 64 1 1 : tunables 0 0 0 : slabdata 1 1 0\n' > neg
	mkdir n && cp "$SNAP/meminfo" n/ && cp neg n/slabinfo
	run "$TA" -f n --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'n/slabinfo' line 3 is not a slabinfo 2.1 row of a machine (a count below zero or past 2^33)" ]
}
