#!/bin/sh
# run-tests.sh [--fast] - every test of `make check`, counted from TAP output:
#   1. unit tests (cmocka) of the normal build
#   2. CLI and corpus tests (bats) against ./trace_analyze, BATS_JOBS files
#      at a time (default: the CPUs)
#   3. both again with the AddressSanitizer/UBSan build
#   4. the fuzz targets' seeds and a fixed number of libFuzzer runs
# --fast (make check-fast): 1 and the CLI files but record, build and readme.
# Ends with the line "N passed, N failed[, N skipped (...: no ../shared corpus)]";
# exits 1 if anything failed.
# Corpus tests skip (saying so) when ../shared/corpus is absent.
set -u
cd "$(dirname "$0")/.." || exit 1
# No test reads the caller's input. CI runs with standard input closed, and
# then the first pipe a test opens takes fd 0: a program that copies its
# stdin (script(1)) read its own output back and never ended.
exec < /dev/null
top=$(pwd)
out=$top/build/test-output
mkdir -p "$out"
# run_bats's workers (xargs): one bats file into $out/bats/NAME.tap, its
# exit code into NAME.rc
if [ "${1:-}" = --one-bats-file ]; then
	name=$(echo "$2" | sed 's#^tests/##; s#/#_#g')
	start=$(date +%s)
	timeout -k 30 "${BATS_LIMIT:-900}" bats --tap "$2" > "$out/bats/$name.tap" 2>&1
	echo $? > "$out/bats/$name.rc"
	echo "$(( $(date +%s) - start )) $2" > "$out/bats/$name.secs"
	exit 0
fi

: > "$out/all.tap"

export CMOCKA_MESSAGE_OUTPUT=TAP
export TA_REF_CACHE="$top/build/ref-cache"
mkdir -p "$TA_REF_CACHE"
# ASan: fail on leaks too; UBSan: stop at the first report.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99
export LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99

run_units() {	# $1: directory of unit test binaries, $2: label, [$3: the tap file]
	tap=${3:-$out/all.tap}
	work="$out/unit-$2"	# (a label's own files: two labels may run at once)
	for t in "$1"/test_*; do
		[ -x "$t" ] || continue
		name="$2/$(basename "$t")"
		echo "# $name"
		"$t" > "$work.tap" 2>&1
		rc=$?
		# cmocka prints a skip as "not ok N # SKIP name": an ok with its reason, the
		# test's "# skip: WHY" line before it
		awk '/^# skip: / { why = substr($0, 9); next }
		     /^not ok [0-9]+ # SKIP / { n = $3; sub(/^not ok [0-9]+ # SKIP /, "");
			print "ok " n " " $0 " # skip " (why != "" ? why : "skipped by the test");
			why = ""; next }
		     { print }' "$work.tap" > "$work-skips.tap"
		mv "$work-skips.tap" "$work.tap"
		sed "s#^\(not ok\|ok\) \([0-9]*\)#\1 \2 $name:#" "$work.tap" |
			grep -E '^(not )?ok ' >> "$tap"
		grep -E '^not ok' "$work.tap"
		if [ $rc -ne 0 ] && ! grep -q '^not ok' "$work.tap"; then
			echo "not ok - $name exited with $rc" | tee -a "$tap"
			tail -n 20 "$work.tap"
		fi
	done
}

# A test that hangs fails the run with its place, instead of using up CI's
# time: the longest file takes about a minute and a half here (sanitized).
BATS_LIMIT=${BATS_LIMIT:-900}
# bats files run this many at a time (no two share state: each test works in
# its own BATS_TEST_TMPDIR, record's tracefs instances are named by pid): one
# more than the CPUs, since record's and top's stories spend seconds waiting
# on their workloads and the clock
BATS_JOBS=${BATS_JOBS:-$(( $(nproc 2> /dev/null || echo 2) + 1 ))}

# The bats files, the longest first, so that those run at once end together;
# $BATS_FILES (a list) instead when set.
bats_files() {
	if [ -n "${BATS_FILES:-}" ]; then
		printf '%s\n' $BATS_FILES
		return
	fi
	heavy="tests/cli/record.bats tests/corpus/reports.bats tests/corpus/account.bats
		tests/cli/bad-input.bats tests/cli/html.bats tests/corpus/db.bats
		tests/corpus/consumers.bats tests/cli/build.bats tests/cli/readme.bats
		tests/cli/binary.bats tests/corpus/threads.bats tests/corpus/allocinfo.bats
		tests/cli/options.bats tests/cli/filters.bats"
	for f in $heavy; do
		[ -f "$f" ] && echo "$f"
	done
	for f in tests/cli/*.bats tests/corpus/*.bats; do
		case " $(echo $heavy) " in
		*" $f "*) ;;
		*) echo "$f" ;;
		esac
	done
}

run_bats() {	# $1: binary under test, $2: label
	echo "# bats with $1 ($BATS_JOBS files at a time)"
	bats_start=$(date +%s)
	rm -rf "$out/bats"
	mkdir -p "$out/bats"
	bats_files | TA_BIN="$top/$1" BATS_LIMIT=$BATS_LIMIT \
		xargs -P "$BATS_JOBS" -n 1 "$top/scripts/run-tests.sh" --one-bats-file
	echo "# bats with $1 took $(( $(date +%s) - bats_start )) s; the longest files: $(cat "$out"/bats/*.secs | sort -rn | head -n 4 |
		awk '{ printf "%s%s %d s", (NR > 1 ? ", " : ""), $2, $1 }')"
	# the files' results in the files' order, whatever order they ended in
	bats_files | while read -r f; do
		name=$(echo "$f" | sed 's#^tests/##; s#/#_#g')
		tap="$out/bats/$name.tap"
		rc=$(cat "$out/bats/$name.rc" 2> /dev/null || echo 1)
		case $rc in
		124|137)	# timeout's TERM, or its KILL after it
			echo "not ok - bats ($2) $f did not end within $BATS_LIMIT s; the test after" \
				"this one hung: $(grep -E '^(not )?ok ' "$tap" | tail -n 1)" |
				tee -a "$out/all.tap"
			;;
		esac
		sed "s#^\(not ok\|ok\) \([0-9]*\)#\1 \2 $2 ${f#tests/}:#" "$tap" |
			grep -E '^(not )?ok ' >> "$out/all.tap"
		# show failures with their diagnostics
		awk '/^not ok/ {show=1; print; next} /^ok/ {show=0} show && /^#/ {print}' "$tap"
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] &&
		   ! grep -q '^not ok' "$tap"; then
			echo "not ok - bats ($2) $f exited with $rc" | tee -a "$out/all.tap"
			tail -n 20 "$tap"
		fi
	done
}

if [ ! -d ../shared/corpus ] && [ -z "${CORPUS:-}" ]; then
	echo "# note: ../shared/corpus not found: corpus tests will be skipped"
fi

# The fuzz targets: their seeds (committed and built) and regression inputs once
# through the gcc-built driver (sanitized); then, where clang built them, each
# libFuzzer target for a fixed number of runs from a fixed seed (deterministic).
fuzz_inputs() {	# $1: target name
	ls -d tests/fuzz/corpus/$1/* build/fuzz/seeds/$1/* tests/fuzz/regressions/$1/* 2> /dev/null
}

run_fuzz_seeds() {	# $1: target name; its lines into $out/fuzz-$1.tap
	name="fuzz/seeds_$1"
	echo "# $name"
	# shellcheck disable=SC2046
	if TA_FUZZ_KIDX=build/fuzz/linux-6.1-tiny.kidx TA_FUZZ_FORMATS=tests/fuzz/formats \
		build/fuzz/seeds_$1 $(fuzz_inputs "$1") \
		> "$out/fuzz-$1.log" 2>&1; then
		echo "ok 1 $name: $(tail -n 1 "$out/fuzz-$1.log")" >> "$out/fuzz-$1.tap"
	else
		echo "not ok 1 $name" | tee -a "$out/fuzz-$1.tap"
		tail -n 30 "$out/fuzz-$1.log"
	fi
}

run_fuzzer() {	# $1: target name, $2: runs
	name="fuzz/fuzz_$1"
	[ -x "build/fuzz/fuzz_$1" ] || return 0
	echo "# $name"
	rm -rf "build/fuzz/check-$1"
	mkdir -p "build/fuzz/check-$1"
	# shellcheck disable=SC2046
	if TA_FUZZ_KIDX=build/fuzz/linux-6.1-tiny.kidx TA_FUZZ_FORMATS=tests/fuzz/formats \
		"build/fuzz/fuzz_$1" -seed=1 \
		-runs="$2" -max_len=65536 -close_fd_mask=3 \
		"build/fuzz/check-$1" $(ls -d tests/fuzz/corpus/$1 build/fuzz/seeds/$1 2> /dev/null) \
		> "$out/fuzzer-$1.log" 2>&1; then
		echo "ok 1 $name: $(grep -c . "$out/fuzzer-$1.log") lines of libFuzzer output, no finding" \
			>> "$out/fuzz-$1.tap"
	else
		echo "not ok 1 $name" | tee -a "$out/fuzz-$1.tap"
		tail -n 40 "$out/fuzzer-$1.log"
	fi
}

# Every target: its seeds, then its fuzzer, in lanes of their own (each run is
# deterministic and writes only its own files); the lines in the list's order.
run_fuzz_targets() {	# target:runs ...
	lane=0
	lanes=$(nproc 2> /dev/null || echo 2)
	pids=
	for t in "$@"; do
		rm -f "$out/fuzz-${t%%:*}.tap"
	done
	while [ "$lane" -lt "$lanes" ]; do
		(
			i=0
			for t in "$@"; do
				if [ $((i % lanes)) -eq "$lane" ]; then
					run_fuzz_seeds "${t%%:*}"
					run_fuzzer "${t%%:*}" "${t##*:}"
				fi
				i=$((i + 1))
			done
		) &
		pids="$pids $!"
		lane=$((lane + 1))
	done
	# shellcheck disable=SC2086
	wait $pids
	for t in "$@"; do
		cat "$out/fuzz-${t%%:*}.tap" >> "$out/all.tap" 2> /dev/null
	done
}

if [ "${1:-}" = --fast ]; then	# make check-fast: the one-minute loop
	# the CLI stories but record's (tracefs, root, its workload), the build's (make
	# clean all in a copy) and the documents' examples: no sanitizer, no fuzzing
	BATS_FILES=$(bats_files | grep '^tests/cli/' |
		grep -v '^tests/cli/\(record\|build\|readme\)\.bats$')
	# the units beside the bats files, their lines after them
	: > "$out/fast-units.tap"
	run_units build/tests unit "$out/fast-units.tap" > "$out/fast-units.out" 2>&1 &
	units=$!
	run_bats trace_analyze cli
	wait $units
	cat "$out/fast-units.out"
	cat "$out/fast-units.tap" >> "$out/all.tap"
else
	run_units build/tests unit
	run_bats trace_analyze cli
	run_units build/san/tests unit-asan
	# The sanitized pass looks for memory errors and undefined behaviour: every CLI
	# story, and the corpus files that read inputs in ways the CLI's excerpts do not
	# (trace.dat, perf.data, compressed, DB, allocinfo, modules, stacks, snapshots);
	# not the corpus files that compare the same reports' numbers on big logs
	# again (reports, account, diff, summary, consumers, threads, ktree, pageowner, pageowner_beside): the pass
	# above did, from the same sources, and their replays (ref_report.py) are skipped.
	if [ -z "${BATS_FILES:-}" ]; then
		BATS_FILES=$(bats_files | grep -v '^tests/corpus/\(reports\|account\|diff\|summary\|consumers\|threads\|ktree\|pageowner\|pageowner_beside\)\.bats$')
		export TA_REFERENCES_CHECKED=1
		run_bats build/san/trace_analyze cli-asan
		unset TA_REFERENCES_CHECKED BATS_FILES
	else
		export TA_REFERENCES_CHECKED=1
		run_bats build/san/trace_analyze cli-asan
		unset TA_REFERENCES_CHECKED
	fi
	# runs: a few seconds each (a text run reads its log twice, every report on)
	fuzz_start=$(date +%s)
	# (text's is the longest, some 20 s: the short ones beside it in its lane)
	run_fuzz_targets text:300 db:3000 tepkmem:5000 compressed:3000 datlayout:2000 tracedat:1000 \
		ksnapshot:20000 perfdata:1000 taskcgroups:2000 pageowner:3000 kmemleak:3000
	echo "# the fuzz targets took $(( $(date +%s) - fuzz_start )) s"
fi

passed=$(grep -E '^ok ' "$out/all.tap" | grep -vc '# [Ss][Kk][Ii][Pp]')
skipped=$(grep -E '^ok ' "$out/all.tap" | grep -c '# [Ss][Kk][Ii][Pp]')
failed=$(grep -c '^not ok' "$out/all.tap")
# the closing line: "N passed, N failed", then the skips and how many of them are
# for the missing corpus (a clone of the repository alone)
shared=$(grep -E '^ok ' "$out/all.tap" | grep -ci '# skip no \.\./shared corpus')
[ "$skipped" -gt "$shared" ] &&
	echo "# skipped for other reasons: $((skipped - shared)) (see $out/all.tap)"
if [ "$skipped" -eq 0 ]; then
	echo "$passed passed, $failed failed"
elif [ "$shared" -eq 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
elif [ "$shared" -eq "$skipped" ]; then
	echo "$passed passed, $failed failed, $skipped skipped (no ../shared corpus)"
else
	echo "$passed passed, $failed failed, $skipped skipped ($shared of them: no ../shared corpus)"
fi
[ "$failed" -eq 0 ]
