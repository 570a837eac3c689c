#!/bin/sh
# bench.sh LOG [RUNS] - how fast trace_analyze reads LOG, beside `wc -l`.
#
# Prints, for `trace_analyze -q -f LOG -c /dev/null` with one parser thread
# and with the default thread count: wall time (the median of RUNS, default 5),
# MB/s, kmem events/s, peak RSS, minor page faults, and the ratio to
# `wc -l LOG` (the speed of just reading the lines); then what the second
# thread gives. The page cache is warmed first, so this
# measures the program, not the disk. A >= 1 GB log can be made with
# scripts/make-big-log.sh. TA=path selects another binary.
# Then every report at once (--stats --outstanding --page: the live tables
# at their fullest), and the DB file: its size against the log (with and
# without the report data it keeps), the time --save-db adds, the time of
# the account from the DB against the text (--db-file), and of each report
# that reads the kept data, against the same report from the text (the
# target: 20x). BENCH_COMPRESSED="zst gz xz" also times compressed copies
# read directly against `zstdcat F | trace_analyze -f -` (made once, slow).
#
# A trace.dat or perf.data LOG is timed against the capture tool's own ways
# in instead: `trace-cmd report` alone and piped into trace_analyze, or
# `perf kmem --caller stat` and `perf script | trace_analyze -f -`, and
# against its own text form (made once) read with -f, in events/s;
# the targets (trace.dat: 30x trace-cmd report; perf.data: half of perf
# kmem's time, no more memory; both: the text form's events/s, judged on
# runs of the two in turn) are said met or not. KALLSYMS=FILE gives a
# perf.data's kernel symbols (perf script --kallsyms, trace_analyze
# --kallsyms) when it was recorded on another kernel.
set -eu
log=${1:?usage: bench.sh LOG [RUNS]}
runs=${2:-5}
ta=${TA:-$(dirname "$0")/../trace_analyze}
[ -r "$log" ] || { echo "bench.sh: cannot read '$log'" >&2; exit 1; }
[ -x "$ta" ] || { echo "bench.sh: no binary '$ta' (run make)" >&2; exit 1; }

bytes=$(stat -L -c %s "$log")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$log" > /dev/null		# warm the page cache

# the timer: one fork and exec between its clock readings (scripts/walltime.c)
timer=$(dirname "$0")/../build/tools/walltime
[ -x "$timer" ] || make -s -C "$(dirname "$0")/.." build/tools/walltime > /dev/null ||
	{ echo "bench.sh: cannot build $timer" >&2; exit 1; }

# median_of CMD...: the median wall time in seconds over $runs runs; the
# peak RSS (KB), minor and major faults of the median run go to $tmp/rss.
median_of() {
	i=0
	: > "$tmp/times"
	while [ $i -lt "$runs" ]; do
		"$timer" -o "$tmp/run.$i" "$@" > /dev/null 2> "$tmp/err" ||
			{ cat "$tmp/err" >&2; exit 1; }
		read -r ns kb minor major < "$tmp/run.$i"
		echo "$kb $minor $major" > "$tmp/rss.$i"
		echo "$ns $i" >> "$tmp/times"
		i=$((i + 1))
	done
	set -- $(sort -n "$tmp/times" | sed -n "$(( (runs + 1) / 2 ))p")
	cp "$tmp/rss.$2" "$tmp/rss"
	awk -v ns="$1" 'BEGIN { printf "%.4f", ns / 1e9 }'
}

# ---- a capture tool's binary file: trace.dat or perf.data ----

# bench_binary KIND: trace_analyze -f FILE against the capture tool's ways
bench_binary() {
	ksyms=""
	[ -n "${KALLSYMS:-}" ] && ksyms="--kallsyms ${KALLSYMS}"
	events=$("$ta" -f "$log" $ksyms 2>&1 > /dev/null |
		awk '/kmem events read:/ { print $NF; exit }')
	printf 'file:       %s: %.1f MB, a %s, %s kmem events\n' "$log" \
		"$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$1" "$events"
	line() {	# LABEL SECONDS [BASE_SECONDS]
		awk -v label="$1" -v s="$2" -v base="${3:-}" -v b="$bytes" -v e="$events" \
		    -v rss="$(cut -d' ' -f1 "$tmp/rss")" -v faults="$(cut -d' ' -f2 "$tmp/rss")" 'BEGIN {
			printf "%-34s %7.3f s  %7.0f MB/s  %6.2f M events/s  RSS %6.1f MB", label, s,
			       b / 1e6 / s, e / 1e6 / s, rss / 1024
			if (base != "") printf "  %5.1fx faster", base / s
			printf "\n" }'
	}
	if [ "$1" = trace.dat ]; then
		command -v trace-cmd > /dev/null ||
			{ echo "bench.sh: needs trace-cmd (scripts/deps.sh)" >&2; exit 1; }
		tool_s=$(median_of trace-cmd report -i "$log")
		tool_rss=$(cut -d' ' -f1 "$tmp/rss")
		line "trace-cmd report (text only):" "$tool_s"
		pipe_s=$(median_of sh -c "trace-cmd report -i '$log' | '$ta' -q -f - -c /dev/null")
		line "trace-cmd report | trace_analyze:" "$pipe_s"
		trace-cmd report -i "$log" > "$tmp/text" 2> /dev/null
	else
		command -v perf > /dev/null ||
			{ echo "bench.sh: needs perf (scripts/deps.sh)" >&2; exit 1; }
		tool_s=$(median_of perf kmem --caller -i "$log" stat)
		tool_rss=$(cut -d' ' -f1 "$tmp/rss")
		line "perf kmem --caller stat:" "$tool_s"
		pipe_s=$(median_of sh -c "perf script -i '$log' $ksyms | '$ta' -q -f - -c /dev/null")
		line "perf script | trace_analyze:" "$pipe_s"
		perf script -i "$log" $ksyms > "$tmp/text" 2> /dev/null
	fi
	one_s=$(median_of "$ta" -q --threads 1 -f "$log" $ksyms -c /dev/null)
	line "trace_analyze -f (1 thread):" "$one_s" "$tool_s"
	both_s=$(median_of "$ta" -q -f "$log" $ksyms -c /dev/null)
	both_rss=$(cut -d' ' -f1 "$tmp/rss")
	line "trace_analyze -f (threads):" "$both_s" "$tool_s"
	text_s=$(median_of "$ta" -q -f "$tmp/text" -c /dev/null)
	line "its text form, -f (threads):" "$text_s"
	awk -v t="$both_s" -v p="$pipe_s" 'BEGIN {
		printf "trace_analyze -f is %.1fx faster than the text pipe\n", p / t }'
	verdict() { [ "$1" = 1 ] && echo met || echo "NOT met"; }
	if [ "$1" = trace.dat ]; then
		ok=$(awk -v t="$both_s" -v x="$tool_s" 'BEGIN { print (x / t >= 30) }')
		awk -v t="$both_s" -v x="$tool_s" -v v="$(verdict "$ok")" 'BEGIN {
			printf "target: 30x trace-cmd report: %.1fx, %s\n", x / t, v }'
	else
		ok=$(awk -v t="$both_s" -v x="$tool_s" -v r="$both_rss" -v xr="$tool_rss" \
			'BEGIN { print (t <= x / 2 && r <= xr) }')
		awk -v t="$both_s" -v x="$tool_s" -v r="$both_rss" -v xr="$tool_rss" \
		    -v v="$(verdict "$ok")" 'BEGIN {
			printf "target: half of perf kmem, no more RSS: %.2fx its time, %.0f MB against %.0f MB, %s\n",
			       t / x, r / 1024, xr / 1024, v }'
	fi
	r=$(text_ratio)
	ok=$(awk -v r="$r" 'BEGIN { print (r <= 1) }')
	awk -v r="$r" -v n="$runs" -v v="$(verdict "$ok")" 'BEGIN {
		printf "target: the text form'"'"'s events/s: %.2fx them (median of %d paired runs), %s\n",
		       1 / r, n, v }'
}

# text_ratio: the binary file and its text form read in turn, $runs pairs; the
# median of the file's time over the text's, pair by pair, so that the machine's
# speed drifting between the two medians above does not decide the target
text_ratio() {
	: > "$tmp/ratios"
	i=0
	while [ $i -lt "$runs" ]; do
		"$timer" -o "$tmp/a" "$ta" -q -f "$log" $ksyms -c /dev/null > /dev/null 2>&1
		"$timer" -o "$tmp/b" "$ta" -q -f "$tmp/text" -c /dev/null > /dev/null 2>&1
		awk -v a="$(cut -d' ' -f1 "$tmp/a")" -v b="$(cut -d' ' -f1 "$tmp/b")" \
			'BEGIN { print a / b }' >> "$tmp/ratios"
		i=$((i + 1))
	done
	sort -g "$tmp/ratios" | sed -n "$(( (runs + 1) / 2 ))p"
}

case $(head -c 10 "$log" | od -An -c | tr -d ' \n') in
	027\\bDtracing*) bench_binary trace.dat; exit 0 ;;
	PERFILE2*) bench_binary perf.data; exit 0 ;;
esac

events=$("$ta" -f "$log" 2>&1 > /dev/null | awk '/kmem events read:/ { print $NF; exit }')
lines=$(wc -l < "$log")
wc_s=$(median_of wc -l "$log")
printf 'log:        %s: %.1f MB, %s lines, %s kmem events\n' "$log" \
	"$(awk -v b="$bytes" 'BEGIN { print b / 1e6 }')" "$lines" "$events"
printf 'wc -l:      %s s  %8.0f MB/s\n' "$wc_s" "$(awk -v b="$bytes" -v s="$wc_s" 'BEGIN { print b / 1e6 / s }')"

report() {	# LABEL SECONDS
	awk -v label="$1" -v s="$2" -v b="$bytes" -v e="$events" -v w="$wc_s" \
	    -v rss="$(cut -d' ' -f1 "$tmp/rss")" -v faults="$(cut -d' ' -f2 "$tmp/rss")" 'BEGIN {
		printf "%-11s %s s  %8.0f MB/s  %6.2f M events/s  peak RSS %5.1f MB  %6d faults  %4.1fx wc -l\n",
		       label, s, b / 1e6 / s, e / 1e6 / s, rss / 1024, faults, s / w }'
}

one_s=$(median_of "$ta" -q --threads 1 -f "$log" -c /dev/null)
report "1 thread:" "$one_s"
two_s=$(median_of "$ta" -q -f "$log" -c /dev/null)
report "threads:" "$two_s"
awk -v a="$one_s" -v b="$two_s" 'BEGIN { printf "2 threads: %.2fx the speed of one\n", a / b }'
report "all reports:" "$(median_of "$ta" -q -f "$log" -c /dev/null --stats /dev/null \
	--outstanding /dev/null --page /dev/null)"

# The DB file (--save-db / --db-file): its size, what saving costs, and how
# much faster the account comes from it than from the text.
db="$tmp/bench.db"
save_s=$(median_of "$ta" -q -f "$log" -c /dev/null --save-db "$db")
save_rss=$(cut -d' ' -f1 "$tmp/rss")
save1_s=$(median_of "$ta" -q --threads 1 -f "$log" -c /dev/null --save-db "$db")
plain_s=$(median_of "$ta" -q -f "$log" -c /dev/null)
plain1_s=$(median_of "$ta" -q --threads 1 -f "$log" -c /dev/null)
db_s=$(median_of "$ta" -q --db-file "$db" -c /dev/null)
db_rss=$(cut -d' ' -f1 "$tmp/rss")
db_bytes=$(stat -c %s "$db")
awk -v b="$bytes" -v d="$db_bytes" 'BEGIN {
	printf "DB:         %.1f MB, %.1f%% of the log\n", d / 1e6, 100 * d / b }'
awk -v s="$save_s" -v p="$plain_s" -v s1="$save1_s" -v p1="$plain1_s" -v rss="$save_rss" 'BEGIN {
	printf "save:       %s s (+%.0f%% on %s s), 1 thread %s s (+%.0f%% on %s s), peak RSS %.1f MB\n",
	       s, 100 * (s - p) / p, p, s1, 100 * (s1 - p1) / p1, p1, rss / 1024 }'
awk -v d="$db_s" -v p="$plain_s" -v p1="$plain1_s" -v rss="$db_rss" 'BEGIN {
	if (d < 0.001) d = 0.001
	printf "from DB:    %.3f s: %.0fx faster than the text (%.0fx than 1 thread), peak RSS %.1f MB\n",
	       d, p / d, p1 / d, rss / 1024 }'
# a --malloc run reads a part of the log: its DB has the events, not the report data
"$ta" -q -f "$log" --malloc -c /dev/null --save-db "$tmp/events-only.db"
awk -v b="$bytes" -v d="$(stat -c %s "$tmp/events-only.db")" -v k="$db_bytes" 'BEGIN {
	printf "DB report data: %.1f MB more (%.1f MB without them, %.1f%% of the log)\n",
	       (k - d) / 1e6, d / 1e6, 100 * d / b }'
rm -f "$tmp/events-only.db"
# each report the kept data answer, from the DB and from the text
for r in summary outstanding peak lifetimes growth page pprof timeline html origins; do
	case $r in
	origins) opt="--group-by origin -c" out="$tmp/out" ;;
	timeline) opt="--timeline" out="$tmp/out.csv" ;;
	*) opt="--$r" out="$tmp/out" ;;
	esac
	# shellcheck disable=SC2086
	text_r=$(median_of "$ta" -q -f "$log" $opt "$out")
	# shellcheck disable=SC2086
	db_r=$(median_of "$ta" -q --db-file "$db" $opt "$out")
	awk -v r="$r" -v t="$text_r" -v d="$db_r" 'BEGIN {
		if (d < 0.001) d = 0.001
		below = (t / d < 20) ? "  (below the 20x target)" : ""
		printf "  %-12s from DB %s s, from the text %s s: %5.1fx%s\n", r, d, t, t / d, below }'
done

# Compressed copies: read directly, and through the usual pipe.
for z in ${BENCH_COMPRESSED:-}; do
	case $z in
	zst) pack="zstd -q -T0 -3 -c"; cat_z="zstdcat" ;;
	gz) pack="gzip -1 -c"; cat_z="zcat" ;;
	xz) pack="xz -0 -T0 -c"; cat_z="xzcat" ;;
	*) echo "bench.sh: unknown compression '$z' (zst gz xz)" >&2; exit 2 ;;
	esac
	$pack < "$log" > "$tmp/log.$z"
	zbytes=$(stat -c %s "$tmp/log.$z")
	direct=$(median_of "$ta" -q -f "$tmp/log.$z" -c /dev/null)
	direct_rss=$(cut -d' ' -f1 "$tmp/rss")
	piped=$(median_of sh -c "$cat_z '$tmp/log.$z' | '$ta' -q -f - -c /dev/null")
	cat_only=$(median_of sh -c "$cat_z '$tmp/log.$z' > /dev/null")
	awk -v z="$z" -v zb="$zbytes" -v b="$bytes" -v d="$direct" -v p="$piped" -v c="$cat_only" \
	    -v cz="$cat_z" -v rss="$direct_rss" 'BEGIN {
		printf "%-4s %.1f MB: -f %s s (%.0f MB/s of log, RSS %.1f MB); %s | -f -: %s s; %s alone: %s s\n",
		       z ":", zb / 1e6, d, b / 1e6 / d, rss / 1024, cz, p, cz, c }'
	rm -f "$tmp/log.$z"
done
