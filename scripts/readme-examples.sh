#!/bin/sh
# readme-examples.sh - run every example command of README.md as printed,
# in a scratch directory where the names the examples use are the corpus
# files README.md says they are (kmem.log, linux, stack-kmem.log, ...), and
# ./trace_analyze and trace_analyze are this tree's binary. An example
# followed in README.md by a "trace_analyze: error" line must fail; every
# other one must succeed. Examples that need root and tracefs (sudo) are
# left to tests/cli/record.bats. Exit 1 naming the first that misbehaves.
#   usage: scripts/readme-examples.sh [TRACE_ANALYZE]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$top/trace_analyze}
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

n=0
while IFS='	' read -r want cmd; do
	case "$cmd" in
	sudo\ *) continue ;;	# root and tracefs: tests/cli/record.bats
	esac
	cmd=$(printf '%s' "$cmd" | sed "s|\.\./shared/corpus|$corpus|g")
	n=$((n + 1))
	if sh -c "$cmd" > out.txt 2>&1; then got=S; else got=F; fi
	if [ "$got" != "$want" ]; then
		echo "readme-examples: '$cmd' $([ "$want" = S ] && echo failed || echo succeeded):" >&2
		head -n 5 out.txt >&2
		exit 1
	fi
done < examples.txt
echo "readme-examples: $n examples of README.md ran as printed"
