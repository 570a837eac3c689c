#!/usr/bin/env bats
# Call chains: who is behind the allocator and its wrappers. Stories on a
# real excerpt of the 6.1 stack-trace log where an interrupt nests an
# event and its stack inside another's (E1 E2 S2 S1), on a perf callchain
# excerpt, and on a trace-cmd kernel_stack text made as trace-cmd prints
# one; then damaged stacks, counted and skipped.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	NESTED="$FIX/stack-nested-6.1.log"
}

@test "nested stacks: each goes to the latest event of its CPU still waiting for one" {
	# E1 kmem_cache_alloc (__alloc_skb, 448 bytes for 424), E2 a softirq
	# kmem_cache_free with its stack S2, then S1: the tcp_sendmsg path of E1.
	# kmalloc_reserve, as kmalloc*, is an allocator frame: the kmalloc's
	# origin is __alloc_skb too, 1024 bytes for 1024.
	run "$TA" -f "$NESTED" --group-by origin -c -
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "current bytes allocated:       1472" ]
	[ "${lines[2]}" = "current wasted bytes:            24" ]
	[ "${lines[5]}" = "number of origins:                1" ]
	[ "${lines[8]}" = "    1472       24     1472     2/0     __alloc_skb" ]
	[[ "$output" == *"  stack traces:                      4"* ]]
	[[ "$output" == *"    of kmem events                   4"* ]]
	[[ "$output" == *"  kmem events without one:           0"* ]]
}

@test "folded stacks: outermost first, allocator frames dropped, one line per stack" {
	"$TA" -q -f "$NESTED" --folded slab.folded --folded-pages pages.folded
	cat > want <<'EOF'
entry_SYSCALL_64_after_hwframe;do_syscall_64;ksys_write;vfs_write;sock_write_iter;sock_sendmsg_nosec;tcp_sendmsg;tcp_sendmsg_locked;tcp_stream_alloc_skb;__alloc_skb 1472
EOF
	diff_or_fail want slab.folded
	# an order-3 page allocation: 8 pages of 4096 bytes
	cat > want <<'EOF'
entry_SYSCALL_64_after_hwframe;do_syscall_64;ksys_write;vfs_write;sock_write_iter;sock_sendmsg_nosec;tcp_sendmsg;tcp_sendmsg_locked;sk_page_frag_refill;skb_page_frag_refill 32768
EOF
	diff_or_fail want pages.folded
	"$TA" -q -f "$NESTED" --folded-pages - --page-size 16384 | grep -q ' 131072$'
}

@test "--weight: live, waste and count of the same stack" {
	run "$TA" -q -f "$NESTED" --folded - --weight waste
	[ "${output##* }" = "24" ]
	run "$TA" -q -f "$NESTED" --folded - --weight count
	[ "${output##* }" = "2" ]
	run "$TA" -q -f "$NESTED" --folded - --weight live
	[ "${output##* }" = "1472" ]
}

@test "--page: page allocations by origin" {
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f "$NESTED" --page p.csv --format csv
	[ "$(head -n 2 p.origins.csv)" = $'group_by,key,allocations,pages,kb,live_pages\norigin,skb_page_frag_refill,1,8,32,8' ]
}

@test "--outstanding lists what is still held by stack, with its frames" {
	run "$TA" -q -f "$NESTED" --outstanding -
	[[ "$output" == *"still allocated at the end, by stack (frames leaf first)"* ]]
	# the log ends with the page allocation at 250.630784: the kmalloc of
	# 250.630706 is 78 us old, the kmem_cache_alloc of 250.630462 322 us
	[[ "$output" == *"    1   1024    0.000078  __alloc_skb"* ]]
	[[ "$output" == *"    1    448    0.000322  __alloc_skb"* ]]
	[[ "$output" == *$'    trace_event_raw_event_kmalloc\n    trace_kmalloc\n    __kmalloc_node_track_caller\n    kmalloc_reserve\n    __alloc_skb'* ]]
	run "$TA" -q -f "$NESTED" --outstanding - --format json
	echo "$output" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["stacks"]
assert [r["bytes"] for r in s] == [1024, 448], s
assert s[1]["group_by"] == "stack" and s[1]["key"][3] == "__alloc_skb" and s[1]["key"][-1] == "entry_SYSCALL_64_after_hwframe"'
}

@test "without stacks the origin is the call site's function, and the summary says so" {
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --group-by origin -c -
	[ "$status" -eq 0 ]
	[[ "$output" == *"   1536      304     1536     2/0     load_elf_phdrs"* ]]
	[[ "$output" == *"stack traces:           none in the log: origins are call sites' functions"* ]]
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" --folded -
	[[ "${lines[0]}" == "[no_stack];"* ]]
}

@test "trace-cmd kernel_stack entries; hex frames resolve through --system-map" {
	run "$TA" -q -f "$FIX/trace-cmd-stack.txt" --group-by origin -c -
	[ "${lines[8]}" = "     448       24      448     1/0     __alloc_skb" ]
	# kvasprintf_const and kvasprintf are wrappers: the origin is their caller
	[ "${lines[9]}" = "      16        3       16     1/0     kobject_set_name_vargs" ]
	run "$TA" -q -f "$FIX/old-2.6-hex.log" --system-map "$FIX/old-2.6.System.map" -c /dev/null
	require_corpus
	run "$TA" -q -f "$FIX/trace-cmd-stack.txt" --system-map "$CORPUS/linux-6.1-tiny/tree/System.map" --folded -
	[ "${lines[0]}" = "device_add;dev_set_name;kobject_set_name_vargs;kvasprintf_const;kvasprintf 16" ]
	[[ "${lines[1]}" == *";tcp_sendmsg_locked;tcp_stream_alloc_skb;__alloc_skb 448" ]]
}

@test "--wrappers adds wrappers; a bad wrappers file is refused" {
	echo "kobject_set_name_vargs   # allocates for dev_set_name's caller" > more.txt
	run "$TA" -q -f "$FIX/trace-cmd-stack.txt" --group-by origin -c - --wrappers more.txt
	[ "${lines[9]}" = "      16        3       16     1/0     dev_set_name" ]
	echo "two names" > bad.txt
	run "$TA" -q -f "$FIX/trace-cmd-stack.txt" --group-by origin -c - --wrappers bad.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad.txt' line 1: one function name a line, not 'two names'" ]
	run "$TA" -q -f "$FIX/trace-cmd-stack.txt" --group-by origin -c - --wrappers missing.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open wrappers file 'missing.txt': No such file or directory" ]
}

@test "--wrappers takes globs, and names on stderr the lines that match no frame" {
	printf '%s\n' 'kobject_set_name_varg?   # allocates for dev_set_name' 'no_such_function' '' \
		'tcp_sendmsg_[a-z]*' 'zz*' > globs.txt
	run "$TA" -q -f "$FIX/trace-cmd-stack.txt" --group-by origin -c out.txt --wrappers globs.txt
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "trace_analyze: warning: --wrappers 'globs.txt' line 2: 'no_such_function' matches no frame of the log's stacks" ]
	[ "${lines[1]}" = "trace_analyze: warning: --wrappers 'globs.txt' line 5: 'zz*' matches no frame of the log's stacks" ]
	[ "${#lines[@]}" -eq 2 ]
	grep -qx '      16        3       16     1/0     dev_set_name' out.txt
	# a log without stacks: nothing for a wrapper to match, no warning
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" --group-by origin -c /dev/null --wrappers globs.txt
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "perf callchains: kernel frames; --user-frames puts the task's frames outermost" {
	run "$TA" -q -f "$FIX/perf-callchain-6.18.txt" --folded -
	[ "$output" = "entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_sched_setaffinity;sched_setaffinity 64" ]
	run "$TA" -q -f "$FIX/perf-callchain-6.18.txt" --folded - --user-frames
	[ "${lines[0]}" = "__libc_start_call_main;[perf];[perf];[perf];[perf];[perf];[perf];sched_setaffinity@@GLIBC_2.3.4;entry_SYSCALL_64_after_hwframe;do_syscall_64;__x64_sys_sched_setaffinity;sched_setaffinity 32" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "the folded file loads by a flame graph tool's rules and sums to the account" {
	require_corpus
	"$TA" -q -f "$CORPUS/host-6.18/stack-kmem.log" --folded f.txt -c account.txt
	python3 - f.txt account.txt <<'PY'
import re, sys
total = 0
for line in open(sys.argv[1]):
    m = re.match(r"^(\S[^\n]*) ([1-9][0-9]*)\n$", line)
    assert m, line
    assert all(m.group(1).split(";")), line
    total += int(m.group(2))
rows = [l.split() for l in open(sys.argv[2]).read().split("\n")[9:] if l.strip()]
assert total == sum(int(r[0]) for r in rows), (total, sum(int(r[0]) for r in rows))
PY
}

@test "the SVG flame graph: one <title> per box, widths add up to their parent's" {
	"$TA" -q -f "$NESTED" --flame flame.svg
	python3 - flame.svg <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(sys.argv[1]).getroot()
boxes = root.findall("s:g", ns)
assert len(boxes) == 11, len(boxes)    # "all" and the 10 frames of the one folded line
for g in boxes:
    assert g.find("s:title", ns) is not None and g.find("s:rect", ns) is not None
titles = [g.find("s:title", ns).text for g in boxes]
assert titles[0] == "all (1472 bytes, 100.00%)", titles[0]
assert "__alloc_skb (1472 bytes, 100.00%)" in titles, titles
PY
}

@test "a flame graph as PNG and PDF" {
	"$TA" -q -f "$NESTED" --flame flame.png
	"$TA" -q -f "$NESTED" --flame flame.pdf
	[ "$(head -c 8 flame.png | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ]
	[ "$(head -c 5 flame.pdf)" = "%PDF-" ]
}

@test "damaged stacks: frames with no entry, 10,000 frames, a 1 MB frame: counted, skipped" {
	{
		printf ' => stray_frame\n => another\n'
		sed -n '13,$p' "$NESTED"
		echo '           httpd-456     [001] .....   251.000000: kmalloc: call_site=f+0x1/0x10 ptr=00000000aa000001 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false'
		echo '           httpd-456     [001] .....   251.000001: <stack trace>'
		for i in $(seq 10000); do echo " => deep_$i"; done
		echo '           httpd-456     [001] .....   251.000002: kmalloc: call_site=g+0x1/0x10 ptr=00000000aa000002 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false'
		echo '           httpd-456     [001] .....   251.000003: <stack trace>'
		echo ' => trace_event_raw_event_kmalloc'
		printf ' => %s\n' "$(head -c 1100000 /dev/zero | tr '\0' x)"
		echo ' => g'
		echo '           httpd-456     [001] .....   251.000004: kmalloc: call_site=h+0x1/0x10 ptr=00000000aa000003 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false'
		echo '           httpd-456     [001] .....   251.000005: <stack trace>'
		printf ' => trace_event_raw_event_kmalloc\n => h\n => cut_mid_w'
	} > damaged.log
	run "$TA" -f damaged.log --group-by origin -c account
	[ "$status" -eq 0 ]
	[[ "$output" == *"    damaged, not used                2"* ]]
	[[ "$output" == *"    frames outside a stack           2"* ]]
	[[ "$output" == *"  kmem events without one:           2"* ]]
	[[ "$output" == *"    truncated last line              1"* ]]
	# the events themselves still count, each under its call site's function
	grep -q "      8        0        8     1/0     f$" account
	grep -q "      8        0        8     1/0     g$" account
	grep -q "      8        0        8     1/0     h$" account
}

# perf prints a callchain's kernel part first, then its user part: a frame is
# user by its place and its DSO, not by its address (user addresses can have
# the top bit set, as "8352e09282e7673f [unknown] ([unknown])" has)
@test "perf script callchains: a user frame at a high address is a user frame" {
	run "$TA" -q -f "$FIX/perf-user-high-frame.perf-script.txt" --folded -
	[ "$status" -eq 0 ]
	[ "$output" = "entry_SYSCALL_64_after_hwframe;alloc_buffer_head 208" ]
	run "$TA" -q -f "$FIX/perf-user-high-frame.perf-script.txt" --folded - --user-frames
	[ "${lines[0]}" = "__libc_write;[unknown];entry_SYSCALL_64_after_hwframe;alloc_buffer_head 104" ]
	[ "${lines[1]}" = "__libc_write;entry_SYSCALL_64_after_hwframe;alloc_buffer_head 104" ]
}
