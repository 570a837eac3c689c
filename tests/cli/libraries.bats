#!/usr/bin/env bats
# Libraries opened when they are used (src/base/lazylib.c): a text log or a
# DB maps none of the optional ones, and a broken one (here an empty file
# that LD_LIBRARY_PATH puts first) fails only the input or output that
# needs it, with the loader's reason, while the rest still runs.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	LOG="$FIX/trace-pipe-6.18.log"
	mkdir broken
}

# break_library SONAME...: an empty file of that name in ./broken
break_library() {
	local so
	for so in "$@"; do
		: > "broken/$so"
	done
}

# run_broken ARGS...: run ARGS with ./broken searched first
run_broken() {
	run env LD_LIBRARY_PATH="$BATS_TEST_TMPDIR/broken" "$@"
}

OPTIONAL="libtracecmd libtracefs libtraceevent libelf libncursesw libtinfo libz.so liblzma libzstd libcairo"

@test "the binary links none of the optional libraries" {
	run readelf -d "$TA"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Shared library: [libc.so.6]"* ]]
	for lib in $OPTIONAL; do
		if [[ "$output" == *"[$lib"* ]]; then
			echo "linked: $lib"
			return 1
		fi
	done
}

@test "a text log, its DB and their reports need none of them" {
	break_library libtracecmd.so.1 libtracefs.so.1 libtraceevent.so.1 libelf.so.1 \
		libncursesw.so.6 libtinfo.so.6 libz.so.1 liblzma.so.5 libzstd.so.1 libcairo.so.2
	"$TA" -q -f "$LOG" -c expected.account --stats expected.stats
	run_broken "$TA" -q -f "$LOG" -c plain.account --stats plain.stats --save-db log.db
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	diff_or_fail expected.account plain.account
	diff_or_fail expected.stats plain.stats
	run_broken "$TA" -q --db-file log.db -c db.account
	[ "$status" -eq 0 ]
	diff_or_fail expected.account db.account
}

@test "a broken trace library fails a trace.dat and a perf.data, not a text log" {
	break_library libtracecmd.so.1
	run_broken "$TA" -q -f "$FIX/small-stacks.dat" -c dat.account
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot load the trace libraries to read a trace.dat: $BATS_TEST_TMPDIR/broken/libtracecmd.so.1: file too short" ]
	[ ! -e dat.account ]
	run_broken "$TA" -q -f "$FIX/small-callchain.perf.data" -c perf.account
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot load the trace libraries to read a perf.data: $BATS_TEST_TMPDIR/broken/libtracecmd.so.1: file too short" ]
	run_broken "$TA" -q -f "$LOG" -c text.account
	[ "$status" -eq 0 ]
	[ -s text.account ]
}

@test "a broken libzstd fails a .zst log, from a file or a pipe; gzip still reads" {
	break_library libzstd.so.1
	zstd -q -c < "$LOG" > log.zst
	gzip -c < "$LOG" > log.gz
	run_broken "$TA" -q -f log.zst -c zst.account
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot load libzstd to read 'log.zst': $BATS_TEST_TMPDIR/broken/libzstd.so.1: file too short" ]
	run env LD_LIBRARY_PATH="$BATS_TEST_TMPDIR/broken" sh -c '"$1" -q -f - -c pipe.account < log.zst' sh "$TA"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot load libzstd to read 'standard input': $BATS_TEST_TMPDIR/broken/libzstd.so.1: file too short" ]
	"$TA" -q -f "$LOG" -c plain.account
	run_broken "$TA" -q -f log.gz -c gz.account
	[ "$status" -eq 0 ]
	diff_or_fail plain.account gz.account
}

@test "a broken libelf fails the kernel tree, with its reason" {
	mkdir -p linux/mm
	echo 'long slub_table[8] = { 1 };' > linux/mm/slub.c
	gcc -O2 -c linux/mm/slub.c -o linux/mm/slub.o
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > linux/Makefile
	break_library libelf.so.1
	run_broken "$TA" -q -k linux -c tree.account
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot load libelf to read kernel objects: $BATS_TEST_TMPDIR/broken/libelf.so.1: file too short" ]
	run "$TA" -q -k linux -c tree.account
	[ "$status" -eq 0 ]
	grep -q 'mm' tree.account
}

@test "a broken zlib fails the pprof profile and writes none" {
	break_library libz.so.1
	run_broken "$TA" -q -f "$LOG" --pprof profile.pb.gz
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot load zlib to compress the profile: $BATS_TEST_TMPDIR/broken/libz.so.1: file too short" ]
	[ ! -e profile.pb.gz ]
}

@test "a broken ncurses stops top on a terminal, with its reason" {
	command -v script > /dev/null || skip "no script(1)"
	break_library libncursesw.so.6
	# stdin from /dev/null: script(1) copies its stdin to the terminal, and
	# under CI, whose stdin is closed, fd 0 could be its own output pipe
	run script -qec "env LD_LIBRARY_PATH='$BATS_TEST_TMPDIR/broken' '$TA' top --interval 0.5" \
		/dev/null < /dev/null
	[ "$status" -eq 1 ]
	[[ "$output" == "trace_analyze: error: cannot load ncurses to draw on the terminal: $BATS_TEST_TMPDIR/broken/libncursesw.so.6: file too short"* ]]
}
