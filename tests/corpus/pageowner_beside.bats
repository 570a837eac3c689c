#!/usr/bin/env bats
# page_owner's dump at C beside the kmem trace A..B of the same 6.12 boot
# (../shared/corpus/linux-6.12-ledger/boot1): the trace's pages still held
# at its end looked for in the dump by pfn, every count equal to a small
# Python join of the two files done here.

load ../lib/helpers

setup() {
	require_corpus
	BOOT="$CORPUS/linux-6.12-ledger/boot1"
	[ -d "$BOOT" ] || skip "no linux-6.12-ledger in the corpus"
	cd "$BATS_TEST_TMPDIR"
}

@test "the trace's live pages in the dump at C: the same allocations, the ones allocated again, the rest" {
	"$TA" -q -f "$BOOT/kmem-trace-B.log.xz" --page-owner "$BOOT/page_owner-C.txt.xz" --page p.json \
		--format json
	python3 - "$BOOT/kmem-trace-B.log.xz" "$BOOT/page_owner-C.txt.xz" > want <<'PY'
import lzma, re, sys
live, first, last = {}, None, None
ev = re.compile(r"\s(\d+\.\d+): (mm_page_alloc|mm_page_free|mm_page_free_batched): .*?pfn=(0x[0-9a-f]+)")
ts_any = re.compile(r"\s(\d+\.\d+): \w+:")
for line in lzma.open(sys.argv[1], "rt"):
    t = ts_any.search(line)
    if not t:
        continue
    us = int(round(float(t.group(1)) * 1e6)) * 1000
    first = us if first is None else min(first, us)
    last = us if last is None else max(last, us)
    m = ev.search(line)
    if not m:
        continue
    pfn = int(m.group(3), 16)
    if m.group(2) == "mm_page_alloc":
        live[pfn] = True
    else:
        live.pop(pfn, None)
dump, pfn = {}, None
for line in lzma.open(sys.argv[2], "rt"):
    m = re.match(r"Page allocated via order \d+, .* ts (\d+) ns", line)
    if m:
        ts = int(m.group(1))
    m = re.match(r"PFN (0x[0-9a-f]+) ", line)
    if m:
        dump[int(m.group(1), 16)] = ts
same = again = gone = 0
for p in live:
    if p not in dump:
        gone += 1
    elif first <= dump[p] <= last:
        same += 1
    else:
        again += 1
seen = set(p for p in live if p in dump)
before = sum(1 for p, t in dump.items() if p not in seen and t < first)
after = sum(1 for p, t in dump.items() if p not in seen and t > last)
print(len(live), same + again, same, again, gone, before, after)
PY
	[ "$(jq -r '.page_owner | [.trace_live, .in_dump, .same_allocation, .allocated_again, .not_in_dump, .before_trace, .after_trace] | join(" ")' p.json)" = "$(cat want)" ]
	python3 "$TOP/tests/tools/check_consumers.py" json p.json
}
