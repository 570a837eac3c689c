#!/usr/bin/env python3
"""ref_bloat.py OLD NEW: the kernel's scripts/bloat-o-meter rules, written
again from its description for the tests (an independent check of
`trace_analyze diff --static`): each side's symbols as `nm --size-sort`
lists them, of the types tTdDbBrR, generated ones (__mod_, __se_sys,
__se_compat_sys, __addressable_, linux_banner, vermagic) left out, every
".NUMBER" taken out of the names, sizes summed by name. OLD and NEW are
ELF files, or trees whose objects (".o" beside a ".c" or ".S", but for
arch/*/boot, scripts/ and tools/) are all read. Prints bloat-o-meter's
first line, a "name old new delta" line per changed symbol in its order,
and its Total line."""
import os
import re
import subprocess
import sys

NUMBER = re.compile(r"\.[0-9]+")
LEFT_OUT = ("__mod_", "__se_sys", "__se_compat_sys", "__addressable_")


def objects(path):
    if os.path.isfile(path):
        return [path]
    found = []
    for root, _, files in os.walk(path):
        for f in files:
            stem = f[:-2]
            if f.endswith(".o") and not f.startswith("built-in.") and f != "vmlinux.o" \
                    and not f.endswith(".mod.o") and (stem + ".c" in files or stem + ".S" in files):
                found.append(os.path.join(root, f))
    # not in vmlinux: arch/<arch>/boot (the decompressor, real-mode setup),
    # scripts/ and tools/ (programs of the build host)
    host = re.compile(re.escape(path.rstrip("/")) + r"/(arch/[^/]+/boot|scripts|tools)/")
    return sorted(f for f in found if not host.match(f))


def sizes(path):
    sym = {}
    objs = objects(path)
    for at in range(0, len(objs), 500):   # nm names each file in a "FILE:" line
        out = subprocess.run(["nm", "--size-sort"] + objs[at:at + 500],
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            if not line or ":" in line:
                continue
            size, kind, name = line.split()
            if kind not in "tTdDbBrR":
                continue
            if name.startswith(LEFT_OUT) or name in ("linux_banner", "vermagic"):
                continue
            name = NUMBER.sub("", name)
            sym[name] = sym.get(name, 0) + int(size, 16)
    return sym


def main():
    old, new = sizes(sys.argv[1]), sizes(sys.argv[2])
    grow = shrink = add = remove = up = down = 0
    delta = []
    for name in old:
        if name not in new:
            remove += 1
            down += old[name]
            delta.append((-old[name], name))
    for name in new:
        if name not in old:
            add += 1
            up += new[name]
            delta.append((new[name], name))
    for name in old:
        if name in new:
            d = new[name] - old[name]
            if d > 0:
                grow, up = grow + 1, up + d
            if d < 0:
                shrink, down = shrink + 1, down - d
            delta.append((d, name))
    delta.sort(reverse=True)
    print("add/remove: %s/%s grow/shrink: %s/%s up/down: %s/%s (%s)"
          % (add, remove, grow, shrink, up, -down, up - down))
    for d, name in delta:
        if d:
            print(name, old.get(name, "-"), new.get(name, "-"), "%+d" % d)
    otot, ntot = sum(old.values()), sum(new.values())
    percent = (ntot - otot) * 100.0 / otot if otot else 0
    print("Total: Before=%d, After=%d, chg %+.2f%%" % (otot, ntot, percent))


main()
