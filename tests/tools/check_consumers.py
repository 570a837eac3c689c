#!/usr/bin/env python3
"""check_consumers.py KIND FILE...: read trace_analyze's outputs the way the
tools their users run read them, and fail on the first that would not load.

  csv FILE...        Python's csv module (and pandas.read_csv when it is
                     installed): one table, its header on the first line,
                     the same number of fields on every row, unique names
  json FILE...       json with a duplicate-key check (jq and Python keep the
                     last of two keys silently), then the JSON Schema of its
                     "report" in data/schema/ (python3-jsonschema)
  folded FILE...     flamegraph.pl's line rule, read strictly: "frames count",
                     frames joined by ';', none empty or holding a space
"""
import csv
import json
import os
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(TOP, "data", "schema")


def fail(path, why):
    raise SystemExit("check_consumers: %s: %s" % (path, why))


def check_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        fail(path, "empty: no header")
    header = rows[0]
    if header[0].startswith("#"):
        fail(path, "the first line is a comment, not a header: %r" % header[0])
    if any(not h for h in header) or len(set(header)) != len(header):
        fail(path, "empty or repeated column names: %r" % header)
    for n, row in enumerate(rows[1:], 2):
        if len(row) != len(header):
            fail(path, "row %d has %d fields, the header %d" % (n, len(row), len(header)))
    try:
        import pandas
    except ImportError:
        return
    frame = pandas.read_csv(path)
    if list(frame.columns) != header or len(frame) != len(rows) - 1:
        fail(path, "pandas reads %d rows of %r" % (len(frame), list(frame.columns)))


def no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    for k in keys:
        if keys.count(k) > 1:
            raise ValueError("the key %r appears %d times in one object" % (k, keys.count(k)))
    return dict(pairs)


def check_json(path):
    import jsonschema
    with open(path) as f:
        try:
            doc = json.load(f, object_pairs_hook=no_duplicates)
        except ValueError as e:
            fail(path, e)
    if not isinstance(doc, dict) or "report" not in doc:
        fail(path, "not a report: no \"report\" member")
    schema_path = os.path.join(SCHEMAS, "%s.schema.json" % doc["report"])
    if not os.path.exists(schema_path):
        fail(path, "no schema for report %r in %s" % (doc["report"], SCHEMAS))
    with open(schema_path) as f:
        schema = json.load(f)
    try:
        jsonschema.validate(doc, schema, cls=jsonschema.Draft202012Validator)
    except jsonschema.ValidationError as e:
        fail(path, "%s at %s" % (e.message[:300], "/".join(str(p) for p in e.path)))


FOLDED = re.compile(r"^(\S+) (\d+)$")


def check_folded(path):
    with open(path) as f:
        lines = f.read().split("\n")
    if lines[-1] != "":
        fail(path, "the last line has no newline")
    lines.pop()
    if not lines:
        fail(path, "no stack counts (flamegraph.pl: \"No stack counts found\")")
    for n, line in enumerate(lines, 1):
        m = FOLDED.match(line)
        if not m:
            fail(path, "line %d is not 'frames count': %r" % (n, line[:200]))
        if any(frame == "" for frame in m.group(1).split(";")):
            fail(path, "line %d has an empty frame: %r" % (n, line[:200]))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("csv", "json", "folded"):
        raise SystemExit(__doc__)
    check = {"csv": check_csv, "json": check_json, "folded": check_folded}[sys.argv[1]]
    for path in sys.argv[2:]:
        check(path)


main()
