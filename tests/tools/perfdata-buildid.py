#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-buildid.py - list or change the build ids a perf.data file records.

usage: perfdata-buildid.py IN                       list: "HEX NAME" per entry
       perfdata-buildid.py IN OUT NAME=HEX [...]    set NAME's build id to HEX
       perfdata-buildid.py IN OUT rename:OLD=NEW    the entry OLD is named NEW

Tests use it to make "a file from another machine" out of a fixture, or a
file of this machine out of one from another: the kernel's build id
([kernel.kallsyms]), the vdso's, a DSO's.  Only the HEADER_BUILD_ID feature
section (docs/perf-data-format.md section 4, feature 2) is touched, in place:
every offset stays where it was.  A NAME that no entry has is an error.

Entry layout (perf's struct perf_record_header_build_id): the 8-byte record
header, s32 pid, 24 bytes of build id (20 used; newer perf writes the id's
size in byte 20 when misc has bit 15), then the NUL-padded file name up to
the entry's size.  Little-endian file mode only (PERFILE2).  A new name must
fit in the old entry (perf pads names to 64 bytes): "rename:[kernel.kallsyms]=
/lib/modules/4.10.13-1-ARCH/build/vmlinux" records the kernel under its
vmlinux path, as perf does when it found a vmlinux at record time.
"""
import struct
import sys

FEAT_BUILD_ID = 2
MISC_BUILD_ID_SIZE = 1 << 15


def die(msg):
    sys.stderr.write("perfdata-buildid: %s\n" % msg)
    sys.exit(2)


def build_id_section(buf):
    if buf[:8] != b"PERFILE2":
        die("not a little-endian perf.data file in file mode (magic %r)" % buf[:8])
    data_off, data_size = struct.unpack_from("<QQ", buf, 40)
    bits = int.from_bytes(buf[72:104], "little")
    if not bits & (1 << FEAT_BUILD_ID):
        die("the file has no build-id table (HEADER_BUILD_ID)")
    # one (offset, size) pair per feature bit set, in bit order
    index = bin(bits & ((1 << FEAT_BUILD_ID) - 1)).count("1")
    return struct.unpack_from("<QQ", buf, data_off + data_size + 16 * index)


def entries(buf):
    off, size = build_id_section(buf)
    end = off + size
    while off + 8 <= end:
        _, misc, esize = struct.unpack_from("<IHH", buf, off)
        if esize < 36 or off + esize > end:
            die("build-id entry at %#x has a bad size %d" % (off, esize))
        idlen = buf[off + 32] if misc & MISC_BUILD_ID_SIZE else 20
        name = bytes(buf[off + 36:off + esize]).split(b"\0", 1)[0].decode(errors="replace")
        yield off, misc, idlen, name
        off += esize


def main(argv):
    if len(argv) == 2:
        buf = open(argv[1], "rb").read()
        for off, _, idlen, name in entries(buf):
            print(buf[off + 12:off + 12 + idlen].hex(), name)
        return 0
    if len(argv) < 4:
        die("usage: perfdata-buildid.py IN [OUT NAME=HEX ...]")
    buf = bytearray(open(argv[1], "rb").read())
    want = {}
    renames = {}
    for arg in argv[3:]:
        if arg.startswith("rename:"):
            old, _, new = arg[7:].partition("=")
            if not old or not new:
                die("%s: expected rename:OLD=NEW" % arg)
            renames[old] = new
            continue
        name, _, hexid = arg.partition("=")
        try:
            bid = bytes.fromhex(hexid)
        except ValueError:
            die("%s: the build id is not hex" % arg)
        if not 1 <= len(bid) <= 20:
            die("%s: a build id has 1 to 20 bytes" % arg)
        want[name] = bid
    done = set()
    for off, misc, _, name in list(entries(buf)):
        if name in renames:
            esize = struct.unpack_from("<H", buf, off + 6)[0]
            new = renames[name].encode()
            if len(new) >= esize - 36:
                die("%s does not fit in the entry of %s" % (renames[name], name))
            buf[off + 36:off + esize] = new + bytes(esize - 36 - len(new))
            done.add(name)
            continue
        if name not in want:
            continue
        bid = want[name]
        buf[off + 12:off + 36] = bid + bytes(24 - len(bid))
        if misc & MISC_BUILD_ID_SIZE:
            buf[off + 32] = len(bid)
        done.add(name)
    missing = (set(want) | set(renames)) - done
    if missing:
        die("no build-id entry named %s" % ", ".join(sorted(missing)))
    open(argv[2], "wb").write(buf)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
