#!/usr/bin/env python3
"""doc_examples.py README.md GUIDE.md ... [--man trace_analyze.1] - run every
example of the documents, in order, in the current directory (laid out by
scripts/example-files.sh), and compare what each prints with what the
document shows, as Python's doctest does.

In Markdown an example is an indented line "    $ COMMAND" (with "\\"
continuations); the indented lines after it, up to the next "$ " line or the
end of the block, are what it prints: its standard output, then its standard
error. A line "..." stands for any lines (none too), and "..." inside a line
for any text; trailing blanks are not compared. An example with no lines
after it must succeed and give an answer (print something, or write a file),
or, when the next line is "trace_analyze: error", fail. "sudo" examples
(root, tracefs) are left to tests/cli/record.bats.

In the man page, each "trace_analyze ..." line of an .EX block under
EXAMPLES is run the same way (no output shown); an .EX block whose first
line is the roff comment '.\\" $ COMMAND' shows that command's output.

Exit 1 after the first example that misbehaves, with a diff of its output.
"""
import difflib
import os
import re
import subprocess
import sys
import time


class Example:
    def __init__(self, where, cmd, want):
        self.where, self.cmd, self.want = where, cmd, want


def markdown_examples(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found, i = [], 0
    while i < len(lines):
        m = re.match(r"^    \$ (.*)$", lines[i])
        if not m:
            i += 1
            continue
        where, cmd = "%s:%d" % (os.path.basename(path), i + 1), m.group(1)
        while cmd.endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd = cmd[:-1] + " " + lines[i].strip()
        i += 1
        want = []
        while i < len(lines):
            line = lines[i]
            if line.startswith("    $ "):
                break
            if line.startswith("    "):
                want.append(line[4:])
            elif line == "" and i + 1 < len(lines) and lines[i + 1].startswith("    ") \
                    and not lines[i + 1].startswith("    $ "):
                want.append("")
            else:
                break
            i += 1
        while want and want[-1] == "":
            want.pop()
        found.append(Example(where, cmd, want))
    return found


def man_examples(path):
    found, section, block = [], None, None
    for no, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith(".SH "):
            section = line[4:].strip().strip('"')
        elif line.startswith(".EX"):
            block = []
        elif line.startswith(".EE") and block is not None:
            if block and block[0][1].startswith('.\\" $ '):
                want = [re.sub(r"\\-", "-", text).replace("\\e", "\\") for _, text in block[1:]]
                found.append(Example("trace_analyze.1:%d" % block[0][0],
                                     block[0][1][len('.\\" $ '):], want))
            elif section == "EXAMPLES":
                for n, text in block:
                    if text.startswith("trace_analyze "):
                        found.append(Example("trace_analyze.1:%d" % n,
                                             text.replace("\\-", "-"), []))
            block = None
        elif block is not None:
            block.append((no, line))
    return found


def line_matches(want, got):
    want, got = want.rstrip(), got.rstrip()
    if "..." not in want:
        return want == got
    return re.fullmatch(".*".join(re.escape(p) for p in want.split("...")), got) is not None


def lines_match(want, got):
    """want against got, "..." alone on a line matching any lines."""
    reach = {0}     # how many lines of got the lines of want so far can cover
    for w in want:
        if w.strip() == "...":
            reach = set(range(min(reach), len(got) + 1)) if reach else set()
        else:
            reach = {j + 1 for j in reach if j < len(got) and line_matches(w, got[j])}
        if not reach:
            return False
    return len(got) in reach


def fail(ex, why, detail=""):
    sys.stderr.write("doc-examples: %s: '%s' %s\n%s" % (ex.where, ex.cmd, why, detail))
    sys.exit(1)


def main(argv):
    corpus = os.environ.get("CORPUS", "")
    docs, man = [], []
    args = iter(argv[1:])
    for a in args:
        if a == "--man":
            man.append(next(args))
        else:
            docs.append(a)
    examples = [e for d in docs for e in markdown_examples(d)]
    examples += [e for m in man for e in man_examples(m)]
    ran = compared = 0
    for i, ex in enumerate(examples):
        if ex.cmd.startswith("sudo "):
            continue
        cmd = ex.cmd.replace("../shared/corpus", corpus) if corpus else ex.cmd
        must_fail = ex.want[:1] and ex.want[0].startswith("trace_analyze: error")
        stamp = time.time()
        time.sleep(0.01)
        p = subprocess.run(["sh", "-c", cmd], capture_output=True, text=True,
                           errors="replace", stdin=subprocess.DEVNULL)
        ran += 1
        out = (p.stdout + p.stderr).rstrip("\n")
        if (p.returncode != 0) != bool(must_fail):
            fail(ex, "failed" if p.returncode else "succeeded", out[:2000] + "\n")
        if ex.want:
            got = out.split("\n") if out else []
            if not lines_match(ex.want, got):
                diff = difflib.unified_diff(ex.want, got, "as documented", "as printed", lineterm="")
                fail(ex, "prints something else:", "\n".join(diff) + "\n")
            compared += 1
            continue
        if re.search("kept none|left out all", out):
            fail(ex, "gives an empty report:", out[:1000] + "\n")
        wrote = any(os.path.getmtime(os.path.join(d, f)) > stamp and
                    os.path.getsize(os.path.join(d, f)) > 0
                    for d, _, files in os.walk(".") for f in files)
        if not out and not wrote:
            fail(ex, "printed nothing and wrote nothing")
    print("doc-examples: %d examples of %s ran as printed, %d of them compared with the output "
          "they show" % (ran, ", ".join(os.path.basename(d) for d in docs + man), compared))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
