#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-legacy.py - rewrite a perf.data file into layouts old perf
versions and old kernels wrote, or damage it in ways that keep the record
stream in step.

usage: perfdata-legacy.py v1 [--attr-size N] IN OUT
       perfdata-legacy.py rhel7 IN OUT
       perfdata-legacy.py malformed IN OUT

The input is a file-mode perf.data of either byte order (a fixture, or the
output of perfdata-swap.py) without COMPRESSED records; the output keeps its
byte order.

v1        the version-1 header of perf 3.0-3.2: magic "PERFFILE" (the same
          8 bytes in either byte order: readers guess the order from
          attr_size, which must be one of the sizes perf knows for these
          files, perf_event_attr VER0-VER4 + 16) and attrs of N bytes
          (default 72 = VER1, the perf_event_attr of Linux 3.0-3.3).  The
          attr entries are rewritten in place with attr.size = N followed by
          their ids section; every byte of an attr past N must be zero.
rhel7     MMAP2 records as Linux 3.12-3.15 and RHEL 7's 3.10 kernels wrote
          them: no prot and flags, the filename at byte 0x40 of the record
          (8 bytes shorter).  The data section shrinks and the feature
          sections after it move up.
malformed the body of some records damaged, their sizes untouched: the first
          COMM and the second MMAP2 lose the NUL of their strings, the
          10th and 20th SAMPLE get a call chain of 0xffffffff entries (the
          file's first attr must have PERF_SAMPLE_CALLCHAIN and no
          PERF_SAMPLE_READ).  Prints one line per damaged record:
          "TYPE OFFSET" (offset in hex, as prism reports it).
"""
import struct
import sys

PERF_RECORD_MMAP2, PERF_RECORD_COMM, PERF_RECORD_SAMPLE = 10, 3, 9
MISC_MMAP_BUILD_ID = 1 << 14
COMPRESSED_TYPES = (81, 83)
V1_ATTR_SIZES = (64, 72, 80, 96, 104)  # VER0-VER4: what perf's v1 reader accepts


def die(msg):
    sys.exit('perfdata-legacy: ' + msg)


class File:
    def __init__(self, path):
        self.b = bytearray(open(path, 'rb').read())
        magic = bytes(self.b[:8])
        if magic == b'PERFILE2':
            self.e = '<'
        elif magic == b'2ELIFREP':
            self.e = '>'
        else:
            die('%s: not a version-2 perf.data file' % path)
        (self.hsize, self.attr_size, self.attrs_off, self.attrs_size,
         self.data_off, self.data_size) = self.unpack('QQQQQQ', 8)
        if self.hsize == 16:
            die('%s: pipe-mode files are not handled' % path)
        if self.hsize != 104:
            die('%s: header size %d' % (path, self.hsize))

    def unpack(self, fmt, off):
        return struct.unpack_from(self.e + fmt, self.b, off)

    def pack(self, fmt, off, *v):
        struct.pack_into(self.e + fmt, self.b, off, *v)

    def records(self):
        """(offset, type, misc, size) of every record of the data section"""
        off, end = self.data_off, self.data_off + self.data_size
        while off + 8 <= end:
            typ, misc, size = self.unpack('IHH', off)
            if size < 8:
                die('record at %#x has size %d' % (off, size))
            if typ in COMPRESSED_TYPES:
                die('compressed records are not handled (decompress with perfdata-swap.py --inline --no-swap)')
            yield off, typ, misc, size
            off += size

    def attrs(self):
        """(entry offset, attr bytes) of each attr"""
        n = self.attrs_size // self.attr_size
        for i in range(n):
            o = self.attrs_off + i * self.attr_size
            yield o, bytes(self.b[o:o + self.attr_size - 16])

    def trailer_size(self):
        """the sample_id trailer of non-sample records (first attr; all agree in our inputs)"""
        _, a = next(self.attrs())
        # sample_id_all is flag bit 18: bit 2 of byte 42; a big-endian
        # writer's bit-field puts it at bit 7 - 2 of the same byte
        sample_id_all = (a[42] >> (2 if self.e == '<' else 5)) & 1
        if not sample_id_all:
            return 0
        st, = struct.unpack_from(self.e + 'Q', a, 24)
        bits = (1 << 1, 1 << 2, 1 << 6, 1 << 9, 1 << 7, 1 << 16)  # TID TIME ID STREAM CPU IDENT
        return 8 * sum(1 for bit in bits if st & bit)


def to_v1(f, n):
    if n not in V1_ATTR_SIZES:
        die('attr size %d is not one perf accepts in a version-1 file (%s)' %
            (n, ', '.join(map(str, V1_ATTR_SIZES))))
    entries = []
    for o, a in f.attrs():
        if any(a[n:]):
            die('attr at %#x has bytes past %d: pick a larger --attr-size' % (o, n))
        ids = f.b[o + f.attr_size - 16:o + f.attr_size]
        entry = bytearray(a[:n]) + ids
        struct.pack_into(f.e + 'I', entry, 4, n)
        entries.append(entry)
    out = b''.join(entries)
    f.b[f.attrs_off:f.attrs_off + f.attrs_size] = out + bytes(f.attrs_size - len(out))
    f.b[0:8] = b'PERFFILE'
    f.pack('QQ', 16, n + 16, f.attrs_off)
    f.pack('Q', 32, len(out))


def to_rhel7(f):
    out = bytearray(f.b[:f.data_off])
    n = 0
    for off, typ, misc, size in f.records():
        rec = f.b[off:off + size]
        if typ == PERF_RECORD_MMAP2 and not misc & MISC_MMAP_BUILD_ID:
            rec = rec[:0x40] + rec[0x48:]
            struct.pack_into(f.e + 'H', rec, 6, size - 8)
            n += 1
        out += rec
    if not n:
        die('no MMAP2 record to rewrite')
    end = f.data_off + f.data_size
    shift = end - len(out)
    feat_bits = f.b[72:104]
    nfeat = sum(bin(x).count('1') for x in feat_bits)
    table = len(out)
    out += f.b[end:]
    # feature sections come after the data: their offsets move up by shift
    for i in range(nfeat):
        o = table + 16 * i
        sec_off, = struct.unpack_from(f.e + 'Q', out, o)
        if sec_off >= end:
            struct.pack_into(f.e + 'Q', out, o, sec_off - shift)
    struct.pack_into(f.e + 'Q', out, 48, f.data_size - shift)
    f.b = out


def damage(f):
    _, a = next(f.attrs())
    st, = struct.unpack_from(f.e + 'Q', a, 24)
    if not st & (1 << 5) or st & (1 << 4):
        die('the first attr needs PERF_SAMPLE_CALLCHAIN and no PERF_SAMPLE_READ')
    # u64 fields before the call chain: IDENTIFIER IP TID TIME ADDR ID STREAM_ID CPU PERIOD
    nr_at = 8 + 8 * sum(1 for bit in (16, 0, 1, 2, 3, 6, 9, 7, 8) if st & (1 << bit))
    tr = f.trailer_size()
    comm = mmap2 = samples = 0
    done = []
    for off, typ, misc, size in f.records():
        if typ == PERF_RECORD_COMM and not comm:
            comm = 1
            f.b[off + 16:off + size - tr] = b'X' * (size - tr - 16)
            done.append(('COMM', off))
        elif typ == PERF_RECORD_MMAP2:
            mmap2 += 1
            if mmap2 == 2:
                f.b[off + 72:off + size - tr] = b'X' * (size - tr - 72)
                done.append(('MMAP2', off))
        elif typ == PERF_RECORD_SAMPLE:
            samples += 1
            if samples in (10, 20) and size >= nr_at + 8:
                f.pack('Q', off + nr_at, 0xffffffff)
                done.append(('SAMPLE', off))
    if len(done) != 4:
        die('found only %d of the 4 records to damage' % len(done))
    for typ, off in done:
        print('%s %#x' % (typ, off))


def main(argv):
    args = argv[1:]
    attr_size = 72
    if len(args) >= 3 and args[1] == '--attr-size':
        attr_size = int(args[2])
        del args[1:3]
    if len(args) != 3 or args[0] not in ('v1', 'rhel7', 'malformed'):
        sys.exit(__doc__)
    mode, src, dst = args
    f = File(src)
    if mode == 'v1':
        to_v1(f, attr_size)
    elif mode == 'rhel7':
        to_rhel7(f)
    else:
        damage(f)
    open(dst, 'wb').write(f.b)


if __name__ == '__main__':
    main(sys.argv)
