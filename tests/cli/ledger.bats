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
	# the free pages on the CPUs' lists, which MemFree leaves out: zoneinfo's pagesets' counts
	[ "${lines[5]}" = "free on CPU lists   free            7950336        0.77%  zoneinfo: every pageset's count (per-CPU free pages, not in MemFree)" ]
	[ "$(awk '$1 == "count:" { s += $2 } END { print s * 4096 }' "$SNAP/zoneinfo")" = 7950336 ]
	# the kernel's lines: SUnreclaim 22412 kB, and vmalloc without the thread stacks that
	# vmallocinfo shows vmalloc'd by kernel_clone: VmallocUsed 1952 - KernelStack 948 kB
	[ "${lines[11]}" = "slab unreclaimable  kernel         22949888        2.22%  meminfo: SUnreclaim" ]
	[ "${lines[12]}" = "vmalloc             kernel          1028096        0.10%  meminfo: VmallocUsed - KernelStack (vmallocinfo: the stacks are vmalloc'd)" ]
	# the pages allocinfo tags and no meminfo field counts: the trace ring buffer's, page_ext's...
	[ "${lines[16]}" = "other pages         kernel        108634112       10.50%  allocinfo: the sites of whole pages outside the allocators of the lines above" ]
	[ "${lines[17]}" = "unexplained         unexplained     2129920        0.21%  MemTotal - every line above" ]
	[ "$stderr" = "trace_analyze: kernel snapshot '$SNAP': meminfo (40 fields), slabinfo (127 caches), vmallocinfo (173 areas), allocinfo (1561 sites), modules (11), zoneinfo, buddyinfo, 3 zones, vmstat (59 fields), 3 cgroups" ]
	# every line, and the finer files' sums, as the reference adds them
	"$TA" -q -f "$SNAP" --ledger l.csv --format csv
	python3 "$TOP/tests/tools/ref_ledger.py" "$SNAP" > ref.txt
	[ "$(python3 -c 'import csv, sys; [print(r["line"], r["bytes"]) for r in csv.DictReader(open(sys.argv[1]))]' l.csv)" = "$(head -n 15 ref.txt)" ]
	[ "$(grep '^slab_totals,slab_bytes,' l.totals.csv | cut -d, -f3)" = "$(awk '$1 == "slab_bytes" { print $2 }' ref.txt)" ]
	[ "$(grep '^vmalloc_totals,vmalloc_page_bytes,' l.totals.csv | cut -d, -f3)" = "$(awk '$1 == "vmalloc_page_bytes" { print $2 }' ref.txt)" ]
	[ "$(grep '^cgroup_gap,not_charged_bytes,' l.values.csv | cut -d, -f3)" = "$(awk '$1 == "not_charged_bytes" { print $2 }' ref.txt)" ]
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
	[ "${lines[0]}" = "trace_analyze: error: '$SNAP' is a kernel snapshot: -c needs a kmem log's events or allocinfo (a kernel snapshot gives --ledger and --html)" ]
	run "$TA" -f "$FIX/trace-pipe-6.18.log" --ledger -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --ledger needs a kernel snapshot: -f DIR (a folder with meminfo, as 'trace_analyze snapshot' writes it), a series of them, one of its files (-f /proc/meminfo), or a log recorded with them beside it" ]
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
	! grep -q '^percpu  *kernel' <<< "$output"
}

@test "what a kernel snapshot cannot take is refused from a pipe too, and diff refuses one" {
	run "$TA" -f - --ledger - --save-db x.db < "$SNAP/meminfo"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'standard input' is a kernel snapshot: it has no events or sites to filter, group or place (--comm, --pid, --gfp, --module, --time, --group-by, -b), save (--save-db) or put beside (--allocinfo)" ]
	[ ! -e x.db ]
	run "$TA" diff "$SNAP" "$SNAP"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$SNAP' is a kernel snapshot: diff compares kmem logs, DBs and allocinfo snapshots (two kernel snapshots: trace_analyze -f OLD NEW --ledger - gives each line's change)" ]
	run "$TA" -f nonexistent --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open 'nonexistent': No such file or directory" ]
	printf 'slabinfo - version: 2.1\n# name\nbad -5 1 64 1 1 : tunables 0 0 0 : slabdata 1 1 0\n' > neg
	mkdir n && cp "$SNAP/meminfo" n/ && cp neg n/slabinfo
	run "$TA" -f n --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'n/slabinfo' line 3 is not a slabinfo 2.1 row of a machine (a count below zero or past 2^33)" ]
}

@test "a series A, B, C of one boot: each line at each moment, its change, and what grew most" {
	run --separate-stderr "$TA" -f "$FIX/ksnapshot-6.12-A" "$SNAP" "$FIX/ksnapshot-6.12-C" --ledger - --top 3
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "where MemTotal went at each snapshot (bytes)" ]
	# SUnreclaim 15068, 22412, 19512 kB (the corpus README's figures)
	[ "${lines[11]}" = "slab unreclaimable  kernel               15429632          22949888          19980288       +4550656  meminfo: SUnreclaim" ]
	[ "${lines[19]}" = "kind       name                                  first       last      change" ]
	[ "${lines[21]}" = "allocinfo  mm/shmem.c:1812 shmem_alloc_folio   7266304  115904512  +108638208" ]
	[ "${#stderr_lines[@]}" -eq 3 ]
	[[ "${stderr_lines[1]}" == "trace_analyze: kernel snapshot '$SNAP': meminfo (40 fields), slabinfo (127 caches), vmallocinfo (173 areas), allocinfo (1561 sites), modules (11), zoneinfo, buddyinfo, 3 zones, vmstat (59 fields), 3 cgroups" ]]
	# what grew most, counted here from the files of A and C: allocinfo's sites, slab
	# caches (slabs x pages), vmalloc callers (pages), modules, cgroups
	"$TA" -q -f "$FIX/ksnapshot-6.12-A" "$SNAP" "$FIX/ksnapshot-6.12-C" --ledger s.csv --format csv
	python3 - "$FIX/ksnapshot-6.12-A" "$FIX/ksnapshot-6.12-C" > want.csv <<'PY'
import os, sys
def things(d):
    t = {}
    def add(k, v): t[k] = t.get(k, 0) + v
    for l in open(os.path.join(d, "allocinfo")):
        f = l.split()
        if l.startswith(("allocinfo", "#")): continue
        mod = [w[1:-1] for w in f[3:] if w.startswith("[")]
        add(("allocinfo", f[2] + " " + [w for w in f if w.startswith("func:")][0][5:] + (" [%s]" % mod[0] if mod else "")), int(f[0]))
    for l in open(os.path.join(d, "slabinfo")).readlines()[2:]:
        f = l.split(); add(("slab", f[0]), int(f[14]) * int(f[5]) * 4096)
    for l in open(os.path.join(d, "vmallocinfo")):
        f = l.split(); c = [w.split("+")[0] for w in f[2:] if "+" in w]
        add(("vmalloc", c[0] if c else "(%s)" % f[-1]), 4096 * sum(int(w[6:]) for w in f if w.startswith("pages=")))
    for l in open(os.path.join(d, "modules")):
        add(("module", l.split()[0]), int(l.split()[1]))
    return t
a, c = things(sys.argv[1]), things(sys.argv[2])
grew = sorted(((c.get(k, 0) - a.get(k, 0), k) for k in set(a) | set(c)), key=lambda x: (-x[0], x[1]))
for g, (kind, name) in grew[:3]:
    print("%s,%s,%d,%d,+%d" % (kind, name, a.get((kind, name), 0), c.get((kind, name), 0), g))
PY
	[ "$(tail -n +2 s.grew_most.csv | head -n 3)" = "$(cat want.csv)" ]
	python3 "$TOP/tests/tools/check_consumers.py" csv s.csv
	"$TA" -q -f "$FIX/ksnapshot-6.12-A" "$SNAP" "$FIX/ksnapshot-6.12-C" --ledger s.json --format json
	python3 "$TOP/tests/tools/check_consumers.py" json s.json
	[ "$(jq -c '[.ledger_series[] | select(.line == "unexplained") | .bytes_1, .bytes_2, .bytes_3, .change]' s.json)" = "[2072576,2129920,1708032,-364544]" ]
}

# folder NAME BOOT_ID SECONDS: the B fixture with a snapshot file of that boot and time
stamped() {
	cp -r "$SNAP" "$1"
	chmod -R u+w "$1"
	printf 'monotonic: %s\nrealtime: 1764000000.000000000\nhost: guest\nrelease: %s\nboot_id: %s\n' \
		"$3" "${4:-6.12.117}" "$2" > "$1/snapshot"
}

@test "a series is one boot's, in time order: two boots, two kernels or a later one first are refused" {
	stamped one 11111111-aaaa 100.5
	stamped two 22222222-bbbb 200.5
	run "$TA" -f one two --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'one' and 'two' are of two boots (boot id 11111111-aaaa, then 22222222-bbbb): a series is one boot's" ]
	stamped later 11111111-aaaa 300.25 6.12.118
	run "$TA" -f one later --ledger -
	[ "$output" = "trace_analyze: error: 'one' and 'later' are of two kernels (6.12.117, then 6.12.118): a series is one boot's" ]
	stamped earlier 11111111-aaaa 50
	run "$TA" -f one earlier --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'earlier' was taken before 'one' (100.500 s, then 50.000 s since boot): give a series in time order" ]
	# a folder without the snapshot file is taken with its time unknown
	run --separate-stderr "$TA" -f one "$SNAP" --ledger s.csv --format csv
	[ "$status" -eq 0 ]
	[ "$(cut -d, -f1,3-6 s.snapshots.csv)" = "$(printf 'column,seconds_since_boot,host,release,boot_id\none,100.500000,guest,6.12.117,11111111-aaaa\nksnapshot-6.12-B,,,,')" ]
	# anything but a kernel snapshot in a series is a usage error; a missing one the run's
	run "$TA" -f one "$FIX/trace-pipe-6.18.log" --ledger -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$FIX/trace-pipe-6.18.log' is no kernel snapshot: a series after 'one' is of folders as trace_analyze snapshot writes them (or of /proc/meminfo files), in time order" ]
	run "$TA" -f one gone --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open 'gone': No such file or directory" ]
	run "$TA" -f one "$SNAP/slabinfo" --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: '$SNAP/slabinfo' is no /proc/meminfo: a series of files is of meminfo (or of folders)" ]
}

@test "each of the kernel's memory files alone, known by its first line, from a file or a pipe" {
	for f in slabinfo vmallocinfo vmstat zoneinfo buddyinfo modules; do
		"$TA" -q -f "$SNAP/$f" --ledger file.txt
		"$TA" -q -f - --ledger pipe.txt < "$SNAP/$f"
		diff_or_fail file.txt pipe.txt
	done
	# what each gives, checked against the file by awk: the free blocks' pages of each
	# order, the present pages, the modules' sizes
	"$TA" -q -f "$SNAP/buddyinfo" --ledger b.csv --format csv
	[ "$(tail -n 1 b.csv)" = "10,193,$((193 * 1024 * 4096))" ]
	[ "$(grep buddy_bytes b.totals.csv | cut -d, -f3)" = "$(awk '{ for (i = 5; i <= NF; i++) s += $i * 2 ^ (i - 5) } END { printf "%d", s * 4096 }' "$SNAP/buddyinfo")" ]
	"$TA" -q -f "$SNAP/zoneinfo" --ledger z.csv --format csv
	[ "$(grep present_bytes z.csv | cut -d, -f3)" = "$(awk '$1 == "present" { s += $2 } END { print s * 4096 }' "$SNAP/zoneinfo")" ]
	"$TA" -q -f "$SNAP/modules" --ledger m.csv --format csv
	[ "$(grep module_bytes m.static.csv | cut -d, -f3)" = "$(awk '{ s += $2 } END { print s }' "$SNAP/modules")" ]
	[ "$(sed -n 2p m.csv)" = "ext4,692224,Live" ]
	# vmstat's free pages beside meminfo's, in a folder
	"$TA" -q -f "$SNAP" --ledger f.json --format json
	[ "$(jq -c '.free_totals' f.json)" = '{"buddy_bytes":818499584,"meminfo_free":818528256,"vmstat_free":818528256}' ]
	# a file of none of these kinds, and broken ones, named by line
	run "$TA" -f - --ledger - < "$SNAP/cgroup/a/memory.current"
	[ "$status" -eq 1 ]
	cp -r "$SNAP" bad
	chmod -R u+w bad
	sed -i 's/present  262014/present  many/' bad/zoneinfo
	run "$TA" -f bad --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad/zoneinfo' line $(grep -n 'present  262014' "$SNAP/zoneinfo" | cut -d: -f1) is not a zoneinfo line (spanned, present, managed or count: N)" ]
	# cut at a line's end inside the pagesets: its free pages on the CPUs' lists would be short
	head -n "$(grep -n 'count:' "$SNAP/zoneinfo" | head -1 | cut -d: -f1)" "$SNAP/zoneinfo" > bad/zoneinfo
	run "$TA" -f bad --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad/zoneinfo': zone DMA32 of node 0 has no start_pfn line, which follows its pagesets: the file is cut" ]
	# a machine of 32 TiB and more has zones that start past pfn 2^33: read all the same
	sed 's/start_pfn:  *[0-9]*/start_pfn:           9999999999/' "$SNAP/zoneinfo" > bad/zoneinfo
	"$TA" -q -f bad --ledger z2.csv --format csv
	[ "$(grep '^free on CPU lists,' z2.csv | cut -d, -f3)" = 7950336 ]
	cp "$SNAP/zoneinfo" bad/zoneinfo
	printf 'Node 0, zone    DMA32      1      2 x\n' > bad/buddyinfo
	run "$TA" -f bad --ledger -
	[ "$output" = "trace_analyze: error: 'bad/buddyinfo' line 1 is not a buddyinfo row (Node N, zone NAME, at most 16 counts)" ]
	cp "$SNAP/buddyinfo" bad/buddyinfo
	head -c 100 "$SNAP/modules" > bad/modules
	run "$TA" -f bad --ledger -
	[ "$output" = "trace_analyze: error: 'bad/modules' is cut: its last line has no newline" ]
	printf 'ext4 692224 1 - Live 0xffffffffa005f000\nnot a module row\n' > bad/modules
	run "$TA" -f bad --ledger -
	[ "$output" = "trace_analyze: error: 'bad/modules' line 2 is not a /proc/modules row (name size refs deps state address)" ]
	: > bad/modules	# no module loaded: an empty file
	"$TA" -q -f bad --ledger e.json --format json
	[ "$(jq -c '.static | [.modules, .module_bytes]' e.json)" = "[0,0]" ]
}

@test "a host of 3000 cgroups: every group read in bounded memory, --top N of them by kernel memory" {
	cp -r "$SNAP" many
	chmod -R u+w many
	# 3000 groups under /pods, each charged i * 4096 bytes of kernel memory
	python3 - many/cgroup <<'PY'
import os, sys
for i in range(1, 3001):
    d = os.path.join(sys.argv[1], "pods", "pod%04d" % i)
    os.makedirs(d)
    with open(os.path.join(d, "memory.stat"), "w") as f:
        f.write("anon 0\nfile 0\nkernel %d\nslab %d\n" % (i * 4096, i * 1024))
        f.write("".join("k%d %d\n" % (j, j) for j in range(40)))  # keys a 6.12 kernel has besides
    with open(os.path.join(d, "memory.current"), "w") as f:
        f.write("%d\n" % (i * 8192))
PY
	"$TA" -q -f many --ledger all.csv --format csv
	[ "$(tail -n +2 all.cgroups.csv | wc -l)" -eq 3003 ]
	"$TA" -q -f many --ledger top.csv --format csv --top 3
	[ "$(cut -d, -f1,3 top.cgroups.csv | tail -n +2 | tr '\n' ' ')" = "/pods/pod3000,12288000 /pods/pod2999,12283904 /pods/pod2998,12279808 " ]
	# the memory it took, measured by the kernel: well under 32 MB for these 3003 groups (100,000 took 23 MB here)
	rss=$(python3 -c 'import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' \
		"$TA" -q -f many --ledger /dev/null)
	# (the sanitized build's shadow memory is no measure of it)
	[[ "$TA" == */san/* ]] || [ "$rss" -lt 32768 ]
}

@test "--html of a kernel snapshot, or of a series: the ledger first, MemTotal as one bar, no script error" {
	command -v chromium > /dev/null || skip "no chromium (scripts/deps.sh installs it)"
	"$TA" -q -f "$FIX/ksnapshot-6.12-A" "$SNAP" "$FIX/ksnapshot-6.12-C" --html series.html --ledger s.json --format json
	"$TA" -q -f "$SNAP" --html one.html
	for page in series one; do
		chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chrome" \
			--enable-logging=stderr --v=0 --virtual-time-budget=5000 \
			--dump-dom "file://$BATS_TEST_TMPDIR/$page.html" > $page.dom 2> console.txt
		grep -q 'data-ready="1"' $page.dom
		! grep -q 'data-errors=' $page.dom || { grep -o 'data-errors="[^"]*"' $page.dom; false; }
		# the ledger's section shown, the log's hidden; the bar's pieces are the lines
		grep -q '<section id="ledger"><h2>' $page.dom
		grep -q '<section id="table" hidden=""' $page.dom
		[ "$(grep -o '<rect [^>]*stroke="#fff"' $page.dom | wc -l)" -ge 10 ]
	done
	# the headline: the last snapshot's kernel lines and unexplained, as the JSON has them
	kernel=$(jq '[.ledger_series[] | select(.part == "kernel") | .bytes_3] | add' s.json)
	[ "$kernel" = 130699264 ]
	grep -q '<p class="headline" id="ledger-headline"><strong>124.6 MiB</strong> in the kernel.s counted lines, <strong>1668.0 KiB</strong> unexplained' series.dom
	# a series' columns are headed by its snapshots
	grep -q '<th class="name">line</th><th class="name">part</th><th>ksnapshot-6.12-A</th><th>ksnapshot-6.12-B</th><th>ksnapshot-6.12-C</th>' series.dom
	grep -q '<title>trace_analyze: ksnapshot-6.12-A ... ksnapshot-6.12-C (3 snapshots)</title>' series.dom
}

@test "the boot's Memory: line of a folder's dmesg: the kernel image's parts, as dmesg printed them" {
	"$TA" -q -f "$SNAP" --ledger m.json --format json
	line=$(grep '^Memory: ' "$SNAP/dmesg")
	kb() { sed -n "s/.*[ (]\([0-9]*\)K $1.*/\1/p" <<< "$line"; }
	[ "$(jq '.static.boot_kernel_code' m.json)" = $(( $(kb 'kernel code') * 1024 )) ]
	[ "$(jq '.static.boot_bss' m.json)" = $(( $(kb bss) * 1024 )) ]
	[ "$(jq '.static.boot_reserved' m.json)" = $(( $(kb reserved) * 1024 )) ]
	[ "$(jq '.static.boot_available' m.json)" = $(( 982040 * 1024 )) ]
	python3 "$TOP/tests/tools/check_consumers.py" json m.json
	# a Memory: line not of its form is named; a dmesg without one says nothing of it
	cp -r "$SNAP" bad
	chmod -R u+w bad
	sed -i 's/^Memory: .*/Memory: 1K\/2K available (garbled)/' bad/dmesg
	run "$TA" -f bad --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad/dmesg' line $(grep -n '^Memory: ' "$SNAP/dmesg" | cut -d: -f1) is not the boot's Memory: line (NK/NK available (NK kernel code, NK rwdata, NK rodata, NK init, NK bss, NK reserved ...))" ]
	grep -v '^Memory: ' "$SNAP/dmesg" > bad/dmesg
	"$TA" -q -f bad --ledger n.json --format json
	[ "$(jq '.static | has("boot_kernel_code")' n.json)" = false ]
}

@test "--ledger of a log recorded with its snapshots beside it: the series, and what the trace saw live" {
	xz -dc "$FIX/cgroups-6.12/kmem.log.xz" > k.log
	cp -r "$FIX/ksnapshot-6.12-A" k.log.snapshot-start
	cp -r "$FIX/ksnapshot-6.12-C" k.log.snapshot-end
	"$TA" -q -f k.log --ledger l.json --format json
	"$TA" -q -f k.log -c account.txt
	[ "$(jq -c '[.snapshots[].column]' l.json)" = '["k.log.snapshot-start","k.log.snapshot-end"]' ]
	# the trace's live slab bytes are its account's; the slab lines' change is meminfo's
	[ "$(jq .trace_live.slab_live_bytes l.json)" = "$(awk '/^current bytes allocated:/ { print $4 }' account.txt)" ]
	slab() { awk '$1 == "SReclaimable:" || $1 == "SUnreclaim:" { s += $2 } END { print s * 1024 }' "$1/meminfo"; }
	[ "$(jq .trace_live.slab_change_bytes l.json)" = $(( $(slab k.log.snapshot-end) - $(slab k.log.snapshot-start) )) ]
	python3 "$TOP/tests/tools/check_consumers.py" json l.json
	# without them, --ledger of a log is refused; record refuses --ledger
	cp k.log other.log
	run "$TA" -f other.log --ledger -
	[ "$status" -eq 2 ]
	run "$TA" record --ledger - -- true
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --ledger: record takes its kernel snapshots at its start and end beside the log; read them after it with trace_analyze -f LOG --ledger -" ]
}

@test "no output goes into a snapshot folder read; one folder twice, two machines or a cut zoneinfo are refused" {
	cp -r "$SNAP" s
	chmod -R u+w s
	run "$TA" -f s --ledger s/slabinfo
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: --ledger 's/slabinfo' would write into 's', the input of -f: refusing to write over an input" ]
	cmp "$SNAP/slabinfo" s/slabinfo
	run "$TA" -f "$FIX/ksnapshot-6.12-A" s --ledger s/new.csv --format csv
	[ "$status" -eq 2 ]
	[ ! -e s/new.csv ]
	run "$TA" -f s s --ledger -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: 's' is given twice: a series is of snapshots taken one after another" ]
	# another machine's meminfo, no snapshot file to tell: refused
	cp -r "$SNAP" other
	chmod -R u+w other
	sed -i 's/^MemTotal: .*/MemTotal:       24684084 kB/' other/meminfo
	run "$TA" -f s other --ledger -
	[ "$status" -eq 1 ]
	[[ "$output" == "trace_analyze: error: 's' and 'other' have another MemTotal (1034784768, then 25276502016 bytes)"* ]]
	head -n 30 "$SNAP/zoneinfo" > s/zoneinfo
	run "$TA" -f s --ledger -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 's/zoneinfo': zone DMA32 of node 0 has no present and managed lines: the file is cut" ]
}

@test "other pages: allocinfo's sites of whole pages that no meminfo line's allocator made, and the bound on them" {
	# constructed: one row per rule, beside the B fixture's meminfo and two vmalloc areas
	mkdir s
	cp "$SNAP/meminfo" s/
	cat > s/allocinfo <<'ROWS'
allocinfo - version: 1.0
#     <size>  <calls> <tag info>
        8192        2 kernel/trace/ring_buffer.c:2207 func:__rb_allocate_pages
        6144        1 drivers/x.c:10 func:odd_size
        4096        2 drivers/y.c:20 func:two_halves
       16384        4 mm/slub.c:2478 func:alloc_slab_page
       12288        3 arch/x86/mm/pgtable.c:33 func:pte_alloc_one
       20480        5 drivers/z.c:30 func:zz_map_alloc
       65536        1 fs/ext4/super.c:100 [ext4] func:ext4_big
ROWS
	printf '%s\n' '0x000000001234abcd-0x00000000aaaabbbb   24576 zz_map_alloc+0x1e/0x90 pages=5 vmalloc' \
		'0x00000000aaaabbbb-0x00000000ffff0000   12288 __kvmalloc_node_noprof+0x9b/0x3c0 pages=2 vmalloc' > s/vmallocinfo
	run --separate-stderr "$TA" -f s --ledger -
	[ "$status" -eq 0 ]
	# whole pages, in no counted allocator's file, of no vmalloc caller: the ring buffer's and ext4's;
	# not 6144 bytes, not 2 allocations of half a page, not slub's, the page tables' or a vmalloc caller's
	grep -q '^other pages         kernel            73728        0.01%  allocinfo: the sites of whole pages outside the allocators of the lines above$' <<< "$output"
	[ "$(sed -n '/^other pages: /,/^$/p' <<< "$output")" = "other pages: the allocation profile's sites of whole pages outside slab, percpu, vmalloc, user pages, page tables and stacks, most first
site                             function             module   bytes  allocations
---------------------------------------------------------------------------------
fs/ext4/super.c:100              ext4_big             ext4     65536            1
kernel/trace/ring_buffer.c:2207  __rb_allocate_pages  vmlinux   8192            2" ]
	# the bound: without slabinfo the whole of Slab; Percpu; the wrapper's 2 pages; never past the line
	[ "$(sed -n '/^of the other pages/,/^$/p' <<< "$output")" = "of the other pages, what another line may count too, at most (bytes)
the line's bytes:                                               73728
slab objects (no slabinfo: all of meminfo Slab):             27701248
percpu (meminfo Percpu):                                       598016
vmalloc areas of callers no site is of (vmallocinfo: pages):     8192
at most, in all (and never past the other pages):               73728" ]
	# with slabinfo: the objects of a page or more (64 of 5312 bytes: 83 whole pages a site
	# of them could show), held to their slabs; smaller ones never average a page a call
	printf '%s\n' 'slabinfo - version: 2.1' '# name <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>' \
		'task_struct           64     66   5312    6    8 : tunables    0    0    0 : slabdata     11     11      0' \
		'kmalloc-64         21952  21952     64   64    1 : tunables    0    0    0 : slabdata    343    343      0' > s/slabinfo
	run --separate-stderr "$TA" -f s --ledger -
	grep -q "^slab objects of a page or more (slabinfo: objects x size): *$((64 * 5312))\$" <<< "$output"
	# the cgroup gap counts what meminfo counts: this line is not in it
	"$TA" -q -f s --ledger s.json --format json
	python3 "$TOP/tests/tools/check_consumers.py" json s.json
	[ "$(jq '[.ledger[] | select(.line == "other pages") | .bytes] | add' s.json)" = 73728 ]
	# allocinfo's rows that do not parse are left out and said to be, -q or not
	cp s/allocinfo good
	sed -i '3i hello world this is junk' s/allocinfo
	run --separate-stderr "$TA" -q -f s --ledger -
	[ "$status" -eq 0 ]
	[ "$stderr" = "trace_analyze: warning: 1 row of 's/allocinfo' not parsed, not counted in the ledger: the first, line 3: 'hello world this is junk'" ]
	grep -q '^other pages         kernel            73728 ' <<< "$output"
	# allocinfo alone is the allocation profile: no ledger of it
	run "$TA" -f good --ledger -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: 'good' is an allocinfo snapshot: --ledger needs a kernel snapshot, a folder with meminfo (allocinfo beside it gives the ledger its sites) or /proc/meminfo" ]
	# without allocinfo there is no such line, and its memory is unexplained
	rm s/allocinfo s/slabinfo
	run --separate-stderr "$TA" -f s --ledger -
	! grep -q '^other pages' <<< "$output"
}
