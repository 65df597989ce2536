#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare the slices of a Perfetto export with prism util's call counts.

usage: perfetto-vs-util.py SUMMARY.txt UTIL.json

SUMMARY.txt is perfetto-summary.py's output; UTIL.json 'prism util --json'.
Every call of system.calls (syscall, irq, softirq, hcall) must be as many
slices of that category and name.  Exit 1 on a difference.
"""
import json
import sys

def main():
    got = {}
    for line in open(sys.argv[1]):
        f = line.split()
        if f and f[0] == 'slice':
            got[(f[1], ' '.join(f[2:-1]))] = int(f[-1])
    want = {}
    for kind, calls in json.load(open(sys.argv[2]))['system']['calls'].items():
        for c in calls:
            if c['count']:
                want[(kind, c['name'])] = want.get((kind, c['name']), 0) + c['count']
    bad = 0
    for key in sorted(set(got) | set(want)):
        if got.get(key, 0) != want.get(key, 0):
            print(f'{key[0]} {key[1]}: {got.get(key, 0)} slices, prism util counts {want.get(key, 0)}')
            bad += 1
    print(f'{len(want)} calls compared, {sum(want.values())} in all, {bad} differ')
    return 1 if bad or not want else 0

if __name__ == '__main__':
    sys.exit(main())
