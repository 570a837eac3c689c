#!/usr/bin/env bats
# Every filter means the same for every report: -b, --malloc, --cache,
# --time and --group-by, each run with the account, --stats, --outstanding,
# --summary and the timeline (--html's samples) at once; the bytes
# allocated and the live bytes at the end each report gives must agree.

load ../lib/helpers

TREE="$CORPUS/linux-6.1-tiny/tree"
LOG="$CORPUS/linux-6.1-tiny/workload-kmem.log"

setup() {
	require_corpus
	cd "$BATS_TEST_TMPDIR"
}

# figures ARGS...: "REPORT allocated live" per report, under the filter ARGS
figures() {
	"$TA" -q -k "$TREE" -f "$LOG" "$@" -c account.txt --stats stats.txt \
		--outstanding outstanding.txt --summary summary.txt --html page.html
	awk 'NR > 9 && NF { a += $1 } /^current bytes allocated:/ { l = $4 }
		END { print "account", a, l }' account.txt
	awk 'NR > 2 { a += $3; l += $(NF - 1) } END { print "stats", a, l }' stats.txt
	awk '/^live bytes:/ { l = $3 } END { print "outstanding", "-", l }' outstanding.txt
	if grep -q '^under -b' summary.txt; then
		awk '/^under -b/ { b = 1 } b && /^allocated:/ { a = $2 } b && /^live at end:/ { l = $4 }
			END { print "summary", a, l }' summary.txt
	else
		awk '/^total bytes allocated:/ { a = $4 } END { print "summary", a, "-" }' summary.txt
	fi
	python3 - page.html <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
t = json.loads(re.search(r'id="data-timeline">(.*?)</script>', page, re.S).group(1))
print("timeline", "-", t["total"][-1])
PY
}

# agree: the allocated and live figures of every report that gives them are one
agree() {
	figures "$@" > figures.txt
	cat figures.txt
	[ "$(awk '$2 != "-" { print $2 }' figures.txt | sort -u | wc -l)" -eq 1 ]
	[ "$(awk '$3 != "-" { print $3 }' figures.txt | sort -u | wc -l)" -eq 1 ]
	[ "$(awk '$1 == "account" { print $3 }' figures.txt)" -gt 0 ]
}

@test "no filter: every report gives the same bytes allocated and live bytes" {
	agree
	# and they are the independent replay's
	[ "$(awk '$1 == "account" { print $3 }' figures.txt)" = \
	  "$(ref_account "$LOG" | awk '/^current bytes allocated:/ { print $4 }')" ]
}

@test "-b drivers: every report is cut to the branch" {
	agree -b drivers
	[ "$(awk '$1 == "account" { print $3 }' figures.txt)" -lt \
	  "$("$TA" -q -f "$LOG" -c - | awk '/^current bytes allocated:/ { print $4 }')" ]
	# no caller outside drivers/ in the outstanding table
	"$TA" -q -k "$TREE" -f "$LOG" -l - > places.txt
	awk 'NR > 9 && NF == 5 { print $1 }' outstanding.txt | sort > callers.txt
	[ -s callers.txt ]
	! grep -F -w -f callers.txt places.txt | awk '{ print $NF }' | grep -v '^drivers/' || false
}

@test "--malloc and --cache: every report counts that family only" {
	agree --malloc
	malloc=$(awk '$1 == "account" { print $3 }' figures.txt)
	agree --cache
	cache=$(awk '$1 == "account" { print $3 }' figures.txt)
	# as the independent replay counts each family (they need not add up: an
	# object of one family freed by the other's free is live in neither)
	[ "$malloc" = "$(ref_account "$LOG" --malloc | awk '/^current bytes allocated:/ { print $4 }')" ]
	[ "$cache" = "$(ref_account "$LOG" --cache | awk '/^current bytes allocated:/ { print $4 }')" ]
}

@test "--time: every report counts the window only" {
	agree --time 1,2
	all=$("$TA" -q -f "$LOG" -c - | awk '/^current bytes allocated:/ { print $4 }')
	[ "$(awk '$1 == "account" { print $3 }' figures.txt)" -lt "$all" ]
}

@test "--group-by function: the same figures, rows named by function everywhere" {
	agree --group-by function
	! awk 'NR > 9 && NF { print $NF }' account.txt | grep -F '+0x' || false
	! awk 'NR > 2 { print $1 }' stats.txt | grep -F '+0x' || false
	! awk 'NR > 9 && NF == 5 { print $1 }' outstanding.txt | grep -F '+0x' || false
}

@test "--group-by dir: the dynamic account per directory sums to the account; -b goes one level down" {
	"$TA" -q -k "$TREE" -f "$LOG" --group-by dir -c dirs.txt
	"$TA" -q -f "$LOG" -c all.txt
	[ "$(awk 'NR > 9 && NF { n += $3 } END { print n }' dirs.txt)" = \
	  "$(awk '/^current bytes allocated:/ { print $4 }' all.txt)" ]
	[ "$(awk 'NR > 9 && NF { n += $1 } END { print n }' dirs.txt)" = \
	  "$(awk 'NR > 9 && NF { n += $1 } END { print n }' all.txt)" ]
	grep -q ' drivers$' dirs.txt
	# the drivers row is what -b drivers gives
	"$TA" -q -k "$TREE" -f "$LOG" -b drivers -c drivers.txt
	[ "$(awk '$NF == "drivers" { print $3 }' dirs.txt)" = \
	  "$(awk '/^current bytes allocated:/ { print $4 }' drivers.txt)" ]
	"$TA" -q -k "$TREE" -f "$LOG" --group-by dir -b fs -c fs.txt
	! awk 'NR > 9 && NF { print $NF }' fs.txt | grep -v '^fs/' || false
	run "$TA" -f "$LOG" --group-by dir -c -
	[ "$status" -eq 2 ]
	[ "${lines[0]}" = "trace_analyze: error: --group-by dir places call sites in the tree's directories: give the tree with -k DIR" ]
}

@test "--group-by size-class: kmalloc classes of bytes_alloc, as an independent count makes them" {
	"$TA" -q -f "$LOG" --group-by size-class -c classes.txt
	"$TA" -q -f "$LOG" -c all.txt
	[ "$(awk 'NR > 9 && NF { n += $3 } END { print n }' classes.txt)" = \
	  "$(awk '/^current bytes allocated:/ { print $4 }' all.txt)" ]
	! awk 'NR > 9 && NF { print $NF }' classes.txt | grep -vx 'kmalloc-\(8\|16\|32\|64\|96\|128\|192\|256\|512\|1k\|2k\|4k\|8k\|large\)' || false
	# bytes allocated in the 192 class: every allocation of 129 to 192 bytes
	want=$(grep -v '^ *=>' "$LOG" | grep -E ' (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): ' |
		grep -v 'ptr=0000000000000000\|ptr=(null)\|ptr=0x0 ' |
		sed -n 's/.*bytes_alloc=\([0-9]*\).*/\1/p' | awk '$1 > 128 && $1 <= 192 { n += $1 } END { print n }')
	[ "$(awk '$NF == "kmalloc-192" { print $1 }' classes.txt)" = "$want" ]
}
