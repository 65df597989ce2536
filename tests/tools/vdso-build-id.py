#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""vdso-build-id.py - print the build id of this kernel's vdso (as hex), or nothing.

Tests use it to know whether a file's [vdso] (perfdata-buildid.py lists it)
is the one this machine runs: prism names its frames from its own vdso image
only then.  It reads the NT_GNU_BUILD_ID note of the image the kernel maps
into every process (getauxval(AT_SYSINFO_EHDR)), through its PT_NOTE
segments; x86-64 and other 64-bit little-endian machines.
"""
import ctypes
import struct
import sys

AT_SYSINFO_EHDR, PT_NOTE, NT_GNU_BUILD_ID = 33, 4, 3


def main():
    libc = ctypes.CDLL(None)
    libc.getauxval.restype = ctypes.c_ulong
    libc.getauxval.argtypes = [ctypes.c_ulong]
    base = libc.getauxval(AT_SYSINFO_EHDR)
    if not base:
        return 0
    ehdr = ctypes.string_at(base, 64)
    if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2 or ehdr[5] != 1:
        return 0
    phoff = struct.unpack_from("<Q", ehdr, 32)[0]
    phentsize, phnum = struct.unpack_from("<HH", ehdr, 54)
    for i in range(phnum):
        ptype, _, off, _, _, filesz = struct.unpack_from(
            "<IIQQQQ", ctypes.string_at(base + phoff + i * phentsize, 48))
        if ptype != PT_NOTE:
            continue
        notes, pos = ctypes.string_at(base + off, filesz), 0
        while pos + 12 <= len(notes):
            namesz, descsz, ntype = struct.unpack_from("<III", notes, pos)
            pos += 12
            name = notes[pos:pos + namesz]
            pos += (namesz + 3) & ~3
            desc = notes[pos:pos + descsz]
            pos += (descsz + 3) & ~3
            if ntype == NT_GNU_BUILD_ID and name == b"GNU\0":
                print(desc.hex())
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
