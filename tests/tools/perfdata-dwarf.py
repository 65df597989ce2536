#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-dwarf.py - write a synthetic `perf record --call-graph dwarf` file.

usage: perfdata-dwarf.py [--map-path PATH] ELF CASE OUT
       perfdata-dwarf.py --list

The file holds one cpu-clock event sampled as perf 6.1 samples it for
--call-graph dwarf (IP|TID|TIME|CALLCHAIN|PERIOD|REGS_USER|STACK_USER,
sample_regs_user 0xff0fff, exclude_callchain_user), a COMM and an MMAP2 of
ELF's first PT_LOAD (at 0x400000 for an ET_EXEC, at 0x555555554000 for a
PIE; under the name --map-path, default ELF itself, so a test can name a
binary that is absent), and the samples of CASE, user mode, each with an
empty kernel chain.  No feature sections (perf and prism read such files).

ELF must be tests/data/elf/unw-pie or unw-nopie (built from unw.c, with
frame pointers): the stacks are laid out from its code, found by symbol
(main -> unw_mid -> unw_leaf, _start's CFI ends the unwind).  A sound
sample unwinds to leaf, mid, main, _start.  The cases:

  good        two sound samples
  high        unw_mid after its prologue (CFA = rbp + 16) with rbp = -16:
              the unwinder reads the words at 2^64 - 8 and 2^64 - 16
  wrap        the same with rbp = -8: reads at 0 and 2^64 - 8
  low         the same with rbp = 0: reads at 8 and 0
  zero        every register 0
  truncated   a sound stack whose copy (size = dyn_size = 24) ends in leaf's
              caller's frame
  sp-outside  unw_mid with rbp 64 KiB below sp: the caller's frame lies
              outside the stack copy (below it) and outside any map
  dyn-large   a sound stack with dyn_size larger than the copy
  dyn-zero    a sound stack with dyn_size 0 (nothing was copied)
  abi-none    regs ABI 0 (no registers) but a stack copy
  all         every sample above, in that order (good first)
"""
import struct
import sys

SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME = 1 << 0, 1 << 1, 1 << 2
SAMPLE_CALLCHAIN, SAMPLE_PERIOD = 1 << 5, 1 << 8
SAMPLE_REGS_USER, SAMPLE_STACK_USER = 1 << 12, 1 << 13
REGS_MASK = 0xFF0FFF  # perf's x86-64 set: AX..IP, FLAGS, CS, SS, R8..R15 (no DS..GS)
REG_BP, REG_SP, REG_IP = 6, 7, 8
PID = 4242
STACK_SIZE = 512
SP = 0x7FFD12340000
PERF_RECORD_MISC_USER = 2
PERF_RECORD_MISC_COMM_EXEC = 1 << 13


def elf_info(path):
    """symbol name -> address, bytes of the first PT_LOAD, its vaddr, e_type"""
    with open(path, "rb") as f:
        img = f.read()
    if img[:4] != b"\x7fELF" or img[4] != 2 or img[5] != 1:
        sys.exit("%s: not a little-endian ELF64 file" % path)
    e_type = struct.unpack_from("<H", img, 16)[0]
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
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strsh = struct.unpack_from("<IIQQQQIIQQ", img, shoff + sh[6] * shentsize)
        for j in range(sh[5] // 24):
            name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", img, sh[4] + j * 24)
            end = img.index(b"\0", strsh[4] + name)
            syms[img[strsh[4] + name:end].decode()] = value
    for need in ("_start", "main", "unw_mid", "unw_leaf"):
        if need not in syms:
            sys.exit("%s: no symbol %s (use the unstripped unw-pie or unw-nopie)" % (path, need))
    return syms, img, load, e_type


class Code:
    """the addresses a stack needs, from the binary's own instructions"""

    def __init__(self, path):
        syms, img, load, e_type = elf_info(path)
        self.base = 0x555555554000 if e_type == 3 else 0
        self.load = load
        self.img = img
        self.syms = syms

    def addr(self, sym, off=0):
        return self.base + self.syms[sym] + off

    def text(self, vaddr, n):
        off = vaddr - self.load[1] + self.load[0]
        return self.img[off:off + n]

    def after_prologue(self, sym):
        """the first address where the CFA is rbp + 16 (after push %rbp; mov %rsp,%rbp)"""
        code = self.text(self.syms[sym], 16)
        i = code.find(b"\x55\x48\x89\xe5")
        if i < 0:
            sys.exit("%s has no frame-pointer prologue" % sym)
        return self.addr(sym, i + 4)

    def return_into(self, caller, callee):
        """the return address of caller's call to callee"""
        start = self.syms[caller]
        code = self.text(start, 64)
        for i in range(len(code) - 4):
            if code[i] == 0xE8:
                rel = struct.unpack_from("<i", code, i + 1)[0]
                if start + i + 5 + rel == self.syms[callee]:
                    return self.addr(caller, i + 5)
        sys.exit("no call from %s to %s" % (caller, callee))


def regs(ip, sp, bp):
    vals = []
    for bit in range(64):
        if REGS_MASK & (1 << bit):
            vals.append({REG_IP: ip, REG_SP: sp, REG_BP: bp}.get(bit, 0))
    return vals


def sound_stack(c):
    """leaf's frame at sp: return into mid; mid's and main's frames above it"""
    stack = bytearray(STACK_SIZE)
    r1, r2 = SP + 0x40, SP + 0x80
    struct.pack_into("<Q", stack, 0, c.return_into("unw_mid", "unw_leaf"))
    struct.pack_into("<QQ", stack, r1 - SP, r2, c.return_into("main", "unw_mid"))
    struct.pack_into("<QQ", stack, r2 - SP, 0, c.addr("_start", 5))
    leaf_pc = c.addr("unw_leaf", 0x10)
    return leaf_pc, r1, bytes(stack)


def samples(c, case):
    """(ip, regs, abi, stack bytes, dyn_size) per sample"""
    leaf_pc, r1, stack = sound_stack(c)
    mid = c.after_prologue("unw_mid")
    good = (leaf_pc, regs(leaf_pc, SP, r1), 2, stack, STACK_SIZE)

    def at_mid(bp):
        return (mid, regs(mid, SP, bp), 2, stack, STACK_SIZE)

    cases = {
        "good": [good, good],
        "high": [at_mid(2**64 - 16)],
        "wrap": [at_mid(2**64 - 8)],
        "low": [at_mid(0)],
        "zero": [(leaf_pc, regs(0, 0, 0), 2, stack, STACK_SIZE)],
        "truncated": [(leaf_pc, regs(leaf_pc, SP, r1), 2, stack[:24], 24)],
        "sp-outside": [at_mid(SP - 0x10000)],
        "dyn-large": [(leaf_pc, regs(leaf_pc, SP, r1), 2, stack, STACK_SIZE + 4096)],
        "dyn-zero": [(leaf_pc, regs(leaf_pc, SP, r1), 2, stack, 0)],
        "abi-none": [(leaf_pc, [], 0, stack, STACK_SIZE)],
    }
    if case == "all":
        return [s for k in cases for s in cases[k]]
    if case not in cases:
        sys.exit("unknown case '%s' (see --list)" % case)
    return cases[case]


def record(rtype, misc, body, time):
    body += struct.pack("<IIQ", PID, PID, time)  # sample_id trailer: TID, TIME
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def padded(s):
    b = s.encode() + b"\0"
    return b + b"\0" * (-len(b) % 8)


def main():
    args = sys.argv[1:]
    if args == ["--list"]:
        print(__doc__)
        return
    map_path = None
    if len(args) > 1 and args[0] == "--map-path":
        map_path = args[1]
        args = args[2:]
    if len(args) != 3:
        sys.exit(__doc__)
    elf, case, out = args
    c = Code(elf)
    p_off, p_vaddr, p_filesz = c.load
    start = c.base + (p_vaddr & ~0xFFF)
    length = (p_filesz + (p_vaddr & 0xFFF) + 0xFFF) & ~0xFFF

    data = record(3, PERF_RECORD_MISC_COMM_EXEC,
                  struct.pack("<II", PID, PID) + padded("unw"), 1000)
    data += record(10, PERF_RECORD_MISC_USER,
                   struct.pack("<IIQQQIIQQII", PID, PID, start, length, p_off & ~0xFFF,
                               8, 1, 1234, 0, 5, 2) + padded(map_path or elf), 2000)
    t = 1000000
    for ip, rv, abi, stack, dyn in samples(c, case):
        body = struct.pack("<QIIQQ", ip, PID, PID, t, 100000)
        body += struct.pack("<Q", 0)  # callchain: no kernel part, no user part
        body += struct.pack("<Q", abi) + b"".join(struct.pack("<Q", v) for v in rv)
        body += struct.pack("<Q", len(stack)) + stack
        if stack:
            body += struct.pack("<Q", dyn)
        data += struct.pack("<IHH", 9, PERF_RECORD_MISC_USER, 8 + len(body)) + body
        t += 1000000
    data += struct.pack("<IHH", 68, 0, 8)  # FINISHED_ROUND

    sample_type = (SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CALLCHAIN | SAMPLE_PERIOD |
                   SAMPLE_REGS_USER | SAMPLE_STACK_USER)
    # disabled, mmap, comm, sample_id_all, exclude_guest, exclude_callchain_user, mmap2,
    # comm_exec: what perf record sets for --call-graph dwarf
    flags = ((1 << 0) | (1 << 8) | (1 << 9) | (1 << 18) | (1 << 20) | (1 << 22) | (1 << 23) |
             (1 << 24))
    attr = struct.pack("<IIQQQQQIIQQQQIi", 1, 128, 0, 100000, sample_type, 0, flags, 0, 0, 0,
                       0, 0, REGS_MASK, STACK_SIZE, 0)
    attr += b"\0" * (128 - len(attr))
    ids_off, attr_off = 104, 112
    data_off = attr_off + 128 + 16
    hdr = b"PERFILE2" + struct.pack("<QQQQQQQQ", 104, 144, attr_off, 144, data_off, len(data),
                                    0, 0)
    hdr += b"\0" * 32  # no features
    with open(out, "wb") as f:
        f.write(hdr + struct.pack("<Q", 7) + attr + struct.pack("<QQ", ids_off, 8) + data)


if __name__ == "__main__":
    main()
