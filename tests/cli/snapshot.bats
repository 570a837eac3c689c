#!/usr/bin/env bats
# trace_analyze snapshot: the kernel's memory files copied into a folder at
# one moment, byte for byte, with a file of its own saying when, where and
# what could not be read; --ledger reads the folder back. The 6.12 guest's
# files (tests/fixtures/ksnapshot-6.12-B) laid out as a kernel's under a test
# root (TA_TEST_SNAPSHOT_ROOT), then this machine's own kernel.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	SNAP="$FIX/ksnapshot-6.12-B"
	cd "$BATS_TEST_TMPDIR"
}

# a root holding SNAP's files where a 6.12 kernel has them
fake_root() {
	mkdir -p root/proc/sys/kernel/random root/sys/fs/cgroup/a root/sys/fs/cgroup/b root/sys/fs/cgroup/empty
	cp "$SNAP/meminfo" "$SNAP/slabinfo" "$SNAP/vmallocinfo" "$SNAP/zoneinfo" "$SNAP/buddyinfo" \
		"$SNAP/modules" root/proc/
	mkdir -p root/proc/1 root/proc/98 root/proc/self
	echo init > root/proc/1/comm
	echo 0::/ > root/proc/1/cgroup
	echo sh > root/proc/98/comm
	echo 0::/a > root/proc/98/cgroup
	mkdir -p root/dev	# /dev/kmsg's records: prio,seq,usec,flags;text, continuation lines
	printf '%s\n' '6,0,0,-;Linux version 6.12.48' \
		'6,1,0,-;Memory: 982040K/1048056K available (8192K kernel code, 1285K rwdata, 1820K rodata, 924K init, 4520K bss, 41552K reserved, 0K cma-reserved)' \
		' SUBSYSTEM=mem' > root/dev/kmsg
	echo "guest" > root/proc/sys/kernel/hostname
	echo "6.12.48" > root/proc/sys/kernel/osrelease
	echo "0d0c9e6e-6a7c-4a1b-9f59-3c5e2b4f9a10" > root/proc/sys/kernel/random/boot_id
	echo "cpu io memory pids" > root/sys/fs/cgroup/cgroup.controllers
	cp "$SNAP/cgroup/memory.stat" root/sys/fs/cgroup/
	for g in a b; do cp "$SNAP/cgroup/$g/memory.stat" "$SNAP/cgroup/$g/memory.current" root/sys/fs/cgroup/$g/; done
}

@test "a snapshot copies each file byte for byte, says what it could not read, and --ledger reads it" {
	fake_root
	run --separate-stderr env TA_TEST_SNAPSHOT_ROOT=root "$TA" snapshot -o out
	[ "$status" -eq 0 ]
	[ "$stderr" = "trace_analyze: snapshot 'out': 8 files of /proc, 3 cgroups, $(( $(cat "$SNAP"/meminfo "$SNAP"/slabinfo "$SNAP"/vmallocinfo "$SNAP"/zoneinfo "$SNAP"/buddyinfo "$SNAP"/modules "$SNAP"/cgroup/memory.stat "$SNAP"/cgroup/?/memory.* | wc -c) + 24 + 161 )) bytes; 2 not read (see out/snapshot)" ]
	# the kernel's log, each record's text (the boot's Memory: line for the ledger)
	[ "$(cat out/dmesg)" = "$(printf '%s\n' 'Linux version 6.12.48' 'Memory: 982040K/1048056K available (8192K kernel code, 1285K rwdata, 1820K rodata, 924K init, 4520K bss, 41552K reserved, 0K cma-reserved)')" ]
	# each process's pid, name and cgroup line, for --cgroup-map
	[ "$(cat out/pids)" = "$(printf '1\tinit\t0::/\n98\tsh\t0::/a')" ]
	for f in meminfo slabinfo vmallocinfo zoneinfo buddyinfo modules cgroup/memory.stat cgroup/a/memory.stat cgroup/a/memory.current cgroup/b/memory.current; do
		cmp "$SNAP/$f" "out/$f"
	done
	[ ! -e out/cgroup/empty ]	# a group with no memory file makes no folder
	grep -qx "host: guest" out/snapshot
	grep -qx "release: 6.12.48" out/snapshot
	grep -qx "boot_id: 0d0c9e6e-6a7c-4a1b-9f59-3c5e2b4f9a10" out/snapshot
	grep -qx "missing: allocinfo: no /proc/allocinfo (a kernel built without CONFIG_MEM_ALLOC_PROFILING)" out/snapshot
	grep -qx "missing: vmstat: No such file or directory" out/snapshot
	grep -qE "^monotonic: [0-9]+\.[0-9]{9}$" out/snapshot
	# the ledger of the copy is the fixture's without those two; the summary names where it was taken
	cp -r "$SNAP" ref
	rm -f ref/allocinfo ref/vmstat
	"$TA" -q -f ref --ledger a.txt
	run --separate-stderr "$TA" -f out --ledger b.txt
	[ "$status" -eq 0 ]
	diff_or_fail a.txt b.txt
	[[ "${stderr_lines[0]}" = "trace_analyze: kernel snapshot 'out': meminfo (40 fields), slabinfo (127 caches), vmallocinfo (173 areas), modules (11), zoneinfo, buddyinfo, 3 zones, 3 cgroups; taken on guest (6.12.48) "*" s after boot" ]]
}

@test "snapshot of this machine's kernel: meminfo at least, every other file copied or said missing" {
	[ -r /proc/meminfo ] || skip "no /proc/meminfo"
	run --separate-stderr "$TA" snapshot -o here
	[ "$status" -eq 0 ]
	grep -qx "release: $(uname -r)" here/snapshot
	[ ! -r /proc/sys/kernel/random/boot_id ] || grep -qx "boot_id: $(cat /proc/sys/kernel/random/boot_id)" here/snapshot
	for f in meminfo slabinfo vmallocinfo allocinfo vmstat zoneinfo buddyinfo modules; do
		[ -e "here/$f" ] || grep -q "^missing: $f: " here/snapshot || { echo "$f: neither"; return 1; }
	done
	[ "$(head -n 1 here/meminfo | cut -d: -f1)" = MemTotal ]
	"$TA" -q -f here --ledger l.csv --format csv
	[ "$(grep '^MemTotal,' l.csv | cut -d, -f3)" = "$(($(awk '/^MemTotal:/ { print $2 }' here/meminfo) * 1024))" ]
}

@test "snapshot: a folder of its own, -o required, a series with --interval and --count" {
	fake_root
	mkdir full && touch full/x
	run env TA_TEST_SNAPSHOT_ROOT=root "$TA" snapshot -o full
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'full' is not an empty folder: a snapshot goes in a folder of its own" ]
	run "$TA" snapshot
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: name the folder: -o DIR (or the metrics' file: --openmetrics FILE)" ]
	run "$TA" snapshot -o s --count 2
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --interval and --count go together: a series of N snapshots, one every S seconds" ]
	TA_TEST_SNAPSHOT_ROOT=root "$TA" snapshot -q -o series --interval 0.01 --count 2
	cmp series/1/meminfo "$SNAP/meminfo"
	cmp series/2/meminfo "$SNAP/meminfo"
	rm root/proc/meminfo
	run env TA_TEST_SNAPSHOT_ROOT=root "$TA" snapshot -o none
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot read 'root/proc/meminfo': No such file or directory" ]
}
