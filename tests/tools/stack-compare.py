#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare the call stacks of perf script's samples (its default output with
call chains, e.g. --itrace=i1ig) with a profile's: `go tool pprof -traces`
text or a speedscope JSON file.  Each stack is its functions' names, the
leaf first; the comparison is of how many samples have each stack.

usage: stack-compare.py PERF-SCRIPT.txt (--pprof-traces FILE | --speedscope FILE)
Prints "ok: N samples, M stacks" or the stacks that differ; exits 1 on a
difference."""
import collections
import json
import re
import sys


def perf_stacks(path):
    c = collections.Counter()
    cur = None
    for line in open(path):
        if not line.strip():
            if cur is not None:
                c[";".join(cur)] += 1
            cur = None
        elif not line[0].isspace():
            if cur is not None:
                c[";".join(cur)] += 1
            cur = []
        elif cur is not None:
            m = re.match(r"\s*[0-9a-f]+ (\S+?)(\+0x[0-9a-f]+)? \(", line)
            cur.append(m.group(1) if m else "?")
    if cur is not None:
        c[";".join(cur)] += 1
    return c


def pprof_stacks(path):
    c = collections.Counter()
    cur, n = None, 0
    for line in open(path):
        if line.startswith("-----"):
            if cur:
                c[";".join(cur)] += n
            cur = None
        elif cur is None and re.match(r"\s+\d+\s+\S", line):
            n, name = line.split()[:2]
            n, cur = int(n), [name]
        elif cur is not None and line.strip():
            cur.append(line.strip())
    if cur:
        c[";".join(cur)] += n
    return c


def speedscope_stacks(path):
    d = json.load(open(path))
    frames = d["shared"]["frames"]
    c = collections.Counter()
    for p in d["profiles"]:
        for s, w in zip(p["samples"], p["weights"]):
            c[";".join(frames[i]["name"] for i in reversed(s))] += w
    return c


def main():
    a = perf_stacks(sys.argv[1])
    if sys.argv[2] == "--pprof-traces":
        b = pprof_stacks(sys.argv[3])
    else:
        b = speedscope_stacks(sys.argv[3])
    if a == b:
        print("ok: %d samples, %d stacks" % (sum(a.values()), len(a)))
        return 0
    for k in sorted(set(a) | set(b)):
        if a[k] != b[k]:
            print("perf %d, profile %d: %s" % (a[k], b[k], k))
    return 1


if __name__ == "__main__":
    sys.exit(main())
