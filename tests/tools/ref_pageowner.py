#!/usr/bin/env python3
"""ref_pageowner.py FILE ALLOCATORS WRAPPERS [TREE]: page_owner's dump or show_stacks counted
here, with no code of trace_analyze's: "records N", "pages N" (base pages),
for a dump "order O MIGRATETYPE N" (page blocks of each), then
"origin NAME PAGES" for every origin, most pages first, then "module NAME
PAGES" (the origin frame's "[module]", "(unresolved)" for a bare address, else vmlinux), "comm NAME PAGES" and
"pid COMM-PID PAGES" (a dump's task; "(no task)" for show_stacks), alike: the first frame of
a stack that is none of ALLOCATORS' or WRAPPERS' functions
(data/allocators.txt, data/wrappers.txt: names and globs), its clone suffix (.constprop.0, .isra.0, .part.0, .cold) and
_noprof dropped. With TREE (a built kernel tree), "dir NAME PAGES" too: the
top directory of the objects that define the origin frame's function (nm),
"(unknown)" when none does, "(ambiguous)" when they lie in several."""
import os
import subprocess
import fnmatch
import re
import sys

path = sys.argv[1]
tree = sys.argv[4] if len(sys.argv) > 4 else None
patterns = [l.strip() for f in sys.argv[2:4] for l in open(f) if l.strip() and not l.startswith("#")]
MIGRATE = ["Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate"]


def key(frame):
    name = frame.strip().split("+")[0].split(" ")[0]
    name = re.sub(r"\.(cold|constprop\.\d+|isra\.\d+|part\.\d+|\d+).*$", "", name)
    return name[:-7] if name.endswith("_noprof") else name


def is_allocator(name):
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def origin_frame(frames):
    for f in frames:
        if not is_allocator(key(f)):
            return f
    return frames[-1] if frames else None


def origin(frames):
    f = origin_frame(frames)
    return key(f) if f else "(no stack)"


def module(frames):
    f = origin_frame(frames)
    if f is None:
        return "(no stack)"
    m = re.search(r" \[(\S+)\]$", f.rstrip())
    if re.fullmatch(r"0x[0-9a-f]+", f.strip()):
        return "(unresolved)"    # an address the kernel could not name: a module gone
    return m.group(1) if m else "vmlinux"


def definitions(tree):
    objs = []
    for d, _, files in os.walk(tree):
        objs += [os.path.join(d, f) for f in files if f.endswith(".o")]
    where = {}
    out = subprocess.run(["nm", "-A", "--defined-only"] + objs, capture_output=True, text=True).stdout
    for line in out.splitlines():
        path, _, rest = line.partition(":")
        f = rest.split()
        if len(f) == 3 and f[1] in "tTwW":
            top = os.path.relpath(path, tree).split(os.sep)[0]
            where.setdefault(f[2], set()).add(top)
    return where


def top_dir(frames, where):
    f = origin_frame(frames)
    if f is None:
        return "(no stack)"
    name = f.strip().split("+")[0].split(" ")[0]
    tops = where.get(name, set())
    return next(iter(tops)) if len(tops) == 1 else "(unknown)" if not tops else "(ambiguous)"


def add(table, k, n):
    table[k] = table.get(k, 0) + n


text = open(path).read()
blocks = [b for b in text.split("\n\n") if b.strip()]
records = pages = 0
orders, origins, modules, comms, pids, dirs = {}, {}, {}, {}, {}, {}
where = definitions(tree) if tree else None
for b in blocks:
    lines = b.strip("\n").split("\n")
    if lines[0].startswith("Page allocated via order "):
        order = int(re.match(r"Page allocated via order (\d+),", lines[0]).group(1))
        task = re.search(r", pid (-?\d+), tgid -?\d+ \((.*)\), ts ", lines[0])
        comm, pid = task.group(2), "%s-%s" % (task.group(2), task.group(1))
        mt = re.match(r"PFN \S+ type (\S+) ", lines[1]).group(1)
        frames = [l for l in lines[2:] if l.startswith(" ")]
        n = 1 << order
        orders[(order, mt)] = orders.get((order, mt), 0) + 1
    else:
        frames = [l for l in lines if l.startswith(" ")]
        n = int(lines[-1].split(":")[1])
        comm = pid = "(no task)"
    records += 1
    pages += n
    add(origins, origin(frames), n)
    add(modules, module(frames), n)
    add(comms, comm, n)
    add(pids, pid, n)
    if where is not None:
        add(dirs, top_dir(frames, where), n)
print("records %d" % records)
print("pages %d" % pages)
for (o, mt), n in sorted(orders.items()):
    print("order %d %s %d" % (o, mt, n))
for word, table in (("origin", origins), ("module", modules), ("comm", comms), ("pid", pids),
                    ("dir", dirs)):
    for o, n in sorted(table.items(), key=lambda x: (-x[1], x[0])):
        print("%s %s %d" % (word, o, n))
