#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs for fuzz-header and fuzz-compressed, cut out of perf.data files.

  make-seeds.py header OUTDIR FILE...      feature-section lists (fuzz-header.c)
  make-seeds.py compressed OUTDIR FILE...  flags, sizes, sample_type, records
                                           (fuzz-compressed.c)

Pipe-mode and malformed files are skipped: the fuzz targets take the
fixtures whole as well.
"""
import os
import struct
import sys

MAX_RECORDS = 64 * 1024  # bytes of records per compressed seed


def file_header(buf):
    """(endian, attr_size, attrs, data, features) of a file-mode perf.data, or None"""
    if len(buf) < 104:
        return None
    if buf[:8] == b"PERFILE2":
        e = "<"
    elif buf[:8] == b"2ELIFREP":
        e = ">"
    else:
        return None
    size, attr_size, a_off, a_size, d_off, d_size = struct.unpack_from(e + "6Q", buf, 8)
    if size != 104:
        return None
    feats = struct.unpack_from(e + "4Q", buf, 72)
    return e, attr_size, (a_off, a_size), (d_off, d_size), feats


def sections(buf, hdr):
    """[(bit, bytes)] of the feature sections, in bit order"""
    e, _, _, (d_off, d_size), feats = hdr
    table = d_off + d_size
    out = []
    nth = 0
    for bit in range(256):
        if not feats[bit // 64] >> (bit % 64) & 1:
            continue
        if table + 16 * nth + 16 > len(buf):
            break
        off, size = struct.unpack_from(e + "2Q", buf, table + 16 * nth)
        nth += 1
        if off + size <= len(buf):
            out.append((bit, buf[off:off + size]))
    return out


def header_seeds(outdir, path, buf, hdr):
    swap = 1 if hdr[0] == ">" else 0
    secs = sections(buf, hdr)
    if not secs:
        return 0
    blob = b"".join(struct.pack("<BBI", bit, swap, len(b)) + b for bit, b in secs)
    name = os.path.basename(path)
    with open(os.path.join(outdir, name + ".feats"), "wb") as f:
        f.write(blob)
    return 1


def compressed_seeds(outdir, path, buf, hdr):
    e, attr_size, (a_off, a_size), (d_off, d_size), _ = hdr
    if e != "<" or a_size < attr_size or attr_size < 32:
        return 0
    sample_type = struct.unpack_from("<Q", buf, a_off + 24)[0]
    data = buf[d_off:d_off + d_size]
    pos = 0
    while pos + 8 <= len(data) and pos < MAX_RECORDS:
        rsize = struct.unpack_from("<H", data, pos + 6)[0]
        if rsize < 8:
            break
        pos += rsize
    recs = data[:min(pos, len(data))]
    if not recs:
        return 0
    name = os.path.basename(path)
    # file mode, pipe mode, pipe mode with COMPRESSED2; 1 KiB and 4 KiB payload bounds
    for flags, sizes in ((0, 4), (1, 6), (3, 4), (16 | 32, 2)):
        with open(os.path.join(outdir, "%s.f%d.comp" % (name, flags)), "wb") as f:
            f.write(struct.pack("<BBQ", flags, sizes, sample_type) + recs)
    return 1


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("header", "compressed"):
        sys.exit(__doc__)
    kind, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for path in sys.argv[3:]:
        with open(path, "rb") as f:
            buf = f.read()
        hdr = file_header(buf)
        if not hdr:
            continue
        n += (header_seeds if kind == "header" else compressed_seeds)(outdir, path, buf, hdr)
    print("%d %s seeds in %s" % (n, kind, outdir))


if __name__ == "__main__":
    main()
