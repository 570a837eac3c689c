#!/bin/sh
# demo.sh - the main job on data shipped in data/: the account of the first
# 20,000 lines of a real Linux 6.1 boot log (data/README.md says where it
# comes from), read from a pipe as a trace_pipe stream would be.
# Outputs go to demo-out/ (or $DEMO_OUT).
set -eu
cd "$(dirname "$0")/.."
out=${DEMO_OUT:-demo-out}
mkdir -p "$out"
log=data/boot-kmem-excerpt.log.gz

echo "trace_analyze demo: $log (gzip -dc | trace_analyze -f -)"
gzip -dc "$log" | ./trace_analyze -f - -c "$out/account.txt" 2> "$out/summary.txt"
gzip -dc "$log" | ./trace_analyze -q -f - -c "$out/account-waste.txt" -o waste
gzip -dc "$log" | ./trace_analyze -q -f - -c "$out/account-functions.txt" --group-by function

cat "$out/summary.txt"
echo
echo "top of the account (by total_dynamic):"
head -n 16 "$out/account.txt"
echo
echo "outputs:"
for f in "$out"/*; do
	echo "  $f"
done
