#!/usr/bin/env bats
# The summary's counts equal independent counts of the same files: the event
# counts by awk (as the corpus READMEs made them), the matching counts by
# the shared replay script (../shared/tools/kmem_replay.py).

load ../lib/helpers

setup() {
	require_corpus
}

# events_by_awk LOG: "<count> <event>" per event name, as the corpus README counts
events_by_awk() {
	awk '!/^#/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i+1); break } }' "$1" |
		sed 's/^kmem://; s/:$//' | sort | uniq -c |
		awk '$2 ~ /^(kmalloc|kmalloc_node|kfree|kmem_cache_alloc|kmem_cache_alloc_node|kmem_cache_free|mm_page_[a-z_]*)$/ { print $2, $1 }' | sort
}

# events_by_tool LOG: the same from the summary
events_by_tool() {
	"$TA" -f "$1" 2>&1 >/dev/null |
		awk '/kmem events read:/ {on=1; next} on && /^    / {print $1, $2; next} {on=0}' | sort
}

@test "events read by kind equal an awk count on every corpus log" {
	local log
	for log in "$CORPUS"/linux-6.1-tiny/*.log "$CORPUS"/host-6.18/*.log \
		"$CORPUS/host-6.18/trace-cmd-report.txt" "$CORPUS/host-6.18/perf-kmem/kmem.perf-script.txt"; do
		events_by_awk "$log" > "$BATS_TEST_TMPDIR/awk"
		events_by_tool "$log" > "$BATS_TEST_TMPDIR/tool"
		diff_or_fail "$BATS_TEST_TMPDIR/awk" "$BATS_TEST_TMPDIR/tool" || { echo "in $log"; return 1; }
	done
}

# summary_value LOG LABEL: the number after "LABEL:" in the summary
summary_value() {
	"$TA" -f "$1" 2>&1 >/dev/null | awk -v l="$2:" 'index($0, l) { print $NF; exit }'
}

@test "lost, implicit, failed and null frees equal the shared replay's counts" {
	local replay="$CORPUS/../tools/kmem_replay.py" log
	[ -f "$replay" ] || skip "no $replay"
	for log in "$CORPUS/linux-6.1-tiny/workload-kmem.log" "$CORPUS/host-6.18/small-kmem.log" \
		"$CORPUS/host-6.18/overrun-kmem.log"; do
		python3 "$replay" "$log" > "$BATS_TEST_TMPDIR/replay.json"
		t() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['totals'][sys.argv[2]])" "$BATS_TEST_TMPDIR/replay.json" "$1"; }
		[ "$(summary_value "$log" "lost frees")" = "$(t lost_frees)" ]
		[ "$(summary_value "$log" "implicit frees")" = "$(t duplicate_ptrs)" ]
		[ "$(summary_value "$log" "failed allocations")" = "$(t null_ptr_allocs)" ]
		[ "$(summary_value "$log" "null frees")" = "$(t null_ptr_frees)" ]
		[ "$(summary_value "$log" "allocations")" = "$(t allocs)" ]
	done
}

@test "the overrun log's header says 53919 events were dropped; it has a buffer-started marker" {
	run "$TA" -f "$CORPUS/host-6.18/overrun-kmem.log"
	[ "$status" -eq 0 ]
	[[ "$output" == *"DROPPED 53919 events (entries-in-buffer/entries-written: 9259/63178)"* ]]
	[[ "$output" == *"1 'CPU N buffer started' markers"* ]]
}

@test "stack trace lines are skipped and counted: 4017 entries + 44542 frames in the 6.1 log" {
	run "$TA" -f "$CORPUS/linux-6.1-tiny/stacktrace-kmem.log"
	[ "$status" -eq 0 ]
	local n
	n=$(printf '%s\n' "$output" | awk '/stack trace/ {print $NF}')
	[ "$n" -eq $((4017 + 44542)) ]
}
