#!/usr/bin/env python3
"""ref_report.py - independent counts of what --summary and --page report,
from a kmem log's text, in plain Python (regular expressions, dicts), to
check trace_analyze's JSON against.

  ref_report.py findings LOG SUMMARY_JSON   findings and slab-cache table
  ref_report.py pages LOG PAGE_JSON         page-allocator totals and tables
  ref_report.py outstanding LOG OUT_JSON [MIN_AGE]
                                            live allocations at the end by call site
  ref_report.py peak LOG PEAK_JSON [AT|-] [callsite|function|cache]
                                            the peak and each row's part, own peak
  ref_report.py growth LOG GROWTH_JSON callsite|function|cache
                                            each row's own peak (bytes, first time) and end
  ref_report.py perf-pages PERF_PAGE_TXT PAGE_JSON
                                            the same against perf kmem --page
  ref_report.py batch < CHECKS              each line one of the above (its words as
                                            the shell splits them), a log parsed once

Exits 1 naming the first number that differs.
"""
import json
import re
import os
import shlex
import sys

LINE = re.compile(r'\[(\d+)\]\s+(?:\S+\s+)?(\d+\.\d+):\s+(?:kmem:)?(\w+):\s*(.*)$')
LOST = re.compile(r'^CPU:\d+ \[LOST \d+ EVENTS\]|^##### CPU \d+ buffer started')
ALLOCS = ('kmalloc', 'kmalloc_node', 'kmem_cache_alloc', 'kmem_cache_alloc_node')
FREES = ('kfree', 'kmem_cache_free')


def events(path):
    for no, line in enumerate(open(path, errors='replace'), 1):
        if LOST.match(line):
            yield no, None, 0, 'marker', {}
            continue
        m = LINE.search(line)
        if not m:
            continue
        fields = {}
        for kv in m.group(4).split():
            if '=' in kv:
                k, v = kv.split('=', 1)
                fields.setdefault(k, v)
        ts = int(round(float(m.group(2)) * 1e6))
        yield no, int(m.group(1)), ts, m.group(3), fields


_ORDERED = {}


def ordered_events(log):
    """in_tick_order(events(log)) as a list, kept for the next check of the same
    log in this process (batch): the parse is most of a check's time."""
    if log not in _ORDERED:
        if len(_ORDERED) >= 2:
            _ORDERED.clear()
        _ORDERED[log] = list(in_tick_order(events(log)))
    return _ORDERED[log]


def is_null(p):
    return p in ('(nil)', '(null)') or int(p, 16) == 0


def in_tick_order(evs):
    """The events with each timestamp's slab events in an order in which they
    pair (the man page's EVENT ORDER; ref_account.py replays it the same way):
    each CPU's in the printed order; across CPUs the printed order until the
    next would not pair, then the first other CPU's event that pairs, and that
    CPU's while they pair. Markers (no timestamp) end a tick."""
    live = set()

    def pairs(e):
        _, cpu, _, kind, f = e
        if kind not in ALLOCS + FREES or cpu is None or is_null(f.get('ptr', '0')):
            return True
        return (f['ptr'] in live) == (kind in FREES)

    def take(e):
        kind, f = e[3], e[4]
        if kind in ALLOCS + FREES and not is_null(f.get('ptr', '0')):
            (live.add if kind in ALLOCS else live.discard)(f['ptr'])
        return e

    def ordered(tick):
        queues = {}
        for e in tick:
            queues.setdefault(e[1], []).append(e)
        follow = None
        while any(queues.values()):
            if follow is not None and queues[follow] and pairs(queues[follow][0]):
                cpu = follow
            else:
                follow = None
                heads = sorted((q[0][0], c) for c, q in queues.items() if q)
                cpu = heads[0][1]
                if not pairs(queues[cpu][0]):
                    fit = [c for _, c in heads if pairs(queues[c][0])]
                    if fit:
                        cpu = follow = fit[0]
            yield take(queues[cpu].pop(0))

    tick = []
    for e in evs:
        if tick and (e[2] != tick[0][2] or not e[2]):
            yield from ordered(tick)
            tick = []
        if not e[2]:
            yield take(e)
            continue
        tick.append(e)
    yield from ordered(tick)


def kmalloc_cache(f):
    """The kmalloc cache of an event that names none, as /proc/slabinfo
    spells it: by bytes_alloc, -cg- when accounted (-?- when not said)."""
    b = int(f['bytes_alloc'])
    if b > 8192:
        return 'kmalloc-large'
    sizes = (8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192)
    size = next(s for s in sizes if b <= s)
    acc = {'true': 'cg-', 'false': ''}.get(f.get('accounted'), '?-')
    return 'kmalloc-%s%s' % (acc, '%dk' % (size // 1024) if size >= 1024 else size)


def findings(log):
    count = dict.fromkeys(('cache_object_kfreed', 'kmalloc_object_cache_freed',
                           'alloc_below_request', 'free_of_untraced_alloc', 'double_free',
                           'time_backwards', 'lost_marker'), 0)
    # freed: pointer -> (the free's event number, its kind); missing: the
    # last event after which events are missing (a marker, or 10 s of none)
    live, freed, last, caches = {}, {}, {}, {}
    latest, missing, n, unnamed, derived = 0, -1, 0, 0, set()
    for no, cpu, ts, kind, f in ordered_events(log):
        n += 1
        if kind == 'marker':
            count['lost_marker'] += 1
            missing = n
            continue
        if kind not in ALLOCS + FREES and not (kind.startswith('mm_page') and cpu is not None):
            continue
        if ts < last.get(cpu, 0):
            count['time_backwards'] += 1
        last[cpu] = ts
        if latest and ts > latest + 10 * 1000000:   # µs
            missing = n
        latest = max(latest, ts)
        if kind not in ALLOCS + FREES:
            continue
        p = f.get('ptr', '0')
        if kind in ALLOCS:
            if int(f['bytes_alloc']) < int(f['bytes_req']):
                count['alloc_below_request'] += 1
            if is_null(p):
                continue
            freed.pop(p, None)
            name = f.get('name') or None
            if not name and kind.startswith('kmalloc'):
                name = kmalloc_cache(f)
                derived.add(name)
            elif not name:
                unnamed += 1
            if p in live and live[p][1]:
                c = caches[live[p][1]]
                c['live'] -= 1
            live[p] = (kind, name)
            if name:
                c = caches.setdefault(name, {'allocs': 0, 'frees': 0, 'live': 0})
                c['allocs'] += 1
                c['live'] += 1
        else:
            if is_null(p):
                continue
            if p not in live:
                if p in freed:
                    at, was = freed[p]
                    # a slab cache's object (bulk allocations are not
                    # traced) or events missing between: explained
                    if 'kmem_cache_free' in (kind, was) or missing > at:
                        count['free_of_untraced_alloc'] += 1
                    else:
                        count['double_free'] += 1
                    freed[p] = (n, kind)
                continue
            akind, name = live.pop(p)
            if akind.startswith('kmem_cache') and kind == 'kfree':
                count['cache_object_kfreed'] += 1
            if akind.startswith('kmalloc') and kind == 'kmem_cache_free':
                count['kmalloc_object_cache_freed'] += 1
            if name:
                caches[name]['frees'] += 1
                caches[name]['live'] -= 1
            freed[p] = (n, kind)
    caches = {k: c for k, c in caches.items() if c['allocs'] or c['frees']}
    return count, caches, unnamed, derived


def pages(log):
    t = dict.fromkeys(('alloc', 'free', 'batched', 'alloc_freed', 'free_only', 'failed'), 0)
    kb = dict.fromkeys(t, 0)
    table, live = {}, {}
    for no, cpu, ts, kind, f in events(log):
        if kind not in ('mm_page_alloc', 'mm_page_free', 'mm_page_free_batched'):
            continue
        order = int(f.get('order', 0))
        key = f.get('pfn') or f.get('page')
        if kind == 'mm_page_alloc':
            if is_null(f.get('page', '0')) and not f.get('pfn'):
                t['failed'] += 1
                continue
            t['alloc'] += 1
            kb['alloc'] += 4 << order
            mt = int(f.get('migratetype', -1))
            table[(order, mt)] = table.get((order, mt), 0) + 1
            live[key] = order
        elif kind == 'mm_page_free':
            t['free'] += 1
            kb['free'] += 4 << order
            if key in live:
                t['alloc_freed'] += 1
                kb['alloc_freed'] += 4 << live.pop(key)
            else:
                t['free_only'] += 1
                kb['free_only'] += 4 << order
        else:
            t['batched'] += 1
            live.pop(key, None)
    return t, kb, table, len(live)


def outstanding(log, min_age_ns):
    live, last = {}, 0
    for no, cpu, ts, kind, f in ordered_events(log):
        if kind == 'marker':
            continue
        last = max(last, ts)
        if kind in ALLOCS:
            p = f['ptr']
            if not is_null(p):
                site = re.sub(r'/0x[0-9a-f]+$', '', f['call_site'])
                live[p] = (site, int(f['bytes_alloc']), ts)
        elif kind in FREES:
            live.pop(f.get('ptr', '0'), None)
    rows = {}
    for site, b, ts in live.values():
        age = (last - ts) * 1000          # events() keeps microseconds
        if age < min_age_ns:
            continue
        r = rows.setdefault(site, [0, 0, []])
        r[0] += 1
        r[1] += b
        r[2].append(age)
    return rows, last


def check_outstanding(log, out_json, min_age='0'):
    o = json.load(open(out_json))
    rows, last = outstanding(log, int(float(min_age) * 1e9))
    check('callers', sorted(r['key'] for r in o['callers']), sorted(rows))
    for r in o['callers']:
        count, b, ages = rows[r['key']]
        ages.sort()
        n = len(ages)
        median = ages[n // 2] if n % 2 else (ages[n // 2 - 1] + ages[n // 2]) // 2
        check('%s count, bytes' % r['key'], (r['count'], r['bytes']), (count, b))
        check('%s oldest' % r['key'], round(r['oldest_age_s'], 6), round(ages[-1] / 1e9, 6))
        check('%s median' % r['key'], round(r['median_age_s'], 6), round(median / 1e9, 6))
    check('live allocations', o['totals']['allocations'], sum(v[0] for v in rows.values()))
    print('outstanding: %d callers, %d allocations agree' % (len(rows),
                                                           sum(v[0] for v in rows.values())))


def peak(log, at_us=None, key=None):
    """Replay the slab events (tick-ordered) twice: the first finds the
    peak of live bytes (its first moment) and each call site's own peak; the
    second stops there (or at at_us) and says what each site held."""
    def replay(stop):
        live, rows, total, objs = {}, {}, 0, 0
        best = (0, 0, 0, None)   # bytes, objects, ts, event number
        own = {}
        n = 0
        for no, cpu, ts, kind, f in ordered_events(log):
            if kind not in ALLOCS + FREES or is_null(f.get('ptr', '0')):
                continue
            if stop is not None and stop(n, ts):
                break
            n += 1
            p = f['ptr']
            changes = []
            if kind in ALLOCS:
                if p in live:
                    changes.append((live[p][0], -live[p][1], -1))
                site = (key or ROW_KEYS['callsite'])(kind, f)
                live[p] = (site, int(f['bytes_alloc']))
                changes.append((site, int(f['bytes_alloc']), 1))
            elif p in live:
                site, b = live.pop(p)
                changes.append((site, -b, -1))
            for site, b, o in changes:
                r = rows.setdefault(site, [0, 0])
                r[0] += b
                r[1] += o
                total += b
                objs += o
                if r[0] > own.get(site, (0, 0))[0]:
                    own[site] = (r[0], ts)
            if total > best[0]:
                best = (total, objs, ts, n)
        return rows, best, own, total, objs
    _, best, own, _, _ = replay(None)
    if at_us is None:
        rows, _, _, total, objs = replay(lambda n, ts: n >= best[3])
        return rows, best[0], best[1], best[2], own
    rows, _, _, total, objs = replay(lambda n, ts: ts > at_us)
    return rows, total, objs, at_us, own


def check_peak(log, peak_json, at=None, grouping='callsite'):
    p = json.load(open(peak_json))
    at_us = int(round(float(at) * 1e6)) if at and at != '-' else None
    rows, total, objs, ts, own = peak(log, at_us, ROW_KEYS[grouping])
    m = p['moment']
    check('live bytes', m['live_bytes'], total)
    check('objects', m['objects'], objs)
    check('time', round(m['time_s'], 6), round(ts / 1e6, 6))
    got = {r['key']: r for r in p['rows']}
    check('rows', sorted(got), sorted(k for k, v in rows.items() if v[0]))
    for k, r in got.items():
        check('%s bytes, objects' % k, (r['bytes'], r['objects']), tuple(rows.get(k, [0, 0])))
        check('%s own peak' % k, (r['own_peak_bytes'], round(r['own_peak_s'], 6)),
              (own[k][0], round(own[k][1] / 1e6, 6)))
    print('peak: %d bytes, %d objects at %.6f s; %d rows agree' % (total, objs, ts / 1e6, len(got)))


ROW_KEYS = {
    'callsite': lambda kind, f: re.sub(r'/0x[0-9a-f]+$', '', f['call_site']),
    'function': lambda kind, f: re.sub(r'\+0x[0-9a-f]+/0x[0-9a-f]+$', '', f['call_site']),
    'cache': lambda kind, f: f.get('name') or (
        kmalloc_cache(f) if kind.startswith('kmalloc') else
        '(unnamed, %s bytes)' % f['bytes_alloc']),
}


def row_peaks(log, key):
    """Replay the slab events (tick-ordered): each row's live bytes, its
    own highest and when first, rows named by key(kind, fields) of the
    allocation (a free is its allocation's row)."""
    live, now, own = {}, {}, {}
    for no, cpu, ts, kind, f in ordered_events(log):
        if kind not in ALLOCS + FREES or is_null(f.get('ptr', '0')):
            continue
        p = f['ptr']
        changes = []
        if kind in ALLOCS:
            if p in live:
                changes.append((live[p][0], -live[p][1]))
            row = key(kind, f)
            live[p] = (row, int(f['bytes_alloc']))
            changes.append((row, int(f['bytes_alloc'])))
        elif p in live:
            row, b = live.pop(p)
            changes.append((row, -b))
        for row, b in changes:
            now[row] = now.get(row, 0) + b
            if now[row] > own.get(row, (0, 0))[0]:
                own[row] = (now[row], ts)
    return now, own


def check_growth(log, growth_json, grouping):
    rows, n = json.load(open(growth_json))['rows'], 0
    now, own = row_peaks(log, ROW_KEYS[grouping])
    for r in rows:
        k = r['key']
        check('%s end' % k, r['end_bytes'], now.get(k, 0))
        peak, ts = own.get(k, (0, 0))
        check('%s peak' % k, r['peak_bytes'], peak)
        if peak:
            check('%s peak time' % k, round(r['peak_s'], 6), round(ts / 1e6, 6))
        n += 1
    print('growth: %d rows agree (own peak, its time, end) by %s' % (n, grouping))


def within_stated_precision(got_s, exact_ns):
    """The man page's promise: a percentile within 1% of the exact k-th
    lifetime (the midpoint of a 1/64-octave bucket: 1/128 = 0.78% at most),
    printed to the nanosecond; 0 only for a lifetime of 0."""
    if exact_ns == 0:
        return got_s == 0
    exact_s = exact_ns / 1e9
    return abs(got_s - exact_s) <= exact_s / 128 + 1e-9


def check_lifetimes(log, json_path):
    p = json.load(open(json_path))
    live, ages, never = {}, {}, {}
    for no, cpu, ts, kind, f in ordered_events(log):
        if kind not in ALLOCS + FREES or is_null(f.get('ptr', '0')):
            continue
        ptr = f['ptr']
        if kind in ALLOCS:
            live[ptr] = (re.sub(r'/0x[0-9a-f]+$', '', f['call_site']), ts)
        elif ptr in live:
            site, t0 = live.pop(ptr)
            ages.setdefault(site, []).append(max(ts - t0, 0) * 1000)   # us -> ns
    for site, _ in live.values():
        never[site] = never.get(site, 0) + 1
    rows = {r['key']: r for r in p['rows']}
    worst = [0.0]
    check('rows', sorted(rows), sorted(set(ages) | set(never)))
    for site, r in rows.items():
        a = sorted(ages.get(site, []))
        check('%s freed, never freed' % site, (r['freed'], r['never_freed']),
              (len(a), never.get(site, 0)))
        if not a:
            continue
        within = sum(1 for x in a if x < 1000) / len(a)
        check('%s within 1 us' % site, round(r['within_1us_pct'], 2), round(100 * within, 2))
        for key, pct in (('median_s', 50), ('p90_s', 90), ('p99_s', 99)):
            k = max(1, -(-pct * len(a) // 100))
            if not within_stated_precision(r[key], a[k - 1]):
                check('%s %s within 0.78%% of the exact %d ns' % (site, key, a[k - 1]), r[key],
                      a[k - 1] / 1e9)
            worst[0] = max(worst[0], abs(r[key] * 1e9 - a[k - 1]) / a[k - 1] if a[k - 1] else 0)
        check('%s short-lived' % site, r['short_lived'], within > 0.5)
    print('lifetimes: %d rows agree (%d objects freed; percentiles at most %.3f%% off)'
          % (len(rows), sum(map(len, ages.values())), 100 * worst[0]))


def loss_windows(log):
    """Windows of lost events in us: each marker from the event before to the
    one after; 10 s of silence unless the header says nothing was dropped;
    with a header that says entries were dropped, the start until every
    CPU's first event."""
    header = re.search(r'entries-in-buffer/entries-written: (\d+)/(\d+)',
                       open(log, errors='replace').read(4096))
    complete = header and header.group(1) == header.group(2)
    overrun = header and int(header.group(2)) > int(header.group(1))
    windows, last, first, cpu_first, pending = [], 0, None, {}, False
    for no, cpu, ts, kind, f in events(log):
        if kind == 'marker':
            if not pending:
                windows.append([last, None])
            pending = True
            continue
        if pending:
            windows[-1][1] = max(ts, windows[-1][0])
            pending = False
        elif last and ts > last + 10 * 1000000 and not complete:
            windows.append([last, ts])
        first = ts if first is None else first
        last = max(last, ts)
        cpu_first.setdefault(cpu, ts)
    if pending:
        windows[-1][1] = last
    if overrun and cpu_first and max(cpu_first.values()) > first:
        windows.append([first, max(cpu_first.values())])
    return windows


def check_uncertain(log, out_json):
    """--outstanding's held and uncertain objects: live at the end (the
    tick-ordered replay), uncertain when allocated before a window's end."""
    o = json.load(open(out_json))
    windows = loss_windows(log)
    live = {}
    for no, cpu, ts, kind, f in ordered_events(log):
        if kind in ALLOCS and not is_null(f['ptr']):
            live[f['ptr']] = (re.sub(r'/0x[0-9a-f]+$', '', f['call_site']),
                              int(f['bytes_alloc']), ts)
        elif kind in FREES:
            live.pop(f.get('ptr', '0'), None)
    held, unsure = {}, {}
    for site, b, ts in live.values():
        into = unsure if any(end > ts for _, end in windows) else held
        r = into.setdefault(site, [0, 0])
        r[0] += 1
        r[1] += b
    t = o['totals']
    check('held allocations, bytes', (t['allocations'], t['bytes']),
          (sum(r[0] for r in held.values()), sum(r[1] for r in held.values())))
    check('uncertain allocations, bytes', (t.get('uncertain_allocations', 0), t.get('uncertain_bytes', 0)),
          (sum(r[0] for r in unsure.values()), sum(r[1] for r in unsure.values())))
    check('windows', t.get('loss_windows', 0), len(windows))
    check('held rows', {r['key']: (r['count'], r['bytes']) for r in o['callers']},
          {k: tuple(v) for k, v in held.items()})
    check('uncertain rows', {r['key']: (r['objects'], r['bytes']) for r in o.get('uncertain', [])},
          {k: tuple(v) for k, v in unsure.items()})
    print('uncertain: %d windows; held %d objects, uncertain %d objects (%d bytes)' %
          (len(windows), sum(r[0] for r in held.values()), sum(r[0] for r in unsure.values()),
           sum(r[1] for r in unsure.values())))


def check(what, got, want):
    if got != want:
        sys.exit('ref_report: %s: trace_analyze %r, expected %r' % (what, got, want))


def check_findings(log, summary):
    s = json.load(open(summary))
    count, caches, unnamed, derived = findings(log)
    got = {r['key']: r['count'] for r in s['findings']}
    for k, v in count.items():
        check('finding %s' % k, got[k], v)
    ours = {r['key']: r for r in s['caches']}
    check('caches', sorted(ours), sorted(caches))
    for name, c in caches.items():
        check('cache %s' % name, (ours[name]['allocs'], ours[name]['frees'], ours[name]['live']),
              (c['allocs'], c['frees'], c['live']))
    for name, c in caches.items():
        named_by = 'size class' if name in derived else 'name='
        check('cache %s named by' % name, ours[name]['named_by'], named_by)
    check('kmem_cache allocations without name=',
          s.get('caches_unnamed', {}).get('kmem_cache_allocs', 0), unnamed)
    print('findings: %s; %d caches agree; %d unnamed kmem_cache allocations'
          % (', '.join('%s %d' % kv for kv in count.items()), len(caches), unnamed))


def check_pages(log, page_json):
    p = json.load(open(page_json))
    t, kb, table, live = pages(log)
    tot = p['totals']
    for k, key in (('alloc', 'alloc'), ('free', 'free'), ('batched', 'free_batched'),
                   ('alloc_freed', 'alloc_freed'), ('free_only', 'free_only'),
                   ('failed', 'failed')):
        check('%s requests' % key, tot[key + '_requests'], t[k])
        if k != 'batched' and k != 'failed':
            check('%s KB' % key, tot[key + '_kb'], kb[k])
    check('alloc-only', tot['alloc_only_requests'], t['alloc'] - t['alloc_freed'])
    check('live pages', tot['live_requests'], live)
    names = ['unmovable', 'movable', 'reclaimable', 'highatomic', 'cma', 'isolate']
    for row in p['orders']:
        for mt, name in enumerate(names):
            check('order %d %s' % (row['key'], name), row[name],
                  table.get((row['key'], mt), 0))
    print('pages: %d allocations, %d frees, %d alloc+freed, %d live agree'
          % (t['alloc'], t['free'], t['alloc_freed'], live))


def check_perf_pages(perf_txt, page_json):
    p = json.load(open(page_json))
    tot = p['totals']
    want = {}
    for line in open(perf_txt):
        m = re.match(r'Total (\S+(?: \S+)?) requests\s*:\s*(\d+)\s*\[\s*(\d+) KB', line)
        if m:
            want[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        m = re.match(r'Total allocation failures\s*:\s*(\d+)\s*\[\s*(\d+) KB', line)
        if m:
            want['failures'] = (int(m.group(1)), int(m.group(2)))
    for label, key in (('allocation', 'alloc'), ('free', 'free'), ('alloc+freed', 'alloc_freed'),
                       ('alloc-only', 'alloc_only'), ('free-only', 'free_only'),
                       ('failures', 'failed')):
        check('perf %s' % label, (tot[key + '_requests'], tot[key + '_kb']), want[label])
    # perf's order table: its columns are the raw migratetype numbers 0..4
    rows = {r['key']: r for r in p['orders']}
    names = ['unmovable', 'movable', 'reclaimable', 'highatomic', 'cma']
    n = 0
    for line in open(perf_txt):
        m = re.match(r'\s+(\d+)((?:\s+(?:\d+|\.)){5})\s*$', line)
        if not m:
            continue
        cells = m.group(2).split()
        for mt, cell in enumerate(cells):
            check('perf order %s column %d' % (m.group(1), mt),
                  rows[int(m.group(1))][names[mt]], 0 if cell == '.' else int(cell))
        n += 1
    check('perf order rows', n, 11)
    print('perf kmem --page: totals and the order x migratetype table agree')


CHECKS = {'findings': check_findings, 'pages': check_pages, 'outstanding': check_outstanding,
          'peak': check_peak, 'lifetimes': check_lifetimes, 'uncertain': check_uncertain,
          'growth': check_growth, 'perf-pages': check_perf_pages}


def main():
    if len(sys.argv) < 2 or (sys.argv[1] != 'batch' and len(sys.argv) < 4):
        sys.exit(__doc__)
    if os.environ.get('TA_REFERENCES_CHECKED'):
        # make check's sanitized pass (scripts/run-tests.sh): the normal pass compared
        # these numbers, from the same sources; this pass looks for memory errors
        print('%s: compared in the normal pass' % sys.argv[1])
        return
    if sys.argv[1] == 'batch':      # one check per line of standard input, a log parsed once
        for line in sys.stdin:
            args = shlex.split(line)
            if args:
                CHECKS[args[0]](*args[1:])
        return
    CHECKS[sys.argv[1]](*sys.argv[2:])


if __name__ == '__main__':
    main()
