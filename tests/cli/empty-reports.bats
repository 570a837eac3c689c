#!/usr/bin/env bats
# An empty report says why: the log's first and last timestamps and span,
# and which filter (--time, --min-age) removed what.

load ../lib/helpers

LOG="$CORPUS/host-6.18/small-kmem.log"

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
}

@test "--time outside the log: a warning with the log's own start, end and span" {
	run "$TA" -q -f "$LOG" --time 10,60 -c account.txt
	[ "$status" -eq 0 ]
	first=$(grep -m1 -o ' [0-9]*\.[0-9]*: kmem' "$LOG" | grep -o '[0-9.]*' | head -n 1)
	[ "$output" = "trace_analyze: warning: --time 10.000000,60.000000 kept none of the $(grep -c ': \(kmalloc\|kmem_cache_alloc\|kfree\|kmem_cache_free\|mm_page_[a-z_]*\):' "$LOG") events: the log runs from $first to 668.987367 s (0.500 s)" ]
	grep -q '^number of allocs: *0$' account.txt
}

@test "--time START,END with END before START is refused, saying so" {
	run "$TA" -f "$LOG" --time 60,10 -c /dev/null
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --time '60,10': the window ends before it starts (START,END)" ]
}

@test "--outstanding --min-age past the log's span: empty, with a note saying why" {
	"$TA" -q -f "$LOG" --outstanding out.txt --min-age 300
	grep -q '^live allocations: *0$' out.txt
	grep -q '^log start (s): *668.487104$' out.txt
	grep -q '^log span (s): *0.500263$' out.txt
	grep -q "^note: *--min-age 300.000 s left out all [0-9]* live allocations: the log spans 0.500 s$" out.txt
}

@test "the summary gives the span of the events it counts" {
	"$TA" -q -f "$LOG" --summary - | grep -q '^span (s): *0.500263$'
	"$TA" -q -f "$LOG" --summary - --time 668.6,668.7 | grep -q '^span (s): *0.0[0-9]*$'
}
