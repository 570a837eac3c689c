#!/usr/bin/env bats
# --group-by cgroup and --cgroup: each allocating task's cgroup, from a map
# of pids taken at one moment and the fork events of the same interval, on
# the 6.12 guest whose two workloads ran in cgroups /a and /b
# (tests/fixtures/cgroups-6.12: an excerpt of its kmem trace, its
# pid-cgroup map at moment B, its fork log). The rows equal
# tests/tools/ref_account.py's replay, which places the tasks by itself.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	CG="$FIX/cgroups-6.12"
	cd "$BATS_TEST_TMPDIR"
	xz -dc "$CG/kmem.log.xz" > kmem.log
}

@test "--group-by cgroup: a row per cgroup, tasks gone before the map placed by their parent's fork" {
	run --separate-stderr "$TA" -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" \
		--group-by cgroup -c -
	[ "$status" -eq 0 ]
	[ "${lines[8]}" = "  205424     1400    59880   753/471   /a" ]
	[ "${lines[9]}" = "  206016     1424    59856   762/477   /b" ]
	[ "${lines[10]}" = "  110816      448    39488   401/258   /" ]
	[ "${stderr_lines[0]}" = "trace_analyze: cgroups: of 1916 allocations, 1036 by their task in '$CG/pids', 880 by their task's parent at its fork (592 fork events read), 0 of a task in neither (\"(unknown cgroup)\")" ]
	# the independent replay places every task by itself, by the same rules
	python3 "$TOP/tests/tools/ref_account.py" kmem.log --cgroup-map "$CG/pids" \
		--forks "$CG/forks.log" > want.txt
	"$TA" -q -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" --group-by cgroup -c got.txt
	diff_or_fail want.txt got.txt
	# without the fork log, the tasks gone before the map are unknown
	run --separate-stderr "$TA" -f kmem.log --cgroup-map "$CG/pids" --group-by cgroup -c -
	[ "$status" -eq 0 ]
	[[ "${stderr_lines[0]}" == *", 880 of a task in neither (\"(unknown cgroup)\")" ]]
	[[ "$output" == *"(unknown cgroup)"* ]]
}

@test "--cgroup PATH: the allocations of its tasks and below, the row of --group-by cgroup" {
	"$TA" -q -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" --cgroup /a -c a.txt
	[ "$(sed -n 1p a.txt)" = "current bytes allocated:      59880" ]
	[ "$(sed -n 4p a.txt)" = "number of allocs:               753" ]
	# / holds every cgroup; two paths are either
	"$TA" -q -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" --cgroup / -c all.txt
	[ "$(sed -n 4p all.txt)" = "number of allocs:              1916" ]
	"$TA" -q -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" --cgroup /a --cgroup /b -c ab.txt
	[ "$(sed -n 4p ab.txt)" = "number of allocs:              1515" ]
	# /ab is not below /a
	"$TA" -q -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" --cgroup /a/ -c a2.txt
	cmp a.txt a2.txt
}

@test "a second map serves the pids the first lacks; a map line or fork line that is wrong is named" {
	# the map without the workload shells (98 and 99): their children are then unknown,
	# unless a second map (record's start) has them
	grep -vP '^(98|99)\t' "$CG/pids" > end
	grep -P '^(98|99)\t' "$CG/pids" > start
	mkdir l && cp kmem.log l/k.log && cp "$CG/forks.log" l/k.log.forks
	mkdir l/k.log.snapshot-end l/k.log.snapshot-start
	cp end l/k.log.snapshot-end/pids
	cp start l/k.log.snapshot-start/pids
	"$TA" -q -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" --group-by cgroup -c want.txt
	run --separate-stderr "$TA" -f l/k.log --group-by cgroup -c got.txt
	[ "$status" -eq 0 ]
	diff_or_fail want.txt got.txt
	[[ "${stderr_lines[0]}" == *"by their task in 'l/k.log.snapshot-end/pids' then 'l/k.log.snapshot-start/pids', "* ]]
	# broken inputs
	printf '1\tinit\t0::/\nx\tsh\t0::/a\n' > bad
	run "$TA" -f kmem.log --cgroup-map bad --group-by cgroup -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'bad' line 2: 'x' is no pid" ]
	printf '1\tinit\tnot a cgroup line\n' > bad
	run "$TA" -f kmem.log --cgroup-map bad --group-by cgroup -c /dev/null
	[ "$output" = "trace_analyze: error: 'bad' line 1: 'not a cgroup line' is no /proc/PID/cgroup line" ]
	printf '1\tinit\t0::/' > bad
	run "$TA" -f kmem.log --cgroup-map bad --group-by cgroup -c /dev/null
	[ "$output" = "trace_analyze: error: 'bad' is cut: its last line has no newline" ]
	printf '  sh-98 [001] ..... 7.5: sched_process_fork: comm=sh pid=98 child_comm=sh\n' > badforks
	run "$TA" -f kmem.log --cgroup-map "$CG/pids" --forks badforks --group-by cgroup -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'badforks': a sched_process_fork line without its pids or time:   sh-98 [001] ..... 7.5: sched_process_fork: comm=sh pid=98 child_comm=sh" ]
	# v1: the memory controller's line; another controller's alone places nothing
	printf '98\tsh\t4:memory:/a\n98\tsh\t3:cpu,cpuacct:/x\n' > v1
	"$TA" -q -f kmem.log --cgroup-map v1 --group-by cgroup -c v1.txt
	grep -q ' /a$' v1.txt
}

@test "--group-by cgroup and --cgroup need a map; the map needs one of them; record refuses them" {
	run "$TA" -f kmem.log --group-by cgroup -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --group-by cgroup needs each task's cgroup: --cgroup-map FILE (lines pid TAB comm TAB /proc/PID/cgroup's line, as a snapshot's pids file), or a log recorded with its snapshots beside it" ]
	run "$TA" -f kmem.log --cgroup /a -c -
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "trace_analyze: error: --cgroup needs each task's cgroup: "* ]]
	run "$TA" -f kmem.log --cgroup-map "$CG/pids" -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --cgroup-map and --forks say each task's cgroup: for --group-by cgroup or --cgroup" ]
	run "$TA" -f kmem.log --cgroup a -c -
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "trace_analyze: error: --cgroup wants a cgroup's path as /proc/PID/cgroup prints it"* ]]
	run "$TA" record --group-by cgroup -c - -- true
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --group-by cgroup reads a recorded log's tasks: record it (-o LOG), then trace_analyze -f LOG --group-by cgroup (each task's cgroup is taken at the end, beside the log)" ]
	run "$TA" record --cgroup-map x -- true
	[ "$status" -eq 2 ]
}

@test "a --forks file without a fork event is refused; a --cgroup no task is in is said" {
	run "$TA" -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/pids" --group-by cgroup -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: '$CG/pids' holds no sched_process_fork event: no log of forks for --forks" ]
	run --separate-stderr "$TA" -f kmem.log --cgroup-map "$CG/pids" --forks "$CG/forks.log" --cgroup /nonexist -c /dev/null
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "trace_analyze: warning: --cgroup: no allocation's task is in /nonexist (the map: '$CG/pids')" ]
	[[ "$stderr" == *"  filters (--cgroup...):  1916 allocations of other cgroups, tasks or flags left out, and "*" frees of them"* ]]
}
