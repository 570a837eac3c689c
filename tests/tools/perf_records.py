#!/usr/bin/env python3
"""perf_records.py FILE [--damage TYPE | --kill OUT KEEP | --spread-ids OUT]:
the records of a
perf.data's data section (file mode), counted by type as "TYPE COUNT" lines;
with --damage, the first record of that type gets its payload's middle bytes
inverted in place; with --kill, OUT is FILE as a killed perf record leaves
it: data size 0 in the header, nothing after the data (no features, so no
event formats), and only KEEP bytes of the data section ("all" for all of
it, "mid" for up to the middle of the record that holds the data's middle
byte: always inside a record, whatever the capture's size); then "samples N" (PERF_RECORD_SAMPLE records whole in OUT) and "left B"
(bytes at its end that are no whole record); with --spread-ids, OUT is FILE
with every sample id (in the attrs' id lists and in each sample)
multiplied by 1000, so that they no longer
lie close together; then "ids N" (how many the attrs list). Written from
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
    if keep == "mid":
        at, rsize = next((a, r) for a, _t, r in records(data) if a + r > off + size // 2)
        keep = at - off + rsize // 2
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


SAMPLE_IDENTIFIER = 1 << 16
SAMPLE_ID = 1 << 6
SPREAD = 1000


def sample_id_at(sample_type):
    """Where a sample's id is: first, or after IP, TID, TIME and ADDR."""
    if sample_type & SAMPLE_IDENTIFIER:
        return 0
    assert sample_type & SAMPLE_ID, "samples without an id"
    return 8 * bin(sample_type & 0xF).count("1")


def spread_ids(data, out):
    attr_size = struct.unpack_from("<Q", data, 16)[0]
    attrs_off, attrs_size = struct.unpack_from("<QQ", data, 24)
    id_at = sample_id_at(struct.unpack_from("<Q", data, attrs_off + 24)[0])
    nids = 0
    for a in range(attrs_off, attrs_off + attrs_size, attr_size):
        ids_off, ids_size = struct.unpack_from("<QQ", data, a + attr_size - 16)
        for i in range(ids_off, ids_off + ids_size, 8):
            struct.pack_into("<Q", data, i, struct.unpack_from("<Q", data, i)[0] * SPREAD)
            nids += 1
    for at, rtype, rsize in records(data):
        if rtype == 9 and rsize >= 8 + id_at + 8:
            i = at + 8 + id_at
            struct.pack_into("<Q", data, i, struct.unpack_from("<Q", data, i)[0] * SPREAD)
    with open(out, "wb") as f:
        f.write(data)
    print("ids", nids)


def main():
    path = sys.argv[1]
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if len(sys.argv) == 5 and sys.argv[2] == "--kill":
        kill(data, sys.argv[3], sys.argv[4])
        return 0
    if len(sys.argv) == 4 and sys.argv[2] == "--spread-ids":
        spread_ids(data, sys.argv[3])
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
