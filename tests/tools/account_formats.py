#!/usr/bin/env python3
"""Check that the text, CSV and JSON accounts of one run carry the same numbers.

    account_formats.py TEXT CSV JSON

The text is trace_analyze.py's layout; CSV is one table a file, the rows
in CSV and the totals beside it in CSV's .totals.csv ("block,key,value");
JSON is one document with a schema_version. Parsed with Python's csv and
json modules; exits 1 on the first difference, saying which.
"""
import csv
import io
import json
import re
import sys


def text_account(path):
    lines = open(path).read().split("\n")
    head = {}
    for line in lines[:6]:
        label, value = line.rsplit(":", 1)
        head[label.strip()] = int(value)
    rows = []
    for line in lines[9:]:
        if not line:
            continue
        m = re.match(r"^ *(\d+) +(-?\d+) +(\d+) +(\d+)/(\d+) +(.*)$", line)
        total, waste, net, allocs, frees, caller = m.groups()
        rows.append((caller, int(total), int(waste), int(net), int(allocs), int(frees)))
    return head, rows


def csv_tables(path):
    """The rows of CSV and of its totals file beside it (X.csv -> X.totals.csv)."""
    side = (path[:-4] if path.endswith(".csv") else path) + ".totals.csv"
    rows = list(csv.DictReader(open(path, newline="")))
    totals = list(csv.DictReader(open(side, newline="")))
    return {"callers": rows, "totals": totals}


def fail(msg):
    print("account_formats.py: " + msg)
    sys.exit(1)


def main():
    text, csv_path, json_path = sys.argv[1:4]
    head, rows = text_account(text)
    doc = json.load(open(json_path))
    if doc.get("schema_version") != 2 or doc.get("report") != "account":
        fail("JSON lacks schema_version 2 / report account")
    blocks = csv_tables(csv_path)
    labels = {
        "current bytes allocated": "current_bytes_allocated",
        "current bytes requested": "current_bytes_requested",
        "current wasted bytes": "current_wasted_bytes",
        "number of allocs": "allocs",
        "number of frees": "frees",
        "number of callers": "callers",
    }
    csv_totals = {r["key"]: int(r["value"]) for r in blocks["totals"]}
    for label, key in labels.items():
        if not (head[label] == doc["totals"][key] == csv_totals[key]):
            fail("totals differ for %s" % key)
    json_rows = [(r["key"], r["total_dynamic"], r["waste"], r["current_dynamic"],
                  r["alloc_count"], r["free_count"]) for r in doc["callers"]]
    csv_rows = [(r["key"], int(r["total_dynamic"]), int(r["waste"]),
                 int(r["current_dynamic"]), int(r["alloc_count"]), int(r["free_count"]))
                for r in blocks["callers"]]
    if rows != json_rows:
        fail("JSON rows differ from the text")
    if rows != csv_rows:
        fail("CSV rows differ from the text")
    for r in doc["callers"]:
        if r["current_dynamic"] - r["current_req"] != r["waste"]:
            fail("waste is not current_dynamic - current_req for %s" % r["key"])
    print("same numbers in %d rows" % len(rows))


if __name__ == "__main__":
    main()
