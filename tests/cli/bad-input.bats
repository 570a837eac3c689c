#!/usr/bin/env bats
# Bad input gets a clear message and the right exit status: 1 for a runtime
# failure, 2 for a usage error; damaged logs never crash the tool nor give
# a wrong number — what cannot be read is skipped and counted.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
}

empty_account() {
	cat <<'EOF2'
current bytes allocated:          0
current bytes requested:          0
current wasted bytes:             0
number of allocs:                 0
number of frees:                  0
number of callers:                0

   total    waste      net alloc/free  caller
---------------------------------------------
EOF2
}

@test "a missing log: exit 1, the path and the OS reason" {
	run "$TA" -f missing.log -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open 'missing.log': No such file or directory" ]
}

@test "a directory given as log: exit 1" {
	mkdir logs
	run "$TA" -f logs -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot read 'logs': Is a directory" ]
}

@test "an unreadable log: exit 1, Permission denied" {
	cp "$FIX/trace-pipe-6.18.log" secret.log
	chmod 000 secret.log
	if [ "$(id -u)" -eq 0 ]; then
		command -v setpriv > /dev/null || skip "root without setpriv: permissions do not apply"
		chmod 755 "$BATS_TEST_TMPDIR"
		run setpriv --reuid=nobody --regid=nogroup --clear-groups "$TA" -f secret.log -c -
	else
		run "$TA" -f secret.log -c -
	fi
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open 'secret.log': Permission denied" ]
}

@test "an empty log: exit 1, it says so, and no account is written" {
	: > empty.log
	echo "an older account" > account
	run "$TA" -f empty.log -c account
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'empty.log' is empty: there is no trace line to read" ]
	[ "$(cat account)" = "an older account" ]
}

@test "an empty pipe: exit 1, standard input is empty" {
	run "$TA" -f - -c - < /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: standard input is empty: there is no trace line to read" ]
}

@test "binary garbage: exit 1, not an ftrace text log, nothing written" {
	python3 -c 'import random, sys; random.seed(7); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(200000)) + b"\n")' > garbage.bin
	n=$(wc -l < garbage.bin)
	run "$TA" -f garbage.bin -c account --save-db garbage.db --summary summary
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'garbage.bin' is not an ftrace text log: none of its $n lines is a trace line" ]
	[ ! -e account ] && [ ! -e garbage.db ] && [ ! -e summary ]
	[ -z "$(ls | grep '\.tmp\.')" ]
}

@test "10 MB of random bytes, in one piece or through a pipe: exit 1" {
	head -c 10000000 /dev/urandom > random.bin
	run "$TA" -q -f random.bin -c -
	[ "$status" -eq 1 ]
	[[ "$output" =~ ^"trace_analyze: error: 'random.bin' is not an ftrace text log: none of its "[0-9]+" lines is a trace line"$ ]]
	run sh -c "cat random.bin | '$TA' -q -f - -c -"
	[ "$status" -eq 1 ]
	[[ "$output" =~ ^"trace_analyze: error: standard input is not an ftrace text log" ]]
}

@test "a source file given as log: its only line is not a trace line" {
	echo 'int main(void) { return 0; }' > main.c
	run "$TA" -f main.c -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'main.c' is not an ftrace text log: its only line is not a trace line" ]
}

@test "a trace of other events only: a warning names them, the account is empty" {
	# the 6.18 snapshot without its allocation events: its header and rss_stat lines
	grep -v -E 'kmalloc|kfree|kmem_cache|mm_page' "$FIX/trace-pipe-6.18.log" > other.log
	printf '%s\n' \
	  '          <idle>-0       [001] d..2.  1187.655900: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=bash next_pid=1 next_prio=120' \
	  '          <idle>-0       [001] d..2.  1187.655901: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=bash next_pid=1 next_prio=120' >> other.log
	n_rss=$(grep -c ': rss_stat:' other.log)
	run "$TA" -q -f other.log -c account
	[ "$status" -eq 0 ]
	if [ "$n_rss" -gt 0 ]; then
		[ "$output" = "trace_analyze: warning: 'other.log' has no allocation event (kmalloc, kfree, kmem_cache_*, mm_page_*), only other events: rss_stat ($n_rss), sched_switch (2); were those enabled? (echo 1 > /sys/kernel/tracing/events/kmem/enable)" ]
	else
		[ "$output" = "trace_analyze: warning: 'other.log' has no allocation event (kmalloc, kfree, kmem_cache_*, mm_page_*), only other events: sched_switch (2); were those enabled? (echo 1 > /sys/kernel/tracing/events/kmem/enable)" ]
	fi
	empty_account | diff_or_fail - account
}

@test "an empty trace buffer (header only): a warning, an empty account" {
	head -n 12 "$FIX/tracefs-6.1-rawptr.log" > header.log
	run "$TA" -q -f header.log -c account
	[ "$status" -eq 0 ]
	[ "$output" = "trace_analyze: warning: 'header.log' has no event at all, only ftrace headers, markers or stack lines: was anything traced? (echo 1 > /sys/kernel/tracing/events/kmem/enable)" ]
	empty_account | diff_or_fail - account
}

@test "NUL bytes inside events: those events are malformed, the others still count" {
	# line 14 (prepare_creds) gets a NUL inside its call site; line 20 a NUL
	# at its start, which leaves it an event line of the same fields
	python3 - "$FIX/tracefs-6.1-rawptr.log" <<'PY' > nul.log
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
lines[14] = lines[14].replace(b"prepare_creds+0x1e", b"prepare\0creds+0x1e")
lines[20] = b"\0" + lines[20]
sys.stdout.buffer.write(b"\n".join(lines))
PY
	"$TA" -f nul.log -c account 2> summary
	grep -Eq "malformed kmem events +1$" summary
	grep -q "first malformed kmem event at line 15" summary
	# the account is the fixture's without prepare_creds+0x1e (192 bytes, 176 asked)
	grep -v "prepare_creds+0x1e" "$FIX/tracefs-6.1-rawptr.account" |
		sed 's/^current bytes allocated:      12696/current bytes allocated:      12504/;
		     s/^current bytes requested:      12552/current bytes requested:      12376/;
		     s/^current wasted bytes:           144/current wasted bytes:           128/;
		     s/^number of allocs:                34/number of allocs:                33/;
		     s/^number of callers:               13/number of callers:               12/' > expected
	diff_or_fail expected account
}

@test "a line over 1 MiB is skipped and counted; the lines around it count" {
	{ head -n 20 "$FIX/tracefs-6.1-rawptr.log"
	  head -c 3000000 /dev/zero | tr '\0' 'x'; echo
	  tail -n +21 "$FIX/tracefs-6.1-rawptr.log"; } > long.log
	"$TA" -f long.log -c account 2> summary
	diff_or_fail "$FIX/tracefs-6.1-rawptr.account" account
	grep -Eq "longer than 1 MiB +1$" summary
}

@test "a truncated last line is skipped with a warning, never half-read" {
	# cut inside the last event's bytes_alloc: 'bytes_alloc=13' of 136
	head -c "$(( $(grep -b -o 'bytes_alloc=136' "$FIX/tracefs-6.1-rawptr.log" | tail -n 1 | cut -d: -f1) + 14 ))" \
		"$FIX/tracefs-6.1-rawptr.log" > cut.log
	tail -c 30 cut.log | grep -q 'bytes_alloc=13$'
	"$TA" -f cut.log -c account 2> summary
	grep -q "warning: the last line of 'cut.log' has no newline (truncated log?): skipped" summary
	grep -Eq "truncated last line +1$" summary
	# that event (vm_area_dup+0x1c, 136 bytes) is simply absent: 9 of 10
	grep -Eq "^ +1224 +0 +1224 +9/0 +vm_area_dup\+0x1c$" account
}

@test "standard input gives the same account as the file" {
	"$TA" -q -f "$FIX/trace-pipe-6.18.log" -c file.acc
	"$TA" -q -f - -c stdin.acc < "$FIX/trace-pipe-6.18.log"
	diff_or_fail file.acc stdin.acc
	cat "$FIX/trace-pipe-6.18.log" | "$TA" -q -f - -c - > pipe.acc
	diff_or_fail file.acc pipe.acc
}

@test "Ctrl-C on a stream ends the input and still writes the account" {
	# the log in a pipe whose writer stays open (a descriptor of this shell): trace_analyze
	# reads it all, stops where it would wait for more (stream-idle), and is sent
	# Ctrl-C there; job control and SIGINT's default as in a terminal (outputs.bats)
	mkfifo stream
	exec {w}<> stream
	cat "$FIX/trace-pipe-6.18.log" >&"$w"
	set -m
	TA_TEST_PAUSE=stream-idle env --default-signal=INT "$TA" -f - -c account < stream 2> summary &
	ta=$!
	set +m
	wait_stopped "$ta"
	kill -INT "$ta"
	kill -CONT "$ta"
	status=0
	wait "$ta" || status=$?
	exec {w}>&-
	[ "$status" -eq 0 ]
	diff_or_fail "$FIX/trace-pipe-6.18.account" account
	grep -q "reading 'standard input' was interrupted" summary
}

@test "a log that gets shorter while it is read: exit 1 and the reason, no account" {
	# more than a chunk (2 MiB), so that its first chunk is claimed at its offset and read
	# after; the file is cut there (chunk-claimed), before the chunk's bytes are read
	for i in $(seq 800); do cat "$FIX/trace-pipe-6.18.log"; done > long.log
	TA_TEST_PAUSE=chunk-claimed "$TA" --threads 1 -q -f long.log -c account 2> err.txt &
	ta=$!
	wait_stopped "$ta"
	truncate -s 1000 long.log
	kill -CONT "$ta"
	status=0
	wait "$ta" || status=$?
	[ "$status" -eq 1 ]
	[ "$(cat err.txt)" = "trace_analyze: error: cannot read 'long.log': it got shorter while it was read" ]
	[ ! -e account ]
}

@test "an account file that cannot be written: exit 1, the path and the reason" {
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" -c no/such/dir/account.txt
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot write 'no/such/dir/account.txt': No such file or directory" ]
	run "$TA" -q -f "$FIX/trace-pipe-6.18.log" -c /dev/full
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot write '/dev/full': No space left on device" ]
}

@test "a missing or wrong System.map: exit 1 naming it" {
	run "$TA" -q -f "$FIX/old-2.6-hex.log" --system-map nosuch.map -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open 'nosuch.map': No such file or directory" ]
	run "$TA" -q -f "$FIX/old-2.6-hex.log" --system-map "$FIX/trace-pipe-6.18.log" -c -
	[ "$status" -eq 1 ]
	[[ "$output" == *"is not a System.map: no text symbols in 20 lines" ]]
	run "$TA" -q -f "$FIX/old-2.6-hex.log" -k no/such/tree -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open kernel tree 'no/such/tree': No such file or directory" ]
}

@test "trace-cmd report's dropped-events lines are lost-event markers, as trace_pipe's" {
	printf 'cpus=2\nCPU:1 [66 EVENTS DROPPED]\nCPU:0 [EVENTS DROPPED]\nCPU:1 [LOST 5 EVENTS]\nCPU:0 [LOST EVENTS]\n          <idle>-0     [000]  2899.087401: kfree:                (rcu_do_batch+0x1) call_site=rcu_do_batch+0x1 ptr=0xffff888100000000\n' > dropped.log
	run "$TA" -f dropped.log -c /dev/null --summary -
	[ "$status" -eq 0 ]
	grep -Eq '^lost events marker: +4$' <<< "$output"
	grep -Eq '^events lost \(trace_pipe markers\): +71$' <<< "$output"
}
