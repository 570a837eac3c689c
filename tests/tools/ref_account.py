#!/usr/bin/env python3
"""Independent reference for trace_analyze's account file (DESIGN.md section 5).

Written for the tests, separately from the C code and in another style
(regular expressions, dicts): it replays the slab events of a kmem log and
prints the account file trace_analyze should write, byte for byte.

    ref_account.py LOG [--malloc|--cache] [-o KEY] [--group-by function]
                       [--system-map FILE] [--totals]
                       [--cgroup-map FILE [--forks FILE]...]   (rows per task's cgroup)
    ref_account.py --batch < JOBS   (lines "OUTFILE<TAB>LOG [OPTIONS]")

With --totals, the matching counts as JSON instead: allocs, lost_frees,
implicit_frees, failed_allocs, null_frees.

Reads tracefs text (snapshot or trace_pipe), trace-cmd report and perf
script text. Events of one timestamp are replayed in an order in which
they pair, as DESIGN.md and the man page say (EVENT ORDER): each CPU's in
the printed order; the printed order across CPUs until the next event
would not pair (a free of a pointer not live, an allocation of a live
one); then the first other CPU's event that pairs, and that CPU's while
they pair. Call sites are named 'sym+0xoff' ('/0xsize' dropped); bare
hex addresses are resolved with --system-map to the nearest text symbol
at or below (global symbols preferred among aliases), else kept as is.
"""

import argparse
import bisect
import lzma
import re
import sys

ALLOCS = {"kmalloc": "malloc", "kmalloc_node": "malloc",
          "kmem_cache_alloc": "cache", "kmem_cache_alloc_node": "cache"}
FREES = {"kfree": "malloc", "kmem_cache_free": "cache"}

# timestamp, then the event name (perf prefixes 'kmem:'), then the fields
EVENT = re.compile(r"\s(\d+(?:\.\d+)?):\s+(?:kmem:)?(\w+):(?=\s|$)(.*)$")
CPU = re.compile(r"\[(\d+)\]")
TASK = re.compile(r"-(\d+)\s+(?:\(\s*\S+\)\s+)?\[\d+\]")
# --cgroup-map: a row per task's cgroup instead of per call site (cgroup_of)
CGROUP_OF = None
CGROUP_KEY = None


def task_cgroups(map_path, fork_paths):
    """The cgroup of a task (pid) at a time (microseconds): the map's line when
    no fork of that pid comes later, else its parent's at its last fork before,
    up to 64 generations; None when neither says."""
    where = {}
    for line in open(map_path):
        pid, _, cg = line.rstrip("\n").split("\t")
        parts = cg.split(":", 2)
        if parts[1] == "" or "memory" in parts[1].split(","):
            where[int(pid)] = parts[2]
    forks = {}
    fork = re.compile(r"\s(\d+\.\d+):\s+(?:sched:)?sched_process_fork: .* pid=(\d+) child_comm=.* child_pid=(\d+)")
    for path in fork_paths:
        opener = lzma.open if path.endswith(".xz") else open
        for line in opener(path, "rt", errors="replace"):
            m = fork.search(line)
            if m:
                forks.setdefault(int(m.group(3)), []).append(
                    (int(round(float(m.group(1)) * 1e6)), int(m.group(2))))
    for f in forks.values():
        f.sort()

    def cgroup_of(pid, us):
        for _ in range(64):
            born = [f for f in forks.get(pid, []) if f[0] <= us]
            later = any(f[0] > us for f in forks.get(pid, []))
            if not later and pid in where:
                return where[pid]
            if not born:
                return None
            us, pid = born[-1]
        return None
    return cgroup_of
FIELD = re.compile(r"(\w+)=(\S*)")


def pointer(text):
    if text in ("(nil)", "(null)"):
        return 0
    return int(text, 16)


def load_system_map(path):
    """Every symbol, one per address: text before data, global before local,
    then the first in the file. An address resolves only when the nearest
    symbol at or below it is text (types t, T, w, W)."""
    best = {}
    order = 0
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or len(parts[1]) != 1:
                continue
            addr = int(parts[0], 16)
            kind = parts[1]
            rank = ((0 if kind in "tTwW" else 2) + (0 if kind in "TW" else 1), order)
            order += 1
            if addr not in best or rank < best[addr][0]:
                best[addr] = (rank, parts[2], kind in "tTwW")
    addrs = sorted(best)
    return addrs, [best[a][1] for a in addrs], [best[a][2] for a in addrs]


def caller_name(site, symmap, by_function):
    module = ""
    m = re.match(r"^(\S+)( \[.*\])$", site)
    if m:
        site, module = m.group(1), m.group(2)
    h = re.fullmatch(r"(?:0x)?([0-9a-fA-F]{1,16})", site)
    if h:
        addr = int(h.group(1), 16)
        if symmap:
            i = bisect.bisect_right(symmap[0], addr) - 1
            if i >= 0 and symmap[2][i]:
                name = symmap[1][i]
                return name if by_function else "%s+%s" % (name, hex(addr - symmap[0][i]))
        return site + module
    if by_function:
        return site.split("+", 1)[0] + module
    return site.split("/", 1)[0] + module


def events(path, family):
    """The log's slab events in the printed order: (timestamp text, cpu or None,
    'alloc' or 'free', ptr, site, req, alloc)."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rb") as f:
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # a truncated last line is not used
            line = raw.decode("latin-1").rstrip("\n").rstrip("\r")
            if line.startswith("#") or len(raw) > (1 << 20):
                continue
            m = EVENT.search(line)
            if not m:
                continue
            event = m.group(2)
            if event not in ALLOCS and event not in FREES:
                continue
            rest = m.group(3)
            fields = dict(FIELD.findall(rest))
            mod = re.search(r"call_site=\S+( \[[^\]]*\])", rest)
            c = CPU.search(line[:m.start()])
            try:
                ptr = pointer(fields["ptr"])
                if event in ALLOCS:
                    site = fields["call_site"] + (mod.group(1) if mod else "")
                    if CGROUP_OF:
                        t = TASK.search(line[:m.start()])
                        site = (CGROUP_OF(int(t.group(1)), int(round(float(m.group(1)) * 1e6)))
                                or "(unknown cgroup)") if t else "(no task)"
                    yield (m.group(1), int(c.group(1)) if c else None, "alloc", ptr, site,
                           int(fields["bytes_req"]), int(fields["bytes_alloc"]), ALLOCS[event])
                else:
                    yield (m.group(1), int(c.group(1)) if c else None, "free", ptr, None, 0, 0,
                           FREES[event])
            except (KeyError, ValueError):
                continue  # malformed: not used


def pairs(ev, live):
    _, cpu, what, ptr = ev[:4]
    if ptr == 0 or cpu is None:
        return True
    return (ptr in live) == (what == "free")


def in_pairing_order(tick, live, apply):
    """live: every slab event's live pointers (the order does not depend on
    --malloc or --cache); apply keeps it up to date."""
    """Apply one timestamp's events (see the docstring at the top)."""
    queues = {}
    for i, ev in enumerate(tick):
        queues.setdefault(ev[1], []).append(i)
    follow = None
    while any(queues.values()):
        if follow is not None and queues[follow] and pairs(tick[queues[follow][0]], live):
            cpu = follow
        else:
            follow = None
            heads = sorted((q[0], c) for c, q in queues.items() if q)
            cpu = heads[0][1]
            if not pairs(tick[heads[0][0]], live):
                fit = [c for i, c in heads if pairs(tick[i], live)]
                if fit:
                    cpu = follow = fit[0]
        apply(tick[queues[cpu].pop(0)])


def replay(path, family, symmap, by_function, totals=None):
    live = {}
    every = set()   # every family's live pointers: what the order asks
    sites = {}
    counts = totals if totals is not None else {}
    for k in ("allocs", "lost_frees", "implicit_frees", "failed_allocs", "null_frees"):
        counts[k] = 0

    def apply(ev):
        _, _, what, ptr, site, req, alloc, fam = ev
        if ptr:
            (every.add if what == "alloc" else every.discard)(ptr)
        if family and fam != family:
            return
        if what == "alloc":
            if ptr == 0:
                counts["failed_allocs"] += 1
                return
            counts["allocs"] += 1
            counts["implicit_frees"] += ptr in live
            s = sites.setdefault(site, [0, 0, 0, 0, 0])  # total, cur, cur_req, allocs, frees
            s[0] += alloc
            s[1] += alloc
            s[2] += req
            s[3] += 1
            if ptr in live:
                old = live[ptr]
                sites[old[0]][1] -= old[2]
                sites[old[0]][2] -= old[1]
            live[ptr] = (site, req, alloc)
        elif ptr == 0:
            counts["null_frees"] += 1
        elif ptr not in live:
            counts["lost_frees"] += 1
        else:
            old = live.pop(ptr)
            sites[old[0]][1] -= old[2]
            sites[old[0]][2] -= old[1]
            sites[old[0]][4] += 1

    tick = []
    for ev in events_once(path, family):
        if tick and ev[0] != tick[0][0]:
            in_pairing_order(tick, every, apply)
            tick = []
        tick.append(ev)
    in_pairing_order(tick, every, apply)

    rows = {}
    for site, s in sites.items():
        r = rows.setdefault(site if CGROUP_OF else caller_name(site, symmap, by_function),
                            [0, 0, 0, 0, 0])
        for i in range(5):
            r[i] += s[i]
    return rows


def parser():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--malloc", action="store_true")
    ap.add_argument("--cache", action="store_true")
    ap.add_argument("-o", "--order-by", default="current_dynamic")
    ap.add_argument("--group-by", default="callsite")
    ap.add_argument("--system-map")
    ap.add_argument("--totals", action="store_true")
    ap.add_argument("--cgroup-map")
    ap.add_argument("--forks", action="append", default=[])
    return ap


_EVENTS = {}
BATCH = False


def events_once(path, family):
    """events(path); in --batch as a list, kept for the next replay of the same
    log in this process: the parse is most of a replay's time."""
    if not BATCH:
        return events(path, family)
    if (path, CGROUP_KEY) not in _EVENTS:
        _EVENTS.clear()
        _EVENTS[(path, CGROUP_KEY)] = list(events(path, None))
    return _EVENTS[(path, CGROUP_KEY)]


def account(a, out):
    global CGROUP_OF, CGROUP_KEY
    CGROUP_OF = task_cgroups(a.cgroup_map, a.forks) if a.cgroup_map else None
    CGROUP_KEY = (a.cgroup_map, tuple(a.forks))     # the events' rows depend on it
    family = "malloc" if a.malloc else "cache" if a.cache else None
    symmap = load_system_map(a.system_map) if a.system_map else None
    totals = {}
    rows = replay(a.log, family, symmap, a.group_by == "function", totals)
    if a.totals:
        import json
        json.dump(totals, out)
        out.write("\n")
        return

    key = {
        "total_dynamic": lambda r: r[0],
        "current_dynamic": lambda r: r[1],
        "alloc_count": lambda r: r[3],
        "free_count": lambda r: r[4],
        "waste": lambda r: r[1] - r[2],
    }[a.order_by]
    names = sorted(rows, key=lambda n: (-key(rows[n]), n.encode()))
    cur = sum(r[1] for r in rows.values())
    req = sum(r[2] for r in rows.values())
    out.write("current bytes allocated: {:>10}\n".format(cur))
    out.write("current bytes requested: {:>10}\n".format(req))
    out.write("current wasted bytes:    {:>10}\n".format(cur - req))
    out.write("number of allocs:        {:>10}\n".format(sum(r[3] for r in rows.values())))
    out.write("number of frees:         {:>10}\n".format(sum(r[4] for r in rows.values())))
    # what a row is: trace_analyze.py's "caller", or the grouping's own word
    one, many = ("function", "functions") if a.group_by == "function" else \
        ("cgroup", "cgroups") if CGROUP_OF else ("caller", "callers")
    out.write("{:<25}{:>10}\n".format("number of %s:" % many, len(rows)))
    out.write("\n")
    head = "   total    waste      net alloc/free  %s" % one
    out.write(head + "\n")
    out.write("-" * len(head) + "\n")
    for n in names:
        r = rows[n]
        out.write("{:>8} {:>8} {:>8} {:>5}/{:<5} {}\n".format(r[0], r[1] - r[2], r[1], r[3], r[4], n))


def main():
    if sys.argv[1:] == ["--batch"]:
        # one account per line of standard input, "OUTFILE<TAB>LOG [OPTIONS]" (the
        # options as the shell splits them): each log parsed once for all of its
        import shlex
        global BATCH
        BATCH = True
        for line in sys.stdin:
            outfile, args = line.rstrip("\n").split("\t", 1)
            with open(outfile, "w") as out:
                account(parser().parse_args(shlex.split(args)), out)
        return
    account(parser().parse_args(), sys.stdout)


if __name__ == "__main__":
    main()
