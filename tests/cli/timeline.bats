#!/usr/bin/env bats
# --timeline and the growth finding: live bytes over the log's time, drawn
# from every corpus log, and the rows that grew steadily named in --summary
# and --outstanding, checked against the independent replay.

load ../lib/helpers

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
}

@test "--timeline draws every corpus log, as PNG, SVG or PDF by the name" {
	local log n=0
	for log in "$CORPUS"/linux-6.1-tiny/*.log "$CORPUS"/host-6.18/*.log \
		"$CORPUS"/host-6.18/trace-cmd-report.txt; do
		run "$TA" -q -f "$log" --timeline "t$n.png"
		[ "$status" -eq 0 ] || { echo "$log: $output"; false; }
		[ "$(head -c 8 "t$n.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
		n=$((n + 1))
	done
	"$TA" -q -f "$CORPUS/host-6.18/overrun-kmem.log" --timeline t.svg --group-by cache
	grep -q '<svg' t.svg
	"$TA" -q -f "$CORPUS/host-6.18/overrun-kmem.log" --timeline t.pdf
	[ "$(head -c 5 t.pdf)" = "%PDF-" ]
}

@test "--timeline with a name of no chart format is a usage error listing png, svg, pdf" {
	run "$TA" -f "$CORPUS/host-6.18/small-kmem.log" --timeline t.jpg
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --timeline 't.jpg': a chart is written as .png, .svg or .pdf: name it so" ]
	[ ! -e t.jpg ]
}

@test "growth: the site the 6.18 stack log keeps growing is named, with its live bytes at the end" {
	local log="$CORPUS/host-6.18/stack-kmem.log"
	"$TA" -q -f "$log" --summary summary.txt
	sed -n '/^growing steadily/,/^$/p' summary.txt > growth.txt
	# the first grower, and its live bytes at the end as the replay counts them
	row=$(sed -n 4p growth.txt)
	[ "$(awk '{ print $1 }' <<< "$row")" = "mas_preallocate+0x3ef" ]
	net=$(ref_account "$log" | awk '$NF == "mas_preallocate+0x3ef" { print $3 }')
	[ -n "$net" ]
	[ "$(awk '{ print $6 }' <<< "$row")" = "$net" ]
	[[ "$row" == *"grew 81.0 KiB over 0.1 s, steady" ]]
	# --outstanding says the same
	"$TA" -q -f "$log" --outstanding - | grep -q '^mas_preallocate+0x3ef .* grew 81.0 KiB over 0.1 s, steady$'
}

@test "growth: nothing grows in the 6.1 workload log, and no growth table is printed" {
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/workload-kmem.log" --summary summary.txt \
		--outstanding outstanding.txt
	! grep -q 'growing steadily' summary.txt
	! grep -q 'growing steadily' outstanding.txt
	grep -q '^findings' summary.txt
}

@test "growth: a boot cut to one second (--time) grows; its JSON carries the fit" {
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/boot-kmem.log" --time 1.5,2.5 --summary s.json \
		--format json
	python3 - s.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d["growth"]
assert len(g) >= 3, g
assert g[0]["caller"] == "__kernfs_new_node.constprop.0+0x49", g[0]
assert 0.98 < g[0]["over_s"] <= 1.0, g[0]
for row in g:
    assert row["grew_bytes"] >= 16384 and row["r2"] >= 0.8 and row["bytes_per_s"] > 0, row
    assert row["what"].startswith("grew "), row
PY
}

# realloc_count LOG SITE: allocations of a pointer still live from SITE, replayed by awk
realloc_count() {
	awk -v site="$2" '
	/ (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): / {
		cs = ""; p = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^call_site=/) { cs = substr($i, 11); sub(/\/0x[0-9a-f]+$/, "", cs) }
			if ($i ~ /^ptr=/) p = substr($i, 5)
		}
		if (p == "0x0" || p == "(nil)" || p == "0000000000000000") next
		if (p in live && live[p] == site) n++
		live[p] = cs
		next
	}
	/ (kfree|kmem_cache_free): / {
		for (i = 1; i <= NF; i++) if ($i ~ /^ptr=/) delete live[substr($i, 5)]
	}
	END { print n + 0 }' "$1"
}

@test "re-allocated while live: the 6.18 maple-tree sites whose frees no tracepoint sees" {
	local log="$CORPUS/host-6.18/small-kmem.log"
	"$TA" -q -f "$log" --summary summary.txt
	sed -n '/^re-allocated while live/,/^$/p' summary.txt > realloc.txt
	row=$(sed -n 4p realloc.txt)
	[ "$(awk '{ print $1 }' <<< "$row")" = "mas_preallocate+0x3ef" ]
	[ "$(awk '{ print $2 }' <<< "$row")" = "$(realloc_count "$log" mas_preallocate+0x3ef)" ]
	[[ "$row" == *"of its objects came back while live: its live bytes are likely overstated" ]]
	# a log with no implicit free has no such table
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/stacktrace-kmem.log" --summary s2.txt
	grep -q "^implicit frees: *0$" s2.txt
	! grep -q '^re-allocated while live' s2.txt
}
