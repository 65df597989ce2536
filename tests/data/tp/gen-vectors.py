#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# Regenerate the tracepoint test data from the perf 6.1 fixtures:
#   NAME.blob  the tracing-data blob (feature 1, or the payload after a pipe
#              mode PERF_RECORD_HEADER_TRACING_DATA record)
#   NAME.vec   "<payload hex>\t<text perf script prints after 'event: '>"
#              for a handful of PERF_SAMPLE_RAW payloads, matched to the
#              fixture's NAME.script.txt line by (tid, cpu, time, event)
#
# usage: gen-vectors.py FIXTURE_DIR [NAME...]
import collections
import os
import re
import struct
import sys

PIPE_HDR = struct.pack('<Q', 16)


def get_blob(d):
    if d[8:16] == PIPE_HDR:
        for t, r, extra in records(d):
            if t == 66:
                return extra
        return None
    doff, dsz = struct.unpack_from('<QQ', d, 40)
    bits = [i for i in range(256) if d[72 + i // 8] >> (i % 8) & 1]
    for k, b in enumerate(bits):
        o, s = struct.unpack_from('<QQ', d, doff + dsz + 16 * k)
        if b == 1:
            return d[o:o + s]
    return None


def event_names(b):
    """{id: 'sys:name'}: an independent walk of the blob (cross-checks tp.c)"""
    o = 10
    o = b.index(b'\0', o) + 1
    e = '>' if b[o] else '<'
    o += 2 + 4
    for nm in (b'header_page\0', b'header_event\0'):
        assert b[o:o + len(nm)] == nm
        o += len(nm)
        o += 8 + struct.unpack_from(e + 'Q', b, o)[0]
    n, = struct.unpack_from(e + 'I', b, o)
    o += 4
    for _ in range(n):
        o += 8 + struct.unpack_from(e + 'Q', b, o)[0]
    nsys, = struct.unpack_from(e + 'I', b, o)
    o += 4
    ids = {}
    for _ in range(nsys):
        z = b.index(b'\0', o)
        system = b[o:z].decode()
        o = z + 1
        n, = struct.unpack_from(e + 'I', b, o)
        o += 4
        for _ in range(n):
            s, = struct.unpack_from(e + 'Q', b, o)
            t = b[o + 8:o + 8 + s].decode()
            o += 8 + s
            name = re.search(r'name: (\S+)', t).group(1)
            ids[int(re.search(r'ID: (\d+)', t).group(1))] = system + ':' + name
    return ids


def records(d):
    if d[8:16] == PIPE_HDR:
        off, end = 16, len(d)
    else:
        off, sz = struct.unpack_from('<QQ', d, 40)
        end = off + sz
    while off + 8 <= end:
        t, _, s = struct.unpack_from('<IHH', d, off)
        extra = b''
        if t == 66:
            n, = struct.unpack_from('<I', d, off + 8)
            extra = d[off + s:off + s + n]
        yield t, d[off:off + s], extra
        off += s + len(extra)


def sample_type(d):
    if d[8:16] == PIPE_HDR:
        for t, r, _ in records(d):
            if t == 64:
                return struct.unpack_from('<Q', r, 8 + 24)[0]
    ao, = struct.unpack_from('<Q', d, 24)
    return struct.unpack_from('<Q', d, ao + 24)[0]


def samples(d):
    # every tracepoint attr of these fixtures has the same sample_type as the first
    st = sample_type(d)
    assert st & 1024 and not st & (16 | 32)
    skip = [(1 << 16, 8), (1, 8)]
    for t, r, _ in records(d):
        if t != 9:
            continue
        o = 8 + sum(n for bit, n in skip if st & bit)
        tid = tm = cpu = None
        if st & 2:
            tid, = struct.unpack_from('<I', r, o + 4)
            o += 8
        if st & 4:
            tm, = struct.unpack_from('<Q', r, o)
            o += 8
        o += 8 * bool(st & 8) + 8 * bool(st & 64) + 8 * bool(st & 512)
        if st & 128:
            cpu, = struct.unpack_from('<I', r, o)
            o += 8
        o += 8 * bool(st & 256)
        rs, = struct.unpack_from('<I', r, o)
        assert o + 4 + rs == len(r)
        yield tid, cpu, tm, r[o + 4:o + 4 + rs]


LINE = re.compile(r'^\s*.*?\s+(\d+) \[(\d+)\]\s+(\d+\.\d{6}):\s+(\S+): (.*)$')


def signature(event, text):
    """samples with a new signature are kept: covers the printing paths"""
    if event.endswith('sched_switch'):
        return re.search(r'prev_state=(\S+)', text).group(1)
    if event.endswith('sys_enter'):
        return text.split()[1]
    if event.endswith('sys_exit'):
        v = int(text.split('= ')[1])
        return 'neg' if v < 0 else 'zero' if v == 0 else 'big' if v > 1 << 32 else 'pos'
    return len(re.search(r'comm=(\S*)', text).group(1)) if 'comm=' in text else text


def vectors(fixdir, name, per_event=6):
    d = open(os.path.join(fixdir, name + '.data'), 'rb').read()
    blob = get_blob(d)
    ids = event_names(blob)
    lines = collections.defaultdict(list)
    for line in open(os.path.join(fixdir, name + '.script.txt')):
        m = LINE.match(line.rstrip('\n'))
        if m:
            key = (int(m.group(1)), int(m.group(2)), m.group(3), m.group(4))
            lines[key].append(m.group(5))
    smp = collections.defaultdict(list)
    for tid, cpu, tm, raw in samples(d):
        ts = '%d.%06d' % (tm // 10**9, tm % 10**9 // 1000)
        smp[(tid, cpu, ts, ids[struct.unpack_from('<H', raw)[0]])].append(raw)
    seen = collections.defaultdict(set)
    out = []
    for key, raws in smp.items():
        texts = lines.get(key, [])
        if len(raws) != 1 or len(texts) != 1:
            continue  # ambiguous: perf's order among equal timestamps is not ours
        ev, text = key[3], texts[0]
        sig = signature(ev, text)
        if sig in seen[ev] or len(seen[ev]) >= per_event:
            continue
        seen[ev].add(sig)
        out.append((ev, raws[0], text))
    return blob, out


def main():
    fixdir = sys.argv[1]
    names = sys.argv[2:] or ['f-sched-tp', 'p-sched', 'q-trace', 'd2-pipe-tp']
    here = os.path.dirname(os.path.abspath(__file__))
    for name in names:
        blob, vecs = vectors(fixdir, name)
        with open(os.path.join(here, name + '.blob'), 'wb') as f:
            f.write(blob)
        with open(os.path.join(here, name + '.vec'), 'w') as f:
            f.write('# %s: PERF_SAMPLE_RAW payload (hex) <TAB> perf 6.1 script text\n' % name)
            f.write('# generated by gen-vectors.py from fixtures/perf-6.1/%s.data\n' % name)
            for ev, raw, text in vecs:
                f.write('%s\t%s\n' % (raw.hex(), text))
        print('%s: blob %d bytes, %d vectors' % (name, len(blob), len(vecs)))


if __name__ == '__main__':
    main()
