#!/usr/bin/env bats
# kmemleak beside the whole kmem trace of ../shared/corpus/linux-6.12-ledger
# kmemleak-boot1 (its README: 14 reports, the kmemleak-test module's 8
# kmallocs, 5 vmallocs and 1 percpu allocation; no_hash_pointers): every
# object with an address the trace allocated is found, and found live.

load ../lib/helpers

setup() {
	require_corpus
	KB="$CORPUS/linux-6.12-ledger/kmemleak-boot1"
	[ -d "$KB" ] || skip "no linux-6.12-ledger/kmemleak-boot1 in the corpus"
	cd "$BATS_TEST_TMPDIR"
}

@test "the kmemleak boot: the report's 8 kmalloc'd objects found by address, live; the other 6 not seen" {
	"$TA" -q -f "$KB/kmem-trace.log.xz" --kmemleak "$KB/kmemleak.txt" --summary s.json --format json
	[ "$(jq -c '.kmemleak | [.objects, .by_address, .not_seen]' s.json)" = "[14,8,6]" ]
	[ "$(grep -c '^unreferenced object' "$KB/kmemleak.txt")" = 14 ]
	# each object the trace allocated (by address, awk over the trace), and never freed
	xz -dc "$KB/kmem-trace.log.xz" > t.log
	for a in $(awk '/^unreferenced object/ { print substr($3, 3) }' "$KB/kmemleak.txt"); do
		alloc=$(grep -c " kmalloc: .*ptr=$a " t.log || true)
		freed=$(grep -c " kfree: .*ptr=$a\$" t.log || true)
		got=$(jq -r --arg a "$(printf "0x%x" $((16#$a)))" '.kmemleak_objects[] | select(.address == $a) | .matched_by' s.json)
		if [ "$alloc" -gt "$freed" ]; then [ "$got" = address ]; else [ "$got" = none ]; fi
	done
	python3 "$TOP/tests/tools/check_consumers.py" json s.json
	# a healthy boot's reports (boot1, B and C) are empty: none, no leak made up
	"$TA" -q -f "$CORPUS/linux-6.12-ledger/boot1/kmem-trace-B.log.xz" \
		--kmemleak "$CORPUS/linux-6.12-ledger/boot1/kmemleak-B.txt" --summary h.json --format json
	[ "$(jq -r .kmemleak.verdict h.json)" = "kmemleak reports none" ]
}
