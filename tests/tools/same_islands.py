#!/usr/bin/env python3
"""same_islands.py PAGE1 PAGE2 ID...: do two --html pages hold the same data
islands "data-ID" (the JSON the page draws from), the log's name aside?
Prints the first differing key of each island that differs; exit 1 then."""
import json
import re
import sys


def island(path, ident):
    page = open(path).read()
    m = re.search(r'<script type="application/json" id="data-%s">(.*?)</script>' % ident,
                  page, re.S)
    return json.loads(m.group(1).replace('<\\/', '</')) if m else None


def scrub(x, names):
    if isinstance(x, dict):
        return {k: scrub(v, names) for k, v in x.items()}
    if isinstance(x, list):
        return [scrub(v, names) for v in x]
    if isinstance(x, str):
        for n in names:
            x = x.replace(n, "LOG")
    return x


def names_of(path):
    base = path.rsplit("/", 1)[-1]
    return [path, base, base[:-5] if base.endswith(".html") else base]


def main():
    a, b = sys.argv[1], sys.argv[2]
    bad = 0
    for ident in sys.argv[3:]:
        x, y = island(a, ident), island(b, ident)
        src_a = (x or {}).get("source") if isinstance(x, dict) else None
        src_b = (y or {}).get("source") if isinstance(y, dict) else None
        names = [n for n in (src_a, src_b) if isinstance(n, str)]
        if scrub(x, names) != scrub(y, names):
            bad += 1
            print("island %s differs" % ident)
    return 1 if bad else 0


sys.exit(main())
