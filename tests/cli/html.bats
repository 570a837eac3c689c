#!/usr/bin/env bats
# --html: one self-contained page, loaded for real in headless Chromium: no
# script error, the rows and totals the text reports give, sorting, the
# sunburst's and the flame graph's zoom driven through the URL fragment
# (the page's own links), and a picture taken. Skipped, saying why, when
# Debian's chromium is not installed (scripts/deps.sh installs it).

load ../lib/helpers

WORK="$CORPUS/linux-6.1-tiny/stacktrace-kmem.log"
TREE="$CORPUS/linux-6.1-tiny/tree"

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
}

need_chromium() {
	command -v chromium > /dev/null || skip "no chromium (scripts/deps.sh installs it)"
}

# browse PAGE#FRAGMENT: the DOM after the scripts ran into dom.html, the
# browser's log (console messages) into console.txt
browse() {
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chrome" \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 \
		--dump-dom "file://$BATS_TEST_TMPDIR/$1" > dom.html 2> console.txt
	grep -q 'data-ready="1"' dom.html || { echo "page not ready: $1"; head -c 2000 console.txt; false; }
	! grep -q 'data-errors=' dom.html || { grep -o 'data-errors="[^"]*"' dom.html; false; }
	! grep -Ei 'CONSOLE.*(error|uncaught)|Uncaught' console.txt || false
}

# attr ID ATTRIBUTE: an attribute of the element with that id in dom.html
attr() {
	grep -o "id=\"$1\"[^>]*" dom.html | grep -o " $2=\"[^\"]*\"" | head -n 1 | cut -d'"' -f2
}

@test "--html writes one self-contained page for every corpus log" {
	local log n=0
	for log in "$CORPUS"/linux-6.1-tiny/*.log "$CORPUS"/host-6.18/*.log; do
		run "$TA" -q -f "$log" --html "r$n.html"
		[ "$status" -eq 0 ] || { echo "$log: $output"; false; }
		head -n 1 "r$n.html" | grep -qx '<!DOCTYPE html>'
		# nothing fetched from anywhere: no URL but the SVG namespaces
		! grep -Eo '(src|href)="[a-z]+:[^"]*"|@import|https?://[^" ]*' "r$n.html" |
			grep -v 'http://www.w3.org/' || false
		n=$((n + 1))
	done
	"$TA" -q -k "$TREE" -f "$WORK" --html full.html
	[ "$(stat -c %s full.html)" -lt 1000000 ]
}

@test "pictures drawn beside the reading are those drawn after it: the page, the timeline, rings, flame" {
	# cairo made ready on a thread of its own while the log is read: not a
	# byte of any picture changes (cairo numbers its surfaces: one made early
	# would show)
	local way out
	for way in beside inline; do
		mkdir "$way"
		export TA_TEST_DRAW_INLINE=0
		[ $way = inline ] && TA_TEST_DRAW_INLINE=1
		"$TA" -q -f "$WORK" -k "$TREE" --html "$way/p.html" -r "$way/rings.png" \
			--flame "$way/flame.png" --save-db "$way/w.db" -c /dev/null
		"$TA" -q --db-file "$way/w.db" --html "$way/db.html" --timeline "$way/t.svg" \
			-c /dev/null
		"$TA" -q --db-file "$way/w.db" --timeline "$way/t.png" -c /dev/null
	done
	for out in p.html rings.png flame.png db.html t.svg t.png; do
		cmp "beside/$out" "inline/$out"
	done
}

@test "the page loads without a script error; its rows and totals are the account's" {
	need_chromium
	"$TA" -q -k "$TREE" -f "$WORK" --html r.html -c account.txt
	browse r.html
	rows=$(awk 'NR > 9 && NF' account.txt | wc -l)
	[ "$rows" -eq "$(awk '/^number of callers:/ { print $4 }' account.txt)" ]
	grep -q "id=\"acct-count\"[^>]*>$rows of $rows rows<" dom.html
	[ "$(grep -o '<tr data-caller=' dom.html | wc -l)" -eq "$rows" ]
	# the timeline ends on the live bytes: the account's, and the replay's
	live=$(awk '/^current bytes allocated:/ { print $4 }' account.txt)
	[ "$(attr tl-end data-bytes)" = "$live" ]
	[ "$(ref_account "$WORK" | awk '/^current bytes allocated:/ { print $4 }')" = "$live" ]
	# the first row, as -c sorts it
	first=$(awk 'NR == 10 { print $NF }' account.txt)
	[ "$(grep -o '<tr data-caller="[^"]*"' dom.html | head -n 1 | cut -d'"' -f2)" = "$first" ]
	# every section there
	for s in summary table timeline sunburst flame; do
		grep -q "<section id=\"$s\">" dom.html
	done
}

@test "sorting by another key and filtering change the rows shown" {
	need_chromium
	"$TA" -q -k "$TREE" -f "$WORK" --html r.html
	browse 'r.html#sort=total_waste'
	want=$("$TA" -q -f "$WORK" --stats - -o total_waste --top 1 | awk 'NR == 3 { print $1 }')
	[ "$(grep -o '<tr data-caller="[^"]*"' dom.html | head -n 1 | cut -d'"' -f2)" = "$want" ]
	[ "$(attr acct data-sort)" = "total_waste desc" ]
	browse 'r.html#filter=copy_process'
	n=$("$TA" -q -f "$WORK" -c - | awk 'NR > 9 && $NF ~ /copy_process/' | wc -l)
	[ "$n" -gt 1 ]
	grep -q "id=\"acct-count\"[^>]*>$n of [0-9]* rows<" dom.html
	! grep -o '<tr data-caller="[^"]*"' dom.html | grep -v copy_process || false
}

@test "the sunburst zooms into a directory, and shows another measure" {
	need_chromium
	"$TA" -q -k "$TREE" -f "$WORK" --html r.html
	browse 'r.html#zoom=fs&attr=static'
	[ "$(attr sb-center data-path)" = "fs" ]
	# every wedge drawn is under fs/
	grep -o '<path d="[^"]*" fill="[^"]*" data-path="[^"]*"' dom.html |
		grep -o 'data-path="[^"]*"' > wedges.txt
	[ "$(wc -l < wedges.txt)" -gt 3 ]
	! grep -v '^data-path="fs/' wedges.txt || false
	grep -q '<option value="0" selected="">static</option>\|<option value="0">static</option>' dom.html
	browse 'r.html'
	[ "$(attr sb-center data-path)" = "" ]
}

@test "the flame graph zooms into a call chain" {
	need_chromium
	"$TA" -q -f "$WORK" --html r.html
	browse 'r.html'
	[ "$(attr fl-root data-path)" = "" ]
	chain=$("$TA" -q -f "$WORK" --folded - | sort -k2 -n -r | head -n 1 | cut -d' ' -f1 | cut -d';' -f1-2)
	browse "r.html#flame=$chain"
	[ "$(attr fl-root data-path)" = "$chain" ]
}

@test "a picture of the page is taken and is a real PNG" {
	need_chromium
	"$TA" -q -k "$TREE" -f "$WORK" --html r.html
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$BATS_TEST_TMPDIR/chrome" --window-size=1200,900 \
		--screenshot="$BATS_TEST_TMPDIR/page.png" "file://$BATS_TEST_TMPDIR/r.html#only=sunburst" \
		> /dev/null 2>&1
	[ "$(head -c 8 page.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
	[ "$(stat -c %s page.png)" -gt 20000 ]
}

@test "a log with no event still gives a page that loads, and an empty timeline" {
	need_chromium
	head -n 12 "$FIX/tracefs-6.1-rawptr.log" > empty.log
	"$TA" -q -f empty.log --html r.html --timeline t.png 2> /dev/null
	browse r.html
	grep -q 'id="acct-count"[^>]*>0 of 0 rows<' dom.html
	[ "$(head -c 8 t.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
}

# Every report the page shows is computed whatever else was asked: the
# page's summary and stats equal --summary and --stats run on their own.
@test "the page's summary and stats are --summary's and --stats', whatever the options" {
	local opts n=0
	while IFS= read -r opts; do
		# shellcheck disable=SC2086
		"$TA" -q $opts --html page.html
		# shellcheck disable=SC2086
		"$TA" -q $opts --summary summary.json --stats stats.json --format json --top 1000000
		python3 "$TOP/tests/tools/html_island.py" page.html summary summary.json ||
			{ echo "options: $opts"; false; }
		python3 "$TOP/tests/tools/html_island.py" page.html stats stats.json ||
			{ echo "options: $opts"; false; }
		n=$((n + 1))
	done <<-OPTS
	-f $WORK
	-f $WORK --malloc
	-f $WORK --cache
	-f $WORK --group-by function
	-f $WORK --group-by origin
	-f $WORK --group-by cache
	-f $WORK --time 1,3
	-k $TREE -f $WORK
	-k $TREE -f $WORK -b fs
	-k $TREE -f $WORK --group-by dir
	-f $CORPUS/host-6.18/small-kmem.log
	OPTS
	[ "$n" -eq 11 ]
}

@test "the page opens on the answer: live bytes, the rows that hold most, the findings; 1400 px wide, no sideways scroll" {
	need_chromium
	"$TA" -q -k "$TREE" -f "$WORK" --html r.html --summary s.json --format json
	chromium --headless --no-sandbox --disable-gpu --user-data-dir="$BATS_TEST_TMPDIR/chrome" \
		--window-size=1400,1000 --virtual-time-budget=5000 --dump-dom "file://$BATS_TEST_TMPDIR/r.html" \
		> dom.html 2> /dev/null
	grep -q 'data-ready="1"' dom.html
	# the first section is the answer, before the account and the raw counters
	[ "$(grep -o '<section id="[a-z]*"' dom.html | head -n 3 | tr '\n' ' ')" = '<section id="answer" <section id="table" <section id="timeline" ' ]
	live=$(jq '.bytes.live' s.json)
	live=$(python3 -c "import sys; print(f'{int(sys.argv[1]):,}')" "$live")
	grep -q "id=\"headline\"[^>]*>.*($live bytes: the account's current bytes allocated)" dom.html
	want=$(python3 -c "
import json, sys
found = [f for f in json.load(open('s.json'))['findings'] if f['count'] > 0]
print('Findings: ' + ', '.join(f'{f[\"count\"]:,} ' + f['key'].replace('_', ' ') for f in found)
      if found else 'No finding: the log is consistent.')")
	grep -q "id=\"answer-findings\"[^>]*>$want" dom.html
	grep -q '<table id="answer-top">' dom.html
	# nothing in the page is wider than a 1400 px window
	width=$(grep -o 'data-scroll-width="[0-9]*"' dom.html | grep -o '[0-9]*')
	[ "$width" -le 1400 ] || { echo "the page is $width px wide"; false; }
}

@test "--html of allocinfo snapshots: the sites' table, the answer, the sunburst of source paths, no script error" {
	need_chromium
	local snap="$FIX/allocinfo-6.12.txt"
	"$TA" -q -f "$snap" --html s.html -c a.json --summary sum.json --format json
	python3 "$TOP/tests/tools/html_island.py" s.html account a.json
	python3 "$TOP/tests/tools/html_island.py" s.html summary sum.json
	browse s.html
	n=$(jq '.sites | length' a.json)
	grep -q "id=\"acct-count\"[^>]*>$n of $n rows<" dom.html
	total=$(jq '.totals.bytes' a.json)
	grep -q "<th data-key=\"live\">$(LC_ALL=C.UTF-8 python3 -c "print(f'{$total:,}')")</th>" dom.html
	grep -q 'id="headline"' dom.html
	grep -q "live at the last snapshot" dom.html
	grep -q '<section id="sunburst">' dom.html
}

@test "the page draws its timeline from its samples: a value read at a known time is the timeline CSV's" {
	need_chromium
	"$TA" -q -f "$WORK" --html r.html --timeline t.csv
	# no picture drawn by cairo in the page: the script draws it
	! grep -q '<svg' r.html || false
	python3 - t.csv > want.txt <<'PY'
import csv, sys
at = {}
for r in csv.DictReader(open(sys.argv[1])):
    at.setdefault(r["time_s"], {})[r["key"]] = int(r["live_bytes"])
times = list(at)
t = times[len(times) // 2]			# a sample in the middle
row = max(at[t], key=lambda k: (at[t][k], k) if k != "(other)" else (-1, k))
peak = max(times, key=lambda x: sum(at[x].values()))
print(t, sum(at[t].values()), row, at[t][row], sum(at[peak].values()), times[0], times[-1])
PY
	read -r t total row bytes peak first last < want.txt
	browse "r.html#tlat=$t"
	[ "$(attr tl-readout data-time)" = "$t" ]
	[ "$(attr tl-readout data-total)" = "$total" ]
	grep -o "<li data-row=\"$row\" data-bytes=\"[0-9]*\"" dom.html | grep -q "data-bytes=\"$bytes\""
	# the highest sample is marked, at the highest total
	[ "$(attr tl-chart data-peak-bytes)" = "$peak" ]
	grep -q 'id="tl-peak"' dom.html
	# every row drawn, and (other); one hidden from the link; a window zoomed
	[ "$(grep -o '<path class="tl-series"' dom.html | wc -l)" = 9 ]
	browse "r.html#tloff=${row//+/%2B}&tl=$first,$t"	# a link encodes its + (URLSearchParams)
	[ "$(grep -o '<path class="tl-series"' dom.html | wc -l)" = 8 ]
	! grep -q "<path class=\"tl-series\" data-row=\"$row\"" dom.html || false
	[ "$(attr tl-chart data-from)" = "$first" ]
	[ "$(attr tl-chart data-to)" = "$t" ]
}

@test "the page's timeline shades the windows of lost events and dashes their marks" {
	need_chromium
	log="$CORPUS/host-6.18/overrun-kmem.log"
	"$TA" -q -f "$log" --html r.html --timeline t.csv
	browse r.html
	[ "$(grep -o 'class="tl-lost"' dom.html | wc -l)" = "$(($(wc -l < t.lost.csv) - 1))" ]
	[ "$(grep -o 'class="tl-loss"' dom.html | wc -l)" -ge 1 ]
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$BATS_TEST_TMPDIR/chrome" --window-size=1100,900 \
		--screenshot="$BATS_TEST_TMPDIR/timeline.png" "file://$BATS_TEST_TMPDIR/r.html#only=timeline" \
		> /dev/null 2>&1
	[ "$(head -c 8 timeline.png | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ]
}
