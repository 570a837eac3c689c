#!/bin/sh
# demo.sh - the main job on data shipped in data/: the account of the first
# 20,000 lines of a real Linux 6.1 boot log, read from a pipe as a
# trace_pipe stream would be, then placed in that kernel's tree through its
# index (data/README.md says where both come from): callers file, a branch,
# ringcharts of the dynamic and of the static footprint, the timeline of
# live bytes and the interactive page (--html) that holds them all.
# Outputs go to demo-out/ (or $DEMO_OUT).
set -eu
cd "$(dirname "$0")/.."
out=${DEMO_OUT:-demo-out}
mkdir -p "$out"
log=data/boot-kmem-excerpt.log.gz
index="$out/linux-6.1-tiny.kidx"

echo "trace_analyze demo: $log (gzip -dc | trace_analyze -f -)"
xz -dc data/linux-6.1-tiny.kidx.xz > "$index"
gzip -dc "$log" > "$out/boot-kmem-excerpt.log"
gzip -dc "$log" | ./trace_analyze -f - -c "$out/account.txt" 2> "$out/summary.txt"
gzip -dc "$log" | ./trace_analyze -q -f - -c "$out/account-waste.txt" -o waste
gzip -dc "$log" | ./trace_analyze -q -f - -c "$out/account-functions.txt" --group-by function

# the kernel tree's view, from the index made of the corpus tree
./trace_analyze -k "$index" -f "$out/boot-kmem-excerpt.log" -l "$out/callers.txt" \
	-r "$out/rings-current_dynamic.png" 2> "$out/summary-kernel.txt"
./trace_analyze -q -k "$index" -f "$out/boot-kmem-excerpt.log" -b fs -c "$out/account-fs.txt" \
	-r "$out/rings-fs-waste.png" -a waste
./trace_analyze -q -k "$index" -c "$out/static.txt" -r "$out/rings_static.png"

# live bytes over time, and one page to click through (open it in a browser)
./trace_analyze -q -k "$index" -f "$out/boot-kmem-excerpt.log" --timeline "$out/timeline.png" \
	--html "$out/report.html" --summary "$out/summary-report.txt"

cat "$out/summary.txt"
tail -n 3 "$out/summary-kernel.txt"
echo
echo "top of the account (by current_dynamic, trace_analyze.py's default):"
head -n 16 "$out/account.txt"
echo
echo "the same call sites with the object defining them (-l):"
head -n 5 "$out/callers.txt"
echo
echo "outputs:"
for f in "$out"/*; do
	echo "  $f"
done
