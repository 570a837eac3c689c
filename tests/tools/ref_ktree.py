#!/usr/bin/env python3
"""ref_ktree.py - an independent view of a built kernel tree, from binutils'
readelf output (not libelf), for the tests of trace_analyze's tree walk.

  ref_ktree.py static TREE   CSV "dir,objects,text,data,rodata,bss" per
                             top-level directory ('.' for objects at the top)
  ref_ktree.py defs TREE     "function object" per FUNC definition
  ref_ktree.py symbols TREE  "name size" per symbol name: the sizes of its sized
                             FUNC, OBJECT, TLS and COMMON symbols, summed
                             (bloat-o-meter's rows)
  ref_ktree.py objects TREE  "object text data rodata bss" per object

Objects taken: '*.o' with a '.c' or '.S' beside it, not under the top-level
scripts/ or tools/, nor under arch/<arch>/boot/ (the boot decompressor and
setup code, not linked into vmlinux), not built-in.*, vmlinux.o or *.mod.o (trace_analyze's
rule, DESIGN.md). Sizes: sized FUNC symbols are text; sized OBJECT/TLS
symbols are bss in a NOBITS section or COMMON, data in a writable section,
text in an executable one, else rodata; one symbol per (section, value).
"""
import concurrent.futures
import os
import re
import subprocess
import sys


def objects(tree):
    for root, dirs, files in os.walk(tree):
        rel = os.path.relpath(root, tree)
        if rel == '.':
            dirs[:] = [d for d in dirs if d not in ('scripts', 'tools')]
        parts = rel.split(os.sep)
        if len(parts) == 2 and parts[0] == 'arch':
            dirs[:] = [d for d in dirs if d != 'boot']
        names = set(files)
        for f in files:
            if not f.endswith('.o') or f.startswith('built-in.') or f == 'vmlinux.o' \
                    or f.endswith('.mod.o'):
                continue
            stem = f[:-2]
            if stem + '.c' in names or stem + '.S' in names:
                yield os.path.normpath(os.path.join(rel, f))


def readelf(path, flag):
    r = subprocess.run(['readelf', '-W', flag, path], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


SECTION = re.compile(r'^\s*\[\s*(\d+)\]\s+(\S*)\s+(\S+)\s+[0-9a-f]+\s+[0-9a-f]+\s+[0-9a-f]+'
                     r'\s+[0-9a-f]+\s+([A-Za-z]*)\s')


def section_kinds(text):
    kinds = {}
    for line in text.splitlines():
        m = SECTION.match(line)
        if not m:
            continue
        idx, _name, stype, flags = int(m.group(1)), m.group(2), m.group(3), m.group(4)
        if stype == 'NOBITS':
            kinds[idx] = 'bss'
        elif 'W' in flags:
            kinds[idx] = 'data'
        elif 'X' in flags:
            kinds[idx] = 'text'
        else:
            kinds[idx] = 'rodata'
    return kinds


def symbols(text):
    """(value, size, type, ndx, name) of each symbol-table line."""
    for line in text.splitlines():
        f = line.split()
        if len(f) < 8 or not f[0].endswith(':') or not f[0][:-1].isdigit():
            continue
        try:
            value, size = int(f[1], 16), int(f[2], 0)
        except ValueError:
            continue
        yield value, size, f[3], f[6], f[7]


def scan(tree, rel):
    path = os.path.join(tree, rel)
    sections = readelf(path, '-S')
    syms = readelf(path, '-s')
    if sections is None or syms is None or 'Symbol table' not in syms:
        return rel, None, [], {}
    kinds = section_kinds(sections)
    sized = {}
    funcs = []
    named = {}
    for i, (value, size, stype, ndx, name) in enumerate(symbols(syms)):
        if stype not in ('FUNC', 'OBJECT', 'TLS') or ndx in ('UND', 'ABS'):
            continue
        if stype == 'FUNC' and ndx != 'COM':
            funcs.append(name)
        if size == 0:
            continue
        if stype != 'FUNC' or ndx != 'COM':
            named[name] = named.get(name, 0) + size
        if ndx == 'COM':
            if stype != 'FUNC':
                sized[('COM', i)] = (size, 'bss')
            continue
        kind = 'text' if stype == 'FUNC' else kinds.get(int(ndx))
        key = (int(ndx), value)
        if key not in sized or sized[key][0] < size:
            sized[key] = (size, kind)
    totals = {'text': 0, 'data': 0, 'rodata': 0, 'bss': 0}
    for size, kind in sized.values():
        totals[kind] += size
    return rel, totals, funcs, named


def scan_all(tree):
    rels = sorted(objects(tree))
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(lambda r: scan(tree, r), rels))


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ('static', 'defs', 'symbols', 'objects'):
        sys.exit(__doc__)
    what, tree = sys.argv[1], sys.argv[2]
    results = scan_all(tree)
    if what == 'static':
        per_dir = {}
        for rel, totals, _, _ in results:
            if totals is None:
                continue
            top = rel.split('/', 1)[0] if '/' in rel else '.'
            d = per_dir.setdefault(top, [0, 0, 0, 0, 0])
            d[0] += 1
            for i, k in enumerate(('text', 'data', 'rodata', 'bss')):
                d[i + 1] += totals[k]
        for top in sorted(per_dir):
            print(','.join([top] + [str(v) for v in per_dir[top]]))
    elif what == 'defs':
        for rel, totals, funcs, _ in results:
            if totals is None:
                continue
            for name in funcs:
                print(name, rel)
    elif what == 'symbols':
        sizes = {}
        for rel, totals, _, named in results:
            if totals is None:
                continue
            for name, size in named.items():
                sizes[name] = sizes.get(name, 0) + size
        for name in sorted(sizes):
            print(name, sizes[name])
    else:
        for rel, totals, _, _ in results:
            if totals is not None:
                print(rel, totals['text'], totals['data'], totals['rodata'], totals['bss'])


if __name__ == '__main__':
    main()
