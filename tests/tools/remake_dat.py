#!/usr/bin/env python3
"""remake_dat.py MODE IN.dat OUT.dat: a trace.dat of version 7 remade to
test what its reader does with a layout trace-cmd seldom or never writes.

  compress-options   the last options section moved to the file's end as a
                     compressed section (flag 1: its block made by the zstd
                     or gzip command for the file's compression), the
                     section before it pointed there; a valid file that
                     libtracecmd reads, trace-cmd only ever writes them plain
  damage-first-page  the first non-empty CPU's first page says its data is
                     larger than a page (an uncompressed IN)
  damage-first-chunk the first non-empty CPU's first compressed chunk
                     garbled (a compressed IN)
  damage-page        the first non-empty CPU's fourth page says it holds
                     134 MB and a lost-events count after them (an
                     uncompressed IN); libtraceevent reads that count first
  huge-kallsyms      the kallsyms section says its text is 4 GB (an
                     uncompressed IN); libtracecmd allocates that first

The layout is trace-cmd.dat.v7(5)'s, little-endian only."""
import struct
import subprocess
import sys


def u(d, at, n):
    return int.from_bytes(d[at:at + n], "little")


def cstring(d, at):
    end = d.index(b"\0", at)
    return d[at:end].decode(), end + 1


def header(d):
    if d[:10] != b"\x17\x08Dtracing" or d[10:12] != b"7\0":
        raise SystemExit("remake_dat.py: not a trace.dat of version 7")
    at = 12 + 2 + 4
    compression, at = cstring(d, at)
    _, at = cstring(d, at)
    return compression, u(d, at, 8)


def options_sections(d, first):
    """(offset, size, [(id, option offset, len)]) of each plain options section."""
    out, off = [], first
    while off:
        flags, size = u(d, off + 2, 2), u(d, off + 8, 8)
        if flags & 1:
            raise SystemExit("remake_dat.py: compressed options already")
        at, end, opts, nxt = off + 16, off + 16 + size, [], 0
        while at < end:
            oid, length = u(d, at, 2), u(d, at + 2, 4)
            opts.append((oid, at + 6, length))
            if oid == 0:
                nxt = u(d, at + 6, 8) if length >= 8 else 0
                break
            at += 6 + length
        out.append((off, size, opts))
        off = nxt
    return out


def first_cpu_data(d, sections):
    for _, _, opts in sections:
        for oid, at, _ in opts:
            if oid != 3:
                continue
            at += 8
            _, at = cstring(d, at)
            _, at = cstring(d, at)
            at += 4
            cpus = u(d, at, 4)
            at += 4
            for _ in range(cpus):
                off, size = u(d, at + 4, 8), u(d, at + 12, 8)
                if size:
                    return off
                at += 20
    raise SystemExit("remake_dat.py: no CPU holds data")


def compress(compression, data):
    tool = {"zstd": ["zstd", "-q", "-c"], "zlib": None}.get(compression)
    if tool is None:
        raise SystemExit("remake_dat.py: only zstd files are remade")
    return subprocess.run(tool, input=data, stdout=subprocess.PIPE, check=True).stdout


def compress_options(d):
    compression, first = header(d)
    sections = options_sections(d, first)
    if len(sections) < 2:
        raise SystemExit("remake_dat.py: one options section only")
    last_off, last_size, _ = sections[-1]
    _, _, before = sections[-2]
    done = [at for oid, at, _ in before if oid == 0][0]
    plain = d[last_off + 16:last_off + 16 + last_size]
    block = compress(compression, plain)
    body = struct.pack("<II", len(block), len(plain)) + block
    new_off = len(d)
    out = bytearray(d)
    out[done:done + 8] = struct.pack("<Q", new_off)
    out += d[last_off:last_off + 2] + struct.pack("<H", 1) + d[last_off + 4:last_off + 8]
    out += struct.pack("<Q", len(body)) + body
    return bytes(out)


def section_of(d, sections, option):
    for _, _, opts in sections:
        for oid, at, length in opts:
            if oid == option and length >= 8:
                return u(d, at, 8)
    raise SystemExit("remake_dat.py: no section of option %d" % option)


def damage(d, mode):
    compression, first = header(d)
    sections = options_sections(d, first)
    out = bytearray(d)
    if mode == "huge-kallsyms":
        sec = section_of(d, sections, 19)
        if u(d, sec + 2, 2) & 1:
            raise SystemExit("remake_dat.py: the kallsyms section is compressed")
        out[sec + 16:sec + 20] = struct.pack("<I", 0xFFFFFF00)
        return bytes(out)
    off = first_cpu_data(d, sections)
    if mode == "damage-page":
        if compression != "none":
            raise SystemExit("remake_dat.py: a compressed file has chunks, not pages")
        page = off + 3 * u(d, 14, 4)
        out[page + 8:page + 16] = struct.pack("<Q", 0x130FFFFFFFF82)
        return bytes(out)
    if mode == "damage-first-page":
        if compression != "none":
            raise SystemExit("remake_dat.py: a compressed file has chunks, not pages")
        out[off + 8:off + 16] = struct.pack("<Q", 1 << 20)
    else:
        if compression == "none":
            raise SystemExit("remake_dat.py: an uncompressed file has no chunks")
        zsize = u(d, off + 4, 4)
        for i in range(off + 12, off + 12 + zsize):
            out[i] ^= 0x5A
    return bytes(out)


def main():
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    mode, src, dst = sys.argv[1:]
    d = open(src, "rb").read()
    if mode == "compress-options":
        out = compress_options(d)
    elif mode in ("damage-first-page", "damage-first-chunk", "damage-page", "huge-kallsyms"):
        out = damage(d, mode)
    else:
        raise SystemExit(__doc__)
    open(dst, "wb").write(out)


main()
