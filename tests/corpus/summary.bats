#!/usr/bin/env bats
# The summary's counts equal independent counts of the same files: the event
# counts by awk (as the corpus READMEs made them), the matching counts by
# the shared replay script (../shared/tools/kmem_replay.py).

load ../lib/helpers

bats_require_minimum_version 1.5.0

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

@test "lost, implicit, failed and null frees equal the shared replay's counts, or the tick-ordered replay's" {
	local replay="$CORPUS/../tools/kmem_replay.py" log
	require_shared "$replay"
	for log in "$CORPUS/linux-6.1-tiny/workload-kmem.log" "$CORPUS/host-6.18/small-kmem.log" \
		"$CORPUS/host-6.18/overrun-kmem.log" "$CORPUS/linux-6.1-tiny/boot-kmem.log"; do
		# the shared replay takes the printed order; where a tick was reordered
		# (the summary says so), tests/tools/ref_account.py replays it as the
		# man page's EVENT ORDER says
		if "$TA" -f "$log" -c /dev/null 2>&1 | grep -q '^  events reordered:'; then
			python3 "$TOP/tests/tools/ref_account.py" "$log" --totals > "$BATS_TEST_TMPDIR/replay.json"
			t() { python3 -c "import json,sys; d = json.load(open(sys.argv[1])); print(d[{'duplicate_ptrs': 'implicit_frees', 'null_ptr_allocs': 'failed_allocs', 'null_ptr_frees': 'null_frees'}.get(sys.argv[2], sys.argv[2])])" "$BATS_TEST_TMPDIR/replay.json" "$1"; }
		else
			python3 "$replay" "$log" > "$BATS_TEST_TMPDIR/replay.json"
			t() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['totals'][sys.argv[2]])" "$BATS_TEST_TMPDIR/replay.json" "$1"; }
		fi
		[ "$(summary_value "$log" "lost frees")" = "$(t lost_frees)" ]
		[ "$(summary_value "$log" "implicit frees")" = "$(t duplicate_ptrs)" ]
		[ "$(summary_value "$log" "failed allocations")" = "$(t null_ptr_allocs)" ]
		[ "$(summary_value "$log" "null frees")" = "$(t null_ptr_frees)" ]
		[ "$(summary_value "$log" "allocations")" = "$(t allocs)" ]
	done
}

@test "one tick's events in pairing order: the 6.1 workload's 'double free' at line 182002 is wget's skb, allocated in the same microsecond" {
	local log="$CORPUS/linux-6.1-tiny/workload-kmem.log"
	cd "$BATS_TEST_TMPDIR"
	# the printed order: httpd (CPU 0) frees 57f6fa61 at 93.855825, then wget
	# (CPU 1) allocates it, frees it and allocates it again in that microsecond
	[ "$(sed -n '182002p;182012p;182016p;182019p' "$log" | grep -c 'ptr=0000000057f6fa61')" = 4 ]
	[ "$(sed -n '182002p;182012p;182016p;182019p' "$log" | awk '{ print $2 $4 }' | tr '\n' ' ')" = \
		"[000]93.855825: [001]93.855825: [001]93.855825: [001]93.855825: " ]
	run --separate-stderr "$TA" -f "$log" --summary s.json --format json
	[ "$status" -eq 0 ]
	[[ "$stderr" == *$'\n  events reordered:               76 (of one tick across CPUs: put in the order they pair in)\n'* ]]
	[ "$(jq '.findings[] | select(.key == "double_free") | .count' s.json)" = 0 ]
	[ "$(jq '.events.reordered_in_tick' s.json)" = 76 ]
	[ "$(jq '.events.implicit_frees' s.json)" = "$(python3 "$TOP/tests/tools/ref_account.py" "$log" --totals | jq .implicit_frees)" ]
	# the account is the tick-ordered replay's, and the findings ref_report.py's
	python3 "$TOP/tests/tools/ref_account.py" "$log" > ref.account
	"$TA" -q -f "$log" -c account.txt
	cmp ref.account account.txt
	python3 "$TOP/tests/tools/ref_report.py" findings "$log" s.json
	# nanosecond captures pair in the order written: nothing moves
	for f in "$CORPUS/host-6.18/binary/"*.dat.xz "$CORPUS/host-6.18/binary/"*.perf.data.xz; do
		[ -e "$f" ] || continue
		run --separate-stderr "$TA" -f "$f" -c /dev/null
		[[ "$stderr" != *"events reordered"* ]]
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
