#!/usr/bin/env python3
"""ref_module_names.py LOG KALLSYMS [MODULES] - an independent naming of a
log's bare addresses (call sites and stack frames) by a saved kallsyms, for
the tests: the nearest text symbol at or below; a module's symbol only while
the address lies inside that module: within /proc/modules' address + size
(each cut at the next module's start) when MODULES is given, and at most to
the end of the page after the module's last symbol (perf's bound). Prints
"ADDRESS NAME MODULE" per distinct address, NAME "(unresolved)" for the rest;
with --allocs, "MODULE COUNT" of the allocations' call sites instead."""
import bisect
import lzma
import re
import sys


def read(path):
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", errors="replace") as f:
        return f.read().splitlines()


def main(argv):
    allocs = "--allocs" in argv
    argv = [a for a in argv if a != "--allocs"]
    log, kallsyms = argv[1], argv[2]
    syms = []
    for line in read(kallsyms):
        f = line.split()
        if len(f) >= 3:
            mod = f[3].strip("[]") if len(f) >= 4 else None
            syms.append((int(f[0], 16), f[1], f[2], mod))
    syms.sort(key=lambda s: s[0])
    keys = [s[0] for s in syms]
    extents = None
    if len(argv) > 3:
        extents = []
        for line in read(argv[3]):
            f = line.split()
            extents.append([int(f[5], 16), int(f[5], 16) + int(f[1]), f[0]])
        extents.sort()
        for a, b in zip(extents, extents[1:]):
            a[1] = min(a[1], b[0])

    def name(addr):
        i = bisect.bisect_right(keys, addr) - 1
        while i > 0 and syms[i - 1][0] == syms[i][0] and syms[i][1] not in "tTwW":
            i -= 1
        if i < 0 or syms[i][1] not in "tTwW":
            return "(unresolved)", "(unresolved)"
        a, _, func, mod = syms[i]
        if mod:
            j = i + 1
            while j < len(syms) and syms[j][0] == a:
                j += 1
            last = j == len(syms) or syms[j][3] != mod
            if last and addr >= -(-(a + 4096) // 4096) * 4096:  # roundup(a + 4096, 4096)
                return "(unresolved)", "(unresolved)"
            if extents is not None:
                e = [x for x in extents if x[0] <= a < x[1]]
                if not e or e[0][2] != mod or addr >= e[0][1]:
                    return "(unresolved)", "(unresolved)"
        return "%s+0x%x" % (func, addr - a), mod or "vmlinux"

    counts = {}
    seen = {}
    alloc = re.compile(r": (kmalloc|kmalloc_node|kmem_cache_alloc|kmem_cache_alloc_node): "
                       r"call_site=0x([0-9a-f]+) ptr=(\S+)")
    for line in read(log):
        m = alloc.search(line)
        if m and allocs and not re.fullmatch(r"0+|\(null\)", m.group(3)):
            mod = name(int(m.group(2), 16))[1]
            counts[mod] = counts.get(mod, 0) + 1
        for a in re.findall(r"(?:call_site=|=> )0x([0-9a-f]+)", line):
            seen.setdefault(int(a, 16), None)
    if allocs:
        for mod in sorted(counts):
            print(mod, counts[mod])
        return 0
    for addr in sorted(seen):
        n, mod = name(addr)
        print("0x%x %s %s" % (addr, n, mod))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
