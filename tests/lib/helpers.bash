# helpers.bash - shared by the bats tests: where the binary, the fixtures
# and the corpus are, and the independent reference account.

TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
TA="${TA_BIN:-$TOP/trace_analyze}"
FIX="$TOP/tests/fixtures"
SHARED="${SHARED:-$TOP/../shared}"
CORPUS="${CORPUS:-$SHARED/corpus}"
PERFETTO_SCHEMA="$SHARED/tools/perfetto/perfetto_trace.proto"
REF_CACHE="${TA_REF_CACHE:-${BATS_RUN_TMPDIR:-/tmp}/ref-cache}"

# require_shared PATH: skip, with the one reason make check counts, when a
# file of ../shared (the corpus, Perfetto's schema, the replay) is not there:
# a clone of the repository alone.
require_shared() {
	[ -e "$1" ] || skip "no ../shared corpus ($1)"
}

require_corpus() {
	require_shared "$CORPUS"
}

# ref_account_key LOG [ARGS...]: the cache's name for ref_account.py's answer to
# these arguments: the arguments, each file's own identity (a relative
# 'kmem.log' is another file in every test), and the replay's text (a changed
# replay runs again)
ref_account_key() {
	local a
	{ for a in "$@"; do
		printf '%s\n' "$a"
		[ -f "$a" ] && stat -L -c '%d:%i:%s:%Y' "$a" && realpath "$a"
	done
	cat "$TOP/tests/tools/ref_account.py"; } | sha1sum | cut -c1-16
}

# ref_account LOG [ARGS...]: the account tests/tools/ref_account.py computes
# (an independent Python replay of DESIGN.md section 5), cached per arguments
# because the sanitizer run asks for the same ones again.
ref_account() {
	mkdir -p "$REF_CACHE"
	local key
	key=$(ref_account_key "$@")
	if [ ! -s "$REF_CACHE/$key" ]; then
		# a temporary of its own: another bats file may be making the same one
		python3 "$TOP/tests/tools/ref_account.py" "$@" > "$REF_CACHE/$key.tmp.$$" &&
			mv "$REF_CACHE/$key.tmp.$$" "$REF_CACHE/$key"
	fi
	cat "$REF_CACHE/$key"
}

# ref_accounts_ahead LOG "ARGS" "ARGS"...: the accounts ref_account will be
# asked for (LOG with each set of options, as the shell splits them) made in
# one replay process, which parses the log once: into the cache, not printed.
ref_accounts_ahead() {
	mkdir -p "$REF_CACHE"
	local log="$1" opts key jobs="$BATS_TEST_TMPDIR/ref-jobs" tmp=()
	shift
	: > "$jobs"
	for opts in "$@"; do
		# shellcheck disable=SC2086
		key=$(ref_account_key "$log" $opts)
		[ -s "$REF_CACHE/$key" ] && continue
		printf '%s\t%q %s\n' "$REF_CACHE/$key.tmp.$$" "$log" "$opts" >> "$jobs"
		tmp+=("$REF_CACHE/$key")
	done
	[ -s "$jobs" ] || return 0
	python3 "$TOP/tests/tools/ref_account.py" --batch < "$jobs" || return 1
	for key in "${tmp[@]}"; do
		mv "$key.tmp.$$" "$key"
	done
}

# diff_or_fail EXPECTED_FILE ACTUAL_FILE: show the first differences.
diff_or_fail() {
	if ! cmp -s "$1" "$2"; then
		diff -u "$1" "$2" | head -n 30
		return 1
	fi
}

# wait_stopped PID: until PID is stopped (a TA_TEST_PAUSE point raised
# SIGSTOP) or gone; fails if it is gone. No sleep decides the outcome: the
# loop only waits for a state the program reaches by itself.
wait_stopped() {
	local state
	while :; do
		state=$(awk '{ print $3 }' "/proc/$1/stat" 2> /dev/null) || return 1
		case "$state" in
		T | t) return 0 ;;
		Z | "") return 1 ;;
		esac
		sleep 0.01
	done
}

# wait_for_file GLOB PID: until a file matches GLOB, or PID is gone (fails).
wait_for_file() {
	while ! compgen -G "$1" > /dev/null; do
		kill -0 "$2" 2> /dev/null || return 1
		sleep 0.01
	done
}

# allocinfo_rows CSV: "KEY BYTES ALLOCS" of an allocinfo account's CSV, by key, then
# "total BYTES ALLOCS": what tests/tools/ref_allocinfo.py prints of the snapshot
allocinfo_rows() {
	python3 -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in sorted(rows, key=lambda r: r["key"]):
    print(r["key"], r["bytes"], r["allocs"])
print("total", sum(int(r["bytes"]) for r in rows), sum(int(r["allocs"]) for r in rows))' "$1"
}
