#!/usr/bin/env bats
# --timeline and the leak suspects: live bytes over the log's time, drawn
# from every corpus log, and the rows that grew steadily, ranked by the
# evidence that they hold, named in --summary and --outstanding, checked
# against the independent replay.

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

@test "--timeline with a name of no chart or data format is a usage error listing them" {
	run "$TA" -f "$CORPUS/host-6.18/small-kmem.log" --timeline t.jpg
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --timeline 't.jpg': a chart is written as .png, .svg or .pdf, the series as .csv or .json (or '-', CSV): name it so" ]
	[ ! -e t.jpg ]
}

@test "--timeline FILE.csv, FILE.json, '-': the series as data; the last sample is the account's live bytes" {
	local log="$CORPUS/host-6.18/overrun-kmem.log" live
	live=$("$TA" -q -f "$log" --group-by cache -c - | sed -n 's/^current bytes allocated: *//p')
	"$TA" -q -f "$log" --group-by cache --timeline t.csv
	"$TA" -q -f "$log" --group-by cache --timeline t.json
	"$TA" -q -f "$log" --group-by cache --timeline - > stdout.csv
	cmp t.csv stdout.csv
	python3 - "$live" <<'PY'
import csv, json, sys
live = int(sys.argv[1])
rows = list(csv.DictReader(open("t.csv")))
assert rows and all(r["group_by"] == "cache" for r in rows), rows[:2]
last = max(float(r["time_s"]) for r in rows)
at_end = sum(int(r["live_bytes"]) for r in rows if float(r["time_s"]) == last)
assert at_end == live, (at_end, live)
assert any(r["key"] == "(other)" for r in rows)
doc = json.load(open("t.json"))
assert doc["report"] == "timeline" and len(doc["series"]) == len(rows)
assert [r["live_bytes"] for r in doc["series"]] == [int(r["live_bytes"]) for r in rows]
# the overrun log's lost-event mark, and its page events
assert doc["lost"] and doc["pages"], doc.keys()
assert list(csv.DictReader(open("t.lost.csv"))) and list(csv.DictReader(open("t.pages.csv")))
PY
	python3 -c "import json,jsonschema,sys; jsonschema.validate(json.load(open('t.json')), json.load(open(sys.argv[1])))" \
		"$TOP/data/schema/timeline.schema.json"
}

@test "leak suspects: the 6.18 stack log's first grower frees untraced, so the suspect is the next" {
	local log="$CORPUS/host-6.18/stack-kmem.log"
	"$TA" -q -f "$log" --summary summary.txt
	# mas_preallocate grows steadily, but 23% of its pointers come back live
	sed -n '/^untraced free path/,/^$/p' summary.txt | grep -q '^mas_preallocate+0x3ef  *97  *422  *22.99% '
	sed -n '/^leak suspects/,/^$/p' summary.txt > suspects.txt
	! grep -q mas_preallocate suspects.txt || false
	# the suspect, its live bytes at the end as the replay counts them
	row=$(sed -n 4p suspects.txt)
	[ "$(awk '{ print $1, $2 }' <<< "$row")" = "copy_process+0x18a low" ]
	net=$(ref_account "$log" | awk '$NF == "copy_process+0x18a" { print $3 }')
	[ -n "$net" ]
	[ "$(awk '{ print $10 }' <<< "$row")" = "$net" ]
	[[ "$row" == *"grew 29.1 KiB in 0.1 s (r2 0.81), up in 6/7 windows, oldest live 100% of the log old, none came back live" ]]
	# --outstanding says the same
	"$TA" -q -f "$log" --outstanding - | grep -q '^copy_process+0x18a  *low .* none came back live$'
}

@test "leak suspects: nothing grows in the 6.1 workload log, and no table is printed" {
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/workload-kmem.log" --summary summary.txt \
		--outstanding outstanding.txt
	! grep -q 'leak suspects' summary.txt || false
	! grep -q 'leak suspects' outstanding.txt || false
	grep -q '^findings' summary.txt
}

@test "leak suspects: a boot cut to one second (--time) grows; its JSON carries the evidence" {
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/boot-kmem.log" --time 1.5,2.5 --summary s.json \
		--format json
	python3 - s.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d["leak_suspects"]
assert len(g) >= 3, g
assert g[0]["key"] == "__kernfs_new_node.constprop.0+0x49", g[0]
assert g[0]["confidence"] == "medium" and g[0]["rising_windows"] == 6, g[0]
assert 0.98 < g[0]["over_s"] <= 1.0, g[0]
rank = {"high": 2, "medium": 1, "low": 0}
for a, b in zip(g, g[1:]):
    assert rank[a["confidence"]] >= rank[b["confidence"]], (a, b)
for row in g:
    assert row["grew_bytes"] >= 16384 and row["r2"] >= 0.8 and row["bytes_per_s"] > 0, row
    assert row["came_back_pct"] < 5 and 0 <= row["oldest_age_pct"] <= 100, row
    assert row["why"].startswith("grew "), row
PY
}

@test "leak suspects: a site that only holds is high; one whose pointers come back is left out" {
	local i kc="bytes_req=128 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false"
	for i in $(seq 100 299); do	# 200 allocations of each over 10 s
		printf '            init-1       [000] .....     %d.%06d: kmalloc: call_site=leaky+0x1/0x10 ptr=ffff888000%06x %s\n' \
			$((i / 20)) $((i % 20 * 50000)) "$i" "$kc"
		# "recycled" grows as fast, but every fourth allocation reuses a live pointer
		printf '            init-1       [001] .....     %d.%06d: kmalloc: call_site=recycled+0x1/0x10 ptr=ffff888100%06x %s\n' \
			$((i / 20)) $((i % 20 * 50000 + 1)) $((i % 4 ? i : i - 1)) "$kc"
	done > log
	"$TA" -q -f log --summary s.txt
	sed -n '/^leak suspects/,/^$/p' s.txt > suspects.txt
	grep -q '^leaky+0x1  *high  *25472 .* up in 7/7 windows, oldest live 100% of the log old, none came back live$' suspects.txt
	! grep -q recycled suspects.txt || false
	sed -n '/^untraced free path/,/^$/p' s.txt | grep -q '^recycled+0x1  *49  *200  *24.50% '
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

@test "untraced free path: the 6.18 maple-tree sites whose frees no tracepoint sees" {
	local log="$CORPUS/host-6.18/small-kmem.log"
	"$TA" -q -f "$log" --summary summary.txt
	sed -n '/^untraced free path/,/^$/p' summary.txt > realloc.txt
	row=$(sed -n 4p realloc.txt)
	[ "$(awk '{ print $1 }' <<< "$row")" = "mas_preallocate+0x3ef" ]
	[ "$(awk '{ print $2 }' <<< "$row")" = "$(realloc_count "$log" mas_preallocate+0x3ef)" ]
	[[ "$row" == *"of its objects came back while live: its live bytes are likely overstated" ]]
	# a log with no implicit free has no such table
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/stacktrace-kmem.log" --summary s2.txt
	grep -q "^implicit frees: *0$" s2.txt
	! grep -q '^untraced free path' s2.txt
}

@test "--timeline --top 60: the legend stays inside the image, the rest as '+K more'" {
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/workload-kmem.log" --timeline t.svg --top 60
	python3 - t.svg <<'PY'
import re, sys
svg = open(sys.argv[1]).read()
w, h = (float(v) for v in re.search(r'viewBox="0 0 ([0-9.]+) ([0-9.]+)"', svg).groups())
glyphs = [(float(x), float(y)) for x, y in re.findall(r'<use xlink:href="#glyph[^"]*" x="([0-9.]+)" y="([0-9.]+)"', svg)]
assert glyphs
assert max(y for _, y in glyphs) < h - 5, (max(y for _, y in glyphs), h)
assert max(x for x, _ in glyphs) < w - 5, (max(x for x, _ in glyphs), w)
PY
	# 60 series: past the 18 colours, hatched (white strokes over the colour)
	grep -q 'stroke:rgb(100%,100%,100%)' t.svg
}

@test "--timeline: pages held count only what the log allocated, never below zero, as --page's live" {
	{
		echo '# tracer: nop'
		# frees of pages allocated before the log began: not taken from what it allocated
		for i in 1 2 3 4 5 6 7 8; do
			printf '  a-1 [000] ..... %d.000000: mm_page_free: page=0000000000000000 pfn=0x%x order=2\n' "$i" "$((4096 + i))"
		done
		printf '  a-1 [000] ..... 9.000000: mm_page_alloc: page=0000000000000000 pfn=0x9000 order=1 migratetype=0 gfp_flags=GFP_KERNEL\n'
		printf '  a-1 [000] ..... 10.000000: mm_page_alloc: page=0000000000000000 pfn=0x9100 order=0 migratetype=0 gfp_flags=GFP_KERNEL\n'
		printf '  a-1 [000] ..... 11.000000: mm_page_free: page=0000000000000000 pfn=0x9100 order=0\n'
	} > pages.log
	"$TA" -q -f pages.log --timeline t.csv
	python3 - <<'PY'
import csv
held = [int(r["pages_held"]) for r in csv.DictReader(open("t.pages.csv"))]
assert min(held) >= 0, held
assert held[-1] == 2, held
PY
	[ "$("$TA" -q -f pages.log --page - --format json | jq '.totals.live_kb / 4')" = 2 ]
}

@test "leak suspects: a site that fills a reclaimable cache (buffer heads) is rated reclaimable, after the leaks" {
	awk 'BEGIN { print "# tracer: nop"
		for (i = 0; i < 400; i++) { t = 1 + i * 0.25
			printf "  ls-100 [000] ..... %.6f: kmem_cache_alloc: call_site=alloc_buffer_head+0x21/0x80 ptr=%016x bytes_req=104 bytes_alloc=104 gfp_flags=GFP_NOFS node=-1 accounted=false name=buffer_head\n", t, 65536 + i * 128
			printf "  ls-100 [001] ..... %.6f: kmalloc: call_site=leaky_alloc+0x10/0x40 ptr=%016x bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1 accounted=false\n", t + 0.01, 4194304 + i * 128 } }' > bh.log
	"$TA" -q -f bh.log --summary s.json --format json
	[ "$(jq -r '.leak_suspects | map(.key + ":" + .confidence) | join(" ")' s.json)" = \
		"leaky_alloc+0x10:high alloc_buffer_head+0x21:reclaimable" ]
	jq -r '.leak_suspects[1].why' s.json | grep -q '^a reclaimable slab cache (grows with the page cache'
	# by cache: buffer_head is reclaimable by its name; kmalloc-128 is not
	"$TA" -q -f bh.log --group-by cache --outstanding o.json --format json
	[ "$(jq -r '.leak_suspects | map(.key + ":" + .confidence) | join(" ")' o.json)" = \
		"kmalloc-128:high buffer_head:reclaimable" ]
	python3 -c "import json,jsonschema,sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" \
		s.json "$TOP/data/schema/summary.schema.json"
	python3 -c "import json,jsonschema,sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))" \
		o.json "$TOP/data/schema/outstanding.schema.json"
}

@test "leak suspects: the log header's reclaimable caches (record's) decide, over the built-in list, and a DB keeps them" {
	# two growing caches: my_fs_inode (in no built-in list) and buffer_head
	make_log() {
		awk -v header="$1" 'BEGIN { print "# tracer: nop"
			if (header != "") print "# trace_analyze record: reclaimable slab caches (reclaim_account): " header
			for (i = 0; i < 400; i++) { t = 1 + i * 0.25
				printf "  ls-100 [000] ..... %.6f: kmem_cache_alloc: call_site=my_fs_alloc_inode+0x21/0x80 ptr=%016x bytes_req=600 bytes_alloc=640 gfp_flags=GFP_NOFS node=-1 accounted=false name=my_fs_inode\n", t, 65536 + i * 1024
				printf "  ls-100 [001] ..... %.6f: kmem_cache_alloc: call_site=alloc_buffer_head+0x21/0x80 ptr=%016x bytes_req=104 bytes_alloc=104 gfp_flags=GFP_NOFS node=-1 accounted=false name=buffer_head\n", t + 0.01, 4194304 + i * 128 } }'
	}
	rating() {
		jq -r '.leak_suspects | map(.key + ":" + .confidence) | join(" ")' "$1"
	}
	make_log "" > builtin.log
	make_log "dentry my_fs_inode" > listed.log
	# no list in the log: the built-in one (buffer_head reclaimable, my_fs_inode not)
	"$TA" -q -f builtin.log --summary b.json --format json
	[ "$(rating b.json)" = "my_fs_alloc_inode+0x21:high alloc_buffer_head+0x21:reclaimable" ]
	# the log's list: my_fs_inode reclaimable, buffer_head (not in it) not
	"$TA" -q -f listed.log --summary l.json --format json
	[ "$(rating l.json)" = "alloc_buffer_head+0x21:high my_fs_alloc_inode+0x21:reclaimable" ]
	jq -r '.leak_suspects[1].why' l.json | grep -q "^a reclaimable slab cache (the log's header lists it; "
	"$TA" -q -f listed.log --group-by cache --outstanding c.json --format json
	[ "$(rating c.json)" = "buffer_head:high my_fs_inode:reclaimable" ]
	# a DB made of the log keeps its list
	"$TA" -q -f listed.log --save-db l.db
	"$TA" -q -f l.db --summary d.json --format json
	[ "$(rating d.json)" = "$(rating l.json)" ]
}

@test "--timeline shades the windows of lost events, and marks the highest sample" {
	# the overrun log: a CPU's oldest events overwritten, and a buffer-started marker
	"$TA" -q -f "$CORPUS/host-6.18/overrun-kmem.log" --timeline o.svg
	[ "$(grep -c 'fill-opacity:0.12' o.svg)" = 2 ]
	# a complete log has none to shade
	"$TA" -q -f "$CORPUS/linux-6.1-tiny/workload-kmem.log" --timeline w.svg
	[ "$(grep -c 'fill-opacity:0.12' w.svg)" = 0 ]
	# the peak's dotted line: a dash of 1 and 2
	grep -q 'stroke-dasharray:1,2' w.svg
}
