#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare prism sched timehist output (PRISM) with perf's (PERF) line by line.

perf 6.1's timehist reads only MMAP records, not MMAP2, so every user-space
frame of its call chains is "[unknown]" (or an address in -I's folded
chains), where prism names the function.  Those frames may differ; every
other character must be equal, kernel frames included.  Exit 0 when equal.

perf 6.1's -I also prints no line under its "Idle stats by callchain"
headings (it sorts the chains into a tree whose cached first node it never
sets): prism's lines there are left out of the comparison.
"""
import re
import sys

UNRESOLVED = re.compile(r'^(\[unknown\]|0x[0-9a-f]+)$')
CHAIN_ROW = re.compile(r'^  +[0-9]+\.[0-9]{3}  +[0-9]+  ')


def drop_idle_chains(lines):
    out, inside = [], False
    for line in lines:
        if line == 'Idle stats by callchain:':
            inside = True
        elif line.startswith('    Total number of unique tasks'):
            inside = False
        if inside and CHAIN_ROW.match(line):
            continue
        out.append(line)
    return out


def same(p, q):
    if p == q:
        return True
    a, b = p.split(' <- '), q.split(' <- ')
    if len(a) != len(b):
        return False
    for i, (x, y) in enumerate(zip(a, b)):
        if x == y:
            continue
        if i == 0:
            # the columns before the first frame, then the frame itself
            hx, _, fx = x.rpartition(' ')
            hy, _, fy = y.rpartition(' ')
            if hx != hy or not UNRESOLVED.match(fx):
                return False
        elif not UNRESOLVED.match(x):
            return False
    return True


def main():
    perf = open(sys.argv[1]).read().split('\n')
    prism = drop_idle_chains(open(sys.argv[2]).read().split('\n'))
    if len(perf) != len(prism):
        print(f'{len(perf)} lines from perf, {len(prism)} from prism')
        return 1
    bad = 0
    for n, (p, q) in enumerate(zip(perf, prism), 1):
        if not same(p, q):
            bad += 1
            if bad <= 10:
                print(f'line {n}:\n- {p}\n+ {q}')
    if bad:
        print(f'{bad} lines differ')
    return 1 if bad else 0


sys.exit(main())
