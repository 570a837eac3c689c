#!/usr/bin/env python3
"""ref_allocinfo.py GROUP [--branch DIR] FILE: an independent sum of a
/proc/allocinfo snapshot, as the tests compare trace_analyze's with:
"KEY BYTES ALLOCS" per row with something live, sorted by key, then a line
"total BYTES ALLOCS". GROUP: callsite (file:line func [module]), function,
file, dir (the top component, or the one under --branch), module.
Written from the kernel's format (lib/alloc_tag.c), not from trace_analyze's
code: a regular expression per row, the rows of one key added up."""
import re
import sys

ROW = re.compile(r'^\s*(-?\d+)\s+(\d+)\s+(\S+):(\d+)(?:\s+\[(\S+)\])?\s+func:(\S+)((?:\s+\S+:\S+)*)\s*$')


def key(group, path, line, module, func, branch):
    if group == "function":
        return func + (" [%s]" % module if module else "")
    if group == "file":
        return path
    if group == "module":
        return module or "vmlinux"
    if group == "dir":
        rest = path[len(branch) + 1:] if branch else path
        first = rest.split("/")[0]
        return (branch + "/" + first) if branch else first
    return "%s:%s %s%s" % (path, line, func, " [%s]" % module if module else "")


def main():
    args = sys.argv[1:]
    group = args.pop(0)
    branch = None
    if args[0] == "--branch":
        branch = args[1].strip("/")
        args = args[2:]
    sums = {}
    for text in open(args[0]):
        m = ROW.match(text)
        if not m:
            continue
        size, calls, path, line, module, func, _ = m.groups()
        if branch and not path.startswith(branch + "/"):
            continue
        if int(size) == 0 and int(calls) == 0:
            continue
        k = key(group, path, line, module, func, branch)
        b, c = sums.get(k, (0, 0))
        sums[k] = (b + max(int(size), 0), c + int(calls))
    for k in sorted(sums):
        print(k, *sums[k])
    print("total", sum(v[0] for v in sums.values()), sum(v[1] for v in sums.values()))


main()
