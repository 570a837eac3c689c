#!/usr/bin/env python3
"""check_option_docs.py TRACE_ANALYZE MANPAGE COMPLETION: every option of every
command's table (its --completion-helper) appears in its --help (in its usage
lines too, as git's t0450 checks them: record's own options there, the analysis
options it shares under OPTIONS), in the man
page's SYNOPSIS line of that command and in the man page section that
documents it, and in the shell completion's option list for that command;
and no option is documented for a command that does not take it; every
report of the report table (--reports-helper) has its option. Prints
what is missing and exits 1, or prints a count and exits 0."""
import re
import subprocess
import sys

TA, MAN, COMPLETION = sys.argv[1:4]

# command: the man page section documenting its options
SECTIONS = {"": "OPTIONS", "diff": "DIFF", "record": "RECORD", "top": "TOP", "check": "CHECK",
            "snapshot": "SNAPSHOT"}
# options everyone has and no synopsis lists
NOT_IN_SYNOPSIS = {"--help", "--version"}


def table(cmd):
    out = subprocess.run([TA] + ([cmd] if cmd else []) + ["--completion-helper"],
                         capture_output=True, text=True, check=True).stdout
    opts = []
    for line in out.splitlines():
        f = line.split()
        opts.append((None if f[0] == "-" else f[0], f[1]))
    return opts


def help_text(cmd):
    return subprocess.run([TA] + ([cmd] if cmd else []) + ["--help"], capture_output=True,
                          text=True, check=True).stdout


def man_text():
    """The man page as plain-ish text, by section, and the SYNOPSIS by command."""
    raw = open(MAN).read().replace("\\-", "-").replace("\\fB", "").replace("\\fR", "") \
        .replace("\\fI", "").replace("\\fP", "")
    sections, name = {}, None
    for line in raw.splitlines():
        m = re.match(r'\.SH\s+"?([^"]*)"?', line)
        if m:
            name = m.group(1).strip()
            sections[name] = []
            continue
        if name:
            sections[name].append(line)
    synopsis, cur = {}, None
    for line in sections.get("SYNOPSIS", []):
        m = re.match(r'\.B trace_analyze(?: (diff|record|top|check|snapshot))?', line)
        if m:
            cur = m.group(1) or ""
            synopsis.setdefault(cur, [])
        if cur is not None:
            synopsis[cur].append(line)
        if line.startswith(".br"):
            cur = None
    return ({k: tags(v) for k, v in sections.items()},
            {k: "\n".join(v) for k, v in synopsis.items()})


def tags(lines):
    """The tag lines of a section's entries (the line after each .TP): an
    option is documented where an entry of its own names it, not where
    another entry's text mentions it."""
    return "\n".join(lines[i + 1] for i, l in enumerate(lines[:-1])
                     if l.startswith(".TP"))


def completion_opts():
    text = open(COMPLETION).read()
    out = {}
    for m in re.finditer(r'^\t(bare|diff|record|top|check|snapshot)\) opts="([^"]*)"', text, re.M):
        out["" if m.group(1) == "bare" else m.group(1)] = set(m.group(2).split())
    return out


def has_option(text, name):
    return re.search(r'(?<![\w-])' + re.escape(name) + r'(?![\w-])', text) is not None


def main():
    sections, synopsis = man_text()
    completion = completion_opts()
    bare = {l for _, l in table("")}
    bare_short = {l: s for s, l in table("")}
    missing, checked = [], 0
    for cmd, section in SECTIONS.items():
        label = cmd or "(bare)"
        opts = table(cmd)
        helptext = help_text(cmd)
        own = opts
        if cmd == "record":	# the analysis options: documented once, under OPTIONS,
            # but for those record spells otherwise (-o is its --output, not --order-by)
            own = [(s, l) for s, l in opts
                   if l not in bare or l in ("--help",) or bare_short.get(l) != s]
        for short, long in opts:
            checked += 1
            if not has_option(helptext, long):
                missing.append("%s: %s not in --help" % (label, long))
            if long not in completion.get(cmd, set()):
                missing.append("%s: %s not in the completion" % (label, long))
            if short and short not in completion.get(cmd, set()):
                missing.append("%s: %s not in the completion" % (label, short))
        usage = helptext.split("\n\n")[0]
        for short, long in own:
            if long not in NOT_IN_SYNOPSIS and not has_option(usage, long) \
                    and not (short and has_option(usage, short)):
                missing.append("%s: %s not in the usage lines of --help" % (label, long))
            if long not in NOT_IN_SYNOPSIS and not has_option(synopsis.get(cmd, ""), long) \
                    and not (short and has_option(synopsis.get(cmd, ""), short)):
                missing.append("%s: %s not in the man page's SYNOPSIS" % (label, long))
            if not has_option(sections.get(section, ""), long):
                missing.append("%s: %s not in the man page's %s" % (label, long, section))
        if cmd == "record" and not has_option(synopsis.get(cmd, ""), "analysis options") \
                and "analysis options" not in synopsis.get(cmd, ""):
            missing.append("record: the SYNOPSIS does not point at the analysis options")
        # documented but not taken: long options in the synopsis that the table lacks
        for opt in set(re.findall(r'(?<![\w-])--[a-z][a-z-]+', synopsis.get(cmd, ""))):
            if opt not in {l for _, l in opts}:
                missing.append("%s: %s in the SYNOPSIS but not an option" % (label, opt))
    # every report of the report table has its option in the bare command's table
    reports = subprocess.run([TA, "--reports-helper"], capture_output=True, text=True,
                             check=True).stdout.split("\n")
    names = {l for _, l in table("")} | {s for s, _ in table("") if s}
    for line in filter(None, reports):
        checked += 1
        name, option = line.split()[:2]
        if option not in names:
            missing.append("report %s: its option %s is not in the bare command's table "
                           "(an OPT_REPORT line)" % (name, option))
    for m in missing:
        print(m)
    if missing:
        return 1
    print("%d options checked in --help, the man page and the completion" % checked)
    return 0


sys.exit(main())
