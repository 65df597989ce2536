#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare 'go tool pprof -top' with 'prism report --sort sym' on one file.

usage: pprof-vs-report.py REPORT.txt PPROF-TOP.txt [--may-be-empty]

Every named symbol row of the report (one row per name; unresolved
addresses and names shown twice are left out, pprof merges by name) must be
a pprof row with the same flat% (report Self, or Overhead without
--children) and cum% (report Children).  Prints the differences; exit 1 if
any, or if no row could be compared (unless --may-be-empty: a file whose
samples are all unresolved here).
"""
import re
import sys

def report_rows(path):
    rows, seen = {}, {}
    for line in open(path):
        m = re.match(r'^\s+([\d.]+)%\s+([\d.]+)%\s+\[(.)\]\s+(.*?)\s*$', line)
        if m:
            cum, flat, name = float(m.group(1)), float(m.group(2)), m.group(4)
        else:
            m = re.match(r'^\s+([\d.]+)%\s+\[(.)\]\s+(.*?)\s*$', line)
            if not m:
                continue
            flat, name = float(m.group(1)), m.group(3)
            cum = None
        name = re.sub(r' \(inlined\)$', '', name)
        if name.startswith('0x') or re.fullmatch(r'[0-9a-f]{16}', name):
            continue  # unresolved: an address
        seen[name] = seen.get(name, 0) + 1
        rows[name] = (flat, cum)
    return {k: v for k, v in rows.items() if seen[k] == 1}

def pprof_rows(path):
    rows = {}
    for line in open(path):
        m = re.match(r'^\s*\S+\s+([\d.]+)%\s+[\d.]+%\s+\S+\s+([\d.]+)%\s+(.*?)\s*$', line)
        if m:
            # pprof marks a function that is only ever inlined "name (inline)"
            name = re.sub(r' \(inline\)$', '', m.group(3))
            rows[name] = (float(m.group(1)), float(m.group(2)))
    return rows

def main():
    rep, pp = report_rows(sys.argv[1]), pprof_rows(sys.argv[2])
    bad = 0
    for name, (flat, cum) in sorted(rep.items()):
        if name not in pp:
            print(f'{name}: in the report ({flat}% self), not in pprof -top')
            bad += 1
            continue
        pflat, pcum = pp[name]
        if cum is None:
            cum = flat
        # both print 2 decimals of the same ratio; allow a rounding step
        if abs(pflat - flat) > 0.011 or abs(pcum - cum) > 0.011:
            print(f'{name}: report self {flat}% children {cum}%, pprof flat {pflat}% cum {pcum}%')
            bad += 1
    if not rep and '--may-be-empty' not in sys.argv[3:]:
        print('no named rows to compare')
        bad += 1
    print(f'compared {len(rep)} functions, {bad} differ')
    return 1 if bad else 0

if __name__ == '__main__':
    sys.exit(main())
