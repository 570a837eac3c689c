#!/usr/bin/env bats
# The Makefile's own rules as a user types them: the fuzz targets with
# their seeds and the suppressions make check uses.

load ../lib/helpers

fuzz_targets() {
	sed -n 's/^FUZZ_TARGETS *:= *//p' "$TOP/Makefile"
}

@test "make fuzz: every target's seed directory is made before its fuzzer starts" {
	local t
	[ -f "$TOP/build/fuzz/seeds/.made" ] || skip "the fuzz seeds are not built (make check builds them)"
	for t in $(fuzz_targets); do
		[ -d "$TOP/build/fuzz/seeds/$t" ] || { echo "no build/fuzz/seeds/$t"; return 1; }
	done
	# and each fuzz-NAME rule makes its own before running (make -j2 fuzz)
	for t in $(fuzz_targets); do
		make -C "$TOP" -n "fuzz-$t" FUZZ_SECONDS=1 | grep -q "mkdir -p .*build/fuzz/seeds/$t" ||
			{ echo "fuzz-$t makes no seed directory"; return 1; }
	done
}

@test "make fuzz: the fuzzers get tests/lsan.supp, as make check's runs do" {
	local t
	for t in $(fuzz_targets); do
		make -C "$TOP" -n "fuzz-$t" FUZZ_SECONDS=1 |
			grep -q "LSAN_OPTIONS=suppressions=$TOP/tests/lsan.supp.* build/fuzz/fuzz_$t " ||
			{ echo "fuzz-$t runs without the suppressions"; return 1; }
	done
}
