#!/usr/bin/env python3
"""Independent reference for call chains and origins (DESIGN.md section 9).

Written for the tests from the design text, separately from the C code and
in another style: whole-log lists, regular expressions, dicts. It reads a
kmem log with stack traces (tracefs options/stacktrace, trace-cmd
kernel_stack, perf script callchains), gives each stack to its event,
replays the slab and page events with the matching rules of section 5, and
prints JSON:

    ref_stacks.py LOG [--wrappers FILE] [--user-frames]

    {"stacks": {"blocks", "kmem_paired", "other_paired", "orphans",
                "events_with", "events_without"},
     "origins": {origin: {"total", "live", "req_live", "allocs", "frees"}},
     "page_origins": {origin: {"allocs", "pages", "live_pages"}},
     "folded": {"bytes"|"live"|"waste"|"count": {line: weight}},
     "folded_pages": {line: bytes}}

Pairing: a tracefs stack entry belongs to the latest event of its CPU
that has no stack yet (an interrupt may put its own event and stack in
between); a perf callchain to the event line right above it. A lost-
events marker makes a CPU's waiting events unpairable.
"""

import argparse
import fnmatch
import json
import re
import sys

SLAB_ALLOC = {"kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node"}
SLAB_FREE = {"kfree", "kmem_cache_free"}
PAGE_KINDS = {"mm_page_alloc", "mm_page_free", "mm_page_free_batched",
              "mm_page_alloc_zone_locked", "mm_page_pcpu_drain", "mm_page_alloc_extfrag",
              "mm_pagevec_free", "mm_page_free_direct"}
KMEM = SLAB_ALLOC | SLAB_FREE | PAGE_KINDS

# "<comm>-<pid> [cpu] flags ts: name: fields", perf "comm pid [cpu] ts: kmem:name: fields"
LINE = re.compile(r"^(?P<pre>.*?)\s(?P<ts>\d+(?:\.\d+)?):\s+(?P<name>(?:\w+:)?\w+|<[^>]*>):?(?P<rest>.*)$")
CPU = re.compile(r"\[(\d+)\]")
FIELD = re.compile(r"(\w+)=(\S*)")

TRACING_PREFIX = ("trace_event_raw_event_", "perf_trace_", "__traceiter_")
TRACING_EXACT = {"trace_" + k for k in ("kmalloc", "kmalloc_node", "kfree", "kmem_cache_alloc",
                                       "kmem_cache_alloc_node", "kmem_cache_free",
                                       "mm_page_alloc", "mm_page_free",
                                       "mm_page_free_batched")}
SLAB_PREFIX = ("kmalloc", "__kmalloc", "kmem_cache_alloc", "kmem_cache_free", "kfree",
               "slab_", "__slab_", "___slab_", "kvmalloc", "__kvmalloc", "kvfree")
SLAB_EXACT = {"__do_kmalloc_node"}
PAGE_PREFIX = ("alloc_pages", "__alloc_pages", "alloc_frozen_pages", "__alloc_frozen_pages",
               "folio_alloc", "__folio_alloc", "rmqueue", "free_pages", "__free_pages",
               "free_unref_", "free_frozen_pages", "__free_frozen_pages", "__get_free_pages",
               "get_free_pages", "get_zeroed_page", "vma_alloc_folio", "alloc_pages_mpol",
               "folio_alloc_mpol", "alloc_pages_bulk", "__alloc_pages_bulk",
               "filemap_alloc_folio")
PAGE_EXACT = {"get_page_from_freelist", "alloc_slab_page", "allocate_slab", "new_slab"}


def key(name):
    """The name compared: gcc clone suffixes and _noprof dropped."""
    name = re.sub(r"\.(cold|constprop\.\d+|isra\.\d+|part\.\d+|\d+).*$", "", name)
    if name.endswith("_noprof") and len(name) > 7:
        name = name[:-7]
    return name


def is_allocator(k):
    return (k.startswith(TRACING_PREFIX) or k in TRACING_EXACT or k.startswith(SLAB_PREFIX)
            or k in SLAB_EXACT or k.startswith(PAGE_PREFIX) or k in PAGE_EXACT)


def read_wrappers(paths):
    """Names (compared by key) and globs (fnmatch, on the key) of the lists."""
    names, globs = set(), []
    for path in paths:
        for line in open(path):
            line = line.split("#")[0].strip()
            if any(c in line for c in "*?["):
                globs.append(line)
            elif line:
                names.add(key(line))
    return names, globs


def is_wrapper(k, wrappers):
    names, globs = wrappers
    return k in names or any(fnmatch.fnmatchcase(k, g) for g in globs)


def frame_of(line, user_frames):
    """(kind, name) of a frame line, or None: kind 'k' kernel, 'u' user."""
    if line.startswith("\t"):  # perf: ADDRESS SYMBOL+OFF (DSO)
        m = re.match(r"^\s+([0-9a-fA-F]+) (.*) \((.*)\)$", line)
        if not m:
            return ("bad", None)
        addr, sym, dso = int(m.group(1), 16), m.group(2), m.group(3)
        user_dsos = {"[vdso]", "[vsyscall]", "[heap]", "[stack]", "[anon]", "[unknown]",
                     "[uprobes]", "[vvar]"}
        kernel = addr >= 1 << 63 or (dso.startswith("[") and dso.endswith("]")
                                     and dso not in user_dsos)
        if not kernel and not user_frames:
            return ("u", None)
        if sym == "[unknown]":
            if kernel:
                sym = m.group(1)
            elif dso.startswith("[") and dso.endswith("]"):
                sym = dso
            else:
                sym = "[" + dso.rsplit("/", 1)[-1] + "]"
        elif "+" in sym[1:]:
            sym = sym[:sym.index("+", 1)]
        return ("k" if kernel else "u", sym)
    m = re.match(r"^ *=> *(\S+)", line)
    if not m:
        return None
    tok = m.group(1)
    if tok.startswith("<") and tok.endswith(">"):
        tok = tok[1:-1]
    if "+" in tok[1:]:
        tok = tok[:tok.index("+", 1)]
    return ("k", tok)


def parse(path, user_frames):
    """The log's events in order, each a dict with its stack (list of names, leaf first)."""
    events = []
    waiting = {}          # cpu -> [event index, ...] (None for other events)
    counts = dict(blocks=0, kmem_paired=0, other_paired=0, orphans=0)
    block = None          # ["entry", cpu, frames, bad] or ["chain", event index or None, ...]
    last_event = False    # index of the event on the line just above (None: another event)

    def close():
        nonlocal block
        if block is None:
            return
        kind, owner, frames, bad = block
        block = None
        if kind == "user" or (kind == "chain" and not frames and not bad):
            return
        counts["blocks"] += 1
        stack = None if bad or not frames else tuple(frames)
        if kind == "chain":
            target = owner
        else:
            lst = waiting.get(owner, [])
            if not lst:
                counts["orphans"] += stack is not None
                return
            target = lst.pop()
        if stack is None:
            return
        if target is None:
            counts["other_paired"] += 1
        else:
            events[target]["stack"] = stack
            counts["kmem_paired"] += 1

    for raw in open(path, encoding="latin-1").read().split("\n"):
        line = raw.rstrip("\r")
        if line.startswith("\t") or re.match(r"^ *=>", line):
            f = frame_of(line, user_frames)
            if block is None and line.startswith("\t") and last_event is not False:
                block = ["chain", last_event, [], False]
            last_event = False
            if block is None or f is None:
                continue
            if block[0] == "user":
                continue
            if f[0] == "bad":
                block[3] = True
            elif f[0] == "u":
                if f[1] is not None:
                    if "--" not in block[2]:
                        block[2].append("--")
                    block[2].append(f[1])
            else:
                block[2].append(f[1])
            continue
        close()
        last_event = False
        lost = re.match(r"^CPU:(\d+) \[LOST \d+ EVENTS\]", line)
        started = re.match(r"^#+ CPU (\d+) buffer started", line)
        if lost or started:
            waiting[int((lost or started).group(1))] = []
            continue
        m = LINE.match(line)
        if not m or line.startswith("#"):
            continue
        cm = CPU.search(m.group("pre"))
        cpu = int(cm.group(1)) if cm else -1
        name = m.group("name")
        if name.startswith("kmem:"):
            name = name[5:]
        if name.startswith("<"):
            block = ["user" if name.startswith("<user") else "entry", cpu, [], False]
            continue
        if name in ("kernel_stack", "ftrace:kernel_stack"):
            block = ["entry", cpu, [], False]
            continue
        if name in ("user_stack", "ftrace:user_stack"):
            block = ["user", cpu, [], False]
            continue
        fields = dict(FIELD.findall(m.group("rest")))
        idx = None
        if name in KMEM and ("ptr" in fields or "page" in fields or "pfn" in fields):
            idx = len(events)
            events.append(dict(name=name, fields=fields, stack=None))
        waiting.setdefault(cpu, []).append(idx)
        last_event = idx
    close()
    with_stack = sum(1 for e in events if e["stack"] is not None)
    counts["events_with"] = with_stack
    counts["events_without"] = len(events) - with_stack
    return events, counts


def pointer(text):
    if text in ("(nil)", "(null)"):
        return 0
    return int(text, 16)


def site_function(site):
    return site.split(" ")[0].split("+")[0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--wrappers", action="append", default=[])
    ap.add_argument("--user-frames", action="store_true")
    a = ap.parse_args()
    here = __file__.rsplit("/", 1)[0]
    wrappers = read_wrappers([here + "/../../data/wrappers.txt"] + a.wrappers)
    events, counts = parse(a.log, a.user_frames)

    def origin(ev):
        for f in ev["stack"] or ():
            if f == "--":
                break
            k = key(f)
            if not is_allocator(k) and not is_wrapper(k, wrappers):
                return k
        site = ev["fields"].get("call_site")
        return key(site_function(site)) if site else "(no stack)"

    def folded(ev):
        st = ev["stack"] or ()
        if "--" in st:
            kern, user = list(st[:st.index("--")]), list(st[st.index("--") + 1:])
        else:
            kern, user = list(st), []
        frames = list(reversed(user)) + [f for f in reversed(kern) if not is_allocator(key(f))]
        if frames:
            return ";".join(f.replace(";", ":").replace(" ", "_").replace("\t", "_") for f in frames)
        site = ev["fields"].get("call_site")
        return "[no_stack]" + (";" + site_function(site).replace(";", ":").replace(" ", "_") if site else "")

    live = {}            # ptr -> (key, bytes_alloc, bytes_req)
    per_key = {}         # (origin, folded) -> dict
    for ev in events:
        f = ev["fields"]
        if ev["name"] in SLAB_ALLOC:
            try:
                ptr, req, alloc = pointer(f["ptr"]), int(f["bytes_req"]), int(f["bytes_alloc"])
            except (KeyError, ValueError):
                continue
            if ptr == 0 or "call_site" not in f:
                continue
            k = (origin(ev), folded(ev))
            s = per_key.setdefault(k, dict(total=0, live=0, req_live=0, allocs=0, frees=0))
            if ptr in live:  # implicit free: no free credited
                ok, oalloc, oreq = live.pop(ptr)
                per_key[ok]["live"] -= oalloc
                per_key[ok]["req_live"] -= oreq
            s["total"] += alloc
            s["live"] += alloc
            s["req_live"] += req
            s["allocs"] += 1
            live[ptr] = (k, alloc, req)
        elif ev["name"] in SLAB_FREE:
            try:
                ptr = pointer(f["ptr"])
            except (KeyError, ValueError):
                continue
            if ptr in live:
                ok, oalloc, oreq = live.pop(ptr)
                per_key[ok]["live"] -= oalloc
                per_key[ok]["req_live"] -= oreq
                per_key[ok]["frees"] += 1

    origins = {}
    fold = {w: {} for w in ("bytes", "live", "waste", "count")}
    for (o, line), s in per_key.items():
        r = origins.setdefault(o, dict(total=0, live=0, req_live=0, allocs=0, frees=0))
        for x in r:
            r[x] += s[x]
        for w, v in (("bytes", s["total"]), ("live", s["live"]),
                     ("waste", max(s["live"] - s["req_live"], 0)), ("count", s["allocs"])):
            fold[w][line] = fold[w].get(line, 0) + v
    for w in fold:
        fold[w] = {line: v for line, v in fold[w].items() if v > 0}

    # pages, matched by pfn (or the page pointer without one)
    page_live = {}
    page_keys = {}
    for ev in events:
        f = ev["fields"]
        if ev["name"] not in ("mm_page_alloc", "mm_page_free", "mm_page_free_batched",
                              "mm_page_free_direct", "mm_pagevec_free"):
            continue
        pfn = f.get("pfn")
        where = int(pfn, 16) if pfn and pfn.startswith("0x") else (int(pfn) if pfn else 0)
        if not where:
            where = pointer(f.get("page", "0"))
        order = int(f.get("order", "0"))
        if ev["name"] == "mm_page_alloc":
            if not where:
                continue
            k = (origin(ev), folded(ev))
            s = page_keys.setdefault(k, dict(allocs=0, pages=0, live_pages=0))
            if where in page_live:
                ok, opages = page_live.pop(where)
                page_keys[ok]["live_pages"] -= opages
            s["allocs"] += 1
            s["pages"] += 1 << order
            s["live_pages"] += 1 << order
            page_live[where] = (k, 1 << order)
        elif where in page_live:
            ok, opages = page_live.pop(where)
            page_keys[ok]["live_pages"] -= opages
    page_origins = {}
    folded_pages = {}
    for (o, line), s in page_keys.items():
        r = page_origins.setdefault(o, dict(allocs=0, pages=0, live_pages=0))
        for x in r:
            r[x] += s[x]
        folded_pages[line] = folded_pages.get(line, 0) + s["pages"] * 4096
    json.dump(dict(stacks=counts, origins=origins, page_origins=page_origins, folded=fold,
                   folded_pages=folded_pages), sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
