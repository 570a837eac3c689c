#!/usr/bin/env bats
# Small stories of the command line: options, exit codes, messages.

load ../lib/helpers

@test "--help lists every option and exits 0" {
	run "$TA" --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"--account-file"* ]]
	[[ "$output" == *"--order-by"* ]]
}

@test "an unknown option is a usage error: exit 2 and a usage line" {
	run "$TA" --bogus
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "trace_analyze: error: unknown option '--bogus'" ]]
	[[ "${lines[1]}" == usage:* ]]
}
