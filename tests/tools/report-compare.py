#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two perf-report-style text outputs (--stdio --sort comm,dso,sym).

usage: report-compare.py EXPECTED ACTUAL [--tolerance 0.01] [--kernel-aggregate]
                         [--vdso-aggregate] [--self-only]

Rows are matched per event section by (comm, dso, symbol); every overhead
column (Children, Self or Overhead) must agree within the tolerance in
percentage points.  With --kernel-aggregate, rows of [kernel.kallsyms] are
compared only as the sum of their Self/Overhead per (event, comm): use it
when the kernel that recorded the file is not the running one, so neither
perf nor prism can name kernel functions the way the reference did.
--vdso-aggregate does the same for the rows of [vdso] (the recorded vdso is
not the running kernel's, and no build-id cache holds it).
With --self-only only the last overhead column (Self, or Overhead) is
compared and rows whose self share is zero on both sides are ignored.
Exit 0 when equal, 1 with a list of differences otherwise.
"""
import re
import sys


def columns(dots):
    """(start, end) of every column from the '# ....  ....' line"""
    spans = []
    for m in re.finditer(r"\.+", dots):
        spans.append((m.start(), m.end()))
    return spans


def parse(path):
    sections = {}
    event = None
    spans = None
    headers = None
    with open(path, errors="replace") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"# Samples: .* of event '(.*)'", line)
        if m:
            event = m.group(1)
            sections.setdefault(event, {})
            spans = None
            continue
        if line.startswith("# ..") and event is not None:
            spans = columns(line)
            headers = lines[i - 1]
            continue
        if not spans or not re.match(r"^ +[0-9.]+%", line):
            continue
        cells = []
        for n, (a, b) in enumerate(spans):
            end = b if n + 1 < len(spans) else len(line)
            cells.append(line[a:end].strip())
        names = [h for h in re.split(r"\s{2,}", headers[1:].strip())]
        pct = [float(c.rstrip("%")) for c, h in zip(cells, names)
               if h in ("Children", "Self", "Overhead")]
        rest = [c for c, h in zip(cells, names) if h not in ("Children", "Self", "Overhead", "Samples")]
        key = tuple(rest)
        if key in sections[event]:
            # same name twice (perf prints rows for distinct addresses of one name)
            old = sections[event][key]
            pct = [x + y for x, y in zip(old, pct)]
        sections[event][key] = pct
    return sections


def main():
    args = sys.argv[1:]
    tol = 0.01
    kagg = False
    self_only = "--self-only" in args
    if self_only:
        args.remove("--self-only")
    if "--kernel-aggregate" in args:
        args.remove("--kernel-aggregate")
        kagg = True
    aggregated = ["[kernel.kallsyms]"] if kagg else []
    if "--vdso-aggregate" in args:
        args.remove("--vdso-aggregate")
        aggregated.append("[vdso]")
    if "--tolerance" in args:
        i = args.index("--tolerance")
        tol = float(args[i + 1])
        del args[i:i + 2]
    want, got = parse(args[0]), parse(args[1])
    if self_only:
        for table in list(want.values()) + list(got.values()):
            for key in list(table):
                table[key] = [table[key][-1]]
                if table[key][0] == 0:
                    del table[key]
    bad = []
    if set(want) != set(got):
        bad.append("events differ: expected %s, got %s" % (sorted(want), sorted(got)))
    nrows = 0
    for ev in want:
        w, g = want[ev], got.get(ev, {})
        for dso in aggregated:
            for table in (w, g):
                agg = {}
                for key in [k for k in table if len(k) >= 2 and k[1] == dso]:
                    pct = table.pop(key)
                    comm = key[0]
                    agg[comm] = agg.get(comm, 0.0) + pct[-1]
                for comm, v in agg.items():
                    table[(comm, dso, "(all, self)")] = [v]
        for key in sorted(set(w) | set(g)):
            nrows += 1
            if key not in g:
                bad.append("%s: row %s missing (expected %s)" % (ev, key, w[key]))
            elif key not in w:
                bad.append("%s: unexpected row %s %s" % (ev, key, g[key]))
            elif len(w[key]) != len(g[key]) or any(abs(a - b) > tol + 1e-9 for a, b in zip(w[key], g[key])):
                bad.append("%s: row %s: expected %s, got %s" % (ev, key, w[key], g[key]))
    for b in bad:
        print(b)
    print("%d rows compared, %d differences" % (nrows, len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
