#!/usr/bin/env bats
# Never destroy a log: an output that would overwrite an input, or another
# output, is a usage error (exit 2) that names both options and writes
# nothing; outputs are written whole or not at all, so an error or Ctrl-C
# in the middle leaves the file that was there before.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	cp "$FIX/trace-pipe-6.18.log" victim.log
}

# intact FILE: still the fixture, byte for byte
intact() {
	cmp "$FIX/trace-pipe-6.18.log" "$1"
}

@test "-c naming the log: exit 2, both options named, the log unchanged" {
	run "$TA" -q -f victim.log -c victim.log
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: -c 'victim.log' would overwrite the input of -f: refusing to write over an input" ]
	intact victim.log
}

@test "--save-db naming the log: exit 2, the log unchanged" {
	run "$TA" -q -f victim.log --save-db victim.log
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: --save-db 'victim.log' would overwrite the input of -f: refusing to write over an input" ]
	intact victim.log
	[ -z "$(ls | grep '\.tmp\.')" ]
}

@test "-c and --save-db naming one file: exit 2, the DB there is kept" {
	"$TA" -q -f victim.log --save-db a.txt
	cp a.txt a.before
	run "$TA" -q -f victim.log -c a.txt --save-db a.txt
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: -c 'a.txt' and --save-db 'a.txt' would write the same file: give each output a file of its own" ]
	cmp a.before a.txt
}

@test "the log through a symlink, a ./ prefix, another path, or standard input: refused" {
	ln -s victim.log link.log
	mkdir sub
	run "$TA" -q -f victim.log -c link.log
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: -c 'link.log' would overwrite 'victim.log', the input of -f: refusing to write over an input" ]
	run "$TA" -q -f victim.log --summary ./victim.log
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: --summary './victim.log' would overwrite 'victim.log', the input of -f: refusing to write over an input" ]
	run "$TA" -q -f "$BATS_TEST_TMPDIR/victim.log" --stats sub/../victim.log
	[ "$status" -eq 2 ]
	run "$TA" -q -f - --outstanding victim.log < victim.log
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: --outstanding 'victim.log' would overwrite the file on standard input, the input of -f -: refusing to write over an input" ]
	[ -L link.log ]
	intact victim.log
}

@test "every report option is checked against the log" {
	for opt in -c --summary --stats --outstanding --page --save-db; do
		run "$TA" -q -f victim.log "$opt" victim.log
		[ "$status" -eq 2 ] || { echo "$opt: $status $output"; false; }
		[[ "$output" == "trace_analyze: error: $opt 'victim.log' would overwrite the input of -f"* ]]
	done
	intact victim.log
}

@test "the inputs of a run from a DB, an index and a System.map are protected too" {
	"$TA" -q -f victim.log --save-db kmem.db
	cp kmem.db kmem.before
	run "$TA" -q --db-file kmem.db -c kmem.db
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: -c 'kmem.db' would overwrite the input of --db-file: refusing to write over an input" ]
	cmp kmem.before kmem.db
	cp "$FIX/old-2.6.System.map" System.map
	run "$TA" -q --system-map System.map -f "$FIX/old-2.6-hex.log" --stats System.map
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: --stats 'System.map' would overwrite the input of --system-map: refusing to write over an input" ]
	cmp "$FIX/old-2.6.System.map" System.map
}

@test "-k: the tree's System.map and an index given to -k are inputs" {
	mkdir -p tree/mm
	echo 'int f(void) { return 1; }' > tree/mm/a.c
	gcc -c tree/mm/a.c -o tree/mm/a.o
	cp "$FIX/old-2.6.System.map" tree/System.map
	run "$TA" -q -k tree -f victim.log -c tree/System.map
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: -c 'tree/System.map' would overwrite the input of -k: refusing to write over an input" ]
	cmp "$FIX/old-2.6.System.map" tree/System.map
	"$TA" -q -k tree --save-index k.kidx
	cp k.kidx k.before
	run "$TA" -q -k k.kidx -f victim.log -l k.kidx
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: -l 'k.kidx' would overwrite the input of -k: refusing to write over an input" ]
	run "$TA" -q -k k.kidx --save-index ./k.kidx
	[ "$status" -eq 2 ]
	cmp k.before k.kidx
}

@test "two outputs not there yet but one path: exit 2, neither is created" {
	run "$TA" -q -f victim.log -c new.txt --stats ./new.txt --summary other.txt
	[ "$status" -eq 2 ]
	[ "$output" = "trace_analyze: error: -c 'new.txt' and --stats './new.txt' would write the same file: give each output a file of its own" ]
	[ ! -e new.txt ] && [ ! -e other.txt ]
}

@test "standard output and /dev/null may take several outputs" {
	run "$TA" -q -f victim.log -c - --stats - --summary /dev/null --page /dev/null
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "current bytes allocated:       2128" ]
}

@test "an account written over an old one through a symlink: the link stays, its file is replaced" {
	echo old > real.txt
	chmod 640 real.txt
	ln -s real.txt link.txt
	"$TA" -q -f victim.log -c link.txt
	[ -L link.txt ]
	[ "$(head -n 1 real.txt)" = "current bytes allocated:       2128" ]
	[ "$(stat -c %a real.txt)" = "640" ]
	[ -z "$(ls | grep '\.tmp\.')" ]
}

@test "a write error half-way (file size limit): exit 1, the old account intact, no temporary left" {
	echo "the old account" > account
	# an account of 40,000 call sites is far over 8 kB
	awk 'BEGIN { for (i = 0; i < 40000; i++)
		printf "            bash-1     [000] .....   100.%06d: kmalloc: call_site=site_%d+0x10/0x40 ptr=%016x bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false\n", i, i, i + 4096 }' > many.log
	run bash -c "ulimit -f 8; '$TA' -q -f many.log -c account"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot write 'account': File too large" ]
	[ "$(cat account)" = "the old account" ]
	[ -z "$(ls | grep '\.tmp\.')" ]
}

@test "Ctrl-C while a large account is written: the old one intact, the temporary removed" {
	echo "the old account" > account
	awk 'BEGIN { for (i = 0; i < 3000; i++)
		printf "            bash-1     [000] .....   100.%06d: kmalloc: call_site=site_%d+0x10/0x40 ptr=%016x bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false\n", i, i, i + 4096 }' > many.log
	# stopped with the account whole in its temporary file, not yet renamed; job
	# control on, so that the background job takes SIGINT as in a terminal, and
	# SIGINT's default action restored: a run started in the background by a
	# non-interactive shell inherits it ignored, and trace_analyze, as every
	# well-behaved Unix program, leaves an ignored SIGINT ignored
	set -m
	TA_TEST_PAUSE=commit env --default-signal=INT "$TA" -q -f many.log -c account &
	pid=$!
	set +m
	wait_stopped "$pid"
	compgen -G 'account.tmp.*' > /dev/null
	[ "$(cat account)" = "the old account" ]	# the target untouched while it writes
	kill -INT "$pid"
	kill -CONT "$pid"
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 130 ]	# ended by SIGINT, as the shell reports it
	[ "$(cat account)" = "the old account" ]
	[ -z "$(ls | grep '\.tmp\.')" ]
}

@test "an output that is a directory: exit 1 before anything is written" {
	mkdir out
	run "$TA" -q -f victim.log -c out
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot write 'out': Is a directory" ]
}

# full_fs SIZE_KB FREE_KB: a tmpfs of that size at full/, filled but FREE_KB
# (root only: skipped otherwise); unmounted by teardown
full_fs() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to mount a small file system"
	mkdir -p full
	mount -t tmpfs -o size="$1"k tmpfs full || skip "cannot mount a tmpfs"
	dd if=/dev/zero of=full/filler bs=1k count=$(($1 - $2)) 2> /dev/null || true
}

teardown() {
	if mountpoint -q "$BATS_TEST_TMPDIR/full" 2> /dev/null; then
		umount "$BATS_TEST_TMPDIR/full"
	fi
}

@test "a full file system: each output fails with one message naming it, exit 1, no file left" {
	local log="$CORPUS/linux-6.1-tiny/stacktrace-kmem.log" out
	require_corpus
	full_fs 256 0
	for out in "-c full/account.txt" "--summary full/summary.txt" "--save-db full/kmem.db" \
		"--timeline full/timeline.png" "--html full/page.html" "--stats full/stats.csv" \
		"--summary full/summary.csv --format csv" \
		"-r full/rings.png -k $CORPUS/linux-6.1-tiny/tree"; do
		# shellcheck disable=SC2086
		run "$TA" -q -f "$log" $out
		[ "$status" -eq 1 ] || { echo "$out: status $status"; false; }
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "trace_analyze: error: cannot write 'full/"*"': No space left on device" ]]
		[ "$(ls full)" = "filler" ] || { echo "$out left: $(ls full)"; false; }
	done
}

@test "a file system that fills while the account is written: the old account kept" {
	local log="$CORPUS/host-6.18/small-kmem.log"
	require_corpus
	full_fs 256 16
	echo "the old account" > full/account.txt
	run "$TA" -q -f "$log" -c full/account.txt --group-by function
	[ "$status" -eq 0 ]	# it fits
	run "$TA" -q -f "$log" --stats full/account.txt --format json --top 1000000
	[ "$status" -eq 1 ]
	[[ "$output" == "trace_analyze: error: cannot write 'full/account.txt': No space left on device" ]]
	grep -q '^current bytes allocated:' full/account.txt	# the account written before, whole
	[ "$(ls full | sort | tr '\n' ' ')" = "account.txt filler " ]
}

@test "unless -q, one line names every file a run wrote, and only those" {
	cd "$BATS_TEST_TMPDIR"
	local log="$FIX/trace-pipe-6.18.log"
	run "$TA" -f "$log" -c a.txt --stats s.txt --html r.html --pprof p.pb.gz
	[ "$status" -eq 0 ]
	[ "$(grep -c "^trace_analyze: wrote " <<< "$output")" -eq 1 ]
	[[ "${lines[-1]}" == "trace_analyze: wrote "* ]]
	for f in a.txt s.txt r.html p.pb.gz; do
		grep "^trace_analyze: wrote " <<< "$output" | grep -q "'$f'"
	done
	# standard output and /dev/null are no file written; -q says nothing
	run "$TA" -f "$log" -c - --stats /dev/null
	[ "$status" -eq 0 ]
	! grep -q "^trace_analyze: wrote" <<< "$output" || false
	run "$TA" -q -f "$log" -c a.txt
	[ -z "$output" ]
	# static-only mode writes its chart where it is run: it says so
	mkdir -p linux/mm
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > linux/Makefile
	echo 'long slub_table[8] = { 1 };' > linux/mm/slub.c
	gcc -O2 -c linux/mm/slub.c -o linux/mm/slub.o
	run "$TA" -k linux
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "trace_analyze: wrote 'rings_static.png'" ]
}

@test "a killed run's FILE.tmp.XXXXXX is removed by the next run that writes FILE; a live writer's (locked) stays" {
	command -v flock > /dev/null || skip "no flock(1) (util-linux)"
	echo killed > out.txt.tmp.AbC123
	echo writing > out.txt.tmp.held99
	echo other > out.txt.tmp.toolong1
	echo other > other.txt.tmp.XyZ789
	# flock(1) holds held99's lock as a writer still writing would
	flock out.txt.tmp.held99 "$TA" -q -f victim.log --summary out.txt
	[ -s out.txt ]
	[ ! -e out.txt.tmp.AbC123 ]
	[ "$(cat out.txt.tmp.held99)" = writing ]
	[ -e out.txt.tmp.toolong1 ]
	[ -e other.txt.tmp.XyZ789 ]
}

@test "a write that fails names the file and the OS reason, for every kind of output" {
	[ -w /dev/full ] || skip "no /dev/full"
	local opt
	for opt in --summary --perfetto --pprof --folded; do
		run "$TA" -q -f victim.log $opt /dev/full
		[ "$status" -eq 1 ]
		[ "$output" = "trace_analyze: error: cannot write '/dev/full': No space left on device" ] || { echo "$opt: $output"; false; }
	done
}
