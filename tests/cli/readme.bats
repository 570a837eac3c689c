#!/usr/bin/env bats
# The README's and the man page's examples run as printed
# (scripts/readme-examples.sh): on the corpus files the README names, each
# gives an answer (no empty report), or fails where the README shows an
# error.

load ../lib/helpers

@test "every example of README.md and of the man page runs as printed, none empty" {
	require_corpus
	CORPUS="$CORPUS" run "$TOP/scripts/readme-examples.sh" "$TA"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "readme-examples: "*" examples of README.md, docs/GUIDE.md and the man page ran as printed" ]]
}

@test "the man page renders at 80 columns without a troff warning" {
	command -v man > /dev/null || skip "no man (man-db)"
	# troff's warnings on standard error, the page itself thrown away
	run sh -c 'MANWIDTH=80 man --warnings -l "$1" 2>&1 > /dev/null' sh "$TOP/man/trace_analyze.1"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}
