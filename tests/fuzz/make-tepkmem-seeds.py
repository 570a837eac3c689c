#!/usr/bin/env python3
"""make-tepkmem-seeds.py FORMATS_DIR OUT_DIR - seeds for fuzz_tepkmem:
runs of raw records as fuzz_tepkmem.c reads them ([which event][cpu]
[length, 2 bytes LE][the record after its type]), each field where its
format says, with values a kernel writes: allocations and their frees,
named caches, pages, stacks. The event's index is its place in the
formats directory's listing, as the target reads it (readdir order is
not sorted: the index is taken modulo the count, so any order is read).
"""
import os
import re
import struct
import sys

FIELD = re.compile(r'field:(.*?)\s+(\w+)(\[\d+\])?;\s*offset:(\d+);\s*size:(\d+);\s*signed:(\d)')


def formats(d):
    out = []
    for name in os.listdir(d):     # the target's readdir order
        if not name.endswith('.format') or '-' not in name:
            continue
        fields = {}
        for m in FIELD.finditer(open(os.path.join(d, name)).read()):
            fields[m.group(2)] = (m.group(1), int(m.group(4)), int(m.group(5)))
        out.append((name[name.index('-') + 1:-len('.format')], fields))
    return out


def record(fields, values, strings=()):
    size = max(off + sz for _, off, sz in fields.values())
    b = bytearray(size)
    tail = bytearray()
    for name, v in values.items():
        if name not in fields:
            continue
        ctype, off, sz = fields[name]
        if ctype.startswith('__data_loc') or ctype.startswith('__rel_loc'):
            s = v.encode() + b'\0'
            loc = size + len(tail)
            if ctype.startswith('__rel_loc'):
                loc -= off + sz
            struct.pack_into('<I', b, off, loc | len(s) << 16)
            tail += s
        elif isinstance(v, list):
            for i, x in enumerate(v[:sz // 8]):
                struct.pack_into('<Q', b, off + 8 * i, x)
        else:
            struct.pack_into('<' + {1: 'B', 2: 'H', 4: 'I', 8: 'Q'}[sz], b, off,
                             v & ((1 << (8 * sz)) - 1))
    return bytes((b + tail)[2:])      # the target writes the 2-byte type


def seed(fmts, events):
    index = {name: i for i, (name, _) in enumerate(fmts)}
    out = bytearray()
    for cpu, name, values in events:
        if name not in index:
            continue
        body = record(fmts[index[name]][1], dict(values, common_pid=1000 + cpu))
        out += bytes([index[name], cpu]) + struct.pack('<H', len(body)) + body
    return bytes(out)


def main():
    fmts = formats(sys.argv[1])
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    site, ptr = 0xffffffff81012345, 0xffff888100000000
    slab = []
    for i in range(8):
        slab.append((i % 2, 'kmalloc', dict(call_site=site + i, ptr=ptr + 64 * i, bytes_req=50 + i,
                                            bytes_alloc=64, gfp_flags=0xcc0, node=-1)))
    for i in range(0, 8, 2):
        slab.append((1, 'kfree', dict(call_site=site + 0x100, ptr=ptr + 64 * i)))
    caches = []
    for i in range(6):
        caches.append((0, 'kmem_cache_alloc', dict(call_site=site + 0x200, ptr=ptr + 0x1000 + 256 * i,
                                                   bytes_req=256, bytes_alloc=256, gfp_flags=0x400cc0,
                                                   node=-1, name='maple_node')))
        caches.append((1, 'kmem_cache_free', dict(call_site=site + 0x300, ptr=ptr + 0x1000 + 256 * i,
                                                  name='maple_node')))
    pages = []
    for i in range(6):
        pages.append((0, 'mm_page_alloc', dict(pfn=0x10000 + i, order=i % 3, gfp_flags=0x100cca,
                                               migratetype=1)))
        pages.append((1, 'mm_page_free', dict(pfn=0x10000 + i, order=i % 3)))
    pages.append((0, 'mm_page_free_batched', dict(pfn=0x20000)))
    pages.append((0, 'mm_page_alloc_zone_locked', dict(pfn=0x20001, order=0, migratetype=0,
                                                       percpu_refill=1)))
    pages.append((1, 'mm_page_pcpu_drain', dict(pfn=0x20002, order=0, migratetype=0)))
    pages.append((1, 'mm_page_alloc_extfrag', dict(pfn=0x20003, alloc_order=0, fallback_order=3,
                                                   alloc_migratetype=1, fallback_migratetype=0,
                                                   change_ownership=1)))
    stacks = []
    for i in range(4):
        stacks.append((0, 'kmalloc', dict(call_site=site, ptr=ptr + 0x8000 + 32 * i, bytes_req=20,
                                          bytes_alloc=32, gfp_flags=0xcc0, node=-1)))
        stacks.append((0, 'kernel_stack', dict(size=3, caller=[site + 0x10, site + 0x2010,
                                                               0xffffffffa0001234])))
    for name, events in (('slab', slab), ('caches', caches), ('pages', pages), ('stacks', stacks)):
        with open(os.path.join(out, name), 'wb') as f:
            f.write(seed(fmts, events))


main()
