#!/bin/sh
# make-big-log.sh OUT [MIB] - concatenate the 6.18 corpus logs (tracefs text,
# real captures) until OUT holds at least MIB mebibytes (default 1024): the
# benchmark input. Each copy keeps its own '#' header, as a concatenation of
# snapshots would.
set -eu
out=${1:?usage: make-big-log.sh OUT [MIB]}
mib=${2:-1024}
corpus=${CORPUS:-$(dirname "$0")/../../shared/corpus}/host-6.18
logs="$corpus/small-kmem.log $corpus/stack-kmem.log $corpus/overrun-kmem.log $corpus/trace-cmd-same-events.tracefs.log"
for f in $logs; do
	[ -r "$f" ] || { echo "make-big-log.sh: cannot read '$f' (set CORPUS=...)" >&2; exit 1; }
done
want=$((mib * 1024 * 1024))
: > "$out"
size=0
while [ "$size" -lt "$want" ]; do
	cat $logs >> "$out"
	size=$(stat -c %s "$out")
done
echo "make-big-log.sh: a fallback: copies of small logs flatter the live-pointer table;" \
	"benchmark on a real capture (../shared/tools/capture-kmem.sh OUT 2500) where you can" >&2
echo "$out: $size bytes, $(wc -l < "$out") lines"
