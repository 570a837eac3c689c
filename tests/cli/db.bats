#!/usr/bin/env bats
# The DB file from the command line: a re-run from it gives the log's
# account; every kind of damage is refused with exit 1 and a message that
# names the file and the problem, never numbers; usage rules.

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	LOG="$FIX/tracefs-6.1-rawptr.log"
	DB="$BATS_TEST_TMPDIR/kmem.db"
	"$TA" -q -f "$LOG" --save-db "$DB"
}

# refused FILE PROBLEM: --db-file FILE exits 1 with exactly that problem.
refused() {
	run "$TA" --db-file "$1" -c "$BATS_TEST_TMPDIR/account"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: '$1' is not a usable DB file: $2" ]
	[ ! -s "$BATS_TEST_TMPDIR/account" ]
}

# patch FILE OFFSET HEXBYTES: overwrite bytes in place.
patch() {
	printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc 2> /dev/null
}

@test "the account from the DB equals the account from the log" {
	"$TA" -q -f "$LOG" -c "$BATS_TEST_TMPDIR/from-log"
	"$TA" -q --db-file "$DB" -c "$BATS_TEST_TMPDIR/from-db"
	diff_or_fail "$FIX/tracefs-6.1-rawptr.account" "$BATS_TEST_TMPDIR/from-db"
	diff_or_fail "$BATS_TEST_TMPDIR/from-log" "$BATS_TEST_TMPDIR/from-db"
}

@test "the DB starts with its magic and version, and its events are much smaller than the log" {
	[ "$(head -c 8 "$DB")" = "TAKMEMDB" ]
	[ "$(od -An -tu2 -j8 -N2 "$DB" | tr -d ' ')" = "3" ]
	# section 7, the events (the kept report data are a few kB more, whatever the log)
	events=$(python3 - "$DB" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
nsec, = struct.unpack_from("<I", d, 24)
table, = struct.unpack_from("<Q", d, 32)
print(sum(struct.unpack_from("<IIQQQ", d, table + 32 * i)[3] for i in range(nsec)
          if struct.unpack_from("<I", d, table + 32 * i)[0] == 7))
PY
)
	[ "$events" -gt 0 ]
	[ "$((events * 2))" -lt "$(stat -c %s "$LOG")" ]
}

@test "a text log given as a DB: wrong magic" {
	refused "$LOG" "wrong magic number (not a file trace_analyze wrote, or another kind of file)"
}

@test "a kernel index given as a DB: wrong magic" {
	mkdir -p "$BATS_TEST_TMPDIR/t/mm" && echo 'int f(void) { return 1; }' > "$BATS_TEST_TMPDIR/t/mm/a.c"
	gcc -c "$BATS_TEST_TMPDIR/t/mm/a.c" -o "$BATS_TEST_TMPDIR/t/mm/a.o"
	printf 'VERSION = 6\nPATCHLEVEL = 1\n' > "$BATS_TEST_TMPDIR/t/Makefile"
	"$TA" -q -k "$BATS_TEST_TMPDIR/t" --save-index "$BATS_TEST_TMPDIR/k.kidx"
	refused "$BATS_TEST_TMPDIR/k.kidx" "wrong magic number (not a file trace_analyze wrote, or another kind of file)"
}

@test "a newer major version is refused, naming both versions" {
	patch "$DB" 8 0400
	refused "$DB" "format version 4.0 is newer than this program reads (3.x): upgrade trace_analyze"
}

@test "an older major version is refused, saying how to make the DB again" {
	patch "$DB" 8 0100
	refused "$DB" "format version 1.0 is older than this program reads (2.x): make it again with --save-db from the log"
}

@test "a DB written on a machine of the other byte order is refused" {
	patch "$DB" 12 01020304
	refused "$DB" "written on a machine of the other byte order"
}

@test "a flipped byte in the events: refused by the reports that replay them, and by check" {
	size=$(stat -c %s "$DB")
	patch "$DB" 200 ff
	for report in "--perfetto" "--malloc --summary" "--comm bash --outstanding"; do
		# shellcheck disable=SC2086
		run "$TA" --db-file "$DB" $report "$BATS_TEST_TMPDIR/out"
		[ "$status" -eq 1 ]
		[ "$output" = "trace_analyze: error: '$DB' is not a usable DB file: bad checksum of section 7 (damaged file)" ]
		[ ! -e "$BATS_TEST_TMPDIR/out" ]
	done
	run "$TA" check "$DB"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: '$DB' is not a usable DB file: bad checksum of section 7 (damaged file)" ]
	[ "$(stat -c %s "$DB")" -eq "$size" ]
}

@test "the account of a DB whose events are damaged is still right: it reads only its own section" {
	patch "$DB" 200 ff
	"$TA" -q --db-file "$DB" -c "$BATS_TEST_TMPDIR/from-db"
	diff_or_fail "$FIX/tracefs-6.1-rawptr.account" "$BATS_TEST_TMPDIR/from-db"
}

@test "the reports of a DB whose events are damaged are still right: they read the data it keeps" {
	"$TA" -q -f "$LOG" --summary "$BATS_TEST_TMPDIR/log.summary" --page "$BATS_TEST_TMPDIR/log.page"
	patch "$DB" 200 ff
	"$TA" -q --db-file "$DB" --summary "$BATS_TEST_TMPDIR/db.summary" --page "$BATS_TEST_TMPDIR/db.page"
	diff_or_fail "$BATS_TEST_TMPDIR/log.summary" "$BATS_TEST_TMPDIR/db.summary"
	diff_or_fail "$BATS_TEST_TMPDIR/log.page" "$BATS_TEST_TMPDIR/db.page"
}

# section_offset ID: where section ID's bytes start in $DB
section_offset() {
	python3 - "$DB" "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
nsec, = struct.unpack_from("<I", d, 24)
table, = struct.unpack_from("<Q", d, 32)
for i in range(nsec):
    sid, flags, o, length, csum = struct.unpack_from("<IIQQQ", d, table + 32 * i)
    if sid == int(sys.argv[2]):
        print(o)
PY
}

# part_section NAME: the section of the part a pass named NAME keeps in $DB (its directory: 1 << 24)
part_section() {
	python3 - "$DB" "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
nsec, = struct.unpack_from("<I", d, 24)
table, = struct.unpack_from("<Q", d, 32)
secs = {}
for i in range(nsec):
    sid, flags, o, length, csum = struct.unpack_from("<IIQQQ", d, table + 32 * i)
    secs[sid] = o
at = secs[1 << 24]
assert d[at:at + 8] == b"TAPARTS1"
n, = struct.unpack_from("<Q", d, at + 8)
for i in range(n):
    e = at + 16 + 64 * i
    if d[e:e + 24].rstrip(b"\0").decode() == sys.argv[2]:
        print((1 << 24) + struct.unpack_from("<I", d, e + 28)[0])
PY
}

@test "a damaged part of the kept report data: refused by the reports that read it, and by check" {
	# the findings' part: --summary reads it, --page does not
	sec=$(part_section findings)
	[ -n "$sec" ]
	off=$(section_offset "$sec")
	patch "$DB" $((off + 8)) ff
	refused_report() {
		run "$TA" --db-file "$DB" "$@" "$BATS_TEST_TMPDIR/out"
		[ "$status" -eq 1 ]
		[ "$output" = "trace_analyze: error: '$DB' is not a usable DB file: bad checksum of section $sec (damaged file)" ]
	}
	refused_report --summary
	"$TA" -q --db-file "$DB" --page "$BATS_TEST_TMPDIR/page"
	run "$TA" check "$DB"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad checksum of section $sec (damaged file)" ]]
}

@test "a damaged account section is refused by the account, and by check" {
	# the account section of all families (id 9): its offset from the section table
	read -r off < <(python3 - "$DB" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
nsec, = struct.unpack_from("<I", d, 24)
table, = struct.unpack_from("<Q", d, 32)
for i in range(nsec):
    sid, flags, o, length, csum = struct.unpack_from("<IIQQQ", d, table + 32 * i)
    if sid == 9:
        print(o + 8)
PY
)
	patch "$DB" "$off" ff
	refused "$DB" "bad checksum of section 9 (damaged file)"
	run "$TA" check "$DB"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad checksum of section 9 (damaged file)" ]]
	"$TA" -q --db-file "$DB" --malloc -c "$BATS_TEST_TMPDIR/malloc"	# its own section is whole
}

@test "check: one line per good file, an error per damaged one, exit 1 if any" {
	cp "$DB" "$BATS_TEST_TMPDIR/good.db"
	run "$TA" check "$BATS_TEST_TMPDIR/good.db"
	[ "$status" -eq 0 ]
	events=$(grep -cE ': (kmalloc|kfree|kmem_cache_alloc|kmem_cache_free|mm_page_[a-z_]*)(_node)?:' "$LOG")
	# the sections as the file's header counts them (binfile.h: a u32 at byte 24)
	nsec=$(python3 -c 'import struct, sys; print(struct.unpack_from("<I", open(sys.argv[1], "rb").read(), 24)[0])' "$DB")
	[ "$output" = "$BATS_TEST_TMPDIR/good.db: good: DB file 3.0 made from '$LOG': $nsec sections, $events events, $(wc -l < "$LOG") lines" ]
	patch "$DB" 200 ff
	run "$TA" check -q "$BATS_TEST_TMPDIR/good.db" "$DB" /nonexistent.db
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == *"'$DB' is not a usable DB file: bad checksum of section 7 (damaged file)" ]]
	[ "${lines[1]}" = "trace_analyze: error: cannot open DB file '/nonexistent.db': No such file or directory" ]
	run "$TA" check
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: no file to check" ]
}

@test "a flipped byte in the header is a bad header checksum" {
	patch "$DB" 40 ff
	refused "$DB" "bad header checksum"
}

@test "a truncated DB says how long it is and should be" {
	size=$(stat -c %s "$DB")
	head -c $((size - 100)) "$DB" > "$BATS_TEST_TMPDIR/cut.db"
	refused "$BATS_TEST_TMPDIR/cut.db" "truncated: $((size - 100)) bytes, the header says $size"
	head -c 30 "$DB" > "$BATS_TEST_TMPDIR/tiny.db"
	refused "$BATS_TEST_TMPDIR/tiny.db" "truncated: shorter than a header"
	: > "$BATS_TEST_TMPDIR/empty.db"
	refused "$BATS_TEST_TMPDIR/empty.db" "empty file"
}

@test "a missing DB or a directory: the OS reason" {
	run "$TA" --db-file "$BATS_TEST_TMPDIR/none.db" -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot open DB file '$BATS_TEST_TMPDIR/none.db': No such file or directory" ]
	run "$TA" --db-file "$BATS_TEST_TMPDIR" -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot read DB file '$BATS_TEST_TMPDIR': Is a directory" ]
}

@test "a DB that cannot be written is an error, and no file is left behind" {
	run "$TA" -q -f "$LOG" --save-db "$BATS_TEST_TMPDIR/no/dir/x.db"
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: cannot write '$BATS_TEST_TMPDIR/no/dir/x.db': No such file or directory" ]
	[ ! -e "$BATS_TEST_TMPDIR/no" ]
}

@test "a failed save leaves the old DB in place, whole" {
	cp "$DB" "$BATS_TEST_TMPDIR/before.db"
	run "$TA" -q -f "$BATS_TEST_TMPDIR/missing.log" --save-db "$DB"
	[ "$status" -eq 1 ]
	cmp "$DB" "$BATS_TEST_TMPDIR/before.db"
	[ -z "$(ls "$BATS_TEST_TMPDIR" | grep '\.tmp\.')" ]
}

@test "usage: -f and --db-file exclude each other; --save-db needs -f" {
	run "$TA" -f "$LOG" --db-file "$DB" -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: -f and --db-file exclude each other: the DB replaces the log" ]
	run "$TA" --db-file "$DB" --save-db "$BATS_TEST_TMPDIR/again.db"
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --save-db saves the events of a log: it needs -f LOG" ]
}

# The DB fuzzer's seeds are made by the build with the current writer
# (tests/fuzz/make-built-seeds.sh); one the reader refuses would teach the
# fuzzer nothing past the header.
@test "every DB seed the build makes opens with the current reader" {
	local seeds="$TOP/build/fuzz/seeds/db" db n=0
	[ -d "$seeds" ] || skip "no built seeds (make check-build makes them)"
	for db in "$seeds"/*.db; do
		run "$TA" -q --db-file "$db" --summary /dev/null
		[ "$status" -eq 0 ] || { echo "$db: $output"; false; }
		n=$((n + 1))
	done
	[ "$n" -ge 20 ]
}

@test "a DB of the earlier layout (one stamp for every part) still opens: its events replay, and it says so" {
	# made by the build before the passes kept their parts by name (issue 56), from the fixture
	old="$FIX/old-layout-6.1-rawptr.db"
	(cd "$FIX" && "$TA" -q -f tracefs-6.1-rawptr.log --summary "$BATS_TEST_TMPDIR/log.summary" \
		--peak "$BATS_TEST_TMPDIR/log.peak")
	run --separate-stderr "$TA" --db-file "$old" --summary "$BATS_TEST_TMPDIR/db.summary" \
		--peak "$BATS_TEST_TMPDIR/db.peak"
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "trace_analyze: note: '$old' keeps its report data in an older build's layout: its events are replayed" ]
	diff_or_fail "$BATS_TEST_TMPDIR/log.summary" "$BATS_TEST_TMPDIR/db.summary"
	diff_or_fail "$BATS_TEST_TMPDIR/log.peak" "$BATS_TEST_TMPDIR/db.peak"
	# -q says nothing; check finds it good
	run --separate-stderr "$TA" -q --db-file "$old" --summary "$BATS_TEST_TMPDIR/q.summary"
	[ "$status" -eq 0 ] && [ -z "$stderr" ]
	run "$TA" check -q "$old"
	[ "$status" -eq 0 ]
	# a DB of this build takes its parts: no event replayed
	"$TA" -q -f "$LOG" --summary "$BATS_TEST_TMPDIR/log2.summary"
	TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$DB" --summary "$BATS_TEST_TMPDIR/new.summary" \
		--peak "$BATS_TEST_TMPDIR/new.peak"
	diff_or_fail "$BATS_TEST_TMPDIR/log2.summary" "$BATS_TEST_TMPDIR/new.summary"
}

@test "a part of another version is passed over by name: the run replays and says which" {
	TA_TEST_LATER_PART=findings "$TA" -q -f "$LOG" --save-db "$BATS_TEST_TMPDIR/later.db"
	"$TA" -q -f "$LOG" --summary "$BATS_TEST_TMPDIR/log.summary"
	run --separate-stderr "$TA" --db-file "$BATS_TEST_TMPDIR/later.db" \
		--summary "$BATS_TEST_TMPDIR/db.summary"
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "trace_analyze: note: '$BATS_TEST_TMPDIR/later.db' keeps its findings data as version 2, this build reads version 1: its events are replayed" ]
	diff_or_fail "$BATS_TEST_TMPDIR/log.summary" "$BATS_TEST_TMPDIR/db.summary"
	# a run that reads no findings still takes the parts it reads
	TA_TEST_NO_REPLAY=1 "$TA" -q --db-file "$BATS_TEST_TMPDIR/later.db" --peak "$BATS_TEST_TMPDIR/p"
}
