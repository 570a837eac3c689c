#!/usr/bin/env python3
"""Check `trace_analyze diff` on two logs against accounts made separately.

    check_diff.py TA OLD NEW FIGURE GROUP [--malloc|--cache] [--per N]

Runs `TA diff --format json` and compares every row's old, new and delta,
the add/remove/grow/shrink counts and the totals with (1) the two accounts
trace_analyze writes for OLD and NEW on their own, and (2) the accounts of
tests/tools/ref_account.py, an independent replay of DESIGN.md section 5.
A name whose figure is 0 on a side is not on that side; unchanged names are
not listed. Prints what differs; exit 1 then.
"""

import json
import os
import re
import subprocess
import sys

ta, old, new, figure, group = sys.argv[1:6]
extra = sys.argv[6:]
per = None
if "--per" in extra:
    per = int(extra[extra.index("--per") + 1])
families = [x for x in extra if x in ("--malloc", "--cache")]
here = os.path.dirname(os.path.abspath(__file__))
problems = []

COLUMN = {"current_dynamic": 2, "total_dynamic": 0, "waste": 1, "alloc_count": 3,
          "free_count": 4}


def program_account(path):
    out = subprocess.run([ta, "-q", "-f", path, "-c", "-", "--format", "json", "--group-by",
                          group] + families, capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    rows = {}
    for r in doc["callers"]:
        rows[r["key"]] = [r["total_dynamic"], r["waste"], r["current_dynamic"],
                             r["alloc_count"], r["free_count"]]
    return rows, doc["totals"]["allocs"]


def reference_account(path):
    out = subprocess.run([sys.executable, os.path.join(here, "ref_account.py"), path,
                          "--group-by", group] + families,
                         capture_output=True, text=True, check=True).stdout
    rows = {}
    allocs = None
    for line in out.splitlines():
        m = re.match(r"^number of allocs:\s+(\d+)$", line)
        if m:
            allocs = int(m.group(1))
        m = re.match(r"^\s*(\d+)\s+(-?\d+)\s+(\d+)\s+(\d+)/(\d+)\s+(\S.*)$", line)
        if m:
            rows[m.group(6)] = [int(m.group(i)) for i in range(1, 6)]
    return rows, allocs


def expected(a, b):
    (ra, na), (rb, nb) = a, b
    col = COLUMN[figure]
    sa = per / na if per else 1
    sb = per / nb if per else 1
    va = {k: v[col] * sa for k, v in ra.items() if v[col] != 0}
    vb = {k: v[col] * sb for k, v in rb.items() if v[col] != 0}
    rows = []
    counts = dict(added=0, removed=0, grown=0, shrunk=0)
    for k in set(va) | set(vb):
        d = vb.get(k, 0) - va.get(k, 0)
        if k in va and k in vb:
            if d > 0:
                counts["grown"] += 1
            elif d < 0:
                counts["shrunk"] += 1
            else:
                continue
        elif k in vb:
            counts["added"] += 1
        else:
            counts["removed"] += 1
        rows.append((k, va.get(k), vb.get(k), d))
    rows.sort(key=lambda r: (-abs(r[3]), -r[3], r[0]))
    return rows, counts, sum(va.values()), sum(vb.values())


def close(x, y):
    if x is None or y is None:
        return x is None and y is None
    return abs(x - y) <= 0.006 + 1e-9 * abs(y)


cmd = [ta, "diff", "--format", "json", "-o", figure, "--group-by", group] + extra + [old, new]
got = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
got_rows = [(r["key"], r["old"], r["new"], r["delta"])
            for r in got["rows"]]
for label, want in (("the program's own accounts", expected(program_account(old),
                                                           program_account(new))),
                    ("ref_account.py", expected(reference_account(old),
                                                reference_account(new)))):
    rows, counts, before, after = want
    if len(rows) != len(got_rows):
        problems.append("%s: %d rows, diff has %d" % (label, len(rows), len(got_rows)))
    for w, g in zip(rows, got_rows):
        if w[0] != g[0] or not all(close(g[i], w[i]) for i in (1, 2, 3)):
            problems.append("%s: row %r, diff has %r" % (label, w, g))
            break
    for k, v in counts.items():
        if got["summary"][k] != v:
            problems.append("%s: %s %d, diff says %d" % (label, k, v, got["summary"][k]))
    if not close(float(got["totals"]["before"]), before) or \
       not close(float(got["totals"]["after"]), after):
        problems.append("%s: totals %s/%s, diff says %s/%s" % (label, before, after,
                                                              got["totals"]["before"],
                                                              got["totals"]["after"]))
for p in problems[:20]:
    print(p)
sys.exit(1 if problems else 0)
