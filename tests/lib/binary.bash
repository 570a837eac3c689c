# Helpers of the tests that read a binary capture (trace.dat, perf.data)
# and its text form and compare every report; timestamps cut to the text's
# microseconds by the test hook TA_TEST_TIMESTAMPS=usec.

# reports SOURCE PREFIX [OPTS...]: every report of SOURCE into PREFIX.*
reports() {
	local src=$1 p=$2
	shift 2
	TA_TEST_TIMESTAMPS=usec "$TA" -q -f "$src" "$@" -c "$p.account" --summary "$p.summary" \
		--stats "$p.stats" --outstanding "$p.outstanding" --page "$p.page" \
		--html "$p.html" --save-db "$p.db"
	TA_TEST_TIMESTAMPS=usec "$TA" -q -f "$src" "$@" --group-by origin -c "$p.origins" \
		--folded "$p.folded" --folded-pages "$p.folded-pages"
	# the tasks and the GFP flags each event carries
	TA_TEST_TIMESTAMPS=usec "$TA" -q -f "$src" "$@" --group-by pid -c "$p.tasks"
	TA_TEST_TIMESTAMPS=usec "$TA" -q -f "$src" "$@" --group-by cache -c "$p.caches"
	TA_TEST_TIMESTAMPS=usec "$TA" -q -f "$src" "$@" --group-by gfp --gfp GFP_KERNEL \
		-c "$p.gfp"
}

# findings_counted: a summary with its findings rows cut to their name and count
findings_counted() {
	awk '/^findings$/ { f = 1; print; next } f && /^$/ { f = 0 }
	     f && /^(finding |-)/ { next } f { print $1, $2; next } { print }'
}

# same_reports A B: the reports of A and B byte for byte (the summary but its line naming
# the log and its lost events, which a binary file and its text form name each as they
# record them; the page's data but the log's name); DROP: summary lines left out of both,
# ISLANDS: the page's data compared; SKIP: reports not compared
same_reports() {
	local r drop=${DROP:-^log: |^events lost |^lost events marker|^PERF_RECORD_LOST records|^pages after missed events}
	for r in account stats outstanding page origins folded folded-pages tasks gfp caches; do
		[[ " ${SKIP:-} " == *" $r "* ]] && continue
		# a folded file with no line is not written, from either
		[ -e "$1.$r" ] || [ -e "$2.$r" ] || continue
		diff_or_fail "$1.$r" "$2.$r" || { echo "report $r differs"; return 1; }
	done
	# (spaces squeezed: the lists align on their longest label, which the lost events' may be;
	# the findings by their counts: a binary file cites its events by time, a text by line)
	diff <(grep -Ev "$drop" "$1.summary" | findings_counted | tr -s ' ') \
	     <(grep -Ev "$drop" "$2.summary" | findings_counted | tr -s ' ') ||
		{ echo "summary differs"; return 1; }
	# shellcheck disable=SC2086
	python3 "$TOP/tests/tools/same_islands.py" "$1.html" "$2.html" ${ISLANDS:-account stats timeline folded} ||
		{ echo "the page's data differs"; return 1; }
}
