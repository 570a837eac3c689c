#!/usr/bin/env python3
"""check_layers.py [ROOT]: no file of src/ or include/ includes a header of a
stage above its own (docs/HACKING.md draws the stages), and no header
includes itself through others (the include graph has no circle). A source's stage is
its folder under src/ (src/input/text/text_parse.c is input's); a header's
is that of the .c of its name; the few headers without one are listed
here. Prints each include that points up and exits 1, or says how many
includes it checked."""
import glob
import os
import re
import sys

ORDER = ["base", "kernel", "input", "analysis", "store", "capture", "engine", "report", "cmd"]
NO_SOURCE = {"options.h": "report", "engine_local.h": "engine", "request.h": "engine", "capture.h": "capture", "commands.h": "cmd",
             "capture_local.h": "capture"}


def include_circles(root):
    """Headers that include themselves through others: each circle once."""
    headers = glob.glob(os.path.join(root, "include/*.h")) + \
        glob.glob(os.path.join(root, "src/*/*.h"))
    graph = {os.path.basename(h): re.findall(r'#include "([a-z_]+\.h)"', open(h).read())
             for h in headers}
    found, state = [], {}

    def visit(h, path):
        state[h] = 1
        for n in graph.get(h, []):
            if state.get(n) == 1:
                found.append("include circle: " + " -> ".join(path[path.index(n):] + [n]))
            elif n in graph and not state.get(n):
                visit(n, path + [n])
        state[h] = 2
    for h in sorted(graph):
        if not state.get(h):
            visit(h, [h])
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    home = dict(NO_SOURCE)
    sources = glob.glob(os.path.join(root, "src/*/*.c")) + glob.glob(os.path.join(root, "src/*/*/*.c"))
    # a source's stage is the folder under src/ (src/input/text/x.c: input)
    stage_of = {c: os.path.relpath(c, os.path.join(root, "src")).split(os.sep)[0] for c in sources}
    for c in sources:
        home[os.path.basename(c)[:-2] + ".h"] = stage_of[c]
    rank = {d: i for i, d in enumerate(ORDER)}
    files = [(c, stage_of[c]) for c in sources]
    files += [(h, home.get(os.path.basename(h))) for h in glob.glob(os.path.join(root, "include/*.h"))]
    bad, checked = [], 0
    for path, stage in files:
        if stage not in rank:
            bad.append("%s: no stage (add it to check_layers.py)" % path)
            continue
        for h in re.findall(r'#include "([a-z_]+\.h)"', open(path).read()):
            checked += 1
            if home.get(h) not in rank:
                bad.append("%s includes %s, which has no stage" % (path, h))
            elif rank[home[h]] > rank[stage]:
                bad.append("%s (%s) includes %s (%s): up a stage" % (path, stage, h, home[h]))
    bad += include_circles(root)
    for b in bad:
        print(b)
    if not bad:
        print("%d includes checked: none points up, no header includes itself through others"
              % checked)
    return 1 if bad else 0


sys.exit(main())
