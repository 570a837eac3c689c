#!/usr/bin/env bats
# The DB file on every log of the real corpus: every report made from the
# DB is byte-identical to the one made from the log it was saved from, for
# several option combinations; the summary too, but for its first line.

load ../lib/helpers

setup() {
	require_corpus
	TREE="$CORPUS/linux-6.1-tiny/tree"
}

# same_from_db LOG [options for the save run]: save, then compare reports.
same_from_db() {
	local log="$1" d="$BATS_TEST_TMPDIR" opts
	shift
	"$TA" -f "$log" --save-db "$d/log.db" -c "$d/saved-run" "$@" 2> "$d/log.summary"
	"$TA" --db-file "$d/log.db" -c "$d/db-run" "$@" 2> "$d/db.summary"
	diff_or_fail "$d/saved-run" "$d/db-run"
	# the summaries, but for their first line and the files each run wrote
	tail -n +2 "$d/log.summary" | grep -v "^trace_analyze: wrote " > "$d/a"
	tail -n +2 "$d/db.summary" | grep -v "^trace_analyze: wrote " > "$d/b"
	diff_or_fail "$d/a" "$d/b"
	head -n 1 "$d/db.summary" | grep -q "^trace_analyze: summary of '$d/log.db' (made from '$log'): "
	for opts in "" "--malloc" "--cache -o waste" "--group-by function -o alloc_count" \
		"--format csv -o total_dynamic" "--format json --malloc"; do
		"$TA" -q -f "$log" -c "$d/from-log" $opts "$@"
		"$TA" -q --db-file "$d/log.db" -c "$d/from-db" $opts "$@"
		diff_or_fail "$d/from-log" "$d/from-db" || { echo "differs with: $opts"; return 1; }
	done
}

@test "6.1 boot log: every account and the summary are identical from the DB" {
	same_from_db "$CORPUS/linux-6.1-tiny/boot-kmem.log"
}

@test "6.1 boot+workload, stack-trace and raw-pointer logs: identical from the DB" {
	same_from_db "$CORPUS/linux-6.1-tiny/workload-kmem.log"
	same_from_db "$CORPUS/linux-6.1-tiny/stacktrace-kmem.log"
	same_from_db "$CORPUS/linux-6.1-tiny/raw-ptr-kmem.log"
}

@test "6.18 snapshot, stack, overrun, trace-cmd and perf script logs: identical from the DB" {
	same_from_db "$CORPUS/host-6.18/small-kmem.log"
	same_from_db "$CORPUS/host-6.18/stack-kmem.log"
	same_from_db "$CORPUS/host-6.18/overrun-kmem.log"
	same_from_db "$CORPUS/host-6.18/trace-cmd-report.txt"
	same_from_db "$CORPUS/host-6.18/perf-kmem/kmem.perf-script.txt"
}

@test "a DB of a hex call-site log resolves them at analysis time, as the log would" {
	local hex="$CORPUS/linux-6.1-tiny/boot-kmem-hexaddr.log" d="$BATS_TEST_TMPDIR"
	"$TA" -q -f "$hex" --save-db "$d/hex.db"
	"$TA" -q -k "$TREE" -f "$hex" -c "$d/from-log"
	"$TA" -q -k "$TREE" --db-file "$d/hex.db" -c "$d/from-db"
	diff_or_fail "$d/from-log" "$d/from-db"
	"$TA" -q --system-map "$TREE/System.map" --db-file "$d/hex.db" -c "$d/from-map"
	diff_or_fail "$d/from-log" "$d/from-map"
	grep -q 'alloc_inode+0x30' "$d/from-db"
}

@test "-b, the callers file and ringcharts are identical from the DB" {
	local log="$CORPUS/linux-6.1-tiny/workload-kmem.log" d="$BATS_TEST_TMPDIR" src
	"$TA" -q -f "$log" --save-db "$d/w.db" -c /dev/null
	for src in "-f $log" "--db-file $d/w.db"; do
		n=${src%% *}
		"$TA" -q -k "$TREE" $src -b fs -c "$d/acc$n" -l "$d/callers$n" -r "$d/rings$n.png"
		"$TA" -q -k "$TREE" $src -l "$d/all-callers$n" -r "$d/waste$n.svg" -a waste --malloc
	done
	for f in acc callers all-callers rings.png waste.svg; do
		cmp "$d/${f%%.*}-f${f#${f%%.*}}" "$d/${f%%.*}--db-file${f#${f%%.*}}"
	done
}

@test "a DB saved while reading standard input equals one saved from the file" {
	local log="$CORPUS/linux-6.1-tiny/boot-kmem.log" d="$BATS_TEST_TMPDIR"
	cat "$log" | "$TA" -q -f - --save-db "$d/pipe.db" -c "$d/pipe-run"
	"$TA" -q --db-file "$d/pipe.db" -c "$d/from-db"
	"$TA" -q -f "$log" -c "$d/from-log"
	diff_or_fail "$d/from-log" "$d/from-db"
	diff_or_fail "$d/from-log" "$d/pipe-run"
}

# the reports of a log (no tree), as OPTION:FILE, whose data a DB keeps (kept) or whose
# events it replays (replayed), from the report table (trace_analyze --reports-helper)
reports_a_db() {
	"$TA" --reports-helper | awk -v k="$1" '($4 == "log" || $4 == "-") && $6 == k {
		ext = $3 == "chart" ? ".svg" : $3 == "chart-or-data" ? ".csv" : ""
		printf "%s:%s%s ", $2, $1, ext }'
}
KEPT_REPORTS=$(reports_a_db kept)
REPLAYED_REPORTS=$(reports_a_db replayed)

# kept_from_db LOG: every kept report from the DB, none replaying an event, is the log's
kept_from_db() {
	local log="$1" d="$BATS_TEST_TMPDIR" r opt file
	"$TA" -q -f "$log" --save-db "$d/kept.db"
	for r in $KEPT_REPORTS; do
		opt=${r%%:*} file=${r#*:}
		rm -f "$d/log.$file" "$d/db.$file"
		"$TA" -q -f "$log" "$opt" "$d/log.$file"
		TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$d/kept.db" "$opt" "$d/db.$file" ||
			{ echo "$log: $opt replayed the events"; return 1; }
		[ -e "$d/log.$file" ] || [ -e "$d/db.$file" ] || continue	# (no folded stack)
		cmp "$d/log.$file" "$d/db.$file" || { echo "$log: $opt differs"; return 1; }
	done
	"$TA" -q -f "$log" --group-by origin -c "$d/log.origins"
	TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$d/kept.db" --group-by origin -c "$d/db.origins"
	cmp "$d/log.origins" "$d/db.origins"
	"$TA" -q -f "$log" --group-by dir -k "$TREE" --summary "$d/log.dirs" --outstanding "$d/log.out"
	TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$d/kept.db" --group-by dir -k "$TREE" \
		--summary "$d/db.dirs" --outstanding "$d/db.out"
	cmp "$d/log.dirs" "$d/db.dirs"
	cmp "$d/log.out" "$d/db.out"
}

@test "a DB keeps the report data: every report but the trace viewer's comes from it, not its events" {
	[ "$(echo $KEPT_REPORTS | wc -w)" -ge 14 ]	# the table read, not nothing
	kept_from_db "$CORPUS/linux-6.1-tiny/workload-kmem.log"
	kept_from_db "$CORPUS/linux-6.1-tiny/stacktrace-kmem.log"
	kept_from_db "$CORPUS/host-6.18/stack-kmem.log"
	kept_from_db "$CORPUS/host-6.18/overrun-kmem.log"
	kept_from_db "$CORPUS/host-6.18/perf-kmem/kmem.perf-script.txt"
}

@test "a run the kept data do not answer replays the DB's events, and gets the log's reports" {
	local log="$CORPUS/host-6.18/stack-kmem.log" d="$BATS_TEST_TMPDIR" opts
	"$TA" -q -f "$log" --save-db "$d/kept.db"
	for opts in "--malloc" "--comm bash" "--time 0,100000" "--group-by cache" \
		    "--peak $d/p --peak-at 723.6" "--group-by origin --timeline $d/t.csv"; do
		"$TA" -q -f "$log" $opts --summary "$d/log.s" 2> /dev/null || true
		"$TA" -q --db-file "$d/kept.db" $opts --summary "$d/db.s" 2> /dev/null || true
		[ ! -e "$d/log.s" ] || cmp "$d/log.s" "$d/db.s" || { echo "$opts differs"; return 1; }
		# shellcheck disable=SC2086
		run env TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$d/kept.db" $opts --summary "$d/x"
		[[ "$output" == *"its events were replayed (TA_TEST_NO_REPLAY)"* ]] ||
			{ echo "$opts: $output"; return 1; }
		rm -f "$d/log.s" "$d/db.s"
	done
	# --perfetto's heap samples are not kept
	run env TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$d/kept.db" --perfetto "$d/x.pf"
	[ "$status" -eq 1 ]
	# a DB saved by a run that read a part of the log keeps none: its reports replay
	"$TA" -q -f "$log" --malloc --save-db "$d/part.db"
	run env TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$d/part.db" --summary "$d/x"
	[ "$status" -eq 1 ]
	"$TA" -q -f "$log" --outstanding "$d/log.o"
	"$TA" -q --db-file "$d/part.db" --outstanding "$d/db.o"
	cmp "$d/log.o" "$d/db.o"
}

@test "a report whose pass keeps no part replays the DB's events: the DB run equals the log run" {
	local log="$CORPUS/host-6.18/stack-kmem.log" d="$BATS_TEST_TMPDIR" r opt file
	[ -n "$REPLAYED_REPORTS" ]	# --perfetto's heap samples at least
	"$TA" -q -f "$log" --save-db "$d/kept.db"
	for r in $REPLAYED_REPORTS; do
		opt=${r%%:*} file=${r#*:}
		"$TA" -q -f "$log" "$opt" "$d/log.$file"
		"$TA" -q --db-file "$d/kept.db" "$opt" "$d/db.$file"
		cmp "$d/log.$file" "$d/db.$file" || { echo "$opt differs"; return 1; }
		run env TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$d/kept.db" "$opt" "$d/x.$file"
		[ "$status" -eq 1 ]
		[[ "$output" == *"its events were replayed (TA_TEST_NO_REPLAY)"* ]]
	done
}
