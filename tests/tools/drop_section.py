#!/usr/bin/env python3
"""drop_section.py IN OUT ID: copy a trace_analyze binary file (DB or
kernel index, the container of include/binfile.h) without its section ID,
its table and checksums made again as the writer makes them (XXH3-64 from
libxxhash, which trace_analyze itself links). The bytes of the dropped
section stay where they were, unreferenced. Tests use it to make a file
of an older format: a kernel index from before a section existed."""
import ctypes
import ctypes.util
import struct
import sys

lib = ctypes.CDLL(ctypes.util.find_library("xxhash") or "libxxhash.so.0")
lib.XXH3_64bits.restype = ctypes.c_uint64
lib.XXH3_64bits.argtypes = [ctypes.c_char_p, ctypes.c_size_t]


def xxh3(data):
    return lib.XXH3_64bits(data, len(data))


def main():
    src, dst, drop = sys.argv[1], sys.argv[2], int(sys.argv[3])
    d = bytearray(open(src, "rb").read())
    nsec, = struct.unpack_from("<I", d, 24)
    table, = struct.unpack_from("<Q", d, 32)
    entries = [d[table + 32 * i: table + 32 * (i + 1)] for i in range(nsec)]
    kept = [e for e in entries if struct.unpack_from("<I", e, 0)[0] != drop]
    if len(kept) == len(entries):
        sys.exit(f"drop_section.py: {src} has no section {drop}")
    out = d[:table] + b"".join(kept)
    struct.pack_into("<I", out, 24, len(kept))
    struct.pack_into("<Q", out, 40, len(out))
    struct.pack_into("<Q", out, 48, xxh3(bytes(b"".join(kept))))
    struct.pack_into("<Q", out, 56, xxh3(bytes(out[:56])))
    open(dst, "wb").write(out)


main()
