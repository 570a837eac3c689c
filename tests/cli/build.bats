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

@test "make clean all -j2: cleaned first, then built, the binary there at the end" {
	[[ "$TA" != */san/* ]] || skip "the build's rules, not the binary: tested once"
	[ -x "$TOP/trace_analyze" ] && [ -d "$TOP/build/obj" ] || skip "not built"
	local d="$BATS_TEST_TMPDIR/src"
	mkdir -p "$d"
	# the sources and a finished build, times kept: what a user has before typing it
	cp -a "$TOP/Makefile" "$TOP/src" "$TOP/include" "$TOP/data" "$TOP/scripts" "$d/"
	mkdir -p "$d/build"
	cp -a "$TOP/build/obj" "$TOP/build/gen" "$d/build/"
	cp -a "$TOP/trace_analyze" "$d/"
	run make -C "$d" clean all -j2
	[ "$status" -eq 0 ]
	[[ "$output" == *"rm -rf build trace_analyze"* ]]
	[ -x "$d/trace_analyze" ]
	"$d/trace_analyze" --version
}

@test "a header changed rebuilds the objects that include it, and only those" {
	[ -f "$TOP/build/obj/base/scratch.d" ] || skip "not built with dependency files yet (make check builds them)"
	# the objects of the main build whose source includes scratch.h, found by grep
	want=$(cd "$TOP" && grep -l '#include "scratch.h"' src/*/*.c src/*/*/*.c |
		sed 's|^src/\(.*\)\.c$|build/obj/\1.o|' | sort)
	[ -n "$want" ]
	# what make would compile if scratch.h were new (-W: as if changed, nothing touched)
	got=$(make -C "$TOP" -n -W include/scratch.h trace_analyze |
		sed -n 's/.* -c -o \(build\/obj\/[^ ]*\.o\) .*/\1/p' | sort)
	[ "$got" = "$want" ] || { echo "want: $want"; echo "got: $got"; false; }
}
