#!/usr/bin/env bats
# The capture tools' binary files read directly (trace.dat, perf.data): the
# corpus captures of a 6.18 host give the reports their text forms give
# (trace-cmd report, perf script --kallsyms), made here by the tools
# themselves; timestamps cut to the text's microseconds by the test hook
# TA_TEST_TIMESTAMPS=usec, since the text loses the nanoseconds.

load ../lib/helpers
load ../lib/binary

BIN="$CORPUS/host-6.18/binary"

setup() {
	require_corpus
	[ -d "$BIN" ] || skip "no binary captures in the corpus"
	cd "$BATS_TEST_TMPDIR"
}

# unpacked NAME: the corpus file NAME (xz'd there), unpacked once into the cache
unpacked() {
	local out="$REF_CACHE/bin-$1"
	mkdir -p "$REF_CACHE"
	[ -s "$out" ] || { xz -dc "$BIN/$1.xz" > "$out.tmp" && mv "$out.tmp" "$out"; }
	echo "$out"
}

# text_form NAME: its text form, made once by the tool that wrote it
text_form() {
	local f out
	f=$(unpacked "$1")
	out="$REF_CACHE/bin-$1.txt"
	if [ ! -s "$out" ]; then
		case "$1" in
		*.dat) command -v trace-cmd > /dev/null || skip "no trace-cmd (scripts/deps.sh)"
			trace-cmd report -i "$f" > "$out.tmp" 2> /dev/null ;;
		*) command -v perf > /dev/null || skip "no perf (scripts/deps.sh)"
			perf script -i "$f" --kallsyms "$(unpacked kallsyms)" > "$out.tmp" 2> /dev/null ;;
		esac
		mv "$out.tmp" "$out"
	fi
	echo "$out"
}

@test "trace.dat: every report is the one of its trace-cmd report text" {
	local f t
	f=$(unpacked kmem.dat)
	t=$(text_form kmem.dat)
	reports "$f" bin
	reports "$t" txt
	same_reports bin txt
	# the DB made from the binary file gives the account the file gave
	"$TA" -q --db-file bin.db -c db.account
	cmp bin.account db.account
}

@test "trace.dat with kernel stacks: origins, folded stacks and pages as from its text" {
	local f t
	f=$(unpacked kmem-stacks.dat)
	t=$(text_form kmem-stacks.dat)
	reports "$f" bin
	reports "$t" txt
	same_reports bin txt
	grep -q ' => \| entry_SYSCALL_64' "$t"
	[ "$(wc -l < bin.folded)" -gt 100 ]
}

@test "perf.data: every report is the one of its perf script text, the lost records said" {
	local f t
	f=$(unpacked kmem.perf.data)
	t=$(text_form kmem.perf.data)
	reports "$f" bin --kallsyms "$(unpacked kallsyms)"
	reports "$t" txt
	# perf script only warns of the lost records; the file's summary counts them, and
	# what was allocated before them and never seen freed is uncertain, not held
	DROP='^log: |lost events marker|PERF_RECORD_LOST|events lost|lost_marker|^live at the end but|^windows of lost events|^uncertain |^held bytes|oldest live|^-+$|^$' \
		ISLANDS='account stats folded' SKIP=outstanding same_reports bin txt
	[ "$(sed -n 's/^uncertain objects: *//p' bin.summary)" -gt 0 ]
	# held and uncertain together are what the text, which knows of no loss, calls live
	for k in allocations bytes; do
		held=$(sed -n "s/^live $k: *//p" bin.outstanding)
		unsure=$(sed -n "s/^uncertain $k: *//p" bin.outstanding)
		[ "$((held + unsure))" = "$(sed -n "s/^live $k: *//p" txt.outstanding)" ]
	done
	grep -Eq '^events lost \(PERF_RECORD_LOST\): +167$' bin.summary
	grep -Eq '^PERF_RECORD_LOST records: +[1-9][0-9]*$' bin.summary
}

@test "perf.data with callchains: origins and folded stacks as from its perf script text" {
	local f t
	f=$(unpacked kmem-callchain.perf.data)
	t=$(text_form kmem-callchain.perf.data)
	reports "$f" bin --kallsyms "$(unpacked kallsyms)"
	reports "$t" txt
	same_reports bin txt
	[ "$(wc -l < bin.folded)" -gt 100 ]
	# with user frames: the same kernel part, the user part named by its mapping
	"$TA" -q -f "$f" --kallsyms "$(unpacked kallsyms)" --user-frames --folded user.folded
	grep -q ';\[libc.so.6\]' user.folded
}

@test "perf.data without --kallsyms on another kernel: call sites stay addresses, it says why" {
	local f
	f=$(unpacked kmem.perf.data)
	[ "$(uname -r)" != "6.18.44-fc-v657" ] || skip "this is the recording's kernel"
	run "$TA" -f "$f" -c account.txt
	[ "$status" -eq 0 ]
	grep -q '^ *[0-9].* 0xffffffff' account.txt
	[[ "$output" == *"'$f' was recorded on Linux 6.18.44-fc-v657, not this kernel ($(uname -r)): its addresses stay hex; give that kernel's symbols with --kallsyms FILE (its /proc/kallsyms) or -k TREE"* ]]
}

@test "trace.dat version 6, and version 7 with zstd sections: the reports of version 7" {
	local f
	command -v trace-cmd > /dev/null || skip "no trace-cmd (scripts/deps.sh)"
	f=$(unpacked kmem.dat)
	trace-cmd convert -i "$f" --file-version 6 -o v6.dat > /dev/null 2>&1
	trace-cmd convert -i "$f" --file-version 7 --compression zstd -o zstd.dat > /dev/null 2>&1 ||
		skip "this trace-cmd cannot compress"
	"$TA" -q -f "$f" -c v7.account --summary v7.summary
	for v in v6 zstd; do
		"$TA" -q -f $v.dat -c $v.account --summary $v.summary
		cmp v7.account $v.account
		diff <(sed 1d v7.summary) <(sed 1d $v.summary)
	done
}

@test "damaged binary files: one message each, exit 1, nothing written" {
	local dat perf
	dat=$(unpacked kmem.dat)
	perf=$(unpacked kmem.perf.data)
	head -c 100000 "$dat" > cut.dat
	head -c 5000000 "$perf" > cut.perf.data
	head -c 60 "$perf" > header.perf.data
	cp "$dat" v9.dat && printf '9' | dd of=v9.dat bs=1 seek=10 conv=notrunc 2> /dev/null
	printf 'PERFILE2' > pipe.perf.data && head -c 8 /dev/zero | tr '\0' '\020' >> pipe.perf.data
	for f in cut.dat cut.perf.data header.perf.data v9.dat; do
		run "$TA" -q -f "$f" -c out.txt
		[ "$status" -eq 1 ] || { echo "$f: status $status"; false; }
		[ "${#lines[@]}" -eq 1 ]
		[[ "$output" == "trace_analyze: error: '$f'"* ]] || { echo "$output"; false; }
		[ ! -e out.txt ]
	done
	run "$TA" -q -f v9.dat -c out.txt
	[ "$output" = "trace_analyze: error: 'v9.dat' is a trace.dat of version 9: versions 6 and 7 are read" ]
	run "$TA" -q -f cut.perf.data -c out.txt
	[[ "$output" == *"is cut short"* ]]
}

@test "trace.dat of version 7: a compressed options section is read; a bad page, chunk or size is refused" {
	local f
	command -v trace-cmd > /dev/null || skip "no trace-cmd (scripts/deps.sh)"
	f=$(unpacked kmem.dat)
	trace-cmd convert -i "$f" --file-version 7 --compression zstd -o zstd.dat > /dev/null 2>&1 ||
		skip "this trace-cmd cannot compress"
	trace-cmd convert -i "$f" --file-version 7 --compression none -o plain.dat > /dev/null 2>&1
	# libtracecmd reads options sections that are compressed; trace-cmd writes none
	python3 "$TOP/tests/tools/remake_dat.py" compress-options zstd.dat options.dat
	[ "$(trace-cmd report -i options.dat 2> /dev/null | md5sum)" = "$(trace-cmd report -i zstd.dat 2> /dev/null | md5sum)" ]
	"$TA" -q -f zstd.dat -c zstd.account
	"$TA" -q -f options.dat -c options.account
	cmp zstd.account options.account
	# libtracecmd 3.1 reads each CPU's first page while opening, and crashes
	# closing the file when one is bad: such files are refused before it
	python3 "$TOP/tests/tools/remake_dat.py" damage-first-page plain.dat page.dat
	python3 "$TOP/tests/tools/remake_dat.py" damage-first-chunk zstd.dat chunk.dat
	# a page further on that overstates its size, a section that says 4 GB
	python3 "$TOP/tests/tools/remake_dat.py" damage-page plain.dat middle.dat
	python3 "$TOP/tests/tools/remake_dat.py" huge-kallsyms plain.dat kallsyms.dat
	for d in page.dat chunk.dat middle.dat kallsyms.dat; do
		run "$TA" -q -f $d -c out.txt
		[ "$status" -eq 1 ]
		[ "$output" = "trace_analyze: error: '$d' is a damaged or cut trace.dat: its sections or CPU data are not where its header says or are damaged" ]
		[ ! -e out.txt ]
	done
}

@test "perf.data whose sample ids lie far apart: the reports of perf's close ids" {
	# perf numbers ids from one counter, and the reader finds a sample's attr
	# by id in a table; ids a thousand apart take a search instead, which must
	# find the same attrs (kmem.perf.data has a dummy event's attr too)
	local f ksyms
	f=$(unpacked kmem.perf.data) ksyms=$(unpacked kallsyms)
	python3 "$TOP/tests/tools/perf_records.py" "$f" --spread-ids spread.perf.data > ids
	[ "$(cat ids)" = "ids 10" ]
	reports "$f" close --kallsyms "$ksyms"
	reports spread.perf.data spread --kallsyms "$ksyms"
	for r in account stats outstanding page origins folded tasks gfp caches; do
		cmp "close.$r" "spread.$r"
	done
}

@test "compressed and piped captures: the corpus's kmem.dat.xz, kmem.perf.data.xz, kallsyms.xz as the files" {
	local dat perf ksyms
	dat=$(unpacked kmem.dat) perf=$(unpacked kmem.perf.data) ksyms=$(unpacked kallsyms)
	"$TA" -q -f "$dat" -c dat.file --summary dat.sum.file
	"$TA" -q -f "$BIN/kmem.dat.xz" -c dat.xz --summary dat.sum.xz
	"$TA" -q -f - -c dat.stdin < "$dat"
	xz -dc "$BIN/kmem.dat.xz" | "$TA" -q -f - -c dat.pipe
	cmp dat.file dat.xz && cmp dat.file dat.stdin && cmp dat.file dat.pipe
	diff <(sed 1d dat.sum.file) <(sed 1d dat.sum.xz)
	"$TA" -q -f "$perf" --kallsyms "$ksyms" -c perf.file
	"$TA" -q -f "$BIN/kmem.perf.data.xz" --kallsyms "$BIN/kallsyms.xz" -c perf.xz
	xz -dc "$BIN/kmem.perf.data.xz" | "$TA" -q -f - --kallsyms "$BIN/kallsyms.xz" -c perf.pipe
	cmp perf.file perf.xz && cmp perf.file perf.pipe
	grep -q 'alloc_pipe_info\|kmem_cache_alloc\|__alloc' perf.xz	# named, not hex
	# a cut compressed capture is an error, never a shorter account
	head -c $(($(stat -c %s "$BIN/kmem.dat.xz") / 2)) "$BIN/kmem.dat.xz" > cut.dat.xz
	run "$TA" -q -f cut.dat.xz -c cut.txt
	[ "$status" -eq 1 ]
	[ ! -e cut.txt ]
}

@test "a DB made from a perf.data with lost records opens, and gives the file's reports" {
	local f
	f=$(unpacked kmem.perf.data)
	cd "$BATS_TEST_TMPDIR"
	"$TA" -q -f "$f" --save-db p.db --summary file.summary --outstanding file.out 2> /dev/null
	"$TA" -q -f p.db --summary db.summary --outstanding db.out 2> /dev/null
	diff <(sed 1d file.summary) <(sed 1d db.summary)
	cmp file.out db.out
	grep -Eq '^PERF_RECORD_LOST records: +[1-9]' db.summary
}

@test "binary captures on two threads: every report byte for byte what one thread makes" {
	# a reader thread decodes while this one accounts: strings are numbered
	# in the reader's order of first sight, so nothing may move
	for name in kmem.dat kmem-stacks.dat kmem.perf.data kmem-callchain.perf.data; do
		f=$(unpacked "$name")
		reports "$f" one --kallsyms "$(unpacked kallsyms)" --threads 1
		reports "$f" two --kallsyms "$(unpacked kallsyms)" --threads 2
		for r in account summary stats outstanding page html origins folded folded-pages \
			 tasks caches gfp; do
			[ -e "one.$r" ] || [ -e "two.$r" ] || continue
			cmp "one.$r" "two.$r" || { echo "$name: $r differs"; return 1; }
		done
		cmp <("$TA" --db-file one.db -c - --summary - 2>&1 | sed 's/ in [0-9.]* s$//') \
		    <("$TA" --db-file two.db -c - --summary - 2>&1 |
		      sed -e 's|two\.db|one.db|g' -e 's/ in [0-9.]* s$//') ||
			{ echo "$name: the DBs differ"; return 1; }
	done
}
