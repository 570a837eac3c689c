#!/bin/sh
# same-outputs.sh OLD NEW [DIR]: every report of the corpus logs, binary
# captures and DBs written by two builds of trace_analyze (binaries OLD and
# NEW), kept in DIR (default: a scratch folder), and compared byte for byte,
# with the messages and exit codes. For changes that must not change what a
# user sees (a refactoring): prints each difference, exit 1 if there is one.
# OLD may be a git revision instead of a binary (`make same-outputs
# REV=HEAD~3`): that commit is built in DIR, from a worktree of its own.
set -u
old=$1 new=$2
dir=${3:-$(mktemp -d "${TMPDIR:-/tmp}/same-outputs.XXXXXX")}
top=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -f "$old" ] && git -C "$top" rev-parse -q --verify "$old^{commit}" > /dev/null; then
	rev=$old
	rm -rf "$dir/old-tree"
	git -C "$top" worktree add -q --detach "$dir/old-tree" "$rev" || exit 2
	make -s -C "$dir/old-tree" -j2 trace_analyze > "$dir/old-build.log" 2>&1 ||
		{ echo "same-outputs: cannot build $rev (see $dir/old-build.log)" >&2; exit 2; }
	old=$dir/old-tree/trace_analyze
	trap 'git -C "$top" worktree remove --force "$dir/old-tree"' EXIT
fi
corpus=${CORPUS:-$top/../shared/corpus}
fix=$top/tests/fixtures
tiny=$corpus/linux-6.1-tiny
host=$corpus/host-6.18
[ -d "$tiny" ] || { echo "same-outputs: no corpus at $corpus" >&2; exit 2; }
old=$(cd "$(dirname "$old")" && pwd)/$(basename "$old")
new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new")
bin=$dir/bin
mkdir -p "$bin"
# the binary captures, unpacked once
for f in "$host"/binary/*.xz; do
	[ -e "$f" ] || continue
	b=$bin/$(basename "$f" .xz)
	[ -e "$b" ] || xz -dc "$f" > "$b"
done

n=0
# run NAME ARGS...: ARGS run by both builds in DIR/NAME/{old,new}, outputs named o.*
run() {
	name=$1
	shift
	n=$((n + 1))
	for side in old new; do
		d=$dir/$name/$side
		rm -rf "$d"
		mkdir -p "$d"
		eval "ta=\$$side"
		(cd "$d" && TA_TEST_TIMESTAMPS=${TA_TEST_TIMESTAMPS:-} "$ta" "$@" > stdout 2> stderr
		 echo $? > status)
		# run times and the scratch paths differ by nature
		sed -i -e 's/ in [0-9.]* s$/ in N s/' -e "s|$dir/$name/$side|DIR|g" \
			-e 's/[0-9.]* MB\/s/N MB\/s/g' "$d/stderr" "$d/stdout"
	done
	if ! diff -r "$dir/$name/old" "$dir/$name/new" > "$dir/$name.diff"; then
		echo "same-outputs: $name differs: trace_analyze $*"
		head -n 20 "$dir/$name.diff"
		failed=1
	fi
}

failed=0
text="-c o.acc --stats o.stats --summary o.sum --outstanding o.out --page o.page --timeline o.tl.csv --folded o.folded --folded-pages o.fp"
for log in "$tiny/boot-kmem.log" "$tiny/workload-kmem.log" "$tiny/stacktrace-kmem.log" \
	   "$tiny/raw-ptr-kmem.log" "$host/small-kmem.log" "$host/stack-kmem.log"; do
	base=$(basename "$log" .log)
	run "$base" -f "$log" $text
	run "$base-csv" -f "$log" --format csv $text
	run "$base-json" -f "$log" --format json $text
	run "$base-origin" -q -f "$log" --group-by origin -c o.acc --stats o.stats
	run "$base-cache" -q -f "$log" --group-by cache -c o.acc --summary o.sum --format json
	run "$base-html" -q -f "$log" --html o.html --timeline o.svg --flame o.svg2.svg --pprof o.pb.gz
	run "$base-db" -q -f "$log" --save-db o.db
	run "$base-fromdb" -f "$dir/$base-db/new/o.db" $text
done
run tree -k "$tiny/tree" -c o.acc -r o.png -l o.callers
run tree-log -f "$tiny/workload-kmem.log" -k "$tiny/tree" -c o.acc -l o.callers --group-by dir \
	--summary o.sum -b fs --html o.html
run tree-json -q -k "$tiny/tree" -c o.acc --format json
run diff diff "$tiny/boot-kmem.log" "$tiny/workload-kmem.log"
run diff-json diff --format json --group-by function "$tiny/boot-kmem.log" "$tiny/workload-kmem.log"
run diff-static diff --static "$tiny/tree" "$tiny/tree"
run hexaddr -f "$tiny/boot-kmem-hexaddr.log" -k "$tiny/tree" -c o.acc
for b in "$bin"/*; do
	[ -f "$b" ] || continue
	base=$(basename "$b")
	run "bin-$base" -f "$b" $text
	run "bin-$base-json" -q -f "$b" --format json -c o.acc --summary o.sum
done
for f in "$fix"/*.perf.data "$fix"/*.dat "$fix"/*.log "$fix"/*.txt; do
	run "fix-$(basename "$f")" -f "$f" -c o.acc --summary o.sum --stats o.stats
done
run time -q -f "$tiny/boot-kmem.log" --time 1.5,2.5 --summary o.sum -c o.acc
run filters -q -f "$tiny/workload-kmem.log" --comm init --gfp GFP_KERNEL -c o.acc --stats o.st
run bad-missing -f /nonexistent.log -c o.acc
run bad-usage -f "$tiny/boot-kmem.log" --no-such-option
run bad-garbage -f /bin/sh -c o.acc
# what needs what: each usage error
w=$tiny/workload-kmem.log t=$tiny/tree
run use-tree -f "$w" -b fs -c o.acc
run use-tree-l -f "$w" -l o.l
run use-l-nolog -k "$t" -l o.l
run use-top -f "$w" --top 3
run use-weight -f "$w" --weight live -c o.acc
run use-flame -f "$w" --flame o.txt
run use-rings -k "$t" -r o.txt
run use-timeline -f "$w" --timeline o.txt
run use-summary -k "$t" --summary o.sum
run use-html -k "$t" --html o.html
run use-folded -k "$t" --folded o.f
run use-origin -k "$t" --group-by origin
run use-time -k "$t" --time 1,2
run use-minage -f "$w" --min-age 1 -c o.acc
run use-pagesize -f "$w" --page-size 8192 -c o.acc
run use-static -q -k "$t"
run use-attr -k "$t" -a current_dynamic -r o.png
run use-i -f "$w" -i -c o.acc
run use-same -f "$w" -c "$w"
run hint -f "$w"
run help --help
run diff-help diff --help
run record-help record --help
run top-help top --help
echo "same-outputs: $n runs in $dir: $( [ $failed = 0 ] && echo 'all the same' || echo 'differences above')"
exit $failed
