#!/usr/bin/env bats
# Small stories, one per text format the tool reads: a real excerpt (see
# tests/fixtures/README.md), the account expected of it (worked out by
# hand below), and the summary counts that go with it.

load ../lib/helpers

# account_of LOG [options...]: the account on stdout, the summary in $BATS_TEST_TMPDIR/summary
account_of() {
	local log="$1"; shift
	"$TA" -f "$FIX/$log" -c "$BATS_TEST_TMPDIR/account" "$@" 2> "$BATS_TEST_TMPDIR/summary"
}

# summary_has LABEL VALUE: the summary line "LABEL: ... VALUE"
summary_has() {
	grep -Eq "^ +$1:? +$2\$" "$BATS_TEST_TMPDIR/summary" || {
		echo "summary lacks '$1 $2':"; cat "$BATS_TEST_TMPDIR/summary"; return 1; }
}

@test "tracefs snapshot of 6.1: 34 cache allocations, one matched free, two lost frees" {
	# mas_alloc_nodes+0x62 allocates ffff888009924f00 (256 bytes) and
	# mas_destroy frees it: 1/1, net 0. The frees of ffff888009a11000 (first
	# event) and ffff888009924200 have no allocation in the excerpt: lost.
	# copy_process+0x1e6: 5120 allocated for 5064 requested: waste 56;
	# anon_vma_alloc+0x11: 5 x 104 for 5 x 96: waste 40; vm_area_dup+0x1c:
	# 10 x 136 = 1360. Net sum 12696, waste sum 56+32+40+16 = 144.
	account_of tracefs-6.1-rawptr.log
	diff_or_fail "$FIX/tracefs-6.1-rawptr.account" "$BATS_TEST_TMPDIR/account"
	summary_has "kmem_cache_alloc" 34
	summary_has "kmem_cache_free" 3
	summary_has "mm_page_alloc" 8
	summary_has "header" 12
	summary_has "frees matched" 1
	summary_has "lost frees" 2
	grep -q "no events dropped (entries-in-buffer/entries-written: 4262/4262)" "$BATS_TEST_TMPDIR/summary"
}

@test "trace_pipe stream without header: a LOST marker is counted, the account is whole" {
	# 10 allocations; load_elf_binary+0xf6 (32 bytes) is kfree'd and
	# getname_kernel+0x25 (4096) kmem_cache_free'd: both 1/1, net 0.
	# load_elf_phdrs+0x49: 1024 (728 asked) + 512 (504): net 1536, waste 304.
	# Waste 304 + 8 + 8 + 8 + 5 = 333; 192-byte ties sort by name.
	account_of trace-pipe-6.18.log
	diff_or_fail "$FIX/trace-pipe-6.18.account" "$BATS_TEST_TMPDIR/account"
	summary_has "lost-event markers" 1
	summary_has "other events" 5
	grep -q "trace_pipe: .*66 events lost at 1 marker" "$BATS_TEST_TMPDIR/summary"
	grep -q "no header: the log does not say whether events were dropped" "$BATS_TEST_TMPDIR/summary"
}

@test "perf script text: kmem: prefix, 0x pointers, (nil) frees, a re-used pointer" {
	# vm_area_alloc+0x1a allocates ffff88810692a780, it is freed, then
	# allocated again: 4 allocations x 192, 1 free, net 576. perf_event_mmap
	# allocates and frees ffff8881f3188000 four times: 16384 total, net 0.
	# mas_preallocate+0x3ef: 8 x 256 = 2048. Two kfree((nil)).
	account_of perf-script-6.18.txt
	diff_or_fail "$FIX/perf-script-6.18.account" "$BATS_TEST_TMPDIR/account"
	summary_has "null frees" 2
	summary_has "implicit frees" 0
	summary_has "kmem_cache_alloc" 14
}

@test "trace-cmd report text and the tracefs text of the same events give one account" {
	# getname_flags.part.0+0x24 allocates one names_cache object 16 times;
	# 15 frees (vfs_fstatat, user_path_at) match: 65536 total, net 4096.
	# The first two frees (__fput, task_work_run) precede any allocation: lost.
	account_of trace-cmd-6.18.txt
	diff_or_fail "$FIX/trace-cmd-6.18.account" "$BATS_TEST_TMPDIR/account"
	summary_has "lost frees" 2
	summary_has "null frees" 1
	summary_has "header" 1
	account_of trace-cmd-6.18.tracefs.log
	diff_or_fail "$FIX/trace-cmd-6.18.account" "$BATS_TEST_TMPDIR/account"
	summary_has "lost frees" 2
}

@test "2.6-era log: no flags column, hex call sites resolved through System.map" {
	# c10c1b62 = kmem_cache_create (c10c1b00) + 0x62; c120004f falls in the
	# alias pair at c1200000, reported under the global alloc_inode_alias;
	# c0000010 lies below every symbol and stays hex. kmalloc_node 128 for
	# 100 asked: waste 28. kmem_cache_alloc_node counts like its sibling.
	account_of old-2.6-hex.log --system-map "$FIX/old-2.6.System.map"
	diff_or_fail "$FIX/old-2.6-hex.account" "$BATS_TEST_TMPDIR/account"
	summary_has "kmalloc_node" 1
	summary_has "kmem_cache_alloc_node" 1
	summary_has "null frees" 1
	grep -q "warning: 1 of 3 call site addresses are in no function of" "$BATS_TEST_TMPDIR/summary"
}

@test "2.6-era log without a System.map: addresses stay hex, and a warning says so once" {
	account_of old-2.6-hex.log
	sed -n '10,12p' "$BATS_TEST_TMPDIR/account" > "$BATS_TEST_TMPDIR/rows"
	cat > "$BATS_TEST_TMPDIR/expected" <<'ROWS'
     688        0      344     2/1     c120004f
     192       28      128     2/1     c10c1b62
       8        0        8     1/0     c0000010
ROWS
	diff_or_fail "$BATS_TEST_TMPDIR/expected" "$BATS_TEST_TMPDIR/rows"
	[ "$(grep -c warning "$BATS_TEST_TMPDIR/summary")" -eq 1 ]
	grep -q "warning: 3 call sites are bare addresses and no symbols were given" "$BATS_TEST_TMPDIR/summary"
}

@test "--malloc and --cache split the 2.6-era account by family" {
	account_of old-2.6-hex.log --system-map "$FIX/old-2.6.System.map" --malloc
	sed -n '1,6p;10,$p' "$BATS_TEST_TMPDIR/account" > "$BATS_TEST_TMPDIR/got"
	cat > "$BATS_TEST_TMPDIR/expected" <<'ACC'
current bytes allocated:        136
current bytes requested:        108
current wasted bytes:            28
number of allocs:                 3
number of frees:                  1
number of callers:                2
     192       28      128     2/1     kmem_cache_create+0x62
       8        0        8     1/0     c0000010
ACC
	diff_or_fail "$BATS_TEST_TMPDIR/expected" "$BATS_TEST_TMPDIR/got"
	summary_has "left out by --malloc" 3
	account_of old-2.6-hex.log --system-map "$FIX/old-2.6.System.map" --cache
	sed -n '1,6p;10,$p' "$BATS_TEST_TMPDIR/account" > "$BATS_TEST_TMPDIR/got"
	cat > "$BATS_TEST_TMPDIR/expected" <<'ACC'
current bytes allocated:        344
current bytes requested:        344
current wasted bytes:             0
number of allocs:                 2
number of frees:                  1
number of callers:                1
     688        0      344     2/1     alloc_inode_alias+0x4f
ACC
	diff_or_fail "$BATS_TEST_TMPDIR/expected" "$BATS_TEST_TMPDIR/got"
}

@test "names with any bytes: invalid UTF-8, a NUL, 1,100 bytes: every output valid for its reader, the same escape everywhere" {
	cd "$BATS_TEST_TMPDIR"
	# old-2.6.System.map with three names no kernel should have, and a log whose allocations meet them
	python3 - "$FIX/old-2.6.System.map" bad.map <<'PY'
import sys
m = open(sys.argv[1], 'rb').read()
m = m.replace(b' kmem_cache_create', b' kmem_\xff\xfecache_create').replace(b' cache_grow', b' cache\x00grow')
m = m.replace(b'c1200000 t alloc_inode\n', b'c1200000 t ' + '\u00e9'.encode() * 549 + b'ab\n')
m = m.replace(b'c1200000 T alloc_inode_alias\n', b'')
open(sys.argv[2], 'wb').write(m)
PY
	sed 's/call_site=c0000010 /call_site=c10c1c48 /' "$FIX/old-2.6-hex.log" > log.txt
	mkdir -p dir && cp log.txt "dir/lo$(printf '\377\376')g$(printf '\001').txt"
	local log="dir/lo$(printf '\377\376')g$(printf '\001').txt"
	"$TA" -q --system-map bad.map -f "$log" -c a.txt -c - > /dev/null
	"$TA" -q --system-map bad.map -f "$log" -c a.txt
	# the bytes that are no UTF-8 as \xNN, the NUL as \0, the long name cut between characters
	# before its offset, which stays
	grep -q '  kmem_\\xff\\xfecache_create+0x62$' a.txt
	grep -q '  cache\\0grow+0x8$' a.txt
	grep -Eq '  (é)+\+0x4f$' a.txt
	iconv -f utf-8 -t utf-8 a.txt > /dev/null
	"$TA" -q --system-map bad.map -f "$log" -c a.json --format json --summary s.json
	[ "$(jq -r '.callers[].key' a.json | grep -c 'kmem_\\xff\\xfecache_create+0x62\|cache\\0grow+0x8\|^é')" = 3 ]
	jq -r '.source // .log // empty' s.json > /dev/null
	"$TA" -q --system-map bad.map -f "$log" -c a.csv --format csv
	python3 -c 'import csv, sys; list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))' a.csv
	# protobuf strings must be UTF-8: protoc decodes both with their own schemas
	"$TA" -q --system-map bad.map -f "$log" --pprof p.pb.gz --perfetto p.pftrace
	gzip -dc p.pb.gz | protoc --decode=perftools.profiles.Profile -I "$TOP/src/report" profile.proto > /dev/null
	if [ -f "$PERFETTO_SCHEMA" ]; then
		protoc --decode=perfetto.protos.Trace -I "$(dirname "$PERFETTO_SCHEMA")" \
			"$PERFETTO_SCHEMA" < p.pftrace > p.txt
		grep -qF 'lo\\xff\\xfeg\\x01.txt' p.txt
	fi
	# XML: the flame graph's SVG parses; cairo draws the page's and the timeline's labels
	"$TA" -q --system-map bad.map -f "$log" --flame f.svg --html h.html --timeline t.png
	python3 -c 'import xml.etree.ElementTree as E, sys; E.parse(sys.argv[1])' f.svg
	grep -q 'lo\\xff\\xfeg\\x01.txt' f.svg
	[ -s h.html ] && [ -s t.png ]
}
