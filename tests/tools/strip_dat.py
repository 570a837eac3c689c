#!/usr/bin/env python3
"""strip_dat.py IN.dat OUT.dat [PAGES [SYSTEMS]]: a trace.dat of version 6
made small for fixtures and fuzz seeds: its kallsyms emptied (call sites
then stay addresses unless --kallsyms names them), with PAGES (a number, or
"all") each CPU cut to its first PAGES pages, with SYSTEMS (kmem,sched) the
event formats of those systems only. Everything else is copied as it is;
the layout is trace-cmd.dat.v6(5)'s."""
import struct
import sys


class Reader:
    def __init__(self, data):
        self.d, self.at = data, 0

    def take(self, n):
        b = self.d[self.at:self.at + n]
        if len(b) != n:
            raise SystemExit("strip_dat.py: the file is cut short")
        self.at += n
        return b

    def u16(self):
        return struct.unpack("<H", self.take(2))[0]

    def u32(self):
        return struct.unpack("<I", self.take(4))[0]

    def u64(self):
        return struct.unpack("<Q", self.take(8))[0]

    def cstr(self):
        end = self.d.index(b"\0", self.at)
        s = self.d[self.at:end + 1]
        self.at = end + 1
        return s


def main():
    src, dst = sys.argv[1], sys.argv[2]
    pages = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[3] != "all" else None
    keep = sys.argv[4].encode().split(b",") if len(sys.argv) > 4 else None
    r = Reader(open(src, "rb").read())
    out = bytearray()
    out += r.take(10)
    version = r.cstr()
    if version != b"6\0":
        raise SystemExit("strip_dat.py: only version 6 (trace-cmd convert --file-version 6)")
    out += version + r.take(2)
    page_size = r.u32()
    out += struct.pack("<I", page_size)
    for _ in range(2):			# header_page, header_event
        label = r.cstr()
        n = r.u64()
        out += label + struct.pack("<Q", n) + r.take(n)
    n = r.u32()				# ftrace formats
    out += struct.pack("<I", n)
    for _ in range(n):
        size = r.u64()
        out += struct.pack("<Q", size) + r.take(size)
    systems = r.u32()
    kept = bytearray()
    nkept = 0
    for _ in range(systems):
        name = r.cstr()
        n = r.u32()
        formats = [r.take(r.u64()) for _ in range(n)]
        if keep is not None and name[:-1] not in keep:
            continue
        nkept += 1
        kept += name + struct.pack("<I", n)
        for f in formats:
            kept += struct.pack("<Q", len(f)) + f
    out += struct.pack("<I", nkept) + kept
    r.take(r.u32())				# kallsyms: dropped
    out += struct.pack("<I", 0)
    n = r.u32()				# printk formats
    out += struct.pack("<I", n) + r.take(n)
    n = r.u64()				# cmdlines
    out += struct.pack("<Q", n) + r.take(n)
    cpus = r.u32()
    out += struct.pack("<I", cpus)
    label = r.take(10)
    out += label
    if label == b"options  \0":
        while True:
            opt = r.u16()
            out += struct.pack("<H", opt)
            if opt == 0:
                break
            size = r.u32()
            out += struct.pack("<I", size) + r.take(size)
        label = r.take(10)
        out += label
    if label != b"flyrecord\0":
        raise SystemExit("strip_dat.py: not a flyrecord trace.dat")
    table = [(r.u64(), r.u64()) for _ in range(cpus)]
    chunks = []
    for off, size in table:
        if pages is not None:
            size = min(size, pages * page_size)
        chunks.append(r.d[off:off + size])
    at = len(out) + 16 * cpus
    at = (at + page_size - 1) // page_size * page_size
    for c in chunks:
        out += struct.pack("<QQ", at if c else 0, len(c))
        at += len(c)
    out += b"\0" * ((-len(out)) % page_size)
    for c in chunks:
        out += c
    open(dst, "wb").write(out)


main()
