#!/usr/bin/env python3
"""report_formats.py TEXT CSV JSON - one report in its three --format
renderings carries the same numbers.

The JSON is parsed with the json module (it must be valid and carry a
schema_version), the CSV with the csv module: one table a file, the
report's other tables beside it as CSV.<block>.csv, its lists as one
"block,key,value" table, keyed tables as "group_by,key,..."; every value
of every block must be the same in both, and every row of the text
rendering must show the same values in the same order. Exits 1 naming the
first difference.
"""
import csv
import io
import json
import re
import sys


def read_csv(path):
    with open(path, newline='') as f:
        return list(csv.reader(f))


def is_totals(name):
    return name == 'totals' or name.endswith('_totals')


def csv_blocks(path, doc):
    """The report's blocks as the old "# name" reader gave them, from its files:
    the totals lists in FILE.totals.csv, the other lists in FILE (the summary's)
    or beside it, each table in FILE or FILE.<table>.csv, a keyed table's key
    column first (put back where the JSON has it)."""
    base = path[:-4] if path.endswith('.csv') else path
    names = [k for k in doc if k not in ('schema_version', 'report')]
    lists = [k for k in names if isinstance(doc[k], dict)]
    tables = [k for k in names if not isinstance(doc[k], dict)]
    main = read_csv(path)
    blocks = {}
    totals = [k for k in lists if is_totals(k)]
    others = [k for k in lists if not is_totals(k)]
    for group, side_name in ((totals, 'totals'),
                             (others, others[0] if len(others) == 1 else 'values')):
        if not group:
            continue
        side = base + '.' + side_name + '.csv'
        rows = main if main and main[0] == ['block', 'key', 'value'] and \
            any(r[0] in group for r in main[1:]) else read_csv(side)
        if rows[0] != ['block', 'key', 'value']:
            fail('%s: the lists are not a block,key,value table' % path)
        for name in group:
            blocks[name] = [['key', 'value']] + [r[1:] for r in rows[1:] if r[0] == name]
    for name in tables:
        side = base + '.' + name + '.csv'
        try:
            rows = read_csv(side)
        except FileNotFoundError:
            rows = main
        if rows and rows[0][:2] == ['group_by', 'key']:
            # the same columns as the JSON rows (group_by, key, the rest), the key
            # first: put in the JSON's order, which is the text's
            columns = list(doc[name][0]) if doc[name] else rows[0]
            if sorted(columns) != sorted(rows[0]):
                fail('%s: table %s: CSV columns %s, JSON %s' % (side, name, rows[0], columns))
            at = [rows[0].index(c) for c in columns]
            rows = [columns] + [[r[i] for i in at] for r in rows[1:]]
        blocks[name] = rows
    return {k: blocks[k] for k in names}


def same(a, b):
    if a is None or a == '':
        return b is None or b == ''
    if isinstance(a, bool):
        return str(a).lower() == str(b).lower()
    if isinstance(a, (int, float)):
        try:
            return abs(float(a) - float(b)) < 1e-6
        except ValueError:
            return False
    return str(a) == str(b)


def fail(msg):
    sys.exit('report_formats: ' + msg)


def text_rows(text):
    """Non-empty lines of the text rendering, without headings and rules."""
    lines = [l for l in text.split('\n') if l.strip()]
    rows = []
    for i, l in enumerate(lines):
        if re.fullmatch(r'-+', l.strip()):
            continue
        if i + 1 < len(lines) and re.fullmatch(r'-+', lines[i + 1].strip()):
            continue        # a table's heading
        rows.append(l)
    return rows


def text_value(v):
    if isinstance(v, bool):
        return 'true' if v else 'false'
    if isinstance(v, float):
        return None         # formatted; compared through CSV/JSON only
    if v is None:
        return None
    return str(v)


def main():
    text_path, csv_path, json_path = sys.argv[1:4]
    doc = json.load(open(json_path))
    if doc.get('schema_version') != 2 or 'report' not in doc:
        fail('JSON has no schema_version 2 or no report name')
    blocks = csv_blocks(csv_path, doc)
    names = [k for k in doc if k not in ('schema_version', 'report')]
    if names != list(blocks):
        fail('blocks differ: JSON %s, CSV %s' % (names, list(blocks)))
    expected_text = []
    for name in names:
        j, c = doc[name], blocks[name]
        if isinstance(j, dict):     # a list: CSV "key,value" rows
            if c[0] != ['key', 'value'] or [r[0] for r in c[1:]] != list(j):
                fail('%s: keys differ' % name)
            for (k, v), row in zip(j.items(), c[1:]):
                if not same(v, row[1]):
                    fail('%s.%s: JSON %r, CSV %r' % (name, k, v, row[1]))
                expected_text.append([text_value(v)])
        else:                       # a table
            header, rows = c[0], c[1:]
            if len(rows) != len(j):
                fail('%s: %d JSON rows, %d CSV rows' % (name, len(j), len(rows)))
            for i, (jr, cr) in enumerate(zip(j, rows)):
                if list(jr) != header:
                    fail('%s row %d: columns differ' % (name, i))
                for k, v in zip(header, cr):
                    if not same(jr[k], v):
                        fail('%s row %d %s: JSON %r, CSV %r' % (name, i, k, jr[k], v))
                expected_text.append([text_value(jr[k]) for k in header if k != 'group_by'])
    rows = text_rows(open(text_path).read())
    values = [r for r in expected_text]
    # titles are extra lines in the text: walk both, matching rows in order
    at = 0
    for want in values:
        while at < len(rows):
            line = rows[at]
            at += 1
            pos, ok = 0, True
            for v in want:
                if v is None or v == '':
                    continue
                k = line.find(v, pos)
                # a long list the text cuts after its first items: "a, b, ..."
                items = v.split(', ')
                for n in range(len(items) - 1, 0, -1):
                    if k >= 0:
                        break
                    v = ', '.join(items[:n]) + ', ...'
                    k = line.find(v, pos)
                if k < 0:
                    ok = False
                    break
                pos = k + len(v)
            if ok:
                break
        else:
            fail('text has no row with %r' % (want,))
    print('%s: %d blocks, %d rows agree in text, CSV and JSON'
          % (doc['report'], len(names), len(values)))


if __name__ == '__main__':
    main()
