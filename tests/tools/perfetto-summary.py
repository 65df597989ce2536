#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Summarize a Perfetto trace decoded by 'protoc --decode=perfetto.Trace'
(tests/data/perfetto/trace-min.proto) and check its internal consistency.

usage: perfetto-summary.py DECODED.txt

Prints one "key value" line per count:
  switch N / waking N / wakeup N / sample N / counter N
  slice CATEGORY NAME N   (per slice name, from TYPE_SLICE_BEGIN)
  function NAME N         (samples whose call stack holds NAME)
  leaf NAME N             (samples whose leaf frame is in NAME)
Checks (exit 1, messages on stderr): every slice begin has its end on the
same track, no end before its begin, every track an event uses is
described, every callstack a sample names and every frame a callstack
names was interned before.
"""
import re
import sys

def blocks(lines):
    """yield the text of each top-level 'packet { ... }'"""
    depth, cur = 0, []
    for line in lines:
        s = line.strip()
        if depth == 0 and s == 'packet {':
            depth, cur = 1, []
            continue
        if depth:
            if s.endswith('{'):
                depth += 1
            elif s == '}':
                depth -= 1
                if depth == 0:
                    yield cur
                    continue
            cur.append(s)

def field(pkt, name):
    for s in pkt:
        if s.startswith(name + ': '):
            v = s[len(name) + 2:]
            return v.strip('"')
    return None

def main():
    errs = []
    counts = {'switch': 0, 'waking': 0, 'wakeup': 0, 'sample': 0, 'counter': 0}
    slices, funcs, leaves = {}, {}, {}
    described, open_slices = set(), {}
    fnames, frames, stacks = {}, {}, {}
    for pkt in blocks(open(sys.argv[1])):
        text = '\n'.join(pkt)
        counts['switch'] += pkt.count('sched_switch {')
        counts['waking'] += pkt.count('sched_waking {')
        counts['wakeup'] += pkt.count('sched_wakeup {')
        if 'track_descriptor {' in pkt:
            described.add(field(pkt, 'uuid'))
        if 'interned_data {' in pkt:
            for m in re.finditer(r'function_names \{\s*iid: (\d+)\s*str: "(.*?)"', text):
                fnames[m.group(1)] = m.group(2)
            for m in re.finditer(r'frames \{\s*iid: (\d+)\s*(?:function_name_id: (\d+))?', text):
                frames[m.group(1)] = m.group(2)
            for m in re.finditer(r'callstacks \{\s*iid: (\d+)((?:\s*frame_ids: \d+)*)', text):
                ids = re.findall(r'\d+', m.group(2))
                for f in ids:
                    if f not in frames:
                        errs.append(f'callstack {m.group(1)} names frame {f} not interned')
                stacks[m.group(1)] = ids
        if 'perf_sample {' in pkt:
            counts['sample'] += 1
            cs = field(pkt, 'callstack_iid')
            if cs is not None:
                if cs not in stacks:
                    errs.append(f'a sample names callstack {cs} not interned')
                    continue
                names = {fnames.get(frames[f]) for f in stacks[cs] if frames.get(f)}
                for n in names:
                    funcs[n] = funcs.get(n, 0) + 1
                leaf = stacks[cs][-1] if stacks[cs] else None
                if leaf and frames.get(leaf):
                    n = fnames.get(frames[leaf])
                    leaves[n] = leaves.get(n, 0) + 1
        if 'track_event {' in pkt:
            typ, track = field(pkt, 'type'), field(pkt, 'track_uuid')
            ts = int(field(pkt, 'timestamp') or 0)
            if track not in described:
                errs.append(f'track {track} used before it is described')
            if typ == 'TYPE_COUNTER':
                counts['counter'] += 1
            elif typ == 'TYPE_SLICE_BEGIN':
                key = (field(pkt, 'categories'), field(pkt, 'name'))
                slices[key] = slices.get(key, 0) + 1
                open_slices.setdefault(track, []).append(ts)
            elif typ == 'TYPE_SLICE_END':
                st = open_slices.get(track)
                if not st:
                    errs.append(f'slice end without a begin on track {track}')
                elif st.pop() > ts:
                    errs.append(f'slice on track {track} ends before it begins')
    for t, st in open_slices.items():
        if st:
            errs.append(f'{len(st)} slices never end on track {t}')
    for k, v in counts.items():
        print(k, v)
    for (cat, name), n in sorted(slices.items()):
        print('slice', cat, name, n)
    for name, n in sorted(funcs.items()):
        print('function', name, n)
    for name, n in sorted(leaves.items()):
        print('leaf', name, n)
    for e in errs[:20]:
        print('perfetto-summary: ' + e, file=sys.stderr)
    return 1 if errs else 0

if __name__ == '__main__':
    sys.exit(main())
