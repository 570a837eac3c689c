#!/bin/sh
# readme-examples.sh - run every example command of README.md and
# docs/GUIDE.md, then every
# one of the man page's EXAMPLES, as printed, in a scratch directory laid
# out as `make examples` lays out examples/ (scripts/example-files.sh: the
# names the examples use are corpus files, ./trace_analyze and
# trace_analyze this tree's binary). An example followed in README.md by
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
# the names the examples use, as `make examples` lays them out
CORPUS="$corpus" "$top/scripts/example-files.sh" "$work" "$bin"
cd "$work"
PATH="$work/bin:$PATH"
export PATH

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
' "$top/README.md" "$top/docs/GUIDE.md" > examples.txt
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
echo "readme-examples: $n examples of README.md, docs/GUIDE.md and the man page ran as printed"
