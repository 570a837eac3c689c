#!/bin/sh
# readme-examples.sh - run every example command of README.md, then every
# one of the man page's EXAMPLES, as printed, in a scratch directory where
# the names the examples use are the corpus files README.md says they are
# (kmem.log, linux, stack-kmem.log, ...), and ./trace_analyze and
# trace_analyze are this tree's binary. An example followed in README.md by
# a "trace_analyze: error" line must fail; every other one must succeed and
# give an answer: something on its standard output or error, or in a file
# it wrote, and no note that its filters left nothing ("kept none", "left out all").
# Examples that need root and tracefs (sudo) are left to
# tests/cli/record.bats. Exit 1 naming the first that misbehaves.
#   usage: scripts/readme-examples.sh [TRACE_ANALYZE]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$top/trace_analyze}")
corpus=${CORPUS:-$top/../shared/corpus}
[ -d "$corpus" ] || { echo "readme-examples: no corpus at $corpus" >&2; exit 1; }
corpus=$(cd "$corpus" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir bin
ln -s "$bin" bin/trace_analyze
ln -s "$bin" trace_analyze
PATH="$work/bin:$PATH"
export PATH

# the files the examples name
c61="$corpus/linux-6.1-tiny" c618="$corpus/host-6.18"
ln -s "$c61/workload-kmem.log" kmem.log
ln -s "$c61/boot-kmem.log" boot-kmem.log
ln -s "$c61/workload-kmem.log" workload-kmem.log
ln -s "$c61/boot-kmem-hexaddr.log" old-kmem.log
ln -s "$c61/tree" linux
ln -s "$c61/tree/System.map" System.map
ln -s "$c618/overrun-kmem.log" overrun-kmem.log
ln -s "$c618/stack-kmem.log" stack-kmem.log
ln -s "$c618/perf-kmem/kmem.perf-script.txt" kmem.perf-script.txt
ln -s "$c61/boot-kmem.log" before.log
ln -s "$c61/workload-kmem.log" after.log
ln -s "$c61/tree" linux-old
ln -s "$c61/tree" linux-new
"$bin" -q -f before.log --save-db before.db
"$bin" -q -f after.log --save-db after.db
xz -dc "$c618/binary/kmem.dat.xz" > trace.dat
xz -dc "$c618/binary/kmem.perf.data.xz" > perf.data
xz -dc "$c618/binary/kallsyms.xz" > kallsyms
grep 'rss_stat' "$c618/small-kmem.log" > rss.log
DEMO_OUT="$work/demo-out" "$top/scripts/demo.sh" > /dev/null
mkdir -p build/tools
[ -x "$top/build/tools/open_pipes" ] && ln -s "$top/build/tools/open_pipes" build/tools/open_pipes

# the examples: "    $ command" lines, joined with their "\" continuations
awk '
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (line[i] !~ /^    \$ /)
				continue
			cmd = substr(line[i], 7)
			while (cmd ~ /\\$/ && i < NR) {
				sub(/\\$/, "", cmd)
				next_part = line[++i]
				sub(/^ +/, " ", next_part)
				cmd = cmd next_part
			}
			print (line[i + 1] ~ /^    trace_analyze: error/ ? "F" : "S") "\t" cmd
		}
	}
' "$top/README.md" > examples.txt
# the man page's: the "trace_analyze ..." lines of .EX blocks in EXAMPLES
awk '
	/^\.SH / { in_examples = ($2 == "EXAMPLES") }
	in_examples && /^\.EX/ { in_block = 1; next }
	in_examples && /^\.EE/ { in_block = 0 }
	in_block && /^trace_analyze / { gsub(/\\-/, "-"); print "S\t" $0 }
' "$top/man/trace_analyze.1" >> examples.txt

n=0
while IFS='	' read -r want cmd; do
	case "$cmd" in
	sudo\ *) continue ;;	# root and tracefs: tests/cli/record.bats
	esac
	cmd=$(printf '%s' "$cmd" | sed "s|\.\./shared/corpus|$corpus|g")
	n=$((n + 1))
	touch stamp
	sleep 0.01	# a file the example writes is newer than the stamp
	if sh -c "$cmd" > out.txt 2> err.txt; then got=S; else got=F; fi
	if [ "$got" != "$want" ]; then
		echo "readme-examples: '$cmd' $([ "$want" = S ] && echo failed || echo succeeded):" >&2
		cat out.txt err.txt | head -n 5 >&2
		exit 1
	fi
	[ "$want" = S ] || continue
	if grep -q 'kept none\|left out all' out.txt err.txt; then
		echo "readme-examples: '$cmd' gives an empty report:" >&2
		grep 'kept none\|left out all' out.txt err.txt | head -n 3 >&2
		exit 1
	fi
	if [ ! -s out.txt ] && [ ! -s err.txt ] &&
	   [ -z "$(find . -newer stamp -type f -size +0 ! -name err.txt)" ]; then
		echo "readme-examples: '$cmd' printed nothing and wrote nothing" >&2
		exit 1
	fi
done < examples.txt
echo "readme-examples: $n examples of README.md and the man page ran as printed"
