#!/usr/bin/env bats
# Every log of the corpus, compressed as a board's owner would (gzip, xz,
# zstd), gives byte for byte the reports of the plain log.

load ../lib/helpers

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
}

# same_reports LOG FORMAT COMPRESSOR...: account, stats and page report alike
same_reports() {
	local log="$1" z="$2"; shift 2
	"$@" < "$log" > "log.$z"
	"$TA" -q -f "$log" -c plain.account --stats plain.stats --page plain.page
	"$TA" -q -f "log.$z" -c z.account --stats z.stats --page z.page
	for r in account stats page; do
		diff_or_fail "plain.$r" "z.$r" || { echo "$log as $z: $r differs"; return 1; }
	done
}

every_log() {
	find "$CORPUS" \( -name '*.log' -o -name '*.perf-script.txt' -o -name 'trace-cmd-report.txt' \) |
		sort
}

@test "every corpus log as gzip gives the plain log's reports" {
	for log in $(every_log); do same_reports "$log" gz gzip -1 -c; done
}

@test "every corpus log as xz gives the plain log's reports" {
	for log in $(every_log); do same_reports "$log" xz xz -0 -T2 -c; done
}

@test "every corpus log as zstd gives the plain log's reports" {
	for log in $(every_log); do same_reports "$log" zst zstd -q -1 -c; done
}
