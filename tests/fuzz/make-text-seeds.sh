#!/bin/sh
# make-text-seeds.sh - cut the seed corpus of tests/fuzz/fuzz_text.c from
# every format in ../shared/corpus and tests/fixtures: a short slice of each
# log (its first lines, and lines from its middle where other events, page
# events, stacks or markers are), behind the two bytes that choose the run
# (fuzz_text.c says what each bit means). Run from the project root; the
# seeds are committed, so this is only needed to make them again.
set -eu
corpus=${CORPUS:-../shared/corpus}
out=tests/fuzz/corpus/text
mkdir -p "$out"
rm -f "$out"/*

# seed NAME CONFIG0 CONFIG1 CONFIG2 FILE FIRST COUNT: lines FIRST.. of FILE
seed() {
	{ printf "\\$(printf %03o "$2")\\$(printf %03o "$3")\\$(printf %03o "$4")"
	  tail -n +"$6" "$5" | head -n "$7"; } > "$out/$1"
}

# seedz NAME CONFIG0 CONFIG1 CONFIG2 COMPRESSOR FILE FIRST COUNT: the same, compressed
seedz() {
	{ printf "\\$(printf %03o "$2")\\$(printf %03o "$3")\\$(printf %03o "$4")"
	  tail -n +"$7" "$6" | head -n "$8" | $5; } > "$out/$1"
}

c61=$corpus/linux-6.1-tiny
h618=$corpus/host-6.18
seed boot-6.1-head               0   0   0 "$c61/boot-kmem.log" 1 150
seed boot-6.1-kidx-callers     128   4   0 "$c61/boot-kmem.log" 30000 150
seed boot-6.1-json-2threads     33   8   0 "$c61/boot-kmem.log" 60000 150
seed hexaddr-6.1-kidx          128  64   0 "$c61/boot-kmem-hexaddr.log" 1 150
seed rawptr-6.1-pipe            64   1   0 "$c61/raw-ptr-kmem.log" 1 150
seed stacktrace-6.1            130   2  15 "$c61/stacktrace-kmem.log" 1 200
seed workload-6.1-malloc         4  16   0 "$c61/workload-kmem.log" 100000 150
seed workload-6.1-cache-db       8 128   0 "$c61/workload-kmem.log" 200000 150
seed small-6.18-head             0  24   0 "$h618/small-kmem.log" 1 150
seed small-6.18-pages-csv       16  32   0 "$h618/small-kmem.log" 50000 200
seed stack-6.18-pipe            64  40   9 "$h618/stack-kmem.log" 1 200
seed stack-6.18-middle           1  48   2 "$h618/stack-kmem.log" 20000 200
seed overrun-6.18                0 128   0 "$h618/overrun-kmem.log" 1 150
seed overrun-6.18-markers       97   0   0 "$h618/overrun-kmem.log" 4000 200
seed trace-cmd-report            2   0   0 "$h618/trace-cmd-report.txt" 1 150
seed trace-cmd-tracefs          18   1   0 "$h618/trace-cmd-same-events.tracefs.log" 1 150
seed perf-script                32  56   0 "$h618/perf-kmem/kmem.perf-script.txt" 1 150
seed perf-callchain             65   0  31 "$h618/perf-callchain/perf-callchain.perf-script.txt" 1 200
seed trace-pipe-lost             0   6   0 tests/fixtures/trace-pipe-6.18.log 1 100
seed old-2.6-hex                 3   0   0 tests/fixtures/old-2.6-hex.log 1 100
seed nested-6.1                 1   4 141 tests/fixtures/stack-nested-6.1.log 1 100
seed trace-cmd-stack           64   0 135 tests/fixtures/trace-cmd-stack.txt 1 100
seed empty                       0   0   0 /dev/null 1 1
seedz boot-6.1-gzip              0   0   0 "gzip -n -c" "$c61/boot-kmem.log" 1 150
seedz small-6.18-zstd-pipe      64   1   0 "zstd -q -c" "$h618/small-kmem.log" 1 150
seedz stack-6.18-xz-2threads    33   8   9 "xz -c" "$h618/stack-kmem.log" 1 200
ls "$out" | wc -l
du -sh "$out"
