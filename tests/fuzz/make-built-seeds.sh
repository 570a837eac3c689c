#!/bin/sh
# make-built-seeds.sh TRACE_ANALYZE OUTDIR - the fuzz seeds made by the
# current build from the committed text seeds (tests/fuzz/corpus/text), so
# that they follow every change of format and never go stale:
#   OUTDIR/db/NAME.db        --save-db of each text seed's log
#   OUTDIR/compressed/NAME.* each plain text seed's log through gzip, xz and
#                            zstd, whole and cut in the middle
#   OUTDIR/tracedat/*        the fixture trace.dat (version 6), and with
#                            trace-cmd: versions 7, 7 with zstd sections
#   OUTDIR/perfdata/*        the fixture perf.data, and its first records
#                            alone with its kmem formats (cut_perfdata.py):
#                            a small seed, so that a run is cheap
#   OUTDIR/datlayout/*       the trace.dat seeds
#   OUTDIR/tepkmem/*         runs of raw records (make-tepkmem-seeds.py)
#   OUTDIR/ksnapshot/*       the fixture kernel snapshot's files, and each cut
#                            in the middle of a line
#   OUTDIR/taskcgroups/*     the cgroups fixture's pid map and fork log
#   OUTDIR/pageowner/*       the page_owner fixture's first records
#   OUTDIR/kmemleak/*        the kmemleak fixture's report
#   OUTDIR/text              (none: the committed ones are the text seeds)
# A text seed is three bytes that choose the run (fuzz_text.c), then the log.
set -eu
ta=$1
out=$2
rm -rf "$out"
mkdir -p "$out/db" "$out/compressed" "$out/tracedat" "$out/perfdata" "$out/datlayout" \
	"$out/tepkmem" "$out/text" "$out/ksnapshot" "$out/taskcgroups" "$out/pageowner" \
	"$out/kmemleak"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
for seed in tests/fuzz/corpus/text/*; do
	name=$(basename "$seed")
	tail -c +4 "$seed" > "$tmp/log"
	[ -s "$tmp/log" ] || continue
	if "$ta" -q -f "$tmp/log" --save-db "$out/db/$name.db" > /dev/null 2>&1; then
		n=$((n + 1))
	fi
	# plain logs only: the compressed seeds are compressed already
	if [ -z "$(LC_ALL=C tr -d '[:print:][:space:]' < "$tmp/log" | head -c 1)" ]; then
		for z in gzip xz zstd; do
			command -v $z > /dev/null || continue
			$z -c < "$tmp/log" > "$out/compressed/$name.$z" 2> /dev/null || continue
			size=$(wc -c < "$out/compressed/$name.$z")
			head -c $((size / 2)) "$out/compressed/$name.$z" > "$out/compressed/$name.cut.$z"
		done
	fi
done
cp tests/fixtures/small-stacks.dat "$out/tracedat/v6.dat"
cp tests/fixtures/small-callchain.perf.data "$out/perfdata/callchain.perf.data"
cp tests/fixtures/pipe-mode.perf.data "$out/perfdata/pipe-mode.perf.data"
python3 tests/tools/cut_perfdata.py tests/fixtures/small-callchain.perf.data \
	"$out/perfdata/callchain-30.perf.data" 30 > /dev/null
python3 tests/fuzz/make-tepkmem-seeds.py tests/fuzz/formats "$out/tepkmem"
if command -v trace-cmd > /dev/null; then
	trace-cmd convert -i "$out/tracedat/v6.dat" --file-version 7 -o "$out/tracedat/v7.dat" \
		> /dev/null 2>&1 || true
	trace-cmd convert -i "$out/tracedat/v6.dat" --file-version 7 --compression zstd \
		-o "$out/tracedat/v7-zstd.dat" > /dev/null 2>&1 || true
fi
cp "$out"/tracedat/* "$out/datlayout/"
for f in tests/fixtures/ksnapshot-6.12-B/*; do
	[ -f "$f" ] || continue
	cp "$f" "$out/ksnapshot/$(basename "$f")"
	head -c $(( $(wc -c < "$f") / 2 )) "$f" > "$out/ksnapshot/$(basename "$f").cut"
done
cp tests/fixtures/ksnapshot-6.12-B/cgroup/memory.stat "$out/ksnapshot/memory.stat"
cp tests/fixtures/cgroups-6.12/pids "$out/taskcgroups/pids"
head -n 200 tests/fixtures/cgroups-6.12/forks.log > "$out/taskcgroups/forks.log"
head -n 120 tests/fixtures/page_owner-6.12/dump.txt > "$out/pageowner/dump"
head -n 120 tests/fixtures/page_owner-6.12/stacks.txt > "$out/pageowner/stacks"
cp tests/fixtures/kmemleak-6.12/kmemleak.txt "$out/kmemleak/report"
echo "make-built-seeds.sh: $n DB seeds, $(ls "$out/compressed" | wc -l) compressed seeds in $out"
