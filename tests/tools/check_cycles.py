#!/usr/bin/env python3
"""check_cycles.py BUILD_OBJ_DIR: the program's files as a graph, a file
pointing to each file whose functions or data it uses (read off the objects
with nm: the symbols each leaves undefined, and where they are defined),
and no circle in it: a file is read, tested and changed without the files it
calls calling it back. Prints each circle and exits 1, or says how many
files and arrows it checked."""
import glob
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", "--defined-only", "-g", obj], capture_output=True,
                         text=True, check=True).stdout
    defined = {l.split()[-1] for l in out.splitlines() if l.strip()}
    out = subprocess.run(["nm", "-u", obj], capture_output=True, text=True, check=True).stdout
    used = {l.split()[-1] for l in out.splitlines() if l.strip()}
    return defined, used


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "build/obj"
    src = os.path.join(root, "..", "..", "src")
    # the objects of today's sources (a renamed file's old object may linger in build/)
    objs = sorted(o for o in glob.glob(os.path.join(root, "*", "*.o")) +
                  glob.glob(os.path.join(root, "*", "*", "*.o"))
                  if os.sep + "gen" + os.sep not in o and
                  os.path.exists(os.path.join(src, os.path.relpath(o, root)[:-2] + ".c")))
    name = {o: os.path.relpath(o, root)[:-2] + ".c" for o in objs}
    where, uses = {}, {}
    for o in objs:
        d, u = symbols(o)
        for s in d:
            where[s] = name[o]
        uses[name[o]] = u
    graph = {f: sorted({where[s] for s in u if s in where and where[s] != f})
             for f, u in uses.items()}
    arrows = sum(len(v) for v in graph.values())
    # Tarjan's strongly connected components: a circle is one of two files or more
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    for c in comps:
        inner = ["%s -> %s" % (a, b) for a in c for b in graph[a] if b in c]
        print("circle: " + ", ".join(c) + " (" + "; ".join(inner) + ")")
    if not comps:
        print("%d files, %d arrows: no circle" % (len(graph), arrows))
    return 1 if comps else 0


sys.exit(main())
