#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-pipe.py IN OUT - the pipe-mode stream of a perf.data file.

perf 6.1 cannot turn a file into a pipe stream with tracepoints in it that
it reads back (perf inject -o - writes one neither perf nor prism reads),
so this writes what 'perf record -o -' would have: the 16-byte pipe header,
a HEADER_ATTR record per event (attr and ids), the HEADER_TRACING_DATA
record followed by the tracing data, then the data section as it is.  The
other header features are left out (no HEADER_FEATURE records), so a reader
knows nothing of the recording machine's CPUs.  IN: a little-endian
version-2 perf.data file in file mode.
"""
import struct
import sys

HEADER_ATTR, HEADER_TRACING_DATA = 64, 66
FEAT_TRACING_DATA = 1


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    data = open(argv[1], 'rb').read()
    if data[:8] != b'PERFILE2':
        sys.exit('perfdata-pipe: %s is not a little-endian PERFILE2 file' % argv[1])
    (hsize, attr_size, attrs_off, attrs_size, data_off, data_size) = struct.unpack_from(
        '<6Q', data, 8)
    if hsize == 16:
        sys.exit('perfdata-pipe: %s is already a pipe stream' % argv[1])
    feats = int.from_bytes(data[72:104], 'little')
    out = [b'PERFILE2', struct.pack('<Q', 16)]
    for off in range(attrs_off, attrs_off + attrs_size, attr_size):
        attr = data[off:off + attr_size - 16]
        ids_off, ids_size = struct.unpack_from('<2Q', data, off + attr_size - 16)
        ids = data[ids_off:ids_off + ids_size]
        out.append(struct.pack('<IHH', HEADER_ATTR, 0, 8 + len(attr) + len(ids)) + attr + ids)
    # the feature sections follow the data, one per bit set, in bit order
    sec = data_off + data_size
    for bit in range(256):
        if not feats >> bit & 1:
            continue
        f_off, f_size = struct.unpack_from('<2Q', data, sec)
        sec += 16
        if bit == FEAT_TRACING_DATA:
            blob = data[f_off:f_off + f_size]
            pad = -len(blob) % 8
            out.append(struct.pack('<IHHII', HEADER_TRACING_DATA, 0, 16, len(blob) + pad, 0))
            out.append(blob + b'\0' * pad)
    out.append(data[data_off:data_off + data_size])
    open(argv[2], 'wb').write(b''.join(out))


main(sys.argv)
