#!/usr/bin/env bats
# --ledger on the 6.12 guest of ../shared/corpus/linux-6.12-ledger at its
# three moments A, B, C: each folder laid out as /proc and /sys/fs/cgroup
# name the files, every ledger line equal to its meminfo fields summed by
# tests/tools/ref_ledger.py, the cgroup table equal to the files' values.

load ../lib/helpers

setup() {
	require_corpus
	BOOT="$CORPUS/linux-6.12-ledger/boot1"
	[ -d "$BOOT" ] || skip "no linux-6.12-ledger in the corpus"
	cd "$BATS_TEST_TMPDIR"
}

# folder AT: the moment AT's files as a snapshot folder ./AT
folder() {
	mkdir -p "$1/cgroup/a" "$1/cgroup/b"
	cp "$BOOT/meminfo-$1.txt" "$1/meminfo"
	cp "$BOOT/slabinfo-$1.txt" "$1/slabinfo"
	cp "$BOOT/vmallocinfo-$1.txt" "$1/vmallocinfo"
	for f in allocinfo vmstat zoneinfo buddyinfo modules; do
		cp "$BOOT/$f-$1.txt" "$1/$f"
	done
	cp "$BOOT/cgroup-root-memory.stat-$1.txt" "$1/cgroup/memory.stat"
	for g in a b; do
		cp "$BOOT/cgroup-$g-memory.stat-$1.txt" "$1/cgroup/$g/memory.stat"
		cp "$BOOT/cgroup-$g-memory.current-$1.txt" "$1/cgroup/$g/memory.current"
	done
}

@test "the ledger at A, B and C: every line its fields' sum, the finer files' sums, the gap to the cgroups" {
	for at in A B C; do
		folder $at
		"$TA" -q -f $at --ledger $at.csv --format csv
		python3 "$TOP/tests/tools/ref_ledger.py" $at > $at.ref
		got=$(python3 -c 'import csv, sys; [print(r["line"], r["bytes"]) for r in csv.DictReader(open(sys.argv[1]))]' $at.csv)
		want=$(grep -vE '^(slab_bytes|vmalloc_page_bytes|not_charged_bytes|present_bytes|reserved_bytes|buddy_bytes|module_bytes|allocinfo_bytes|allocinfo_top|overlap_bytes|other_top) ' $at.ref)
		[ "$got" = "$want" ] || { echo "$at: $got"; return 1; }
		for k in slab_bytes vmalloc_page_bytes; do
			[ "$(grep ",$k," $at.totals.csv | cut -d, -f3)" = "$(awk -v k=$k '$1 == k { print $2 }' $at.ref)" ]
		done
		[ "$(grep ',not_charged_bytes,' $at.values.csv | cut -d, -f3)" = "$(awk '$1 == "not_charged_bytes" { print $2 }' $at.ref)" ]
		# what MemTotal leaves out, the free blocks, the modules, allocinfo's sum and top site
		for k in present_bytes reserved_bytes module_bytes; do
			[ "$(grep ",$k," $at.values.csv | cut -d, -f3)" = "$(awk -v k=$k '$1 == k { print $2 }' $at.ref)" ]
		done
		[ "$(grep ',buddy_bytes,' $at.totals.csv | cut -d, -f3)" = "$(awk '$1 == "buddy_bytes" { print $2 }' $at.ref)" ]
		[ "$(grep '^allocinfo_totals,bytes,' $at.totals.csv | cut -d, -f3)" = "$(awk '$1 == "allocinfo_bytes" { print $2 }' $at.ref)" ]
		[ "$(sed -n 2p $at.allocinfo_sites.csv | cut -d, -f1,4)" = "$(awk '$1 == "allocinfo_top" { print $2 "," $3 }' $at.ref)" ]
		# the other pages: their largest site, and the bound on what another line counts too
		[ "$(sed -n 2p $at.other_pages.csv | cut -d, -f1,4)" = "$(awk '$1 == "other_top" { print $2 "," $3 }' $at.ref)" ]
		[ "$(grep '^other_pages_bound,at_most_bytes,' $at.values.csv | cut -d, -f3)" = "$(awk '$1 == "overlap_bytes" { print $2 }' $at.ref)" ]
	done
	# that guest's trace ring buffer (2 CPUs of 40000 kB) is the other pages' largest site, and
	# with the free pages on the CPUs' lists what nothing explains is below 0.25% of MemTotal
	[ "$(sed -n 2p C.other_pages.csv | cut -d, -f1,2)" = "kernel/trace/ring_buffer.c:2207,__rb_allocate_pages" ]
	# the man page's figures for A: 24 sites, their sum, the bound, the CPUs' free pages, what is left
	[ "$(tail -n +2 A.other_pages.csv | wc -l)" -eq 24 ]
	[ "$(grep -E '^(free on CPU lists|other pages|unexplained),' A.csv | cut -d, -f3 | tr '\n' ' ')" = "11808768 107204608 2072576 " ]
	[ "$(grep '^other_pages_bound,at_most_bytes,' A.values.csv | cut -d, -f3)" = 1410048 ]
	grep -q '^1,410,048 of those may be on another line too. 2,072,576 bytes (0.2%) stay$' "$TOP/man/trace_analyze.1"
	for at in A B C; do
		u=$(grep '^unexplained,' $at.csv | cut -d, -f3)
		[ "$u" -ge 0 ] && [ "$u" -lt $((1010532 * 1024 / 400)) ] || { echo "$at: unexplained $u"; return 1; }
	done
	# the 1 GiB guest's pages: 262014 present, MemTotal 1010532 kB, the rest reserved at boot
	[ "$(grep -h ',reserved_bytes,' A.values.csv B.values.csv C.values.csv | cut -d, -f3 | tr '\n' ' ')" = "$(( (262014 * 4 - 1010532) * 1024 )) $(( (262014 * 4 - 1010532) * 1024 )) $(( (262014 * 4 - 1010532) * 1024 )) " ]
	# the series: each line at A, B and C is the line of each snapshot alone
	"$TA" -q -f A B C --ledger abc.csv --format csv
	for at in A B C; do
		k=$(( $(printf 'A\nB\nC' | grep -n "^$at\$" | cut -d: -f1) ))
		[ "$(python3 -c 'import csv, sys; [print(r["line"], r["bytes_" + sys.argv[2]]) for r in csv.DictReader(open(sys.argv[1]))]' abc.csv $k)" = "$(python3 -c 'import csv, sys; [print(r["line"], r["bytes"]) for r in csv.DictReader(open(sys.argv[1]))]' $at.csv)" ]
	done
	# the corpus README's figures: MemTotal and SUnreclaim at A, B, C (kB)
	[ "$(grep -h '^MemTotal,' A.csv B.csv C.csv | cut -d, -f3 | tr '\n' ' ')" = "$((1010532 * 1024)) $((1010532 * 1024)) $((1010532 * 1024)) " ]
	[ "$(grep -h '^slab unreclaimable,' A.csv B.csv C.csv | cut -d, -f3 | tr '\n' ' ')" = "$((15068 * 1024)) $((22412 * 1024)) $((19512 * 1024)) " ]
}

@test "the cgroup table is the files: each group's memory.current and kernel keys, at B" {
	folder B
	"$TA" -q -f B --ledger b.json --format json
	for g in a b; do
		[ "$(jq -r --arg g "/$g" '.cgroups[] | select(.cgroup == $g) | .current' b.json)" = "$(cat "$BOOT/cgroup-$g-memory.current-B.txt")" ]
		for k in kernel slab slab_reclaimable slab_unreclaimable sock vmalloc percpu kernel_stack pagetables; do
			[ "$(jq -r --arg g "/$g" --arg k $k '.cgroups[] | select(.cgroup == $g) | .[$k]' b.json)" = "$(awk -v k=$k '$1 == k { print $2 }' "$BOOT/cgroup-$g-memory.stat-B.txt")" ]
		done
	done
	python3 "$TOP/tests/tools/check_consumers.py" json b.json
}

@test "the ledger with the built tree (-k): its objects beside dmesg's kernel image and the modules" {
	folder B
	cp "$BOOT/dmesg.txt" B/dmesg
	"$TA" -q -f B -k "$CORPUS/linux-6.12-ledger/tree" --ledger s.json --format json
	# the objects with their source beside them (hidden files, module metadata, the
	# host's tools in scripts/ and tools/ and arch/x86/boot's setup left out), counted here
	want=$(cd "$CORPUS/linux-6.12-ledger/tree" && find . -path ./scripts -prune -o -path ./tools -prune -o \
		-path ./arch/x86/boot -prune -o -name '*.o' ! -name '.*' ! -name '*.mod.o' -print | while read -r o; do
		[ -e "${o%.o}.c" ] || [ -e "${o%.o}.S" ] && echo; done | wc -l)
	# (arch/x86/boot's: 38 objects, of which the walk keeps those vmlinux links, a few)
	got=$(jq .static.tree_objects s.json)
	[ "$got" -ge "$want" ] && [ "$got" -le $((want + 38)) ]
	[ "$(jq '.static.tree_static_bytes > 0' s.json)" = true ]
	# the boot's Memory: line of that guest
	[ "$(jq .static.boot_kernel_code s.json)" = $((8192 * 1024)) ]
	[ "$(jq .static.module_bytes s.json)" = "$(awk '{ s += $2 } END { print s }' "$BOOT/modules-B.txt")" ]
	python3 "$TOP/tests/tools/check_consumers.py" json s.json
}
