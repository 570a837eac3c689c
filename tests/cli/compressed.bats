#!/usr/bin/env bats
# Compressed logs: a log copied off a board as .gz, .xz or .zst is read as
# it is, known by its first bytes (so standard input works too, and the
# name does not matter); it gives the same reports as the plain log, and a
# cut or damaged file is an error, never a shorter account.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
	LOG="$FIX/trace-pipe-6.18.log"
	"$TA" -q -f "$LOG" -c plain.account --stats plain.stats --outstanding plain.out
}

compress() {	# compress FORMAT < in > out
	case "$1" in
	gz) gzip -c ;;
	xz) xz -c ;;
	zst) zstd -q -c ;;
	esac
}

@test "gzip, xz and zstd logs give the plain log's reports, as files and on standard input" {
	for z in gz xz zst; do
		compress $z < "$LOG" > "log.$z"
		"$TA" -q -f "log.$z" -c "$z.account" --stats "$z.stats" --outstanding "$z.out"
		diff_or_fail plain.account "$z.account"
		diff_or_fail plain.stats "$z.stats"
		diff_or_fail plain.out "$z.out"
		cat "log.$z" | "$TA" -q -f - -c "$z.pipe" --threads 2
		diff_or_fail plain.account "$z.pipe"
		"$TA" -q -f - -c "$z.stdin" < "log.$z"
		diff_or_fail plain.account "$z.stdin"
	done
}

@test "the summary counts the log's lines and bytes and names the compression" {
	xz -c < "$LOG" > renamed.txt	# the name says nothing: the bytes do
	run "$TA" -f renamed.txt -c /dev/null
	[ "$status" -eq 0 ]
	nlines=$(wc -l < "$LOG")
	bytes=$(stat -c %s "$LOG")
	packed=$(stat -c %s renamed.txt)
	[[ "${lines[0]}" == "trace_analyze: summary of 'renamed.txt': $nlines lines, $bytes bytes (xz, $packed compressed) in "* ]]
}

@test "concatenated members and frames are one log, as gzip -d, xz -d and zstd -d read them" {
	head -n 300 "$LOG" > a.log
	tail -n +301 "$LOG" > b.log
	for z in gz xz zst; do
		{ compress $z < a.log; compress $z < b.log; } > "two.$z"
		"$TA" -q -f "two.$z" -c "$z.account"
		diff_or_fail plain.account "$z.account"
	done
}

@test "a cut compressed file is an error, and no account is written" {
	for z in gz xz zst; do
		compress $z < "$LOG" > "full.$z"
		head -c $(( $(stat -c %s "full.$z") - 9 )) "full.$z" > "cut.$z"
		run "$TA" -f "cut.$z" -c "cut.account"
		[ "$status" -eq 1 ]
		[ ! -e cut.account ]
		name=$(case $z in gz) echo gzip;; xz) echo xz;; zst) echo zstd;; esac)
		[ "${lines[0]}" = "trace_analyze: error: cannot decompress 'cut.$z': the $name data ends early (a truncated file?)" ]
		run "$TA" -f - -c "cut.account" < "cut.$z"
		[ "$status" -eq 1 ]
		[ "${lines[0]}" = "trace_analyze: error: cannot decompress 'standard input': the $name data ends early (a truncated file?)" ]
	done
}

@test "a damaged compressed file is an error naming the library's reason" {
	python3 - "$LOG" <<'PY'
import gzip, lzma, sys
data = open(sys.argv[1], "rb").read()
for name, packed in (("bad.gz", gzip.compress(data)), ("bad.xz", lzma.compress(data))):
    b = bytearray(packed)
    b[len(b) // 2] ^= 0x55
    open(name, "wb").write(b)
PY
	zstd -q -c < "$LOG" > good.zst
	python3 -c '
import sys
b = bytearray(open("good.zst", "rb").read()); b[len(b) // 2] ^= 0x55
open("bad.zst", "wb").write(b)'
	run "$TA" -f bad.gz -c x
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "trace_analyze: error: cannot decompress 'bad.gz': the gzip data is damaged: "* ]]
	run "$TA" -f bad.xz -c x
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "trace_analyze: error: cannot decompress 'bad.xz': the xz data is damaged: corrupt data" ]
	run "$TA" -f bad.zst -c x
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "trace_analyze: error: cannot decompress 'bad.zst': the zstd data is damaged: "* ]]
	[ ! -e x ]
}

@test "bytes after the gzip data, a compressed non-log and a compressed empty file" {
	{ gzip -c < "$LOG"; echo "not gzip"; } > trailing.gz
	run "$TA" -f trailing.gz -c x
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "trace_analyze: error: cannot decompress 'trailing.gz': what follows the gzip data is not gzip data (trailing garbage)" ]
	head -c 200000 /dev/urandom | gzip -c > random.gz
	run "$TA" -f random.gz -c x
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == "trace_analyze: error: 'random.gz' is not an ftrace text log: none of its "* ]]
	: | zstd -q -c > empty.zst
	run "$TA" -f empty.zst -c x
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "trace_analyze: error: 'empty.zst' is empty: there is no trace line to read" ]
}

@test "a plain log whose first bytes come one by one through a pipe is read whole" {
	{ head -c 1 "$LOG"; sleep 0.2; head -c 3 "$LOG" | tail -c 2; sleep 0.2; tail -c +4 "$LOG"; } |
		"$TA" -q -f - -c slow.account
	diff_or_fail plain.account slow.account
	run "$TA" -f - -c x < <(printf '\n')
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "trace_analyze: error: standard input is not an ftrace text log: its only line is not a trace line" ]
}

@test "the DB made from a compressed log gives the plain log's account" {
	zstd -q -c < "$LOG" > log.zst
	"$TA" -q -f log.zst --save-db log.db
	"$TA" -q --db-file log.db -c db.account
	diff_or_fail plain.account db.account
}
