#!/usr/bin/env python3
"""ref_pageowner.py FILE ALLOCATORS WRAPPERS: page_owner's dump or show_stacks counted
here, with no code of trace_analyze's: "records N", "pages N" (base pages),
for a dump "order O MIGRATETYPE N" (page blocks of each), then
"origin NAME PAGES" for every origin, most pages first: the first frame of
a stack that is none of ALLOCATORS' or WRAPPERS' functions
(data/allocators.txt, data/wrappers.txt: names and globs), its clone suffix (.constprop.0, .isra.0, .part.0, .cold) and
_noprof dropped."""
import fnmatch
import re
import sys

path = sys.argv[1]
patterns = [l.strip() for f in sys.argv[2:4] for l in open(f) if l.strip() and not l.startswith("#")]
MIGRATE = ["Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate"]


def key(frame):
    name = frame.strip().split("+")[0].split(" ")[0]
    name = re.sub(r"\.(cold|constprop\.\d+|isra\.\d+|part\.\d+|\d+).*$", "", name)
    return name[:-7] if name.endswith("_noprof") else name


def is_allocator(name):
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def origin(frames):
    for f in frames:
        k = key(f)
        if not is_allocator(k):
            return k
    return key(frames[-1]) if frames else "(no stack)"


text = open(path).read()
blocks = [b for b in text.split("\n\n") if b.strip()]
records = pages = 0
orders, origins = {}, {}
for b in blocks:
    lines = b.strip("\n").split("\n")
    if lines[0].startswith("Page allocated via order "):
        order = int(re.match(r"Page allocated via order (\d+),", lines[0]).group(1))
        mt = re.match(r"PFN \S+ type (\S+) ", lines[1]).group(1)
        frames = [l for l in lines[2:] if l.startswith(" ")]
        n = 1 << order
        orders[(order, mt)] = orders.get((order, mt), 0) + 1
    else:
        frames = [l for l in lines if l.startswith(" ")]
        n = int(lines[-1].split(":")[1])
    records += 1
    pages += n
    o = origin(frames)
    origins[o] = origins.get(o, 0) + n
print("records %d" % records)
print("pages %d" % pages)
for (o, mt), n in sorted(orders.items()):
    print("order %d %s %d" % (o, mt, n))
for o, n in sorted(origins.items(), key=lambda x: (-x[1], x[0])):
    print("origin %s %d" % (o, n))
