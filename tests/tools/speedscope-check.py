#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check a speedscope JSON file against the file format's spec and print
what it holds.

usage: speedscope-check.py FILE.json

The checks are written from speedscope's published format
(src/lib/file-format-spec.ts, https://www.speedscope.app/file-format-schema.json):
$schema, shared.frames (name: string; file: string, line/col: numbers,
optional), profiles of type "sampled" (name, unit among the ValueUnit
names, startValue <= endValue, samples: arrays of frame indices, weights:
numbers, as many as samples), optional name and activeProfileIndex.
Errors go to stderr with exit 1.  On success prints
  samples N / weight W / profiles P / profile NAME COUNT per profile
then a table in go tool pprof -top's layout (flat, flat%, sum%, cum, cum%,
name) of every frame name, so tests/tools/pprof-vs-report.py can compare it.
"""
import json
import sys

SCHEMA = 'https://www.speedscope.app/file-format-schema.json'
UNITS = {'none', 'nanoseconds', 'microseconds', 'milliseconds', 'seconds', 'bytes'}

def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)

def check(doc):
    errs = []
    if not isinstance(doc, dict):
        return ['the document is not an object']
    if doc.get('$schema') != SCHEMA:
        errs.append(f'$schema is {doc.get("$schema")!r}')
    shared = doc.get('shared')
    if not isinstance(shared, dict) or not isinstance(shared.get('frames'), list):
        return errs + ['shared.frames is not an array']
    frames = shared['frames']
    for i, f in enumerate(frames):
        if not isinstance(f, dict) or not isinstance(f.get('name'), str):
            errs.append(f'frame {i} has no string name')
            continue
        if 'file' in f and not isinstance(f['file'], str):
            errs.append(f'frame {i}: file is not a string')
        for k in ('line', 'col'):
            if k in f and not num(f[k]):
                errs.append(f'frame {i}: {k} is not a number')
    profiles = doc.get('profiles')
    if not isinstance(profiles, list):
        return errs + ['profiles is not an array']
    if 'name' in doc and not isinstance(doc['name'], str):
        errs.append('name is not a string')
    if 'activeProfileIndex' in doc:
        a = doc['activeProfileIndex']
        if not num(a) or not 0 <= a < max(len(profiles), 1):
            errs.append(f'activeProfileIndex {a!r} is out of range')
    for i, p in enumerate(profiles):
        if not isinstance(p, dict) or p.get('type') != 'sampled':
            errs.append(f'profile {i} is not of type "sampled"')
            continue
        if not isinstance(p.get('name'), str):
            errs.append(f'profile {i}: name is not a string')
        if p.get('unit') not in UNITS:
            errs.append(f'profile {i}: unit {p.get("unit")!r} is not a ValueUnit')
        if not num(p.get('startValue')) or not num(p.get('endValue')) or \
                p['endValue'] < p['startValue']:
            errs.append(f'profile {i}: startValue/endValue missing or reversed')
        s, w = p.get('samples'), p.get('weights')
        if not isinstance(s, list) or not isinstance(w, list) or len(s) != len(w):
            errs.append(f'profile {i}: samples and weights are not arrays of one length')
            continue
        for j, st in enumerate(s):
            if not isinstance(st, list) or not all(
                    isinstance(x, int) and 0 <= x < len(frames) for x in st):
                errs.append(f'profile {i} sample {j}: not an array of frame indices')
                break
        if not all(num(x) and x >= 0 for x in w):
            errs.append(f'profile {i}: a weight is not a number >= 0')
        if num(p.get('endValue')) and sum(w) > p['endValue'] - p['startValue']:
            errs.append(f'profile {i}: weights sum past endValue - startValue')
    return errs

def main():
    doc = json.load(open(sys.argv[1]))
    errs = check(doc)
    if errs:
        for e in errs[:20]:
            print('speedscope-check: ' + e, file=sys.stderr)
        return 1
    frames = doc['shared']['frames']
    flat, cum = {}, {}
    total = n = 0
    for p in doc['profiles']:
        print(f'profile {p["name"]} {len(p["samples"])}')
        for st, w in zip(p['samples'], p['weights']):
            n += 1
            total += w
            names = [frames[x]['name'] for x in st]
            if names:
                flat[names[-1]] = flat.get(names[-1], 0) + w  # leaf last
            for nm in set(names):
                cum[nm] = cum.get(nm, 0) + w
    print(f'samples {n}')
    print(f'weight {total}')
    print(f'profiles {len(doc["profiles"])}')
    for nm in sorted(cum, key=lambda k: -flat.get(k, 0)):
        f = flat.get(nm, 0)
        print(f'{f} {100.0 * f / total:.2f}% 0% {cum[nm]} {100.0 * cum[nm] / total:.2f}% {nm}')
    return 0

if __name__ == '__main__':
    sys.exit(main())
