#!/usr/bin/env bats
# A log recorded on another kernel than the tree given: the call sites'
# printed function sizes (/0xSIZE) disagree with the tree's, and the tool
# says so (or, with --strict-kernel, refuses), from a tree, its index or a DB.

load ../lib/helpers

TREE61="$CORPUS/linux-6.1-tiny/tree"
LOG61="$CORPUS/linux-6.1-tiny/workload-kmem.log"
LOG618="$CORPUS/host-6.18/small-kmem.log"

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
}

@test "the 6.18 log with the 6.1 tree: a warning naming how many disagree, two examples" {
	run "$TA" -q -k "$TREE61" -f "$LOG618" -l callers.txt
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "trace_analyze: warning: '$LOG618' does not look recorded on the kernel of '$TREE61': 98 of the 98 call sites checked (their printed /0xSIZE, or their offset) disagree with the tree's function sizes, e.g. "*" (0x"*" in "*".o), "*" (0x"*" in "*".o); its call sites are placed by name all the same (--strict-kernel makes this an error)" ]]
	[ -s callers.txt ]
}

@test "--strict-kernel: the same is an error, exit 1, nothing written" {
	run "$TA" -q -k "$TREE61" -f "$LOG618" -l callers.txt --strict-kernel
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "trace_analyze: error: '$LOG618' does not look recorded on the kernel of '$TREE61': 98 of the 98 call sites"* ]]
	[ ! -e callers.txt ]
}

@test "the 6.1 log with its own tree: no warning, even strict" {
	run "$TA" -q -k "$TREE61" -f "$LOG61" -l callers.txt --strict-kernel
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "hex call sites of the 6.1 boot, resolved through the tree's System.map, fall inside their functions" {
	run "$TA" -q -k "$TREE61" -f "$CORPUS/linux-6.1-tiny/boot-kmem-hexaddr.log" -l /dev/null --strict-kernel
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "the same check from the tree's index and from a DB of the other build" {
	xz -dc "$TOP/data/linux-6.1-tiny.kidx.xz" > tree.kidx
	run "$TA" -q -k tree.kidx -f "$LOG618" -l /dev/null --strict-kernel
	[ "$status" -eq 1 ]
	[[ "$output" == *"98 of the 98 call sites"* ]]
	"$TA" -q -f "$LOG618" --save-db other.db
	run "$TA" -q -k tree.kidx --db-file other.db -l /dev/null
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: "*"does not look recorded on the kernel of 'tree.kidx': 98 of the 98"* ]]
}

@test "the static footprint leaves out the boot decompressor and reconciles with vmlinux's sections" {
	run "$TA" -k "$TREE61" -c static.txt
	[ "$status" -eq 0 ]
	! grep -q 'arch/x86/boot' static.txt || false
	[[ "$output" == *"left out:          38 objects under arch/*/boot (the boot decompressor and setup code: not linked into vmlinux)"* ]]
	# the sections as binutils' size(1) adds them
	read -r text data bss dec _ < <(size "$TREE61/vmlinux" | tail -n 1)
	[[ "$output" == *"vmlinux:           text $text, data $data, bss $bss = $dec bytes (its sections, as size(1) adds them)"* ]]
	sized=$(sed -n 's/^  static footprint:  \([0-9]*\) bytes of sized symbols.*/\1/p' <<< "$output")
	[ -n "$sized" ]
	[ "$sized" -lt "$dec" ]
	# the table's total is the sized symbols the summary compares
	[ "$(awk '/^static bytes:/ { print $3 }' static.txt)" = "$sized" ]
	[ "$(awk '/^objects:/ { print $2 }' static.txt)" = 1234 ]
	find "$TREE61/arch/x86/boot" -name '*.o' | grep -q .
}

@test "--strict-kernel checks even when no report needs the tree (-c, --summary alone)" {
	run "$TA" -q -k "$TREE61" -f "$LOG618" -c account.txt --strict-kernel
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "trace_analyze: error: '$LOG618' does not look recorded on the kernel of '$TREE61': 98 of the 98 call sites"* ]]
	[ ! -e account.txt ]
	run "$TA" -q -k "$TREE61" -f "$LOG61" -c account.txt --strict-kernel
	[ "$status" -eq 0 ]
	[ -s account.txt ]
}
