#!/usr/bin/env bats
# --group-by cgroup on the whole kmem trace of ../shared/corpus/linux-6.12-ledger
# (boot1: two workloads in cgroups /a and /b, the pid map at moment B, the
# fork log of the same interval): every row equals ref_account.py's replay,
# which places each task by itself; the map's workload shells are where
# their own notes (workload-a.txt, workload-b.txt) say they were.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	require_corpus
	BOOT="$CORPUS/linux-6.12-ledger/boot1"
	[ -d "$BOOT" ] || skip "no linux-6.12-ledger in the corpus"
	cd "$BATS_TEST_TMPDIR"
}

@test "the 6.12 guest's whole trace by cgroup: each row the replay's, no task unplaced" {
	local log="$BOOT/kmem-trace-B.log.xz"
	ref_account "$log" --cgroup-map "$BOOT/pid-cgroup-B.txt" --forks "$BOOT/proc-trace-B.log" > want.txt
	run --separate-stderr "$TA" -f "$log" --cgroup-map "$BOOT/pid-cgroup-B.txt" \
		--forks "$BOOT/proc-trace-B.log" --group-by cgroup -c got.txt
	[ "$status" -eq 0 ]
	diff_or_fail want.txt got.txt
	[[ "$stderr" == *"trace_analyze: cgroups: of 212182 allocations, "*", 0 of a task in neither (\"(unknown cgroup)\")"* ]]
	# the three groups, and the shells in the map where their notes say
	[ "$(awk 'NR > 9 { print $NF }' got.txt | sort | tr '\n' ' ')" = "/ /a /b " ]
	for g in a b; do
		pid=$(awk -v g=$g '$1 == g { print $2 }' "$BOOT/workload-pids.txt")
		grep -q "^pid $pid .* cgroup 0::/$g\$" "$BOOT/workload-$g.txt"
		[ "$(awk -F'\t' -v p=$pid '$1 == p { print $3 }' "$BOOT/pid-cgroup-B.txt")" = "0::/$g" ]
	done
	# --cgroup /a is the /a row
	"$TA" -q -f "$log" --cgroup-map "$BOOT/pid-cgroup-B.txt" --forks "$BOOT/proc-trace-B.log" \
		--cgroup /a -c a.txt
	[ "$(awk '$NF == "/a" { print $3, $4 }' got.txt)" = "$(awk '/^current bytes allocated:/ { n = $4 } /^number of allocs:/ { a = $4 } /^number of frees:/ { f = $4 } END { print n, a "/" f }' a.txt)" ]
}
