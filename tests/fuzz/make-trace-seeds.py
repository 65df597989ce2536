#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeds for fuzz-trace: u16 id, u64 args[6], u8 ret selector, STRING NUL FORMAT.

One seed per syscall below with plausible arguments, each with that
syscall's sys_enter format from tracefs when readable, else a generic
six-argument format."""
import os
import struct
import sys

GENERIC = """name: sys_enter_x
ID: 1
format:
\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;
\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;
\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;
\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;
\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;
\tfield:pid_t pid;\toffset:48;\tsize:8;\tsigned:0;
\tfield:unsigned long arr[4];\toffset:56;\tsize:8;\tsigned:0;

print fmt: "x"
"""

CALLS = [  # (id, name, args)
    (257, "openat", (2**64 - 100, 0x7f0000001000, 0x80241, 0o644, 0, 0)),
    (9, "mmap", (0, 8192, 3, 0x22, 2**64 - 1, 0)),
    (202, "futex", (0x7f0000002000, 0x89, 1, 0, 0, 0xffffffff)),
    (72, "fcntl", (3, 4, 0x800, 0, 0, 0)),
    (41, "socket", (10, 0x80801, 6, 0, 0, 0)),
    (56, "clone", (0x1200011, 0, 0, 0x7f0000003000, 0, 0)),
    (62, "kill", (1234, 15, 0, 0, 0, 0)),
    (16, "ioctl", (1, 0x5401, 0x7ffd00000000, 0, 0, 0)),
    (332, "statx", (2**64 - 100, 0x7f0000004000, 0x900, 0x7ff, 0x7ffd00001000, 0)),
]


def fmt(name):
    for base in ("/sys/kernel/tracing", "/sys/kernel/debug/tracing"):
        try:
            with open(f"{base}/events/syscalls/sys_enter_{name}/format", "rb") as f:
                return f.read()
        except OSError:
            pass
    return GENERIC.encode()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for i, (nr, name, args) in enumerate(CALLS):
        data = struct.pack("<H6QB", nr, *args, i * 9 % 256)
        data += b"/usr/lib/x86_64-linux-gnu/\"lib\"\n\x01.so\0" + fmt(name)
        with open(os.path.join(out, f"seed-{name}.trace"), "wb") as f:
            f.write(data)


main()
