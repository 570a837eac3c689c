#!/bin/sh
# example-files.sh DIR [TRACE_ANALYZE] - the files README.md's and the man
# page's examples name, laid out in DIR so that every example runs there as
# printed: ./trace_analyze (this tree's binary), kmem.log, boot-kmem.log,
# linux (a built kernel tree), trace.dat, perf.data... Each name is a link
# to a file of the corpus beside the source tree (../shared/corpus) or of
# data/; what needs a decompressed copy is written. `make examples` runs it
# into examples/; scripts/readme-examples.sh into a scratch directory.
# Without the corpus, the names data/ can stand for are made, and the
# others named on stderr.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
bin=$(realpath "${2:-$top/trace_analyze}")
corpus=${CORPUS:-$top/../shared/corpus}
mkdir -p "$dir/bin" "$dir/build/tools"
cd "$dir"
ln -sfn "$bin" trace_analyze
ln -sfn "$bin" bin/trace_analyze
[ -x "$top/build/tools/open_pipes" ] && ln -sfn "$top/build/tools/open_pipes" build/tools/open_pipes

# the demo's outputs: the boot excerpt of data/ and its kernel index
DEMO_OUT="$(pwd)/demo-out" "$top/scripts/demo.sh" > /dev/null

# kernel snapshot folders (the repository's fixtures: a 6.12 guest's files at three moments)
for at in A B C; do
	ln -sfn "$top/tests/fixtures/ksnapshot-6.12-$at" snapshot-$at
done
# a kmem trace excerpt of that guest, its pid map and its fork log
ln -sfn "$top/tests/fixtures/cgroups-6.12" cgroups
# excerpts of its page_owner dump and show_stacks
ln -sfn "$top/tests/fixtures/page_owner-6.12" page_owner
# kmemleak's report of a guest that loaded kmemleak-test, and its trace around the load
ln -sfn "$top/tests/fixtures/kmemleak-6.12" kmemleak

if [ ! -d "$corpus" ]; then
	ln -sfn demo-out/boot-kmem-excerpt.log kmem.log
	ln -sfn demo-out/linux-6.1-tiny.kidx linux
	echo "example-files: no corpus at $corpus: kmem.log and linux are the demo's excerpt" \
		"and index; the examples of other files will not find them" >&2
	exit 0
fi
corpus=$(cd "$corpus" && pwd)
c61="$corpus/linux-6.1-tiny" c618="$corpus/host-6.18"
ln -sfn "$c61/workload-kmem.log" kmem.log
ln -sfn "$c61/boot-kmem.log" boot-kmem.log
ln -sfn "$c61/workload-kmem.log" workload-kmem.log
ln -sfn "$c61/boot-kmem-hexaddr.log" old-kmem.log
ln -sfn "$c61/tree" linux
ln -sfn "$c61/tree/System.map" System.map
ln -sfn "$c618/overrun-kmem.log" overrun-kmem.log
ln -sfn "$c618/stack-kmem.log" stack-kmem.log
ln -sfn "$c618/perf-kmem/kmem.perf-script.txt" kmem.perf-script.txt
ln -sfn "$c61/boot-kmem.log" before.log
ln -sfn "$c61/workload-kmem.log" after.log
ln -sfn "$c61/tree" linux-old
ln -sfn "$c61/tree" linux-new
"$bin" -q -f before.log --save-db before.db
"$bin" -q -f after.log --save-db after.db
xz -dc "$c618/binary/kmem.dat.xz" > trace.dat
xz -dc "$c618/binary/kmem.perf.data.xz" > perf.data
xz -dc "$c618/binary/kallsyms.xz" > kallsyms
grep 'rss_stat' "$c618/small-kmem.log" > rss.log
# a 6.12 kernel with loadable modules: /proc/allocinfo before, during and after, its kmem log
c612="$corpus/linux-6.12-modules"
if [ -d "$c612" ]; then
	for s in A B C; do
		ln -sfn "$c612/allocinfo-$s.txt" "allocinfo-$s.txt"
	done
	ln -sfn "$c612/workload-kmem-B.log.xz" modules-kmem.log.xz
fi
