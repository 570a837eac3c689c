#!/usr/bin/env python3
"""html_island.py PAGE ID REPORT.json: does the JSON data island "data-ID" of
an --html page hold the same report as REPORT.json (written by --summary or
--stats with --format json in a run of its own)? Timings aside. Exit 1 and
the differing keys when not."""
import json
import re
import sys


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in ('seconds', 'elapsed')}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


def main():
    page = open(sys.argv[1]).read()
    m = re.search(r'<script type="application/json" id="data-%s">(.*?)</script>' % sys.argv[2],
                  page, re.S)
    if not m:
        print("no data island %s in %s" % (sys.argv[2], sys.argv[1]))
        return 1
    island = strip(json.loads(m.group(1).replace('<\\/', '</')))
    report = strip(json.load(open(sys.argv[3])))
    if island == report:
        return 0
    for k in sorted(set(island) | set(report)):
        if island.get(k) != report.get(k):
            print("%s differs: page %.300s | report %.300s" % (k, island.get(k), report.get(k)))
    return 1


sys.exit(main())
