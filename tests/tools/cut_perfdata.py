#!/usr/bin/env python3
"""cut_perfdata.py IN OUT N - a perf.data (file mode) cut to the first N
records of its data section, its event formats (HEADER_TRACING_DATA) kept
but for ftrace's own and the kallsyms and printk formats that follow them
(perf and trace_analyze read the kernel's symbols elsewhere), the header
and the feature sections' table rewritten to match, so that perf and
trace_analyze read OUT as a whole file. Makes small fuzz seeds of real
captures.

Layout (tools/perf/Documentation/perf.data-file-format.txt): a 104-byte
header (magic, size, attr_size, attrs, data, event_types sections as
{offset, size}, the features bitmap of 256 bits), the data section, then
the feature sections' table, one {offset, size} per set bit, then the
sections. HEADER_TRACING_DATA (bit 1) is trace-cmd's tracing data: magic,
version, endianness, long size, page size, header_page, header_event,
ftrace's formats, each system's formats, kallsyms, printk formats, and
(version 0.6) the saved cmdlines.
"""
import struct
import sys

HEADER_TRACING_DATA = 1


def lean_tracing_data(t):
    """The tracing data without ftrace's formats, kallsyms and printk formats."""
    at = 10
    at = t.index(b'\0', at) + 1          # version
    at += 1 + 1 + 4                      # endian, long size, page size
    out = bytearray(t[:at])
    for _ in range(2):                   # header_page, header_event
        end = t.index(b'\0', at) + 1
        size = struct.unpack_from('<Q', t, end)[0]
        out += t[at:end + 8 + size]
        at = end + 8 + size
    n = struct.unpack_from('<I', t, at)[0]
    at += 4
    for _ in range(n):                   # ftrace's formats: dropped
        at += 8 + struct.unpack_from('<Q', t, at)[0]
    out += struct.pack('<I', 0)
    start = at
    systems = struct.unpack_from('<I', t, at)[0]
    at += 4
    for _ in range(systems):
        at = t.index(b'\0', at) + 1
        events = struct.unpack_from('<I', t, at)[0]
        at += 4
        for _ in range(events):
            at += 8 + struct.unpack_from('<Q', t, at)[0]
    out += t[start:at]
    out += struct.pack('<I', 0) + struct.pack('<I', 0) + struct.pack('<Q', 0)
    return bytes(out)


def main():
    src, dst, keep = sys.argv[1], sys.argv[2], int(sys.argv[3])
    b = open(src, 'rb').read()
    if b[:8] != b'PERFILE2':
        sys.exit('cut_perfdata: %s: not a perf.data (file mode)' % src)
    data_off, data_size = struct.unpack_from('<QQ', b, 40)
    bits = struct.unpack_from('<4Q', b, 72)
    feats = [i for i in range(256) if bits[i // 64] >> (i % 64) & 1]
    at, end, n = data_off, data_off + data_size, 0
    while at + 8 <= end and n < keep:
        size = struct.unpack_from('<H', b, at + 6)[0]
        if size < 8:
            sys.exit('cut_perfdata: a record of size %d at %d' % (size, at))
        at += size
        n += 1
    sections = []
    for k, feat in enumerate(feats):
        off, size = struct.unpack_from('<QQ', b, end + 16 * k)
        body = b[off:off + size]
        if feat == HEADER_TRACING_DATA:
            body = lean_tracing_data(body)
        sections.append(body)
    out = bytearray(b[:at])
    struct.pack_into('<Q', out, 48, at - data_off)
    where = at + 16 * len(feats)
    table = bytearray()
    for body in sections:
        table += struct.pack('<QQ', where, len(body))
        where += len(body)
    out += table
    for body in sections:
        out += body
    open(dst, 'wb').write(out)
    print('cut_perfdata: %d records, %d bytes (of %d)' % (n, len(out), len(b)))


main()
