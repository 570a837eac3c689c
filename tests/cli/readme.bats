#!/usr/bin/env bats
# The examples of the README, the guide and the man page run as printed
# (scripts/readme-examples.sh): on the corpus files they name, each prints
# what the document shows under it, or gives an answer (no empty report), or
# fails where the document shows an error.

load ../lib/helpers

@test "every example of README.md, the guide and the man page runs as printed and prints what it shows" {
	require_corpus
	CORPUS="$CORPUS" run "$TOP/scripts/readme-examples.sh" "$TA"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "doc-examples: "*" examples of README.md, GUIDE.md, trace_analyze.1 ran as printed, "*" of them compared with the output they show" ]]
}

@test "the man page renders at 80 columns without a troff warning" {
	command -v man > /dev/null || skip "no man (man-db)"
	# troff's warnings on standard error, the page itself thrown away
	run sh -c 'MANWIDTH=80 man --warnings -l "$1" 2>&1 > /dev/null' sh "$TOP/man/trace_analyze.1"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
