#!/usr/bin/env python3
"""csv_files.py MANPAGE OPTION DIR - the files a report wrote with
--format csv into DIR (its FILE is DIR/out.csv) against the list the man
page gives for OPTION ("-c", "--summary", "diff --static", ...) under
"The files each report writes": every file written is listed, and every
file listed without parentheses (parentheses: only when the log has what
it holds) is written. Exits 1 naming the first difference.
"""
import os
import re
import sys


def listed(man, option):
    text = open(man).read()
    start = text.index('The files each report writes')
    block = text[start:text.index('.RE', start)]
    for entry in block.split('.TP')[1:]:
        lines = entry.strip().split('\n')
        head = lines[1] if lines[0].strip().isdigit() or lines[0].strip() == '14' else lines[0]
        body = ' '.join(lines[lines.index(head) + 1:])
        name = re.sub(r'^\.B\s+', '', head).strip('"').replace('\\-', '-')
        if name == option:
            files = re.findall(r'(\()?(FILE(?:\.[a-z_]+\.csv)?)\)?', body)
            return {f: bool(opt) for opt, f in files}
    sys.exit('csv_files: the man page lists no files for %r' % option)


def written(d):
    out = set()
    for f in os.listdir(d):
        if f == 'out.csv':
            out.add('FILE')
        elif f.startswith('out.') and f.endswith('.csv'):
            out.add('FILE' + f[3:])
    return out


def main():
    man, option, d = sys.argv[1:4]
    want, got = listed(man, option), written(d)
    for f in sorted(got - set(want)):
        sys.exit('csv_files: %s wrote %s, which the man page does not list' % (option, f))
    for f, optional in sorted(want.items()):
        if not optional and f not in got:
            sys.exit('csv_files: the man page lists %s for %s, which was not written'
                     % (f, option))
    print('csv_files: %s: %s' % (option, ', '.join(sorted(got))))


main()
