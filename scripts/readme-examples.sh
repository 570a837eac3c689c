#!/bin/sh
# readme-examples.sh - run every example command of README.md,
# docs/GUIDE.md and the man page, as printed, in a scratch directory laid
# out as `make examples` lays out examples/ (scripts/example-files.sh: the
# names the examples use are corpus files, ./trace_analyze and
# trace_analyze this tree's binary), and compare the output each shows
# with what it prints (tests/tools/doc_examples.py says the rules: "..."
# stands for what is left out). An example followed by a
# "trace_analyze: error" line must fail; every other one must succeed and
# give an answer. Examples that need root and tracefs (sudo) are left to
# tests/cli/record.bats. Exit 1 naming the first that misbehaves, with a diff.
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

# every example, in order, and the output each shows compared with what it prints
CORPUS="$corpus" python3 "$top/tests/tools/doc_examples.py" "$top/README.md" \
	"$top/docs/GUIDE.md" --man "$top/man/trace_analyze.1"
