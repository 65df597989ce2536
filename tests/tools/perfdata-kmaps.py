#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-kmaps.py - rewrite the kernel maps a perf.data file records.

usage: perfdata-kmaps.py IN                  list the kernel-mode MMAP/MMAP2 records
       perfdata-kmaps.py IN OUT OP [OP ...]  rewrite them

OPs, applied in order:
  no-kernel-map        the kernel's MMAP ([kernel.kallsyms]_text) becomes a
                       user map of a process that never runs (pid 999999):
                       the file then has no kernel map
  kernel-len=HEX       the kernel map ends HEX bytes after its start
  module=NAME@HEX+HEX  a kernel-mode MMAP of NAME at START+LEN (pid -1,
                       pgoff 0) is inserted after the kernel's (with its
                       sample_id fields): a module map, named by its .ko
                       path or as "[name]"; the data section grows and the
                       feature sections move with it

Tests use it to make files "from other machines" out of fixtures: a file
without a kernel map, a file with module maps.  File mode (PERFILE2),
little endian, uncompressed records only.  Record layouts:
docs/perf-data-format.md section 5.
"""
import struct
import sys

MMAP, MMAP2 = 1, 10
MISC_CPUMODE = 7
MISC_KERNEL, MISC_USER = 1, 2
NOPID = 999999


def die(msg):
    sys.stderr.write("perfdata-kmaps: %s\n" % msg)
    sys.exit(2)


def records(buf):
    if buf[:8] != b"PERFILE2":
        die("not a little-endian perf.data file in file mode (magic %r)" % buf[:8])
    off, size = struct.unpack_from("<QQ", buf, 40)
    end = off + size
    while off + 8 <= end:
        typ, misc, rsize = struct.unpack_from("<IHH", buf, off)
        if rsize < 8 or off + rsize > end:
            die("record at %#x has a bad size %d" % (off, rsize))
        yield off, typ, misc, rsize
        off += rsize


def fname_off(typ):
    return 8 + 32 if typ == MMAP else 8 + 32 + 24 + 8


def fname(buf, off, typ, rsize):
    start = off + fname_off(typ)
    raw = bytes(buf[start:off + rsize])
    return raw.split(b"\0", 1)[0].decode(errors="replace"), start


def mmaps(buf):
    for off, typ, misc, rsize in records(buf):
        if typ in (MMAP, MMAP2):
            name, _ = fname(buf, off, typ, rsize)
            yield off, typ, misc, rsize, name


def kernel_map(buf):
    for off, typ, misc, rsize, name in mmaps(buf):
        if misc & MISC_CPUMODE == MISC_KERNEL and name.startswith("[kernel.kallsyms]"):
            return off
    die("the file has no kernel map")


def op_no_kernel_map(buf):
    off = kernel_map(buf)
    misc = struct.unpack_from("<H", buf, off + 4)[0]
    struct.pack_into("<H", buf, off + 4, (misc & ~MISC_CPUMODE) | MISC_USER)
    struct.pack_into("<II", buf, off + 8, NOPID, NOPID)


def op_kernel_len(buf, arg):
    off = kernel_map(buf)
    struct.pack_into("<Q", buf, off + 24, int(arg, 16))


def op_module(buf, arg):
    """insert after the kernel's MMAP a copy of it for NAME at START+LEN"""
    name, _, rng = arg.rpartition("@")
    start, _, length = rng.partition("+")
    if not name or not length:
        die("module=%s: expected NAME@START+LEN" % arg)
    koff = kernel_map(buf)
    _, misc, ksize = struct.unpack_from("<IHH", buf, koff)
    kname, fstart = fname(buf, koff, MMAP, ksize)
    tail = bytes(buf[fstart + (len(kname.encode()) + 8) // 8 * 8:koff + ksize])  # sample_id
    want = name.encode() + b"\0"
    want += bytes(-len(want) % 8)
    rec = struct.pack("<IIQQQ", 0xFFFFFFFF, 0xFFFFFFFF, int(start, 16), int(length, 16), 0)
    rec = struct.pack("<IHH", MMAP, misc, 8 + len(rec) + len(want) + len(tail)) + rec + want + tail
    at = koff + ksize
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    # the feature sections follow the data: their index moves, and so do they
    bits = int.from_bytes(buf[72:104], "little")
    idx = data_off + data_size
    for i in range(bin(bits).count("1")):
        off, size = struct.unpack_from("<QQ", buf, idx + 16 * i)
        if off >= at:
            struct.pack_into("<QQ", buf, idx + 16 * i, off + len(rec), size)
    struct.pack_into("<Q", buf, 48, data_size + len(rec))
    buf[at:at] = rec


def main(argv):
    if len(argv) == 2:
        buf = open(argv[1], "rb").read()
        for off, typ, misc, rsize, name in mmaps(buf):
            if misc & MISC_CPUMODE == MISC_KERNEL:
                pid, tid, start, length, pgoff = struct.unpack_from("<IIQQQ", buf, off + 8)
                print("%#x %s %x+%x @%x %s" % (off, "MMAP" if typ == MMAP else "MMAP2",
                                              start, length, pgoff, name))
        return 0
    if len(argv) < 4:
        die("usage: perfdata-kmaps.py IN [OUT OP ...]")
    buf = bytearray(open(argv[1], "rb").read())
    for op in argv[3:]:
        key, _, arg = op.partition("=")
        if key == "no-kernel-map":
            op_no_kernel_map(buf)
        elif key == "kernel-len":
            op_kernel_len(buf, arg)
        elif key == "module":
            op_module(buf, arg)
        else:
            die("unknown operation %s" % op)
    open(argv[2], "wb").write(buf)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
