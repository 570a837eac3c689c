#!/usr/bin/env bats
# kmemleak's report, alone and beside the kmem trace of the same boot: the
# 6.12 guest that loaded the kernel's kmemleak-test module (it leaks on
# purpose: 8 kmallocs, 5 vmallocs, 1 percpu allocation), booted with
# no_hash_pointers (tests/fixtures/kmemleak-6.12: the report after two
# scans, the trace's lines around the module's load).

load ../lib/helpers
bats_require_minimum_version 1.5.0

setup() {
	KL="$FIX/kmemleak-6.12"
	cd "$BATS_TEST_TMPDIR"
}

@test "kmemleak's report alone: its objects by call site, function and module" {
	run --separate-stderr "$TA" -f "$KL/kmemleak.txt" -c - --group-by module
	[ "$status" -eq 0 ]
	[ "${stderr_lines[0]}" = "trace_analyze: '$KL/kmemleak.txt' is kmemleak's report: 14 unreferenced objects (34944 bytes)" ]
	[ "${lines[8]}" = "   34944        0    34944    14/0     kmemleak_test" ]
	# each object's call site is its backtrace's first frame past the allocator: the
	# sizes at each, as awk reads them from the report
	"$TA" -q -f "$KL/kmemleak.txt" -c a.csv --format csv
	[ "$(tail -n +2 a.csv | cut -d, -f2,3 | sort)" = "$(awk '/^unreferenced object/ { s = $5; gsub(/[():]/, "", s); bt = 0; next }
		/^  backtrace/ { bt = 1; next }
		bt && $1 !~ /^(__kmalloc|kmemleak_vmalloc|__vmalloc|kmemleak_alloc|pcpu_alloc|__alloc_percpu)/ { split($1, f, "/"); print f[1] " " $2 "," s; bt = 0 }' "$KL/kmemleak.txt" | sort)" ]
}

@test "--kmemleak beside the trace: each object found by address, the vmalloc'd and percpu ones not" {
	"$TA" -q -f "$KL/kmem.log" --kmemleak "$KL/kmemleak.txt" --summary s.json --format json
	[ "$(jq -c '.kmemleak | [.objects, .by_address, .by_site_and_size, .not_seen]' s.json)" = "[14,8,0,6]" ]
	# the 8 kmalloc'd ones are the trace's own allocations at those addresses
	for a in $(jq -r '.kmemleak_objects[] | select(.matched_by == "address") | .address' s.json); do
		grep -q " kmalloc: .*ptr=${a#0x} " "$KL/kmem.log"
	done
	[ "$(jq -r '[.kmemleak_objects[] | select(.matched_by == "none") | .address] | map(.[0:10]) | unique | join(" ")' s.json)" = "0x45918 0xffffc900" ]
	python3 "$TOP/tests/tools/check_consumers.py" json s.json
	# pointers hashed (a kernel without no_hash_pointers): found by call site and size
	sed 's/ptr=ffff8880\([0-9a-f]*\)/ptr=0000000\1/' "$KL/kmem.log" > hashed.log
	"$TA" -q -f hashed.log --kmemleak "$KL/kmemleak.txt" --summary h.json --format json
	[ "$(jq -c '.kmemleak | [.by_address, .by_site_and_size, .not_seen]' h.json)" = "[0,8,6]" ]
}

@test "a healthy kernel's empty report: kmemleak reports none, no leak is made up" {
	: > empty
	"$TA" -q -f "$KL/kmem.log" --kmemleak empty --summary s.json --format json
	[ "$(jq -c '.kmemleak | [.objects, .verdict]' s.json)" = '[0,"kmemleak reports none"]' ]
	[ "$(jq '.kmemleak_objects | length' s.json)" = 0 ]
}

@test "cut and garbled kmemleak reports are named by line; --kmemleak needs --summary" {
	head -n 4 "$KL/kmemleak.txt" > cutdump
	printf '    63 65 5f\n' >> cutdump
	run "$TA" -f cutdump -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'cutdump' line 5 is not a hex dump line (16 bytes, then their text)" ]
	head -n 2 "$KL/kmemleak.txt" > nobt
	run "$TA" -f nobt -c -
	[ "$output" = "trace_analyze: error: 'nobt' is cut: its last object has no backtrace" ]
	{ head -n 1 "$KL/kmemleak.txt"; echo '  comm insmod pid 61'; } > badcomm
	run "$TA" -f badcomm -c -
	[ "$output" = "trace_analyze: error: 'badcomm' line 2 is not an object's task line (comm \"NAME\", pid P, jiffies J)" ]
	head -c 100 "$KL/kmemleak.txt" > cutline
	run "$TA" -f cutline -c -
	[ "$output" = "trace_analyze: error: 'cutline' is cut: its last line has no newline" ]
	run "$TA" -f "$KL/kmem.log" --kmemleak "$KL/kmemleak.txt" -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --kmemleak adds kmemleak's objects to the summary and the leak suspects: give --summary FILE (or --html FILE, --outstanding FILE)" ]
}

@test "--kmemleak with --html: the page's summary lists kmemleak's objects" {
	command -v chromium > /dev/null || skip "no chromium (scripts/deps.sh installs it)"
	"$TA" -q -f "$KL/kmem.log" --kmemleak "$KL/kmemleak.txt" --html p.html
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chrome" \
		--virtual-time-budget=5000 --dump-dom "file://$BATS_TEST_TMPDIR/p.html" > dom.html 2> /dev/null
	grep -q 'data-ready="1"' dom.html
	! grep -q 'data-errors=' dom.html || false
	grep -q 'id="sum-kmemleak_objects"' dom.html
	grep -q '0xffff888000bccee0' dom.html
}

@test "kmemleak's report beside itself is refused; an object cut in its hex dump too" {
	run "$TA" -f "$KL/kmemleak.txt" --kmemleak "$KL/kmemleak.txt" --summary -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: '$KL/kmemleak.txt' is kmemleak's report: --kmemleak goes beside a kmem trace of the same boot" ]
	head -n 3 "$KL/kmemleak.txt" > cut
	run "$TA" -f cut -c -
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: 'cut' is cut: its last object has no backtrace" ]
}

@test "leak suspects beside kmemleak: each suspect says how many of its objects kmemleak reports, or none" {
	local i kc="bytes_req=128 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	for i in $(seq 100 299); do	# two sites that only hold, 200 allocations each over 10 s
		printf '            init-1       [000] .....     %d.%06d: kmalloc: call_site=leaky+0x1/0x10 ptr=ffff888000%06x %s\n' \
			$((i / 20)) $((i % 20 * 50000)) "$i" "$kc"
		printf '            init-1       [001] .....     %d.%06d: kmalloc: call_site=holder+0x1/0x10 ptr=ffff888100%06x %s\n' \
			$((i / 20)) $((i % 20 * 50000 + 1)) "$i" "$kc"
	done > log
	# kmemleak reports three of leaky's objects (ptr 0x...100 is the 256th), and one of
	# a site the trace never saw
	for a in ffff888000000100:leaky ffff888000000101:leaky ffff88800000012b:leaky \
		ffff888200000000:elsewhere; do
		printf 'unreferenced object 0x%s (size 128):\n  comm "init", pid 1, jiffies 4294892918\n  backtrace (crc 0):\n    __kmalloc_cache_noprof+0x107/0x17d\n    %s+0x1/0x10\n' "${a%:*}" "${a#*:}"
	done > leaks.txt
	"$TA" -q -f log --kmemleak leaks.txt --summary s.txt
	sed -n '/^leak suspects/,/^$/p' s.txt > suspects.txt
	grep -q '^leaky+0x1 .* kmemleak reports 3 of its objects$' suspects.txt
	grep -q '^holder+0x1 .* kmemleak reports none$' suspects.txt
	grep -q '^found live in the trace by address: *3$' s.txt
	# the JSON row carries it; without --kmemleak there is no such column
	"$TA" -q -f log --kmemleak leaks.txt --summary s.json --format json
	[ "$(jq -r '.leak_suspects[] | select(.key == "leaky+0x1") | .kmemleak' s.json)" = "kmemleak reports 3 of its objects" ]
	python3 -c "import json,jsonschema,sys; jsonschema.validate(json.load(open('s.json')), json.load(open(sys.argv[1])))" \
		"$TOP/data/schema/summary.schema.json"
	"$TA" -q -f log --summary plain.json --format json
	[ "$(jq '[.leak_suspects[] | has("kmemleak")] | any' plain.json)" = false ]
	"$TA" -q -f log --kmemleak leaks.txt --outstanding o.txt
	grep -q '^leaky+0x1 .* kmemleak reports 3 of its objects$' o.txt
}
