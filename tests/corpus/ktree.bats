#!/usr/bin/env bats
# The kernel-tree view on the real 6.1 build tree: static sizes and the
# placing of call sites are checked against binutils' readelf
# (tests/tools/ref_ktree.py), never against the tool's own output; the
# index file gives byte-identical reports; charts are real PNG/SVG/PDF.

load ../lib/helpers

setup() {
	require_corpus
	TREE="$CORPUS/linux-6.1-tiny/tree"
	BOOT="$CORPUS/linux-6.1-tiny/boot-kmem.log"
	WORK="$CORPUS/linux-6.1-tiny/workload-kmem.log"
	HEX="$CORPUS/linux-6.1-tiny/boot-kmem-hexaddr.log"
}

# ref_ktree static|defs: cached like ref_account (the sanitizer run asks again).
ref_ktree() {
	mkdir -p "$REF_CACHE"
	local f="$REF_CACHE/ktree-$1-$(sha1sum < "$TOP/tests/tools/ref_ktree.py" | cut -c1-12)"
	[ -s "$f" ] || { python3 "$TOP/tests/tools/ref_ktree.py" "$1" "$TREE" > "$f.tmp" && mv "$f.tmp" "$f"; }
	cat "$f"
}

@test "static sizes of every top-level directory equal readelf's sums" {
	ref_ktree static | grep -v '^\.,' > "$BATS_TEST_TMPDIR/expected"
	"$TA" -q -k "$TREE" -c "$BATS_TEST_TMPDIR/st.csv" --format csv
	awk -F, 'NR > 1 && $2 != "." && $2 !~ /\// {print $2","$3","$4","$5","$6","$7}' \
		"$BATS_TEST_TMPDIR/st.csv" > "$BATS_TEST_TMPDIR/actual"
	[ -s "$BATS_TEST_TMPDIR/expected" ]
	diff_or_fail "$BATS_TEST_TMPDIR/expected" "$BATS_TEST_TMPDIR/actual"
}

@test "the static table's totals are the sum of its top-level directories" {
	"$TA" -q -k "$TREE" -c - --format json > "$BATS_TEST_TMPDIR/static.json"
	python3 - "$BATS_TEST_TMPDIR/static.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
tops = [r for r in d["directories"] if r["key"] != "." and "/" not in r["key"]]
for k in ("text", "data", "rodata", "bss", "static"):
    assert sum(r[k] for r in tops) == d["totals"][k], k
assert d["totals"]["static"] == sum(d["totals"][k] for k in ("text", "data", "rodata", "bss"))
EOF
}

# Expected object of each call-site function defined exactly once (readelf).
unique_definitions() {
	ref_ktree defs | awk '{n[$1]++; o[$1] = $2} END {for (f in n) if (n[f] == 1) print f, o[f]}' | sort
}

@test "every boot-log call site with a unique definition is placed in its object" {
	unique_definitions > "$BATS_TEST_TMPDIR/defs"
	"$TA" -q -k "$TREE" -f "$BOOT" -l "$BATS_TEST_TMPDIR/callers"
	# caller function, placed object
	awk '{f = $1; sub(/\+.*/, "", f); print f, $4}' "$BATS_TEST_TMPDIR/callers" | sort -u \
		> "$BATS_TEST_TMPDIR/placed"
	join "$BATS_TEST_TMPDIR/defs" "$BATS_TEST_TMPDIR/placed" > "$BATS_TEST_TMPDIR/both"
	# every placed function with a unique definition, and it is the same object
	[ "$(wc -l < "$BATS_TEST_TMPDIR/both")" -gt 300 ]
	awk '$2 != $3 {print "misplaced:", $0; bad = 1} END {exit bad}' "$BATS_TEST_TMPDIR/both"
	# and none of them is left unknown or ambiguous
	join -v 2 "$BATS_TEST_TMPDIR/defs" "$BATS_TEST_TMPDIR/placed" > "$BATS_TEST_TMPDIR/others"
	run grep -v -e '(unknown)' -e '(ambiguous)' "$BATS_TEST_TMPDIR/others"
	[ -z "$output" ]
}

@test "hex call sites resolved through System.map are placed like their symbolic twins" {
	"$TA" -q -k "$TREE" -f "$BOOT" -l "$BATS_TEST_TMPDIR/sym"
	"$TA" -q -k "$TREE" -f "$HEX" -l "$BATS_TEST_TMPDIR/hex"
	diff_or_fail "$BATS_TEST_TMPDIR/sym" "$BATS_TEST_TMPDIR/hex"
}

@test "a static function defined in several objects: size decides, or the common directory" {
	# reqsk_put is defined in 4 objects under net/: 3 of size 0x57, one
	# (net/ipv4/tcp_input.o) of size 0x1c. Real 6.1 lines, call sites edited.
	ref_ktree defs | awk '$1 == "reqsk_put"' > "$BATS_TEST_TMPDIR/defs"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/defs")" -eq 4 ]
	line='            init-1       [001] .....   250.161313: kmem_cache_alloc: call_site=SITE ptr=00000000PTR bytes_req=176 bytes_alloc=192 gfp_flags=GFP_KERNEL node=-1 accounted=false'
	{
		echo "$line" | sed 's|SITE|reqsk_put+0x10/0x57|; s|PTR|2c6b0891|'
		echo "$line" | sed 's|SITE|reqsk_put+0x20/0x1c|; s|PTR|2c6b0892|'
		echo "$line" | sed 's|SITE|no_such_function+0x4/0x10|; s|PTR|2c6b0893|'
	} > "$BATS_TEST_TMPDIR/log"
	run "$TA" -q -k "$TREE" -f "$BATS_TEST_TMPDIR/log" -l -
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf '%-60s %-8s %-8s %-8s' no_such_function+0x4 192 16 '(unknown)')" ]
	[ "${lines[1]}" = "$(printf '%-60s %-8s %-8s %-8s' reqsk_put+0x10 192 16 'net/(ambiguous)')" ]
	[ "${lines[2]}" = "$(printf '%-60s %-8s %-8s %-8s' reqsk_put+0x20 192 16 'net/ipv4/tcp_input.o')" ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "-b mm lists exactly the call sites whose functions are defined under mm/" {
	ref_ktree defs | awk '{ under = ($2 ~ /^mm\//); if (!(($1) in all)) all[$1] = under; else all[$1] = all[$1] && under }
		END {for (f in all) if (all[f]) print f}' | sort > "$BATS_TEST_TMPDIR/mm-functions"
	ref_account "$BOOT" | awk 'p {f = $NF; sub(/\+.*/, "", f); print f, $NF} /^-----/ {p = 1}' |
		sort > "$BATS_TEST_TMPDIR/all-sites"
	join "$BATS_TEST_TMPDIR/mm-functions" "$BATS_TEST_TMPDIR/all-sites" | awk '{print $2}' |
		sort > "$BATS_TEST_TMPDIR/expected"
	"$TA" -q -k "$TREE" -f "$BOOT" -b mm -c - | awk 'p {print $NF} /^-----/ {p = 1}' |
		sort > "$BATS_TEST_TMPDIR/actual"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/expected")" -gt 10 ]
	diff_or_fail "$BATS_TEST_TMPDIR/expected" "$BATS_TEST_TMPDIR/actual"
}

@test "-b fs: the account header sums only the listed call sites" {
	"$TA" -q -k "$TREE" -f "$BOOT" -b fs/ -c - > "$BATS_TEST_TMPDIR/fs"
	awk 'p {split($4, af, "/"); net += $3; allocs += af[1]; frees += af[2]; n++}
	     /^current bytes allocated:/ {h_net = $4} /^number of allocs:/ {h_a = $4}
	     /^number of frees:/ {h_f = $4} /^number of callers:/ {h_n = $4}
	     /^-----/ {p = 1}
	     END {exit !(net == h_net && allocs == h_a && frees == h_f && n == h_n && n > 0)}' \
		"$BATS_TEST_TMPDIR/fs"
}

@test "a branch that is not in the tree is an error naming it" {
	run "$TA" -q -k "$TREE" -f "$BOOT" -b fs/ext9 -c /dev/null
	[ "$status" -eq 1 ]
	[ "$output" = "trace_analyze: error: branch 'fs/ext9' is not in kernel tree '$TREE'" ]
}

@test "tree and index give byte-identical account, callers file and charts" {
	local d="$BATS_TEST_TMPDIR"
	"$TA" -q -k "$TREE" --save-index "$d/k.kidx"
	for k in "$TREE" "$d/k.kidx"; do
		n=$(basename "$k")
		"$TA" -q -k "$k" -f "$WORK" -c "$d/acc.$n" -l "$d/callers.$n" -r "$d/rings.$n.png" -o waste
		"$TA" -q -k "$k" -f "$HEX" -b fs -c "$d/hex.$n" -l "$d/hexcallers.$n" -r "$d/hex.$n.svg" -a waste
		"$TA" -q -k "$k" -c "$d/static.$n" -r "$d/static.$n.png"
	done
	for f in acc callers rings.%.png hex hexcallers hex.%.svg static static.%.png; do
		a=${f/\%/tree}; b=${f/\%/k.kidx}
		[ "$a" = "$f" ] && { a="$f.tree"; b="$f.k.kidx"; }
		cmp "$d/$a" "$d/$b"
	done
}

@test "the index shipped in data/ is what the tool makes of the corpus tree" {
	"$TA" -q -k "$TREE" --save-index "$BATS_TEST_TMPDIR/fresh.kidx"
	xz -dc "$TOP/data/linux-6.1-tiny.kidx.xz" > "$BATS_TEST_TMPDIR/shipped.kidx"
	cmp "$BATS_TEST_TMPDIR/fresh.kidx" "$BATS_TEST_TMPDIR/shipped.kidx"
}

@test "ringcharts of all five attributes and of -b fs are PNG; SVG and PDF by name" {
	local d="$BATS_TEST_TMPDIR"
	for a in static current current_dynamic total_dynamic waste; do
		"$TA" -q -k "$TREE" -f "$WORK" -r "$d/$a.png" -a "$a"
		[ "$(head -c 8 "$d/$a.png" | od -An -tx1 | tr -d ' ')" = "89504e470d0a1a0a" ]
	done
	"$TA" -q -k "$TREE" -f "$WORK" -b fs -r "$d/fs.svg"
	python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$d/fs.svg"
	grep -q 'fs' "$d/fs.svg"
	"$TA" -q -k "$TREE" -f "$WORK" -r "$d/rings.PDF"
	[ "$(head -c 5 "$d/rings.PDF")" = "%PDF-" ]
	tail -c 64 "$d/rings.PDF" | grep -q '%%EOF'
}

@test "static-only mode writes rings_static.png by default, as trace_analyze.py" {
	cd "$BATS_TEST_TMPDIR"
	run "$TA" -k "$TREE"
	[ "$status" -eq 0 ]
	[ -s rings_static.png ]
	[[ "$output" == *"kernel '$TREE': 1234 objects"* ]]
}
