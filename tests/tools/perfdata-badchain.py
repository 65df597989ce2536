#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-badchain.py IN OUT [N] - garbage in the user part of call chains.

The first user-space entry of every Nth sample (default 5) whose call chain
has a PERF_CONTEXT_USER marker followed by a user address becomes -1, as a
frame-pointer walk through code built without frame pointers can read: a
value in the context marker range that is no marker (perf 6.1 then drops
the sample's whole chain).  IN: a little-endian file-mode perf.data whose
samples carry PERF_SAMPLE_IDENTIFIER (several events, as perf sched record
-g writes them).  Prints how many chains were changed.
"""
import struct
import sys

S = dict(IP=1, TID=2, TIME=4, ADDR=8, READ=16, CALLCHAIN=32, ID=64, CPU=128, PERIOD=256,
         STREAM_ID=512, IDENTIFIER=1 << 16)
CONTEXT_USER = (1 << 64) - 512
CONTEXT_MAX = (1 << 64) - 4095


def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    every = int(argv[3]) if len(argv) == 4 else 5
    data = bytearray(open(argv[1], 'rb').read())
    if data[:8] != b'PERFILE2':
        sys.exit('perfdata-badchain: not a little-endian PERFILE2 file')
    hsize, attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<6Q', data, 8)
    types = {}
    for off in range(attrs_off, attrs_off + attrs_size, attr_size):
        sample_type, = struct.unpack_from('<Q', data, off + 24)
        ids_off, ids_size = struct.unpack_from('<2Q', data, off + attr_size - 16)
        for i in range(ids_off, ids_off + ids_size, 8):
            types[struct.unpack_from('<Q', data, i)[0]] = sample_type
    pos, end, seen, changed = data_off, data_off + data_size, 0, 0
    while pos + 8 <= end:
        rtype, misc, size = struct.unpack_from('<IHH', data, pos)
        if size < 8:
            break
        if rtype == 9:
            p = pos + 8
            st = types.get(struct.unpack_from('<Q', data, p)[0], 0)
            if st & S['IDENTIFIER'] and st & S['CALLCHAIN']:
                p += 8
                for bit in ('IP', 'TID', 'TIME', 'ADDR', 'ID', 'STREAM_ID', 'CPU', 'PERIOD'):
                    if st & S[bit]:
                        p += 8
                if st & S['READ']:
                    sys.exit('perfdata-badchain: PERF_SAMPLE_READ is not handled')
                nr, = struct.unpack_from('<Q', data, p)
                ips = struct.unpack_from('<%dQ' % nr, data, p + 8)
                for i in range(nr - 1):
                    if ips[i] == CONTEXT_USER and ips[i + 1] < CONTEXT_MAX:
                        seen += 1
                        if seen % every == 0:
                            struct.pack_into('<Q', data, p + 8 + 8 * (i + 1), (1 << 64) - 1)
                            changed += 1
                        break
        pos += size
    open(argv[2], 'wb').write(data)
    print(changed)


main(sys.argv)
