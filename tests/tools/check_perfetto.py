#!/usr/bin/env python3
"""check_perfetto.py TRACE [SCHEMA]: decode a --perfetto file with Perfetto's
own schema (protoc --decode=perfetto.protos.Trace, Debian's protobuf-compiler;
SCHEMA defaults to ../shared/tools/perfetto/perfetto_trace.proto) and check
what the Perfetto UI needs of it:

  - every packet on one sequence (trusted_packet_sequence_id), the first one
    clearing its incremental state;
  - every track described (track_descriptor) before its first event, every
    event on a described track; counters only on counter tracks, named
    instants and slices only on the others; each slice ended on its track;
  - timestamps in time order.

Prints a JSON summary for the tests to judge further: the tracks by name
(uuid, counter or not, unit, y_axis_share_key, events, first and last
timestamps, last and highest counter value) and the marks (name, timestamp, args).
Exit 1 with the reason on the first thing that would not load."""
import json
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(why):
    print("check_perfetto: %s: %s" % (sys.argv[1], why), file=sys.stderr)
    sys.exit(1)


def parse(text):
    """protoc's text format into nested dicts: repeated fields as lists."""
    root, stack = {}, []
    cur = root
    token = re.compile(r'\s*(?:(\w+)\s*\{|(\w+):\s*("(?:[^"\\]|\\.)*"|[^\s]+)|(\}))')
    pos = 0
    while True:
        m = token.match(text, pos)
        if not m:
            if text[pos:].strip():
                fail("cannot read protoc's output at %r" % text[pos:pos + 40])
            break
        pos = m.end()
        if m.group(1):
            child = {}
            cur.setdefault(m.group(1), []).append(child)
            stack.append(cur)
            cur = child
        elif m.group(2):
            v = m.group(3)
            if v.startswith('"'):
                v = bytes(v[1:-1], "utf-8").decode("unicode_escape")
            else:
                try:
                    v = int(v)
                except ValueError:
                    pass
            cur.setdefault(m.group(2), []).append(v)
        else:
            cur = stack.pop()
    return root


def one(d, k, default=None):
    return d.get(k, [default])[0]


def main():
    schema = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        TOP, "..", "shared", "tools", "perfetto", "perfetto_trace.proto")
    with open(sys.argv[1], "rb") as f:
        raw = f.read()
    r = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I",
                        os.path.dirname(schema), schema], input=raw, capture_output=True)
    if r.returncode:
        fail("protoc cannot decode it: " + r.stderr.decode().strip())
    packets = parse(r.stdout.decode()).get("packet", [])
    if not packets:
        fail("no packet")
    tracks, by_uuid, marks, open_slices = {}, {}, [], {}
    last_ts = 0
    for i, p in enumerate(packets):
        if one(p, "trusted_packet_sequence_id") != 1:
            fail("packet %d is not on sequence 1" % i)
        if i == 0 and one(p, "sequence_flags") != 1:
            fail("the first packet does not clear the sequence's incremental state")
        if "track_descriptor" in p:
            t = p["track_descriptor"][0]
            uuid = one(t, "uuid")
            if uuid in by_uuid:
                fail("track %s described twice" % uuid)
            c = one(t, "counter")
            info = {"uuid": uuid, "counter": c is not None, "events": 0, "first_ts": None,
                    "last_ts": None, "last_value": None, "max_value": None,
                    "unit": one(c, "unit") if c else None,
                    "share": one(c, "y_axis_share_key") if c else None,
                    "parent": one(t, "parent_uuid")}
            if info["parent"] is not None and info["parent"] not in by_uuid:
                fail("track %s's parent is not described before it" % uuid)
            by_uuid[uuid] = info
            tracks[one(t, "name")] = info
            continue
        e = one(p, "track_event")
        if e is None:
            fail("packet %d has neither a track nor an event" % i)
        ts = one(p, "timestamp")
        if ts is None:
            fail("event packet %d has no timestamp" % i)
        if ts < last_ts:
            fail("packet %d goes back in time" % i)
        last_ts = ts
        uuid = one(e, "track_uuid")
        if uuid not in by_uuid:
            fail("event on track %s before (or without) its description" % uuid)
        t = by_uuid[uuid]
        kind = one(e, "type")
        if t["counter"] != (kind == "TYPE_COUNTER"):
            fail("a %s on %s track %s" % (kind, "a counter" if t["counter"] else "a", uuid))
        if kind == "TYPE_COUNTER" and "counter_value" not in e:
            fail("a counter event without a value")
        if kind in ("TYPE_INSTANT", "TYPE_SLICE_BEGIN"):
            if not one(e, "name"):
                fail("a %s without a name" % kind)
            args = {one(a, "name"): one(a, "int_value", one(a, "string_value"))
                    for a in e.get("debug_annotations", [])}
            marks.append({"name": one(e, "name"), "ts": ts, "type": kind, "args": args})
        if kind == "TYPE_SLICE_BEGIN":
            open_slices[uuid] = open_slices.get(uuid, 0) + 1
        if kind == "TYPE_SLICE_END":
            if not open_slices.get(uuid):
                fail("a slice ended that did not begin")
            open_slices[uuid] -= 1
        t["events"] += 1
        t["first_ts"] = ts if t["first_ts"] is None else t["first_ts"]
        t["last_ts"] = ts
        if kind == "TYPE_COUNTER":
            t["last_value"] = one(e, "counter_value")
            if t["max_value"] is None or t["last_value"] > t["max_value"]:
                t["max_value"] = t["last_value"]
    if any(open_slices.values()):
        fail("a slice never ended")
    json.dump({"packets": len(packets), "tracks": tracks, "marks": marks}, sys.stdout, indent=1)


main()
