#!/usr/bin/env bats
# Small binary captures in tests/fixtures read directly: each gives the
# reports its text form gives (trace-cmd report), whatever else the file
# holds. The corpus's large captures are in tests/corpus/binary.bats.

load ../lib/helpers
load ../lib/binary

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR"
}

need_trace_cmd() {
	command -v trace-cmd > /dev/null || skip "no trace-cmd (scripts/deps.sh)"
}

@test "a trace.dat with sched events beside kmem ones: the reports of its trace-cmd report text" {
	need_trace_cmd
	# recorded here: kmem and sched events, a 96 kB buffer per CPU (lost events
	# on a page), formats of the kmem and sched systems only (strip_dat.py)
	trace-cmd report -i "$FIX/mixed-events.dat" > mixed.txt 2> /dev/null
	grep -q ' sched_switch: ' mixed.txt
	reports "$FIX/mixed-events.dat" bin
	reports mixed.txt txt
	same_reports bin txt
	# the sched records are passed over as the text's other events, and counted
	n=$(grep -c ' sched_\(switch\|wakeup\): ' mixed.txt)
	run "$TA" -f "$FIX/mixed-events.dat" -c /dev/null
	[[ "$output" =~ other\ events\ +$n$'\n' ]]
}

@test "a trace.dat with kernel stacks: origins and folded stacks as from its text" {
	need_trace_cmd
	trace-cmd report -i "$FIX/small-stacks.dat" > stacks.txt 2> /dev/null
	reports "$FIX/small-stacks.dat" bin
	reports stacks.txt txt
	same_reports bin txt
	[ "$(wc -l < bin.folded)" -gt 10 ]
}

# refused FILE MESSAGE: FILE (a fuzz finding) refused at once, exit 1, nothing written
refused() {
	local f="$TOP/tests/fuzz/regressions/$1"
	run timeout 60 "$TA" -q -f "$f" -c out.txt
	[ "$status" -eq 1 ] || { echo "$1: status $status: $output"; return 1; }
	[ "$output" = "trace_analyze: error: '$f' $2" ] || { echo "$1: $output"; return 1; }
	[ ! -e out.txt ]
}

@test "trace.dat files that made libtracecmd loop or crash: each refused with its reason" {
	# a section size of -256 sent its strings walk back for ever
	refused tracedat/strings-walk-backwards "is a damaged or cut trace.dat: its sections or CPU data are not where its header says or are damaged"
	# it crashed in tracecmd_close on a header_page with bytes written over its first field
	refused tracedat/header-page-misdescribes "is a damaged trace.dat: its header_page format does not describe its pages"
	# a timestamp size of 5 in the header_page: it fails half-way and crashes (in the child)
	refused tracedat/open-fails-halfway "is a damaged trace.dat: libtracecmd crashes opening it"
	# a byte changed in a zstd chunk: it handed the same records over and over
	refused tracedat/iteration-goes-round "is a damaged trace.dat: libtracecmd reads one of its pages over and over"
}

@test "a trace.dat page whose header says it holds more than a page, mid-file: refused, nothing written" {
	# mixed-events.dat (version 6): CPU 1's pages from byte 221184, 4096 each; the fifth
	# page's commit word (after its 8-byte timestamp) made to claim 128 MB of data
	cp "$FIX/mixed-events.dat" bad.dat
	printf '\377\377\377\007\000\000\000\000' |
		dd of=bad.dat bs=1 seek=$((221184 + 4 * 4096 + 8)) conv=notrunc status=none
	run "$TA" -q -f bad.dat -c out.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad.dat' is a damaged or cut trace.dat: its sections or CPU data are not where its header says or are damaged" ]
	[ ! -e out.txt ]
	# the file as it was reads
	"$TA" -q -f "$FIX/mixed-events.dat" -c out.txt
	[ -s out.txt ]
}

@test "a perf.data recorded on many CPUs (an id per event and CPU): the reports of the same samples" {
	# the fixture's attrs given 126 more ids each, before their own, as perf record -a on
	# 128 CPUs gives them: every sample still finds its event
	python3 - "$FIX/small-callchain.perf.data" many.perf.data <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
attr_size, = struct.unpack_from('<Q', d, 16)
attrs_off, attrs_size = struct.unpack_from('<QQ', d, 24)
extra, bogus = bytearray(), 10**12
for i in range(attrs_size // attr_size):
    at = attrs_off + i * attr_size + attr_size - 16
    off, size = struct.unpack_from('<QQ', d, at)
    ids = [bogus + k for k in range(126)] + list(struct.unpack_from('<%dQ' % (size // 8), d, off))
    bogus += 126
    struct.pack_into('<QQ', d, at, len(d) + len(extra), 8 * len(ids))
    extra += struct.pack('<%dQ' % len(ids), *ids)
open(sys.argv[2], 'wb').write(d + extra)
PY
	"$TA" -q -f "$FIX/small-callchain.perf.data" -c one.txt --group-by origin --summary one.sum
	"$TA" -q -f many.perf.data -c many.txt --group-by origin --summary many.sum
	[ -s one.txt ]
	cmp one.txt many.txt
	diff <(grep -v '^log:' one.sum) <(grep -v '^log:' many.sum)
}

@test "a perf.data whose event format makes libtraceevent crash: refused with a message, no crash" {
	# found by fuzzing: one flipped bit in kmalloc's print format ("none". REC->node)
	refused perfdata/format-crashes-libtraceevent "is a damaged perf.data: its event formats make libtraceevent crash"
}

@test "a trace.dat or perf.data compressed, on a pipe or on standard input: the reports of the file" {
	local f
	for f in "$FIX/small-stacks.dat" "$FIX/small-callchain.perf.data"; do
		"$TA" -q -f "$f" -c file.txt --group-by origin
		gzip -c "$f" > c.gz && zstd -q -c "$f" > c.zst
		"$TA" -q -f c.gz -c gz.txt --group-by origin
		"$TA" -q -f c.zst -c zst.txt --group-by origin
		cat "$f" | "$TA" -q -f - -c pipe.txt --group-by origin
		"$TA" -q -f - -c stdin.txt --group-by origin < "$f"
		gzip -c "$f" | "$TA" -q -f - -c gzpipe.txt --group-by origin
		for how in gz zst pipe stdin gzpipe; do
			cmp file.txt "$how.txt" || { echo "$f: $how differs"; return 1; }
		done
	done
}

@test "a binary capture's findings cite its events by time and CPU, not lines of a text it has none of" {
	"$TA" -q -f "$FIX/small-stacks.dat" --summary s.json --format json 2> /dev/null
	[ "$(jq -r '.findings[] | select(.key == "cache_object_kfreed") | .example_lines' s.json)" = \
		"8539.862131 s CPU 0 (allocated at 8539.861579 s)" ]
	run "$TA" -q -f "$FIX/mixed-events.dat" --summary -
	grep -q '^lost_marker  *1  a lost-events record (no time) ' <<< "$output"
	grep -q '^finding  *count  first events  *what$' <<< "$output"
	# a text log cites its lines
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" --summary -
	grep -q '^finding  *count  first lines  *what$' <<< "$output"
}

@test "a perf.data that perf record did not finish (killed): said as perf says it, exit 1, nothing written" {
	# the fixture as a killed perf record leaves it: data size 0, no feature sections after its records
	python3 - "$FIX/small-callchain.perf.data" killed.perf.data <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off = struct.unpack_from('<Q', b, 40)[0]
struct.pack_into('<Q', b, 48, 0)
open(sys.argv[2], 'wb').write(b[:off + 20000])
PY
	run "$TA" -f killed.perf.data -c account.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'killed.perf.data' was not properly terminated (perf record was killed before it finished the file?): its header gives no data size and it lacks the event formats perf writes last; its 20000 bytes of records cannot be decoded without them, by perf either (--salvage reads them with this kernel's formats, if it is the kernel that recorded them)" ]
	[ ! -e account.txt ]
	# a file of no record at all, finished, is read: its formats are there
	python3 "$TOP/tests/tools/cut_perfdata.py" "$FIX/small-callchain.perf.data" empty.perf.data 0 > /dev/null
	run "$TA" -q -f empty.perf.data -c account.txt
	[ "$status" -eq 0 ]
}

@test "a perf.data in pipe mode (perf record -o -), from a file or its pipe: the reports of its perf script text" {
	local f="$FIX/pipe-mode.perf.data"
	# pipe mode: PERFILE2, then a header of 16 bytes (a file's is 104)
	[ "$(head -c 8 "$f")" = PERFILE2 ] && [ "$(od -An -tu8 -j8 -N8 "$f" | tr -d ' ')" = 16 ]
	"$TA" -q -f "$f" -c file.txt --stats file.stats 2> /dev/null
	"$TA" -q -f - -c stdin.txt --stats stdin.stats < "$f" 2> /dev/null
	cat "$f" | "$TA" -q -f - -c pipe.txt 2> /dev/null
	cmp file.txt stdin.txt && cmp file.txt pipe.txt && cmp file.stats stdin.stats
	grep -q '^number of allocs: *419$' file.txt
	# the stream's HEADER_FEATURE records say which kernel recorded it, as a file's header does:
	# this machine's names its call sites from /proc/kallsyms, another's is said by name
	run --separate-stderr "$TA" -q -f "$f" -c /dev/null
	if [ "$(uname -r)" = 6.18.44-fc-v669 ]; then
		! grep -q '0xffffffff' file.txt
		cp /proc/kallsyms running.kallsyms
		names=(--kallsyms running.kallsyms)
	else
		[[ "$stderr" == *"was recorded on Linux 6.18.44-fc-v669, not this kernel ($(uname -r))"* ]]
		names=()
	fi
	command -v perf > /dev/null || skip "no perf (scripts/deps.sh)"
	perf script -i "$f" > text.txt 2> /dev/null
	"$TA" -q -f text.txt "${names[@]}" -c text.account 2> /dev/null
	cmp file.txt text.account
}

@test "a perf.data of compressed records (perf record -z): the reports of its perf script text" {
	local f="$FIX/compressed-z.perf.data"
	# its samples are inside PERF_RECORD_COMPRESSED (81) records, none outside
	python3 "$TOP/tests/tools/perf_records.py" "$f" > types
	grep -q '^81 2$' types && ! grep -q '^9 ' types
	"$TA" -q -f "$f" -c file.txt --stats file.stats 2> /dev/null
	"$TA" -q -f - -c stdin.txt < "$f" 2> /dev/null
	cmp file.txt stdin.txt
	grep -q '^number of allocs: *420$' file.txt
	command -v perf > /dev/null || skip "no perf (scripts/deps.sh)"
	perf script -i "$f" > text.txt 2> /dev/null
	"$TA" -q -f text.txt -c text.account --stats text.stats 2> /dev/null
	cmp file.txt text.account
}

@test "a perf.data whose compressed record is damaged: refused, saying which record and why" {
	cp "$FIX/compressed-z.perf.data" damaged.perf.data
	python3 "$TOP/tests/tools/perf_records.py" damaged.perf.data --damage 81
	run "$TA" -f damaged.perf.data -c out.txt
	[ "$status" -eq 1 ]
	[[ "$output" =~ ^"trace_analyze: error: 'damaged.perf.data': the compressed record at byte "[0-9]+" cannot be decompressed: " ]]
	[[ "$output" =~ "(a damaged perf.data)" ]]
}

@test "--salvage: a killed perf record's whole records, with this kernel's formats; another kernel's refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to record with perf"
	command -v perf > /dev/null || skip "no perf (scripts/deps.sh)"
	[ -r /sys/kernel/tracing/events/kmem/kmalloc/id ] || skip "no tracefs at /sys/kernel/tracing"
	perf record -q -e 'kmem:kmalloc,kmem:kfree' -o done.perf.data -- sh -c 'ls -R /usr/share/doc > /dev/null' 2> /dev/null
	"$TA" -q -f done.perf.data -c done.txt
	# killed after its last record: every record whole, the account of the finished file
	python3 "$TOP/tests/tools/perf_records.py" done.perf.data --kill all.perf.data all > all.facts
	run "$TA" -f all.perf.data -c all.txt
	[ "$status" -eq 1 ] && [[ "$output" == *"(--salvage reads them"* ]]
	run "$TA" -f all.perf.data --salvage -c all.txt
	[ "$status" -eq 0 ]
	[[ "$output" == *"was not finished by perf record: salvaged $(awk '/^samples/ { print $2 }' all.facts) records with the running kernel's event formats; 0 bytes at its end were not a whole record"* ]]
	cmp done.txt all.txt
	# killed inside a record: the whole ones read, the rest counted
	python3 "$TOP/tests/tools/perf_records.py" done.perf.data --kill cut.perf.data mid > cut.facts
	run --separate-stderr "$TA" -f cut.perf.data --salvage -c /dev/null
	[ "$status" -eq 0 ]
	samples=$(awk '/^samples/ { print $2 }' cut.facts)
	left=$(awk '/^left/ { print $2 }' cut.facts)
	[ "$left" -gt 0 ]
	[[ "$stderr" == *"salvaged $samples records with the running kernel's event formats; $left bytes at its end were not a whole record"* ]]
	[[ "$stderr" =~ kmem\ events\ read:\ +$samples$'\n' ]]
	# a tracepoint id the running kernel does not have: refused, not decoded with wrong fields
	python3 - all.perf.data other.perf.data <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
attrs, attr_size = struct.unpack_from('<Q', b, 24)[0], struct.unpack_from('<Q', b, 16)[0]
struct.pack_into('<Q', b, attrs + 8, 999999)	# the first attribute's config: its tracepoint id
open(sys.argv[2], 'wb').write(b)
PY
	run "$TA" -f other.perf.data --salvage -c other.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'other.perf.data' cannot be salvaged with this kernel's event formats: it recorded tracepoint id 999999, which is no tracepoint of the running kernel (was it recorded on another kernel?)" ]
	[ ! -e other.txt ]
	# the README's recipe, 'kmem:*': the tracepoints not analysed (kmem:rss_stat...) are read past
	perf record -q -e 'kmem:*' -o star.perf.data -- sh -c 'ls -R /usr/share/doc > /dev/null' 2> /dev/null
	"$TA" -q -f star.perf.data -c star.txt
	python3 "$TOP/tests/tools/perf_records.py" star.perf.data --kill star-killed.perf.data all > /dev/null
	run --separate-stderr "$TA" -f star-killed.perf.data --salvage -c star-killed.txt
	[ "$status" -eq 0 ]
	cmp star.txt star-killed.txt
}

@test "a perf.data of this kernel: /proc/kallsyms read only when -k or --kallsyms leaves an address unnamed" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to record with perf"
	command -v perf > /dev/null || skip "no perf (scripts/deps.sh)"
	command -v strace > /dev/null || skip "no strace (scripts/deps.sh)"
	[ -r /sys/kernel/tracing/events/kmem/kmalloc/id ] || skip "no tracefs at /sys/kernel/tracing"
	strace -o /dev/null true 2> /dev/null || skip "strace cannot trace here"
	perf record -q -e 'kmem:kmalloc,kmem:kfree' -o this.perf.data -- sh -c 'ls -R /usr/share/doc > /dev/null' 2> /dev/null
	cat /proc/kallsyms > this.kallsyms
	# LeakSanitizer cannot run under ptrace: the sanitizer build's leaks are checked elsewhere
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	# its own kernel's names, from /proc/kallsyms
	strace -f -e trace=openat -o plain.trace "$TA" -q -f this.perf.data -c plain.txt
	grep -q '"/proc/kallsyms"' plain.trace
	grep -q '+0x' plain.txt
	# the same names from a copy that names every address: /proc/kallsyms not opened
	strace -f -e trace=openat -o given.trace "$TA" -q -f this.perf.data --kallsyms this.kallsyms -c given.txt
	[ "$(grep -c '"/proc/kallsyms"' given.trace)" -eq 0 ]
	cmp plain.txt given.txt
	# a copy that names none of them: /proc/kallsyms read at the first, and the names are its
	echo "ffffffffffffff00 T above_every_address" > high.kallsyms
	strace -f -e trace=openat -o high.trace "$TA" -q -f this.perf.data --kallsyms high.kallsyms -c high.txt
	grep -q '"/proc/kallsyms"' high.trace
	cmp plain.txt high.txt
}

@test "a DB made from a perf.data or trace.dat speaks of records, as the capture does" {
	local f
	for f in "$FIX/compressed-z.perf.data" "$FIX/small-stacks.dat"; do
		"$TA" -q -f "$f" --save-db c.db --summary file.summary
		"$TA" -q -f c.db --summary db.summary
		cmp file.summary db.summary
		run --separate-stderr "$TA" -f c.db -c /dev/null
		[ "$status" -eq 0 ]
		[[ "$stderr" =~ "trace_analyze: summary of 'c.db' (made from '$f') (a "(perf.data|trace.dat)"): "[0-9]+" records, "[0-9]+" bytes" ]]
		[[ "$stderr" != *"lines skipped"* ]]
	done
}

@test "a binary capture's call sites in a module: named 'fn+0xoff [module]' from kallsyms, counted per module" {
	# independent: the bare addresses (no kallsyms) counted by the side of 0xffffffff82000000 they are on
	"$TA" -q -f "$FIX/small-stacks.dat" -c bare.csv --format csv 2> /dev/null
	# a kallsyms whose symbols from 0xffffffff82000000 up are a module's, one at the start of
	# each page a call site is in (a module's symbol names no address past the page after it)
	# (the perf.data's too, named with a kallsyms that names nothing)
	printf 'ffffffff81000000 T built_in_code\n' > ks
	"$TA" -q -f "$FIX/small-callchain.perf.data" --kallsyms ks -c pbare.csv --format csv 2> /dev/null
	python3 -c 'import csv, sys
pages = sorted({int(r["key"], 16) & ~0xfff for f in sys.argv[1:] for r in csv.DictReader(open(f))
                if r["key"].startswith("0x") and int(r["key"], 16) >= 0xffffffff82000000})
for p in pages:
    print("%x t page_%x\t[fakemod]" % (p, p))' bare.csv pbare.csv >> ks
	python3 - bare.csv > want <<'PY'
import csv, sys
n = {}
for r in csv.DictReader(open(sys.argv[1])):
    m = "fakemod" if int(r["key"], 16) >= 0xffffffff82000000 else "vmlinux"
    n[m] = n.get(m, 0) + int(r["alloc_count"])
for m in sorted(n):
    print(m, n[m])
PY
	"$TA" -q -f "$FIX/small-stacks.dat" --kallsyms ks -c mod.csv --group-by module --format csv
	python3 -c 'import csv, sys
for r in sorted(csv.DictReader(open(sys.argv[1])), key=lambda r: r["key"]):
    print(r["key"], r["alloc_count"])' mod.csv > got
	diff -u want got
	grep -q '^fakemod ' got
	"$TA" -q -f "$FIX/small-stacks.dat" --kallsyms ks -c - | grep -q '  page_ffffffff821d1000+0x5f \[fakemod\]$'
	# perf.data the same; --module keeps the module's allocations only
	"$TA" -q -f "$FIX/small-callchain.perf.data" --kallsyms ks -c p.json --module fakemod --format json
	[ "$(jq -r '[.callers[].key | select(endswith(" [fakemod]") | not)] | length' p.json)" = 0 ]
	[ "$(jq '.totals.allocs' p.json)" -gt 0 ]
}

@test "--modules with a trace.dat: read for its own kallsyms; a file that is no /proc/modules refused by its line; with a text log it needs --kallsyms" {
	"$TA" -q -f "$FIX/small-stacks.dat" --modules "$FIX/modules-6.12.txt" -c with.txt
	"$TA" -q -f "$FIX/small-stacks.dat" -c without.txt
	cmp with.txt without.txt	# its kallsyms name no module symbol
	printf 'ext4 1 0 - Live 0x0\nnot a modules line\n' > bad.modules
	run "$TA" -q -f "$FIX/small-stacks.dat" --modules bad.modules -c x.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: bad.modules:2: not a /proc/modules line ('name size refs deps state 0xaddress')" ]
	[ ! -e x.txt ]
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" --modules "$FIX/modules-6.12.txt" -c x.txt
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --modules says where the modules of a saved kallsyms lay: give that kallsyms too (--kallsyms FILE), or a trace.dat, whose kallsyms are inside it" ]
}
