#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make-kcache-seeds.py - seeds for tests/fuzz/fuzz-kcache.c.

usage: make-kcache-seeds.py DIR

Writes a kallsyms text (kernel text, data and bss symbols, two modules, a
BPF program, a hidden address, lines cut short) and prism's index of a
small table (lib/symbol/ksym-cache.c's layout), both synthetic: no
machine's kernel is read.
"""
import os
import struct
import sys

TEXT = """0000000000000000 A fixed_percpu_data
ffffffff81000000 T _stext
ffffffff81000000 T _text
ffffffff81000040 t early_helper
ffffffff81000100 W weak_fn
ffffffff81000200 T do_syscall_64
ffffffff81000300 D some_data
ffffffff82000000 B __bss_stop
ffffffffc0001000 t vn_poll\t[virtio_net]
ffffffffc0001100 T vn_open\t[virtio_net]
ffffffffc0002000 t e1000_irq\t[e1000e]
ffffffffc0003000 t bpf_prog_1234\t[bpf]
ffffffff81000400 t cut\t[unterminated
ffffffff8100
"""


def index():
    names = [b"virtio_net", b"_text", b"do_syscall_64", b"vn_open"]
    strtab = b"\0"
    offs = []
    for n in names:
        offs.append(len(strtab))
        strtab += n + b"\0"
    ents = [
        (0xFFFFFFFF81000000, 0xFFFFFFFF81000200, offs[1], 0, 1, 1),
        (0xFFFFFFFF81000200, 0xFFFFFFFF81001200, offs[2], 0, 1, 0),
        (0xFFFFFFFFC0001100, 0xFFFFFFFFC0002100, offs[3], 1, 1, 1),
    ]
    hdr = b"PRSMKSY1" + struct.pack("<II", 1, 1)
    hdr += bytes([20, 0, 0, 0]) + bytes(range(20))
    hdr += struct.pack("<QQQII", 0xFFFFFFFF81000000, 7, 0xFFFFFFFF82000001, len(ents), len(strtab))
    body = struct.pack("<I", offs[0])
    for e in ents:
        body += struct.pack("<QQIHBB", *e)
    return hdr + body + strtab


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: make-kcache-seeds.py DIR")
    os.makedirs(argv[1], exist_ok=True)
    with open(os.path.join(argv[1], "kallsyms.txt"), "w") as f:
        f.write(TEXT)
    with open(os.path.join(argv[1], "index.bin"), "wb") as f:
        f.write(index())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
