#!/usr/bin/env python3
"""perf_records.py FILE [--damage TYPE | --kill OUT KEEP]: the records of a
perf.data's data section (file mode), counted by type as "TYPE COUNT" lines;
with --damage, the first record of that type gets its payload's middle bytes
inverted in place; with --kill, OUT is FILE as a killed perf record leaves
it: data size 0 in the header, nothing after the data (no features, so no
event formats), and only KEEP bytes of the data section ("all" for all of
it); then "samples N" (PERF_RECORD_SAMPLE records whole in OUT) and "left B"
(bytes at its end that are no whole record). Written from
perf.data-file-format.txt for the tests; not the tool's reader."""
import struct
import sys


def records(data):
    magic, hsize = struct.unpack_from("<8sQ", data, 0)
    assert magic == b"PERFILE2" and hsize >= 104, "not a perf.data in file mode"
    off, size = struct.unpack_from("<QQ", data, 40)
    at, end = off, off + size
    while end - at >= 8:
        rtype, _misc, rsize = struct.unpack_from("<IHH", data, at)
        if rsize < 8 or rsize > end - at:
            break
        yield at, rtype, rsize
        at += rsize


def kill(data, out, keep):
    off, size = struct.unpack_from("<QQ", data, 40)
    keep = size if keep == "all" else min(int(keep), size)
    killed = bytearray(data[:off + keep])
    struct.pack_into("<Q", killed, 48, 0)
    with open(out, "wb") as f:
        f.write(killed)
    samples, at = 0, off
    for at_, rtype, rsize in records(data):
        if at_ + rsize > off + keep:
            break
        samples += rtype == 9
        at = at_ + rsize
    print("samples", samples)
    print("left", off + keep - at)


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if len(sys.argv) == 5 and sys.argv[2] == "--kill":
        kill(data, sys.argv[3], sys.argv[4])
        return 0
    if len(sys.argv) == 4 and sys.argv[2] == "--damage":
        want = int(sys.argv[3])
        for at, rtype, rsize in records(data):
            if rtype == want and rsize > 32:
                mid = at + rsize // 2
                for i in range(mid - 8, mid + 8):
                    data[i] ^= 0xFF
                with open(path, "wb") as f:
                    f.write(data)
                return 0
        print("no record of type %d" % want, file=sys.stderr)
        return 1
    counts = {}
    for _at, rtype, _rsize in records(data):
        counts[rtype] = counts.get(rtype, 0) + 1
    for rtype in sorted(counts):
        print(rtype, counts[rtype])
    return 0


sys.exit(main())
