#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make-unwind-seeds.py - seed inputs for tests/fuzz/fuzz-unwind.c

usage: make-unwind-seeds.py OUTDIR

Writes one input per case of tests/tools/perfdata-dwarf.py (sound stacks,
registers that make libdw read at 2^64 - 8 and near 0, zero registers, cut
and damaged copies) for each mapped binary of fuzz-unwind (unw-nopie,
unw-pie, unw-pie-stripped, libunw.so, libunw-stripped.so), in fuzz-unwind's
input format with relocated words, so the stacks stay sound wherever the
fuzzer moves the maps.  Addresses come from the unstripped files, found the
way perfdata-dwarf.py finds them.
"""
import importlib.util
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location(
    "perfdata_dwarf", os.path.join(SRC, "tests", "tools", "perfdata-dwarf.py"))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

MAP, STK = 0xA << 60, 0xB << 60
BINARIES = [("unw-nopie", "unw-nopie"), ("unw-pie", "unw-pie"),
            ("unw-pie-stripped", "unw-pie"), ("libunw.so", "libunw.so"),
            ("libunw-stripped.so", "libunw.so")]


class Lib(gen.Code):
    """libunw.so: unw_lib_entry plays main, and nothing calls it"""

    def __init__(self, path):
        syms, img, load, e_type = gen.elf_info_lib(path)
        self.base, self.load, self.img, self.syms = 0x7F0000000000, load, img, syms

    def return_into(self, caller, callee):
        """calls between the library's global functions go through the PLT: the first call"""
        start = self.syms[caller]
        code = self.text(start, 64)
        return self.addr(caller, code.index(b"\xe8") + 5)


def elf_info_lib(path):
    with open(path, "rb") as f:
        img = f.read()
    phoff, shoff = struct.unpack_from("<QQ", img, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", img, 54)
    load = None
    for i in range(phnum):
        p_type, _, p_off, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", img, phoff + i * phentsize)
        if p_type == 1:
            load = (p_off, p_vaddr, p_filesz)
            break
    syms = {}
    for i in range(shnum):
        sh = struct.unpack_from("<IIQQQQIIQQ", img, shoff + i * shentsize)
        if sh[1] != 2:
            continue
        strsh = struct.unpack_from("<IIQQQQIIQQ", img, shoff + sh[6] * shentsize)
        for j in range(sh[5] // 24):
            name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", img, sh[4] + j * 24)
            end = img.index(b"\0", strsh[4] + name)
            syms[img[strsh[4] + name:end].decode()] = value
    syms["main"] = syms["unw_lib_entry"]
    return syms, img, load, 3


gen.elf_info_lib = elf_info_lib


def rel(c, addr):
    """addr as 'map start + offset'"""
    return MAP | (addr - c.base - (c.load[1] & ~0xFFF))


def regs(ip, sp, bp):
    return [{gen.REG_IP: ip, gen.REG_SP: sp, gen.REG_BP: bp}.get(bit, 0)
            for bit in range(64) if gen.REGS_MASK & (1 << bit)]


def sound(c, lib):
    stack = bytearray(512)
    struct.pack_into("<Q", stack, 0, rel(c, c.return_into("unw_mid", "unw_leaf")))
    struct.pack_into("<QQ", stack, 0x40, STK | 0x80, rel(c, c.return_into("main", "unw_mid")))
    struct.pack_into("<QQ", stack, 0x80, 0, 0 if lib else rel(c, c.addr("_start", 5)))
    return rel(c, c.addr("unw_leaf", 0x10)), bytes(stack)


def sample(abi, rv, stack, dyn=None):
    """abi u8, dyn mode u8, size u16, [dyn], regs, stack"""
    if dyn is None:
        out = struct.pack("<BBH", abi, 0, len(stack))
    else:
        out = struct.pack("<BBHQ", abi, 2, len(stack), dyn)
    return out + b"".join(struct.pack("<Q", v) for v in rv) + stack


def cases(c, lib):
    leaf, stack = sound(c, lib)
    mid = rel(c, c.after_prologue("unw_mid"))
    good = sample(2, regs(leaf, STK, STK | 0x40), stack)
    return {
        "good": good,
        "high": sample(2, regs(mid, STK, 2**64 - 16), stack),
        "wrap": sample(2, regs(mid, STK, 2**64 - 8), stack),
        "low": sample(2, regs(mid, STK, 0), stack),
        "zero": sample(2, regs(0, 0, 0), stack),
        "truncated": sample(2, regs(leaf, STK, STK | 0x40), stack[:24]),
        "sp-outside": sample(2, regs(mid, STK, STACK_BELOW), stack),
        "dyn-large": sample(2, regs(leaf, STK, STK | 0x40), stack, len(stack) + 4096),
        "dyn-zero": sample(2, regs(leaf, STK, STK | 0x40), stack, 0),
        "abi-none": sample(0, [], stack),
        "twice": good + good,
    }


STACK_BELOW = 0x7FFD12330000


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    elf = os.path.join(SRC, "tests", "data", "elf")
    for idx, (name, unstripped) in enumerate(BINARIES):
        lib = unstripped == "libunw.so"
        c = Lib(os.path.join(elf, unstripped)) if lib else gen.Code(os.path.join(elf, unstripped))
        for case, body in cases(c, lib).items():
            flags = idx | 64 | (128 if case == "twice" else 0)
            if case == "good" and not lib:
                # the library mapped too
                with open(os.path.join(out, "%s-%s-lib.seed" % (name, case)), "wb") as f:
                    f.write(bytes([flags | 8]) + body)
            with open(os.path.join(out, "%s-%s.seed" % (name, case)), "wb") as f:
                f.write(bytes([flags]) + body)


if __name__ == "__main__":
    main()
