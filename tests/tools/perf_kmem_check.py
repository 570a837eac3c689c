#!/usr/bin/env python3
"""perf_kmem_check.py - trace_analyze's --summary and --stats against perf kmem.

  perf_kmem_check.py PERF_DIR SUMMARY_JSON STATS_CSV

PERF_DIR holds kmem.perf-script.txt and the `perf kmem stat` outputs of the
same perf.data (perf-kmem-stat.txt, perf-kmem-caller.txt). This script:

1. replays the perf script text twice, in plain Python: once as perf kmem
   counts (an allocation record per pointer that is never removed; a free
   of any pointer ever allocated counts as freed, with the bytes of that
   pointer's last allocation, and as ping-pong when its CPU differs from
   the allocating one, which a free sets to -1: a second free is always
   ping-pong), and
   once as DESIGN.md section 5 matches (a free counts only against the live
   allocation of its pointer);
2. checks the perf-style replay against perf's own files (so the model of
   perf is right), then trace_analyze's numbers against perf's files where
   the definitions agree (bytes requested and allocated, fragmentation,
   hits and bytes per call site) and against the section-5 replay where
   they differ (bytes freed, ping-pong), printing the difference perf's
   definition makes.
Exits 1 on the first disagreement.
"""
import csv
import json
import re
import sys

EVENT = re.compile(r'\[(\d+)\]\s+[\d.]+:\s+kmem:(\w+):\s+(.*)$')


def replay(path):
    perf = {'freed': 0, 'pp': {}, 'hits': {}, 'alloc': {}, 'req': {}}
    ours = {'freed': 0, 'pp': {}}
    ever = {}   # perf: ptr -> (site, bytes_alloc, cpu) of its last allocation
    live = {}   # section 5: ptr -> (site, bytes_alloc, cpu)
    requested = allocated = 0
    for line in open(path, errors='replace'):
        m = EVENT.search(line)
        if not m:
            continue
        cpu, kind, rest = int(m.group(1)), m.group(2), m.group(3)
        f = dict(kv.split('=', 1) for kv in rest.split() if '=' in kv)
        if kind in ('kmalloc', 'kmem_cache_alloc', 'kmalloc_node', 'kmem_cache_alloc_node'):
            site = re.sub(r'/0x[0-9a-f]+$', '', f['call_site'])
            b, r = int(f['bytes_alloc']), int(f['bytes_req'])
            if f['ptr'] in ('(nil)', '0'):
                continue
            requested += r
            allocated += b
            for k, v in (('hits', 1), ('alloc', b), ('req', r)):
                perf[k][site] = perf[k].get(site, 0) + v
            ever[f['ptr']] = (site, b, cpu)
            live[f['ptr']] = (site, b, cpu)
        elif kind in ('kfree', 'kmem_cache_free'):
            p = f['ptr']
            if p in ever:
                site, b, acpu = ever[p]
                perf['freed'] += b
                if acpu != cpu:
                    perf['pp'][site] = perf['pp'].get(site, 0) + 1
                ever[p] = (site, b, -1)     # perf: alloc_cpu = -1 once freed
            if p in live:
                site, b, acpu = live.pop(p)
                ours['freed'] += b
                if acpu != cpu:
                    ours['pp'][site] = ours['pp'].get(site, 0) + 1
    return requested, allocated, perf, ours


def perf_summary(path):
    out = {}
    for line in open(path):
        m = re.match(r'(Total bytes requested|Total bytes allocated|Total bytes freed|'
                     r'Net total bytes allocated|Total bytes wasted on internal fragmentation|'
                     r'Internal fragmentation):\s*([\d.]+)', line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def perf_callers(path):
    rows = {}
    for line in open(path):
        m = re.match(r'\s*(\S+)\s*\|\s*(\d+)/\d+\s*\|\s*(\d+)/\d+\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|', line)
        if m:
            name = re.sub(r'\+([0-9a-f]+)$', lambda x: '+0x' + x.group(1), m.group(1))
            rows[name] = tuple(int(m.group(i)) for i in (2, 3, 4, 5))
    return rows


def check(what, got, want):
    if got != want:
        sys.exit('perf_kmem_check: %s: trace_analyze %r, expected %r' % (what, got, want))


def main():
    perf_dir, summary_json, stats_csv = sys.argv[1:4]
    requested, allocated, model, section5 = replay(perf_dir + '/kmem.perf-script.txt')
    stat = perf_summary(perf_dir + '/perf-kmem-stat.txt')
    callers = perf_callers(perf_dir + '/perf-kmem-caller.txt')
    # 1. the model of perf kmem reproduces perf's files
    check('model: requested', requested, stat['Total bytes requested'])
    check('model: allocated', allocated, stat['Total bytes allocated'])
    check('model: freed', model['freed'], stat['Total bytes freed'])
    for name, (alloc, req, hit, pp) in callers.items():
        check('model: %s' % name, (model['alloc'].get(name), model['req'].get(name),
                                   model['hits'].get(name), model['pp'].get(name, 0)),
              (alloc, req, hit, pp))
    # 2. trace_analyze against perf, and against section 5 where they differ
    s = json.load(open(summary_json))
    b = s['bytes']
    check('bytes requested', b['requested'], stat['Total bytes requested'])
    check('bytes allocated', b['allocated'], stat['Total bytes allocated'])
    check('fragmentation bytes', b['fragmentation_bytes'],
          stat['Total bytes wasted on internal fragmentation'])
    check('fragmentation %', round(b['fragmentation_pct'], 2),
          round(stat['Internal fragmentation'], 2))
    check('bytes freed (matched frees)', b['freed'], section5['freed'])
    check('net', b['net'], allocated - section5['freed'])
    rows = [l for l in open(stats_csv) if l.strip() and not l.startswith('#')]
    ours = {r['key']: r for r in csv.DictReader(rows)}
    check('call sites', sorted(ours), sorted(callers))
    differ = 0
    for name, (alloc, req, hit, pp) in callers.items():
        r = ours[name]
        check('%s hits, bytes' % name,
              (int(r['hits']), int(r['bytes_alloc']), int(r['bytes_req'])), (hit, alloc, req))
        check('%s ping-pong' % name, int(r['pingpong']), section5['pp'].get(name, 0))
        differ += pp != int(r['pingpong'])
    print('perf kmem: %d call sites agree; bytes freed %d (perf counts %d more, for frees '
          'of pointers already freed); ping-pong differs at %d site(s) for the same reason'
          % (len(callers), b['freed'], stat['Total bytes freed'] - b['freed'], differ))


if __name__ == '__main__':
    main()
