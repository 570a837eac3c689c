#!/usr/bin/env bats
# Same log, same numbers: a file, a pipe and standard input redirected from
# the file give identical summaries, line numbers and reports, whatever the
# log holds (over-long lines, NUL bytes, CRLF, a cut last line, a 4 MiB line
# across a chunk boundary); limits never merge two call sites or read a
# sentinel as a value; option numbers are decimal and in range.

load ../lib/helpers

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# same_names STDERR LOG: the input's name and the time taken blanked out
same_names() {
	sed -e "s|'$2'|INPUT|g" -e "s|'standard input'|INPUT|g" -e 's/ in [0-9.]* s$//' \
	    -e "s/^trace_analyze: wrote 'a\.[a-z]*', 's\.[a-z]*'$/trace_analyze: wrote the outputs/" "$1"
}

# three_ways LOG [options]: summaries (the input's name and the time aside)
# and reports must be the same three ways
three_ways() {
	local log="$1"; shift
	"$TA" -f "$log" -c a.file --summary s.file "$@" 2> e.file || true
	cat "$log" | "$TA" -f - -c a.pipe --summary s.pipe "$@" 2> e.pipe || true
	"$TA" -f - -c a.stdin --summary s.stdin "$@" < "$log" 2> e.stdin || true
	for how in pipe stdin; do
		diff_or_fail a.file "a.$how"
		diff_or_fail <(tail -n +2 s.file) <(tail -n +2 "s.$how")
		diff_or_fail <(same_names e.file "$log") <(same_names "e.$how" "$log")
	done
}

# a log of real lines with damage spread through it
damaged_log() {
	python3 - "$FIX/trace-pipe-6.18.log" <<'PY'
import sys
good = open(sys.argv[1], "rb").read().split(b"\n")[:-1]
out = []
for i in range(400):
    out.append(good[i % len(good)])
    if i == 50:
        out.append(b"x" * (1 << 20))            # exactly INPUT_MAX_LINE: not over-long
        out.append(b"y" * ((1 << 20) + 1))      # one byte more: over-long
    if i == 120:
        out.append(b"z" * (5 << 20))            # longer than a chunk
    if i == 200:
        out.append(good[3].replace(b"kmalloc", b"km\0lloc"))   # a NUL inside
        out.append(good[4] + b"\r")             # CRLF
        out.append(b"           bash-1 [000] ..... 1.0: kmalloc: call_site=f+0x1/0x2 ptr=zz")
sys.stdout.buffer.write(b"\n".join(out) + b"\n" + good[5][:40])   # a cut last line
PY
}

@test "a damaged log: file, pipe and stdin redirection agree" {
	damaged_log > damaged.log
	three_ways damaged.log
	grep -q "longer than 1 MiB                2$" e.file
	grep -q "truncated last line              1$" e.file
	grep -Eq "first malformed kmem event at line [0-9]+$" e.file
}

@test "a 4 MiB line across the first chunk boundary, then lines: the same three ways" {
	python3 - "$FIX/trace-pipe-6.18.log" > chunked.log <<'PY'
import sys
good = open(sys.argv[1], "rb").read()
head = good * (3 << 20 // len(good) + 1)
head = head[:head.rindex(b"\n", 0, 3 << 20) + 1]   # lines up to ~3 MiB
sys.stdout.buffer.write(head + b"w" * (4 << 20) + b"\n" + good * 20)
PY
	three_ways chunked.log --threads 2
	three_ways chunked.log --threads 1
	grep -q "longer than 1 MiB                1$" e.file
}

@test "the summary counts a 50 MB line among the lines and bytes, and memory stays small" {
	python3 -c 'import sys; sys.stdout.write("y" * 50000000 + "\n")' > big.log
	cat "$FIX/trace-pipe-6.18.log" >> big.log
	bytes=$(stat -c %s big.log)
	lines=$(wc -l < big.log)
	"$TA" -f big.log -c /dev/null 2> e.file
	grep -q "summary of 'big.log': $lines lines, $bytes bytes in " e.file
	cat big.log | "$TA" -f - -c /dev/null 2> e.pipe
	grep -q "summary of 'standard input': $lines lines, $bytes bytes in " e.pipe
	# peak RSS: the chunks and tables, not the line (a 50 MB line once left 55 MB)
	if [[ "$TA" != *san* ]]; then
		/usr/bin/time -f %M -o rss "$TA" -q -f big.log -c /dev/null
		[ "$(cat rss)" -lt 30000 ] || { echo "peak RSS $(cat rss) KB"; return 1; }
	fi
}

@test "two call sites that differ after 600 characters stay two rows; one over 1000 is malformed" {
	python3 - > long-names.log <<'PY'
base = "f" * 600
for i, name in enumerate((base + "a", base + "b")):
    print("           bash-1     [000] .....   1.%06d: kmalloc: call_site=%s+0x1/0x10 "
          "ptr=00000000aa00000%d bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL" % (i, name, i))
print("           bash-1     [000] .....   1.000009: kmalloc: call_site=%s+0x1/0x10 "
      "ptr=00000000aa000009 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL" % ("g" * 1001))
PY
	run "$TA" -f long-names.log -c account
	grep -q "^number of callers:                2$" account
	[[ "$output" == *"malformed kmem events            1"* ]]
	[[ "$output" == *"first malformed kmem event at line 3"* ]]
}

@test "numbers that collide with a sentinel are malformed: node=INT32_MIN, order=-1" {
	cat > sentinel.log <<'EOF'
           bash-1     [000] .....   1.000001: kmalloc: call_site=f+0x1/0x10 ptr=00000000aa000001 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-2147483648 accounted=false
           bash-1     [000] .....   1.000002: kmalloc: call_site=f+0x1/0x10 ptr=00000000aa000002 bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL node=-1 accounted=false
           bash-1     [000] .....   1.000003: mm_page_alloc: page=0000000012345678 pfn=0x1000 order=-1 migratetype=0 gfp_flags=GFP_KERNEL
EOF
	run "$TA" -f sentinel.log -c /dev/null --page /dev/null
	[[ "$output" == *"malformed kmem events            2"* ]]
	[[ "$output" == *"first malformed kmem event at line 1"* ]]
	[[ "$output" == *"allocations:                       1"* ]]
}

@test "option numbers are decimal and in range" {
	log="$FIX/trace-pipe-6.18.log"
	run "$TA" -f "$log" -c - --time 0x10
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --time wants START,END in seconds as the log prints them (either may be left out), not '0x10'" ]
	run "$TA" -f "$log" --stats - --top 99999999999999999999
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --top wants a number of rows, not '99999999999999999999'" ]
	for bad in 1e3 " 5" 5s -3 "1.5.2"; do
		run "$TA" -f "$log" -c - --time "$bad"
		[ "$status" -eq 2 ] || { echo "--time '$bad' was accepted"; return 1; }
	done
	run "$TA" -f "$log" -c - --threads 65
	[ "$status" -eq 2 ]
	run "$TA" -f "$log" -c /dev/null --time 668.4893,668.4895 -q
	[ "$status" -eq 0 ]
}

# The parser finds a line's end and separators 64, 32, 16 or 1 byte at a time
# (AVX-512, AVX2, SSE2, the scalar reference): every way gives the same
# reports, on every text form and on damage, lines over 512 bytes (heap
# masks) among them. A way this CPU lacks falls back to the best it has.
@test "the line scan: AVX-512, AVX2, SSE2 and byte by byte give the same reports" {
	damaged_log > all.log
	cat "$FIX/trace-pipe-6.18.log" "$FIX/trace-cmd-6.18.txt" "$FIX/perf-script-6.18.txt" \
		"$FIX/old-2.6-hex.log" "$FIX/tracefs-6.1-rawptr.log" >> all.log
	printf '  a-1 [000] ..... 9.000000: kmalloc: call_site=f+0x1/0x2 ptr=0xffff888100000040 %s bytes_req=8 bytes_alloc=8 gfp_flags=GFP_KERNEL\n' \
		"$(printf 'pad=%.0s' $(seq 120))" >> all.log
	for way in scalar sse2 avx2 avx512; do
		TA_TEST_LINESCAN=$way "$TA" -f all.log -c "a.$way" --stats "st.$way" \
			--outstanding "o.$way" --page "p.$way" --summary "s.$way" 2> "e.$way" || true
		sed -i -e 's/ in [0-9.]* s$//' -e "s/\.$way'/.WAY'/g" "e.$way"
	done
	for way in sse2 avx2 avx512; do
		for f in a st o p e; do
			diff_or_fail "$f.scalar" "$f.$way"
		done
		diff_or_fail <(tail -n +2 s.scalar) <(tail -n +2 "s.$way")
	done
	# the long line's call site was read (it is over 512 bytes)
	grep -q "f+0x1" a.scalar
	[ "$(grep -c . a.scalar)" -gt 20 ]
}
