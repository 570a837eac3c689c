#!/usr/bin/env python3
"""check_total_waste.py LOG TA - a call site's total_waste in --stats (and in the
account's CSV/JSON document) is the
sum of bytes_alloc - bytes_req over all its allocations in the log: an
independent count straight from the log's text (tracefs form, symbolic call
sites), not from the tool. Exit 1 on any difference."""
import re, sys, csv, subprocess
log, ta = sys.argv[1], sys.argv[2]
want = {}
pat = re.compile(r' (kmalloc|kmem_cache_alloc|kmalloc_node|kmem_cache_alloc_node): (.*)$')
for line in open(log, errors="replace"):
    m = pat.search(line)
    if not m:
        continue
    f = dict(kv.split("=", 1) for kv in m.group(2).split() if "=" in kv)
    if "call_site" not in f or int(f.get("ptr", "0"), 16) == 0:
        continue
    site = f["call_site"].split("/")[0]
    want[site] = want.get(site, 0) + int(f["bytes_alloc"]) - int(f["bytes_req"])
bad_all = []
# the same column in --stats and in the account (-c) document
for args in (["--stats", "-"], ["-c", "-"]):
    out = subprocess.run([ta, "-q", "-f", log] + args + ["--format", "csv"], capture_output=True,
                         text=True).stdout
    got = {r["key"]: int(r["total_waste"]) for r in csv.DictReader(out.splitlines())}
    bad = [(k, want.get(k), got.get(k)) for k in set(want) | set(got) if want.get(k, 0) != got.get(k, 0)]
    print(args[0], len(want), "sites", len(bad), "differ", bad[:5])
    bad_all += bad
sys.exit(1 if bad_all or not want else 0)
