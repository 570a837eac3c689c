#!/usr/bin/env python3
"""Compare trace_analyze's call-chain reports with ref_stacks.py's replay.

    check_stacks.py TA LOG REF_JSON [--user-frames]

Runs TA on LOG for the origin account (JSON), the folded stacks of every
--weight, the folded page stacks and the page report (JSON), and checks
each number against the reference replay in REF_JSON; also that the
folded files obey the format flame graph tools read (every line 'frames
weight', frames joined by ';', weight a positive integer) and that their
weights add up to the account's totals. Prints what differs; exit 1 then.
"""

import json
import re
import subprocess
import sys

ta, log, ref_path = sys.argv[1:4]
extra = sys.argv[4:]
ref = json.load(open(ref_path))
problems = []


def run(*args):
    r = subprocess.run([ta, "-q", "-f", log] + extra + list(args), capture_output=True,
                       text=True)
    if r.returncode != 0:
        problems.append("%s exited %d: %s" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout


def folded_lines(text, what):
    lines = {}
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^(\S.*) ([1-9][0-9]*)$", line)
        if not m or any(not f for f in m.group(1).split(";")):
            problems.append("%s line %d is not 'frames weight': %r" % (what, n, line[:200]))
            continue
        if m.group(1) in lines:
            problems.append("%s line %d repeats a stack" % (what, n))
        lines[m.group(1)] = int(m.group(2))
    return lines


def compare(what, got, want):
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            problems.append("%s %r: trace_analyze %r, reference %r" % (what, k[:150], got.get(k),
                                                                       want.get(k)))


# the origin account
account = json.loads(run("--group-by", "origin", "-c", "-", "--format", "json"))
got = {r["key"]: dict(total=r["total_dynamic"], live=r["current_dynamic"],
                         req_live=r["current_req"], allocs=r["alloc_count"],
                         frees=r["free_count"]) for r in account["callers"]}
compare("origin", got, ref["origins"])
totals = account["totals"]

# folded stacks, every weight, and their sums against the account
sums = {"bytes": sum(r["total_dynamic"] for r in account["callers"]),
        "live": totals["current_bytes_allocated"],
        "count": totals["allocs"]}
for weight in ("bytes", "live", "waste", "count"):
    lines = folded_lines(run("--folded", "-", "--weight", weight), "--folded " + weight)
    compare("folded " + weight, lines, ref["folded"][weight])
    if weight in sums and sum(lines.values()) != sums[weight]:
        problems.append("folded %s: weights add up to %d, the account says %d"
                        % (weight, sum(lines.values()), sums[weight]))

# pages
lines = folded_lines(run("--folded-pages", "-"), "--folded-pages")
compare("folded pages", lines, ref["folded_pages"])
page = json.loads(run("--page", "-", "--format", "json"))
got = {r["key"]: dict(allocs=r["allocations"], pages=r["pages"], live_pages=r["live_pages"])
       for r in page.get("origins", [])}
compare("page origin", got, ref["page_origins"])
if sum(r["kb"] for r in page.get("origins", [])) != page["totals"]["alloc_kb"]:
    problems.append("page origins do not add up to the allocations' KB")

for p in problems[:40]:
    print(p)
if len(problems) > 40:
    print("... and %d more" % (len(problems) - 40))
sys.exit(1 if problems else 0)
