#!/usr/bin/env python3
"""pprof_raw_totals.py: read `go tool pprof -raw`'s text on standard input
and print, per value of the label LABEL (argv[1]), the sum of each sample
type: "VALUE TYPE SUM" lines, sorted; "all TYPE SUM" for every sample.
No code of trace_analyze's is used."""
import re
import sys

label = sys.argv[1]
lines = sys.stdin.read().split('\n')
start = lines.index('Samples:') + 1
types = [t.split('/')[0] for t in lines[start].split()]
sums = {}
i = start + 1
while i < len(lines) and lines[i].startswith(' '):
    values = [int(v) for v in lines[i].split(':')[0].split()]
    i += 1
    labels = {}
    while i < len(lines) and lines[i].startswith('                ') and '[' in lines[i]:
        labels.update(dict(re.findall(r'(\w+):\[([^\]]*)\]', lines[i])))
        i += 1
    for who in ('all', labels.get(label, '(none)')):
        row = sums.setdefault(who, [0] * len(types))
        for k, v in enumerate(values):
            row[k] += v
for who in sorted(sums):
    for t, v in zip(types, sums[who]):
        print(who, t, v)
