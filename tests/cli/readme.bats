#!/usr/bin/env bats
# The README's examples run as printed (scripts/readme-examples.sh): on the
# corpus files the README names, each succeeds, or fails where the README
# shows an error.

load ../lib/helpers

@test "every example of README.md runs as printed" {
	require_corpus
	CORPUS="$CORPUS" run "$TOP/scripts/readme-examples.sh" "$TA"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "readme-examples: "*" examples of README.md ran as printed" ]]
}
