#!/usr/bin/env bats
# Every corpus log gives the same reports whatever the parser thread count
# and however it is read (a file, a pipe): chunk boundaries fall elsewhere
# each time, the numbers never move.

load ../lib/helpers

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
}

every_log() {
	find "$CORPUS" \( -name '*.log' -o -name '*.perf-script.txt' -o -name 'trace-cmd-report.txt' \) |
		sort
}

# reports NAME LOG [options]: every report of LOG into NAME.*, the summary's timing cut
reports() {
	local name="$1" log="$2"; shift 2
	"$TA" -f "$log" -c "$name.account" --stats "$name.stats" --outstanding "$name.out" \
		--page "$name.page" --summary "$name.summary" "$@" 2> /dev/null
	sed -i -e 's/ in [0-9.]* s$//' "$name.summary"
}

@test "every corpus log: 1, 2 and 3 threads and a pipe give the same reports" {
	for log in $(every_log); do
		reports t1 "$log" --threads 1
		reports t2 "$log" --threads 2
		reports t3 "$log" --threads 3
		cat "$log" | reports p2 - --threads 2
		sed -i "s|^log: standard input\$|log: $log|" p2.summary
		for r in account stats out page summary; do
			for other in t2 t3 p2; do
				diff_or_fail "t1.$r" "$other.$r" || { echo "$log: $other $r differs"; return 1; }
			done
		done
	done
}
