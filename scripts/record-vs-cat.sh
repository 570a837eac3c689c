#!/bin/sh
# record-vs-cat.sh [SECONDS] [BUFFER_KB] - does `trace_analyze record -o` keep up?
# Side by side on this machine, under a busy workload on every core (the one
# ../shared/tools/capture-kmem.sh runs): `cat trace_pipe > file` from a
# tracefs instance of its own and `trace_analyze record -o` from another,
# both with the same events and the same buffer size, both for the same
# seconds. Prints each one's events written and events lost (per-CPU
# overrun + dropped of its instance), the CPU time each used and that time
# per event written. TA=path times another trace_analyze binary (an older
# build, to compare record's CPU per event); RECORD_OUT=text (the default:
# -o FILE.log), dat (-o FILE.dat) or none (the analysis alone) says what
# record writes. Root only; the instances are removed on exit.
set -eu
secs=${1:-20}
kb=${2:-1024}
top=$(cd "$(dirname "$0")/.." && pwd)
ta=${TA:-$top/trace_analyze}
[ "$(id -u)" -eq 0 ] || { echo "record-vs-cat.sh: needs root" >&2; exit 1; }
tr=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
[ -n "$tr" ] || { echo "record-vs-cat.sh: no tracefs" >&2; exit 1; }
work=$(mktemp -d /tmp/record-vs-cat.XXXXXX)
inst="$tr/instances/record-vs-cat-$$"
load=""; cat_pid=""
cleanup() {
	[ -n "$load" ] && kill -- -"$load" 2> /dev/null || true
	[ -d "$inst" ] && echo 0 > "$inst/tracing_on" 2> /dev/null || true
	[ -n "$cat_pid" ] && kill "$cat_pid" 2> /dev/null || true
	wait 2> /dev/null || true
	[ -d "$inst" ] && rmdir "$inst" 2> /dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

cat > "$work/churn.sh" <<'END'
w=$1; i=$2
while :; do
	mkdir -p "$w/churn$i"
	tar -C /usr -cf - include share/doc 2>/dev/null | tar -C "$w/churn$i" -xf -
	find "$w/churn$i" -type f -print0 | xargs -0 md5sum > /dev/null
	rm -rf "$w/churn$i"
done
END
setsid sh -c "sh '$work/churn.sh' '$work' 1 & sh '$work/churn.sh' '$work' 2 & wait" & load=$!
sleep 2

mkdir "$inst"
echo 0 > "$inst/tracing_on"
echo "$kb" > "$inst/buffer_size_kb"
for e in kmalloc kfree kmem_cache_alloc kmem_cache_free mm_page_alloc mm_page_free \
	mm_page_free_batched; do
	echo 1 > "$inst/events/kmem/$e/enable"
done
/usr/bin/time -f '%U %S' -o "$work/cat.time" cat "$inst/trace_pipe" > "$work/cat.log" &
cat_pid=$!
echo 1 > "$inst/tracing_on"
case ${RECORD_OUT:-text} in
text) out_opt="-o $work/record.log" ;;
dat) out_opt="-o $work/record.dat" ;;
none) out_opt="" ;;
*) echo "record-vs-cat.sh: RECORD_OUT is text, dat or none" >&2; exit 2 ;;
esac
/usr/bin/time -f '%U %S' -o "$work/record.time" \
	"$ta" record -c /dev/null $out_opt --buffer-kb "$kb" --events all --duration "$secs" \
	> /dev/null 2> "$work/record.err" &
rec=$!
sleep "$secs"
echo 0 > "$inst/tracing_on"
wait "$rec" || true
# trace_pipe ends once tracing is off and it has been read empty
wait "$cat_pid" 2> /dev/null || true; cat_pid=""
cat_cpu=$(awk '{ print $1 + $2 }' "$work/cat.time")
cat_lost=0
for s in "$inst"/per_cpu/cpu*/stats; do
	o=$(awk '/^overrun:/ { print $2 }' "$s"); d=$(awk '/^dropped events:/ { print $3 }' "$s")
	cat_lost=$((cat_lost + o + d))
done
cat_events=$(grep -c ': \(kmalloc\|kfree\|kmem_cache_\|mm_page_\)' "$work/cat.log" || true)
cat_markers=$(grep -o 'LOST [0-9]* EVENTS' "$work/cat.log" | awk '{ s += $2 } END { print s + 0 }')
# record's last line: "recorded N events ... in S s; L lost"
rec_line=$(grep 'trace_analyze: recorded' "$work/record.err" | tail -n 1)
rec_events=$(echo "$rec_line" | sed 's/.*recorded \([0-9]*\) events.*/\1/')
rec_lost=$(echo "$rec_line" | sed 's/.*; \([0-9]*\) lost.*/\1/')
rec_cpu=$(awk '{ print $1 + $2 }' "$work/record.time")
echo "buffer ${kb} kB per CPU, ${secs} s, busy workload on every core"
row() {	# LABEL EVENTS LOST CPU_S
	awk -v l="$1" -v e="$2" -v lost="$3" -v c="$4" 'BEGIN {
		printf "%-26s %12s %12s %10s %12.2f\n", l, e, lost, c, e ? c * 1e6 / e : 0 }'
}
printf '%-26s %12s %12s %10s %12s\n' "" "events" "lost" "CPU s" "CPU us/event"
row "cat trace_pipe > file" "$cat_events" "$cat_lost" "$cat_cpu"
row "trace_analyze record (${RECORD_OUT:-text})" "$rec_events" "$rec_lost" "$rec_cpu"
echo "cat's trace_pipe LOST markers: $cat_markers; record: $rec_line"
