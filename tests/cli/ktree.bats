#!/usr/bin/env bats
# The kernel-tree options on a tiny tree compiled here: which objects are
# taken, their static sizes, placing a call site, bad objects, the index
# file and its damage, and the usage rules of -b/-l/-r/-a/-i.

load ../lib/helpers

setup() {
	T="$BATS_TEST_TMPDIR/linux"
	mkdir -p "$T/fs/ext2" "$T/mm" "$T/scripts" "$T/drivers"
	# the top of a kernel tree, as Linux's Makefile starts
	printf '# SPDX-License-Identifier: GPL-2.0\nVERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' \
		> "$T/Makefile"
	cat > "$T/fs/ext2/inode.c" <<'EOF'
int ext2_counter = 1;			/* data: 4 */
const char ext2_banner[10] = "ext2";	/* rodata: 10 */
char ext2_buffer[100];			/* bss: 100 */
int ext2_iget(int x) { return x * ext2_counter + ext2_banner[0] + ext2_buffer[x]; }
EOF
	cat > "$T/mm/slub.c" <<'EOF'
long slub_table[8] = { 1 };		/* data: 64 */
void *kmalloc_order(int n) { return (void *)(long)(n + slub_table[n]); }
EOF
	echo 'int tool_main(void) { return 0; }' > "$T/scripts/tool.c"
	(cd "$T" && gcc -O2 -c fs/ext2/inode.c -o fs/ext2/inode.o &&
		gcc -O2 -c mm/slub.c -o mm/slub.o &&
		gcc -O2 -c scripts/tool.c -o scripts/tool.o &&
		cp mm/slub.o mm/built-in.o && cp mm/slub.o mm/orphan.o)
	TEXT_EXT2=$(readelf -sW "$T/fs/ext2/inode.o" | awk '$4 == "FUNC" {s += $3} END {print s}')
	TEXT_SLUB=$(readelf -sW "$T/mm/slub.o" | awk '$4 == "FUNC" {s += $3} END {print s}')
}

add_bad_objects() {
	echo 'this is not ELF' > "$T/drivers/junk.o"; : > "$T/drivers/junk.c"
	head -c 100 "$T/mm/slub.o" > "$T/drivers/cut.o"; : > "$T/drivers/cut.c"
}

@test "static-only: one row per directory, sizes by kind, scripts/ and orphans left out" {
	cd "$BATS_TEST_TMPDIR"
	run "$TA" -q -k "$T" -c static.csv --format csv
	[ "$status" -eq 0 ]
	total=$((TEXT_EXT2 + TEXT_SLUB + 4 + 10 + 100 + 64))
	[ "$(head -n 1 static.totals.csv)" = "block,key,value" ]
	grep -qx "totals,objects,2" static.totals.csv
	grep -qx "totals,static,$total" static.totals.csv
	[ "$(head -n 1 static.csv)" = "group_by,key,objects,text,data,rodata,bss,static" ]
	grep -qx "dir,.,2,$((TEXT_EXT2 + TEXT_SLUB)),68,10,100,$total" static.csv
	grep -qx "dir,fs,1,$TEXT_EXT2,4,10,100,$((TEXT_EXT2 + 114))" static.csv
	grep -qx "dir,fs/ext2,1,$TEXT_EXT2,4,10,100,$((TEXT_EXT2 + 114))" static.csv
	grep -qx "dir,mm,1,$TEXT_SLUB,64,0,0,$((TEXT_SLUB + 64))" static.csv
	! grep -q scripts static.csv
}

@test "a call site is placed in the object defining its function, by exact name" {
	printf '%s\n' \
		'  sh-1  [000] .....  1.000000: kmalloc: call_site=kmalloc_order+0x4/0x20 ptr=0000000000000001 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false' \
		'  sh-1  [000] .....  1.000001: kmalloc: call_site=kmalloc_order_trace+0x4/0x20 ptr=0000000000000002 bytes_req=10 bytes_alloc=16 gfp_flags=GFP_KERNEL node=-1 accounted=false' \
		'  sh-1  [000] .....  1.000002: kmalloc: call_site=ext2_iget+0x8/0x40 ptr=0000000000000003 bytes_req=30 bytes_alloc=32 gfp_flags=GFP_KERNEL node=-1 accounted=false' \
		> "$BATS_TEST_TMPDIR/log"
	run "$TA" -q -k "$T" -f "$BATS_TEST_TMPDIR/log" -l -
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf '%-60s %-8s %-8s %-8s' kmalloc_order+0x4 128 28 mm/slub.o)" ]
	[ "${lines[1]}" = "$(printf '%-60s %-8s %-8s %-8s' ext2_iget+0x8 32 2 fs/ext2/inode.o)" ]
	[ "${lines[2]}" = "$(printf '%-60s %-8s %-8s %-8s' kmalloc_order_trace+0x4 16 6 '(unknown)')" ]
	run "$TA" -q -k "$T" -f "$BATS_TEST_TMPDIR/log" -b mm/ -c -
	[ "${lines[5]}" = "number of callers:                1" ]
	[ "${lines[8]}" = "     128       28      128     1/0     kmalloc_order+0x4" ]
}

@test "objects that are not ELF or are truncated are skipped, named and counted" {
	add_bad_objects
	run "$TA" -k "$T" -c /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: object 'drivers/cut.o' skipped: truncated or unreadable ELF"* ]]
	[[ "$output" == *"warning: object 'drivers/junk.o' skipped: not an ELF file"* ]]
	[[ "$output" == *"objects skipped:   2 (not ELF 1, truncated or unreadable 1, no symbol table 0)"* ]]
}

@test "a tree without objects is an error that says what was looked for" {
	mkdir -p "$BATS_TEST_TMPDIR/empty/fs"
	cp "$T/Makefile" "$BATS_TEST_TMPDIR/empty/"
	run "$TA" -k "$BATS_TEST_TMPDIR/empty" -c /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == "trace_analyze: error: kernel tree '$BATS_TEST_TMPDIR/empty' has no objects: is it built?"* ]]
	run "$TA" -k "$BATS_TEST_TMPDIR/missing" -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open kernel tree '$BATS_TEST_TMPDIR/missing': No such file or directory" ]
}

@test "an index gives the same static table; a damaged one is refused by name" {
	idx="$BATS_TEST_TMPDIR/k.kidx"
	"$TA" -q -k "$T" --save-index "$idx"
	"$TA" -q -k "$T" -c "$BATS_TEST_TMPDIR/from-tree"
	"$TA" -q -k "$idx" -c "$BATS_TEST_TMPDIR/from-index"
	diff_or_fail "$BATS_TEST_TMPDIR/from-tree" "$BATS_TEST_TMPDIR/from-index"
	head -c 200 "$idx" > "$BATS_TEST_TMPDIR/cut.kidx"
	run "$TA" -k "$BATS_TEST_TMPDIR/cut.kidx" -c /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == "trace_analyze: error: '$BATS_TEST_TMPDIR/cut.kidx' is not a usable kernel index: "* ]]
	cp "$idx" "$BATS_TEST_TMPDIR/flipped.kidx"
	printf 'X' | dd of="$BATS_TEST_TMPDIR/flipped.kidx" bs=1 seek=300 conv=notrunc 2> /dev/null
	run "$TA" -k "$BATS_TEST_TMPDIR/flipped.kidx" -c /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == *"is not a usable kernel index: "*"checksum"* ]]
	run "$TA" -k "$FIX/tracefs-6.1-rawptr.log" -c /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == "trace_analyze: error: '$FIX/tracefs-6.1-rawptr.log' is not a usable kernel index: "* ]]
}

@test "usage: -b/-l/-r need -k, -l and dynamic -a need a log, -i needs -r" {
	run "$TA" -f "$FIX/tracefs-6.1-rawptr.log" -r x.png
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: -b, -l, -r and --save-index need a kernel tree (-k DIR)" ]
	run "$TA" -k "$T" -a waste
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "trace_analyze: error: --rings-attr waste needs a log (-f LOG or --db-file DB)"* ]]
	run "$TA" -k "$T" -l -
	[ "$status" -eq 2 ]
	run "$TA" -k "$T" -f "$FIX/tracefs-6.1-rawptr.log" -i
	[ "$status" -eq 2 ]
	run "$TA" -k "$T" -f "$FIX/tracefs-6.1-rawptr.log" -r x.png -a heap
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "trace_analyze: error: unknown --rings-attr 'heap'"* ]]
}

@test "-i without a display says it cannot show the chart, and still writes it" {
	run env -u DISPLAY -u WAYLAND_DISPLAY "$TA" -q -k "$T" -r "$BATS_TEST_TMPDIR/s.png" -i
	[ "$status" -eq 0 ]
	[ "$output" = "trace_analyze: warning: cannot show '$BATS_TEST_TMPDIR/s.png': no display (DISPLAY and WAYLAND_DISPLAY are unset)" ]
	[ -s "$BATS_TEST_TMPDIR/s.png" ]
}

@test "a chart that cannot be written is an error naming the file" {
	run "$TA" -q -k "$T" -r "$BATS_TEST_TMPDIR/no/such/dir/s.png"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot write '$BATS_TEST_TMPDIR/no/such/dir/s.png': No such file or directory" ]
}

@test "cairo is loaded only to draw: a broken libcairo fails the chart with its reason, not the account" {
	# not linked: every run would map cairo and the 17 libraries behind it
	run readelf -d "$TA"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Shared library: [libc.so.6]"* ]]
	[[ "$output" != *"libcairo"* ]]
	mkdir "$BATS_TEST_TMPDIR/lib"
	: > "$BATS_TEST_TMPDIR/lib/libcairo.so.2"
	run env LD_LIBRARY_PATH="$BATS_TEST_TMPDIR/lib" "$TA" -q -k "$T" -r "$BATS_TEST_TMPDIR/s.png"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot load cairo to draw: $BATS_TEST_TMPDIR/lib/libcairo.so.2: file too short" ]
	[ ! -e "$BATS_TEST_TMPDIR/s.png" ]
	run env LD_LIBRARY_PATH="$BATS_TEST_TMPDIR/lib" "$TA" -q -c "$BATS_TEST_TMPDIR/acc" \
		-f "$FIX/tracefs-6.1-rawptr.log"
	[ "$status" -eq 0 ]
	[ -s "$BATS_TEST_TMPDIR/acc" ]
	run "$TA" -q -k "$T" -r "$BATS_TEST_TMPDIR/s.png"
	[ "$status" -eq 0 ]
	[ "$(head -c 8 "$BATS_TEST_TMPDIR/s.png" | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ]
}

@test "a directory that is not a kernel tree is refused by every report that takes -k, nothing written" {
	# objects with their sources, as test leftovers in /tmp are: no kernel tree's top
	# (diff --static compares any two directories of objects: not a -k report)
	local d="$BATS_TEST_TMPDIR/scratch" log="$FIX/tracefs-6.1-rawptr.log" args
	mkdir -p "$d/leftover" "$BATS_TEST_TMPDIR/out"
	cd "$BATS_TEST_TMPDIR"
	cp "$T/mm/slub.c" "$T/mm/slub.o" "$d/leftover/"
	printf 'all:\n\ttrue\n' > "$d/Makefile"	# a Makefile, but not Linux's
	for args in "-f $log -l out/l.txt" "-f $log -c out/c.txt" "-f $log -r out/r.png" \
		"-f $log --group-by dir -c out/g.txt" "-f $log -b mm -c out/b.txt" \
		"-c out/s.txt" "-r out/s.png" "--save-index out/k.kidx" ""; do
		run "$TA" -q -k "$d" $args
		[ "$status" -eq 1 ] || { echo "exit $status with: $args"; return 1; }
		[ "$output" = "trace_analyze: error: '$d' is not a kernel tree: its top has no System.map, vmlinux or Linux Makefile (VERSION =, PATCHLEVEL =)" ] ||
			{ echo "with: $args: $output"; return 1; }
	done
	[ -z "$(ls "$BATS_TEST_TMPDIR/out")" ]
}
