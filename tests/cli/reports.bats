#!/usr/bin/env bats
# Small stories for the reports beyond the account, on lines of real logs
# (edited where a story needs an event the corpus lacks, as marked): the
# peak of a call site, ping-pong, a double free, time going back, page
# drains and extfrag, the time window, and the usage rules.

load ../lib/helpers

line() {	# CPU TS EVENT FIELDS: one 6.1 tracefs line
	printf '            init-1       [%03d] .....     %s: %s: %s\n' "$1" "$2" "$3" "$4"
}

@test "--stats: peak live bytes, ping-pong, frag% and total_waste of one call site, sorted by -o" {
	{
		line 0 1.000000 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 1.000001 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000200 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 1 1.000002 kfree "call_site=g+0x2/0x10 ptr=ffff888000000100"
		line 0 1.000003 kfree "call_site=g+0x2/0x10 ptr=ffff888000000200"
		line 0 1.000004 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000300 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 1 1.000005 kmalloc "call_site=h+0x3/0x10 ptr=ffff888000000400 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	} > "$BATS_TEST_TMPDIR/log"
	run "$TA" -q -f "$BATS_TEST_TMPDIR/log" --stats - -o peak
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "caller  hits  bytes_alloc  alloc/hit  bytes_req  req/hit   frag%  total_waste  frees  ping-pong  net  peak" ]
	[ "${lines[2]}" = "f+0x1      3          320        106        264       88  17.50%           56      2          1   64   256" ]
	[ "${lines[3]}" = "h+0x3      1            8          8          8        8   0.00%            0      0          0    8     8" ]
	run "$TA" -q -f "$BATS_TEST_TMPDIR/log" --stats - -o hit --top 1 --format csv
	[ "${lines[0]}" = "group_by,key,hits,bytes_alloc,alloc_per_hit,bytes_req,req_per_hit,frag_pct,total_waste,frees,pingpong,current_dynamic,peak_dynamic" ]
	[ "${lines[1]}" = "callsite,f+0x1,3,320,106,264,88,17.50,56,2,1,64,256" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "--summary: a double free, a mismatched free and time going back, with their lines" {
	{
		line 0 2.000000 kmem_cache_alloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 2.000001 kfree "call_site=g+0x2/0x10 ptr=ffff888000000100"
		line 0 1.999999 kfree "call_site=g+0x2/0x10 ptr=ffff888000000100"
	} > "$BATS_TEST_TMPDIR/log"
	cd "$BATS_TEST_TMPDIR"
	run "$TA" -q -f log --summary s.csv --format csv
	[ "$status" -eq 0 ]
	grep -qx 'finding,cache_object_kfreed,1,2 (allocated at line 1),.*' s.findings.csv
	grep -qx 'finding,double_free,1,3 (freed at line 2),.*' s.findings.csv
	grep -qx 'finding,time_backwards,1,3 (previous at line 2),.*' s.findings.csv
	grep -qx 'finding,alloc_below_request,0,,.*' s.findings.csv
	grep -qx 'bytes,freed,64' s.csv
	grep -qx 'events,lost_frees,1' s.csv
}

@test "--summary: a second free the log explains (bulk, events missing) is not a double free" {
	local kc="bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	{
		# a maple node: freed, allocated in bulk (no event), freed again
		line 0 1.000000 kmem_cache_alloc "call_site=mas_alloc_nodes+0x62/0x171 ptr=ffff888000000100 $kc"
		line 0 1.000001 kmem_cache_free "call_site=mas_destroy+0xa8/0xb7 ptr=ffff888000000100 name=maple_node"
		line 0 1.000002 kmem_cache_free "call_site=mas_destroy+0xa8/0xb7 ptr=ffff888000000100 name=maple_node"
		# a kmalloc object freed before and after 20 s of silence (tracing paused)
		line 1 1.000003 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000200 $kc"
		line 1 1.000004 kfree "call_site=g+0x2/0x10 ptr=ffff888000000200"
		# one freed twice with nothing between: the only double free
		line 1 1.000005 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000300 $kc"
		line 1 1.000006 kfree "call_site=g+0x2/0x10 ptr=ffff888000000300"
		line 1 1.000007 kfree "call_site=h+0x3/0x10 ptr=ffff888000000300"
		line 0 21.000000 kfree "call_site=g+0x2/0x10 ptr=ffff888000000200"
	} > "$BATS_TEST_TMPDIR/log"
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f log --summary s.csv --format csv
	grep -qx 'finding,free_of_untraced_alloc,2,"3 (freed at line 2), 9 (freed at line 5)",.*' s.findings.csv
	grep -qx 'finding,double_free,1,8 (freed at line 7),.*' s.findings.csv
	# the text table fits 120 columns, its examples cut to the first
	"$TA" -q -f log --summary s.txt
	grep -qx 'free_of_untraced_alloc  *2  3 (freed at line 2), \.\.\.  *freed again: allocated in bulk or events missing' s.txt
	[ "$(sed -n '/^findings$/,/^$/p' s.txt | awk 'length($0) > 120' | wc -l)" -eq 0 ]
}

@test "--page: per-CPU drains and refills, extfrag events and their fragmenting share" {
	# mm_page_pcpu_drain and mm_page_alloc_extfrag are not in the corpus: lines
	# written in the kernel's format (include/trace/events/kmem.h)
	{
		line 0 3.000000 mm_page_alloc "page=00000000a1b2c3d4 pfn=0x1000 order=1 migratetype=0 gfp_flags=GFP_KERNEL"
		line 0 3.000001 mm_page_alloc_zone_locked "page=00000000a1b2c3d5 pfn=0x2000 order=0 migratetype=1 percpu_refill=1"
		line 1 3.000002 mm_page_pcpu_drain "page=00000000a1b2c3d6 pfn=0x3000 order=0 migratetype=1"
		line 1 3.000003 mm_page_pcpu_drain "page=00000000a1b2c3d7 pfn=0x3001 order=2 migratetype=1"
		line 1 3.000004 mm_page_alloc_extfrag "page=00000000a1b2c3d8 pfn=0x4000 alloc_order=0 fallback_order=9 alloc_migratetype=1 fallback_migratetype=0 fragmenting=1 change_ownership=1"
		line 1 3.000005 mm_page_alloc_extfrag "page=00000000a1b2c3d9 pfn=0x4001 alloc_order=0 fallback_order=9 alloc_migratetype=1 fallback_migratetype=0 fragmenting=0 change_ownership=0"
		line 0 3.000006 mm_page_free "page=00000000a1b2c3d4 pfn=0x1000 order=1"
	} > "$BATS_TEST_TMPDIR/log"
	cd "$BATS_TEST_TMPDIR"
	run "$TA" -q -f log --page p.csv --format csv
	[ "$status" -eq 0 ]
	grep -qx 'totals,alloc_freed_requests,1' p.totals.csv
	grep -qx 'totals,alloc_freed_kb,8' p.totals.csv
	grep -qx 'totals,live_requests,0' p.totals.csv
	grep -qx 'other,extfrag,2' p.other.csv
	grep -qx 'other,extfrag_fragmenting,1' p.other.csv
	grep -qx 'other,extfrag_fragmenting_pct,50.00' p.other.csv
	grep -qx 'cpu,0,1,1,0,0' p.cpus.csv
	grep -qx 'cpu,1,0,0,2,5' p.cpus.csv
	grep -qx 'order,1,1,0,0,0,0,0,1,8' p.csv
}

@test "--time: allocations before the window are unknown to it, frees in it are lost" {
	{
		line 0 1.0 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 2.0 kfree "call_site=g+0x2/0x10 ptr=ffff888000000100"
		line 0 2.5 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000200 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 4.0 kfree "call_site=g+0x2/0x10 ptr=ffff888000000200"
	} > "$BATS_TEST_TMPDIR/log"
	run "$TA" -f "$BATS_TEST_TMPDIR/log" --time 1.5,3 -c -
	[ "$status" -eq 0 ]
	echo "$output" | grep -qx "number of allocs:                 1"
	echo "$output" | grep -qx "number of frees:                  0"
	[[ "$output" == *"lost frees:                        1"* ]]
	[[ "$output" == *"time window:            2 events outside it left out"* ]]
}

@test "usage: the options of the reports" {
	run "$TA" -f "$FIX/tracefs-6.1-rawptr.log" --min-age 5
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --min-age filters --outstanding: give that too" ]
	run "$TA" -f "$FIX/tracefs-6.1-rawptr.log" --summary - --top 5
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --top limits -c, --stats, --outstanding, --peak, --lifetimes, --growth, --ledger, --openmetrics, --timeline, --perfetto and --html: give one of them" ]
	run "$TA" -f "$FIX/tracefs-6.1-rawptr.log" --time 5,1 -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --time '5,1': the window ends before it starts (START,END)" ]
	run "$TA" -f "$FIX/tracefs-6.1-rawptr.log" --time , -c -
	[ "$status" -eq 2 ]
	run "$TA" -f "$FIX/tracefs-6.1-rawptr.log" --outstanding - --min-age soon
	[ "$status" -eq 2 ]
	run "$TA" -k /nonexistent --summary -
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "trace_analyze: error: --summary, --stats, --outstanding, --page and --time need a log"* ]]
}

@test "the account widens a column to its widest figure: 11 digits still line up" {
	local i
	for i in 1 2 3; do
		line 0 1.00000$i kmalloc "call_site=big+0x1/0x10 ptr=ffff88800000000$i bytes_req=3999999999 bytes_alloc=4000000000 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	done > "$BATS_TEST_TMPDIR/log"
	line 0 1.000009 kmalloc "call_site=small+0x1/0x10 ptr=ffff888000009999 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false" >> "$BATS_TEST_TMPDIR/log"
	run "$TA" -q -f "$BATS_TEST_TMPDIR/log" -c -
	[ "$status" -eq 0 ]
	[ "$output" = "current bytes allocated:  12000000008
current bytes requested:  12000000005
current wasted bytes:               3
number of allocs:                   4
number of frees:                    0
number of callers:                  2

      total    waste         net alloc/free  caller
---------------------------------------------------
12000000000        3 12000000000     3/0     big+0x1
          8        0           8     1/0     small+0x1" ]
}

@test "-c with --top N: the N largest rows, the totals still the log's" {
	run "$TA" -q -f "$FIX/tracefs-6.1-rawptr.log" -c -
	all=("${lines[@]}")
	run "$TA" -q -f "$FIX/tracefs-6.1-rawptr.log" -c - --top 3
	[ "$status" -eq 0 ]
	# the same header and first rows, then nothing more
	[ "${#lines[@]}" -eq 11 ]
	for i in $(seq 0 10); do [ "${lines[$i]}" = "${all[$i]}" ] || return 1; done
	[ "${#all[@]}" -gt 11 ]
}

@test "--group-by cache: kmalloc caches spelled as /proc/slabinfo does, unnamed ones said once" {
	{
		line 0 1.000001 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=1000 bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 1.000002 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000200 bytes_req=2000 bytes_alloc=2048 gfp_flags=GFP_KERNEL_ACCOUNT node=-1 accounted=true"
		line 0 1.000003 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000300 bytes_req=90 bytes_alloc=96 gfp_flags=GFP_KERNEL"
		line 0 1.000004 kmem_cache_alloc "call_site=g+0x1/0x10 ptr=ffff888000000400 bytes_req=576 bytes_alloc=576 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 1.000005 kmem_cache_alloc "call_site=g+0x1/0x10 ptr=ffff888000000500 bytes_req=576 bytes_alloc=576 gfp_flags=GFP_KERNEL node=-1 accounted=false name=inode_cache"
	} > "$BATS_TEST_TMPDIR/log"
	cd "$BATS_TEST_TMPDIR"
	run "$TA" -f log --group-by cache -c cache.txt
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'trace_analyze: note: 1 kmem_cache_alloc event name no cache (6.1 prints no name= there; 6.18 does): it is shown by object size, "(unnamed, N bytes)"' ]
	tail -n +10 cache.txt | sed 's/.*[0-9]\/[0-9]* *//' | sort > names.txt
	printf '%s\n' '(unnamed, 576 bytes)' inode_cache kmalloc-1k kmalloc-?-96 kmalloc-cg-2k | sort | diff - names.txt
	# the size classes of --group-by size-class are spelled alike
	"$TA" -q -f log --group-by size-class -c class.txt
	grep -q ' kmalloc-1k$' class.txt
	grep -q ' kmalloc-2k$' class.txt
}

@test "--group-by comm, pid, gfp: rows per task and per GFP flags, frees credited whoever frees" {
	{
		printf '            bash-10      [000] .....     1.000001: kmalloc: call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false\n'
		printf '            bash-11      [000] .....     1.000002: kmalloc: call_site=f+0x1/0x10 ptr=ffff888000000200 bytes_req=60 bytes_alloc=64 gfp_flags=GFP_KERNEL|__GFP_ZERO node=-1 accounted=false\n'
		printf '             cat-12      [001] .....     1.000003: kmalloc: call_site=g+0x1/0x10 ptr=ffff888000000300 bytes_req=30 bytes_alloc=32 gfp_flags=GFP_KERNEL node=-1 accounted=false\n'
		# a kworker frees bash's first object: the row of bash is credited
		printf '     kworker/0:1-3       [000] .....     1.000004: kfree: call_site=h+0x1/0x10 ptr=ffff888000000100\n'
	} > "$BATS_TEST_TMPDIR/log"
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f log --group-by comm -c comm.txt
	tail -n +10 comm.txt > rows.txt
	printf '%s\n' \
		'     192        4       64     2/1     bash' \
		'      32        2       32     1/0     cat' | diff - rows.txt
	"$TA" -q -f log --group-by pid -c - | tail -n +10 | awk '{ print $NF, $4 }' > pid.txt
	printf '%s\n' 'bash-11 1/0' 'cat-12 1/0' 'bash-10 1/1' | diff - pid.txt
	"$TA" -q -f log --group-by gfp -c - | tail -n +10 | awk '{ print $NF, $1 }' > gfp.txt
	printf '%s\n' 'GFP_KERNEL|__GFP_ZERO 64' 'GFP_KERNEL 160' | diff - gfp.txt
	# the same from a DB, which keeps the tasks and the flags
	"$TA" -q -f log --save-db k.db
	"$TA" -q --db-file k.db --group-by comm -c comm-db.txt
	diff comm.txt comm-db.txt
	run "$TA" -f log --group-by pid -l callers.txt
	[ "$status" -eq 2 ]
}

@test "--comm, --pid, --gfp: a task's allocations, their frees by anyone, others' frees left out" {
	{
		printf '            bash-10      [000] .....     1.000001: kmalloc: call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false\n'
		printf '            bash-11      [000] .....     1.000002: kmalloc: call_site=f+0x1/0x10 ptr=ffff888000000200 bytes_req=60 bytes_alloc=64 gfp_flags=GFP_KERNEL|__GFP_ZERO node=-1 accounted=false\n'
		printf '             cat-12      [001] .....     1.000003: kmalloc: call_site=g+0x1/0x10 ptr=ffff888000000300 bytes_req=30 bytes_alloc=32 gfp_flags=GFP_KERNEL node=-1 accounted=false\n'
		# a kworker frees bash's first object; bash frees cat's
		printf '     kworker/0:1-3       [000] .....     1.000004: kfree: call_site=h+0x1/0x10 ptr=ffff888000000100\n'
		printf '            bash-10      [000] .....     1.000005: kfree: call_site=h+0x1/0x10 ptr=ffff888000000300\n'
	} > "$BATS_TEST_TMPDIR/log"
	cd "$BATS_TEST_TMPDIR"
	run "$TA" -f log --comm bash -c account.txt
	[ "$status" -eq 0 ]
	[[ "$output" == *"  lost frees:                        0"* ]]
	[[ "$output" == *"  --comm/--pid/--gfp:     1 allocations of other tasks or flags left out, and 1 frees of them"* ]]
	tail -n +10 account.txt > rows.txt
	printf '%s\n' '     192        4       64     2/1     f+0x1' | diff - rows.txt
	"$TA" -q -f log --pid 11,12 -c - | tail -n +10 | awk '{ print $NF, $4 }' > pid.txt
	printf '%s\n' 'f+0x1 1/0' 'g+0x1 1/1' | diff - pid.txt
	"$TA" -q -f log --gfp __GFP_ZERO -c - | tail -n +10 | awk '{ print $NF, $1 }' > gfp.txt
	printf '%s\n' 'f+0x1 64' | diff - gfp.txt
	# GFP_KERNEL is a flag of both: --gfp matches whole flags only
	"$TA" -q -f log --gfp GFP_KERNEL -c - | grep -q '^number of allocs: *3$'
	"$TA" -q -f log --gfp GFP_KERN -c - | grep -q '^number of allocs: *0$'
	run "$TA" -f log --comm '' -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --comm wants task names (NAME or NAME,NAME,...; 64 at most, each under 64 bytes), not ''" ]
}

@test "--group-by cache: a log of a kernel before 4.20 spells kmalloc-1024, as its slabinfo did" {
	cd "$BATS_TEST_TMPDIR"
	{
		printf '# tracer: nop\n#\n# trace_analyze record: kmem events (slab) of Linux 4.19.0, 2 CPUs, clock mono, buffer 8192 kB per CPU\n#P:2\n'
		line 0 1.000001 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=1000 bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 1.000002 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000200 bytes_req=2000 bytes_alloc=2048 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	} > old.log
	"$TA" -q -f old.log --group-by cache -c - | tail -n 2 | awk '{ print $NF }' > names.txt
	printf '%s\n' kmalloc-2048 kmalloc-1024 | diff - names.txt
	"$TA" -q -f old.log --group-by size-class -c - | grep -q ' kmalloc-2048$'
	# the same log of a 6.1 kernel, or of no kernel said: kmalloc-2k
	sed 's/Linux 4.19.0/Linux 6.1.0/' old.log > new.log
	"$TA" -q -f new.log --group-by cache -c - | grep -q ' kmalloc-2k$'
	grep -v 'of Linux' old.log > none.log
	"$TA" -q -f none.log --group-by cache -c - | grep -q ' kmalloc-2k$'
}

@test "--summary: perf kmem's net and the account's live bytes, named apart, their difference said" {
	{
		# 0x100 allocated twice with no free between: the first one's free was not seen
		line 0 1.000000 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 1.000001 kmalloc "call_site=f+0x1/0x10 ptr=ffff888000000100 bytes_req=50 bytes_alloc=64 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 1.000002 kmalloc "call_site=g+0x1/0x10 ptr=ffff888000000200 bytes_req=30 bytes_alloc=32 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 1 1.000003 kfree "call_site=h+0x2/0x10 ptr=ffff888000000100"
	} > "$BATS_TEST_TMPDIR/log"
	run "$TA" -q -f "$BATS_TEST_TMPDIR/log" --summary -
	[ "$status" -eq 0 ]
	grep -qx 'net total bytes allocated: *160' <<< "$output"		# 224 allocated - 64 freed
	grep -qx 'live bytes at the end (as the account): *32' <<< "$output"
	grep -qx "net - live (implicit frees' bytes): *128" <<< "$output"	# the first 0x100
	[ "$("$TA" -q -f "$BATS_TEST_TMPDIR/log" -c - | sed -n 's/^current bytes allocated: *//p')" = 32 ]
	run "$TA" -q -f "$BATS_TEST_TMPDIR/log" --summary - --format json
	[ "$(jq -c '.bytes | [.net, .live, .net_minus_live]' <<< "$output")" = "[160,32,128]" ]
}

@test "a peak at a sample's very time, or at the log's last, is in the timeline's data; each row reaches its --growth peak (edited log)" {
	cd "$BATS_TEST_TMPDIR"
	{
		for i in $(seq 0 99); do	# fa: 1 KiB each 10 ms, never freed
			line 0 "$(printf '%d.%06d' $((1 + i / 100)) $(( (i % 100) * 10000 )))" kmalloc \
				"call_site=fa+0x10/0x100 ptr=ffff88800010$(printf '%04x' $i) bytes_req=1024 bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		done
		# fc: 50000 bytes for half a millisecond from 1.5 s, a slice's end
		line 0 1.500000 kmalloc "call_site=fc+0x10/0x100 ptr=ffff888000207777 bytes_req=50000 bytes_alloc=50000 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 1.500500 kfree "call_site=fc+0x20/0x100 ptr=ffff888000207777"
		line 0 1.990000 kmalloc "call_site=fa+0x10/0x100 ptr=ffff888000301000 bytes_req=1024 bytes_alloc=1024 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		# fb: 64 KiB allocated and freed at the log's last time
		line 0 2.000000 kmalloc "call_site=fb+0x10/0x100 ptr=ffff888000209999 bytes_req=65536 bytes_alloc=65536 gfp_flags=GFP_KERNEL node=-1 accounted=false"
		line 0 2.000000 kfree "call_site=fb+0x20/0x100 ptr=ffff888000209999"
	} > log
	"$TA" -q -f log --growth g.json --peak p.json --format json
	"$TA" -q -f log --timeline t.csv
	[ "$(jq -c '[.rows[] | select(.key == "fc+0x10" or .key == "fb+0x10") | [.key, .peak_bytes, .peak_s]]' g.json)" = '[["fb+0x10",65536,2],["fc+0x10",50000,1.5]]' ]
	python3 - t.csv g.json p.json <<'PY'
import csv, json, sys
# a sample is the block of a line per row shown that "(other)" ends; a row's own
# peak between samples is a line of its own before it (one time may have two
# samples: before and after the events of that time)
rows = list(csv.DictReader(open(sys.argv[1])))
shown = len({r["key"] for r in rows}) - 1
top, totals, pending = {}, [], []
for r in rows:
    top[r["key"]] = max(top.get(r["key"], 0), int(r["live_bytes"]))
    pending.append(int(r["live_bytes"]))
    if r["key"] == "(other)":
        totals.append(sum(pending[-(shown + 1):]))
        pending = []
for g in json.load(open(sys.argv[2]))["rows"]:
    if g["key"] in top:
        assert top[g["key"]] == g["peak_bytes"], (g["key"], top[g["key"]], g["peak_bytes"])
assert top["fc+0x10"] == 50000 and top["fb+0x10"] == 65536, top
assert max(totals) == json.load(open(sys.argv[3]))["moment"]["live_bytes"], (max(totals),)
PY
	# the last sample is the log's end, after fb's free: fa's 101 KiB alone
	[ "$(tail -n 1 t.csv | cut -d, -f3)" != 2.000000 ] || [ "$(awk -F, '$3 == "2.000000" && $2 == "fb+0x10" { v = $4 } END { print v }' t.csv)" = 0 ]
}
