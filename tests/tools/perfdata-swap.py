#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-swap.py - rewrite a perf.data file in the opposite byte order.

usage: perfdata-swap.py [--inline] [--no-swap] [--check] [-v] IN OUT

perf cannot write a file of the other byte order, so prism's tests make one:
the input's byte order is detected from its magic ("PERFILE2" = little
endian, "2ELIFREP" = big endian) and every field is rewritten as a writer of
the other byte order would have produced it.  Without compressed records,
converting twice gives back the input byte for byte: every operation is its
own inverse and no offset moves.

What is converted, field by field (docs/perf-data-format.md section numbers):
  * file header (2.1), pipe header (11), attrs and ids (2.2, 2.3): u16/u32/u64
    fields swapped; the bit-field word at attr offset 40 (and the u32
    bit-field at 116) has the bits of each byte reversed in place, which is
    what a big-endian compiler lays out for 1-bit fields and exactly what
    perf's reader undoes (session.c swap_bitfield; see "Note" below)
  * the feature index and every feature section 1-33 (3, 4; 32 and 33 from
    post-6.12 notes, not seen in a real file yet): strings are
    bytes, counts and values swapped; EVENT_DESC attrs; BUILD_ID entries;
    CPU_TOPOLOGY incl. core/socket/die ids; NUMA; CACHE; MEM_TOPOLOGY;
    BPF_PROG_INFO (header, struct bpf_prog_info, and the arrays it points
    to); BPF_BTF (BTF header and type section as u32s, strings as bytes);
    TRACING_DATA (12): its own endianness flag is flipped and its integer
    fields swapped, format text left alone
  * kernel records 1-22 (5) with their sample_id trailer (7), SAMPLE (6)
    per the attr found by id (8): u32 pairs as u32s, read_format blocks,
    callchains, branch stacks (flags bit-field repositioned as perf's
    evsel__bitfield_swap_branch_flags expects), regs, RAW tracepoint data
    field by field from the tracepoint formats (common_* and event fields;
    __data_loc/__rel_loc u32s; char/u8 arrays and STACK_USER/AUX data stay
    bytes)
  * user records 64-86 (9), HEADER_FEATURE payloads like file features,
    HEADER_TRACING_DATA with its blob, AUXTRACE with its data left as bytes
  * COMPRESSED (81) / COMPRESSED2 (83): the zstd stream is decompressed
    (libzstd through ctypes, else the zstd command-line tool), the records
    inside are converted, and the stream is compressed again chunk by chunk
    at the original chunk boundaries, so records that straddle chunks still
    do.  With libzstd this is one stream flushed after each chunk, as perf
    writes it; with the CLI each chunk becomes a zstd frame of its own (a
    reader that keeps one stream per file accepts concatenated frames).
    Record sizes change, so the data section, the feature table offsets and
    anything after the data move.  Converting such a file twice gives back
    the original *content*, not perf's compressed bytes; converting three
    times reproduces the first output byte for byte.
    With --inline the decompressed records are written in place of the
    COMPRESSED records instead (a straddling record goes where it completes)
    and the COMPRESSED feature (bit / HEADER_FEATURE record) is dropped.

Options:
  --inline    write compressed records decompressed (see above)
  --no-swap   keep the byte order (with --inline: just decompress)
  --check     report bytes inside the header, attrs, records or features that
              the converter did not interpret, and exit 3 if there are any
              (with -v also unreferenced gaps: feature-table slack, junk)
  -v          print what was found

Environment: PERFDATA_SWAP_ZSTD=cli uses the zstd command even when libzstd
can be loaded.

Cannot convert (left as bytes, with a warning on stderr): records of unknown
type (23-63, 87+) after their header; SCHEDSTAT_CPU/DOMAIN counter blocks
(85, 86) after their fixed part; feature 34 (CLN_SIZE) and unknown features;
bytes appended to CPU_TOPOLOGY after the die ids; bpf_prog_info fields past
attach_btf_id; __data_loc arrays of unknown element types; AUXTRACE_INFO priv
words are swapped as u64 (PMU-specific layouts are not known).  Directory
format (perf.data/ with data.N files) and 32-bit writers' u32 feature bitmaps
are not handled.  Data after the last record that is not a record (e.g.
perf's messages captured into a pipe file) is copied unchanged.  A file with
data.size 0 (unfinished recording, no features) is converted up to EOF.

Note: perf itself only reverses the bits inside each byte of the attr flag
word and does not swap the u64 (perf_event__attr_swap), so the on-disk bytes
of that word keep their positions.  Multi-bit fields (precise_ip) come out
bit-reversed, a perf limitation ("seems to work for now") we copy.  perf 6.1
also leaves some fields unswapped when reading (attr clockid and
sample_regs_intr, MMAP2 prot/flags, EVENT_UPDATE scale, HEADER_FEATURE in
pipes): a perf cross-check of such fields shows perf's bug, not ours.
"""

import argparse
import ctypes
import ctypes.util
import os
import shutil
import struct
import subprocess
import sys

MAGIC_LE = b"PERFILE2"
MAGIC_BE = b"2ELIFREP"

# sample_type bits
S_IP, S_TID, S_TIME, S_ADDR, S_READ, S_CALLCHAIN, S_ID, S_CPU = (1 << i for i in range(8))
S_PERIOD, S_STREAM_ID, S_RAW, S_BRANCH_STACK, S_REGS_USER, S_STACK_USER = (
    1 << i for i in range(8, 14))
S_WEIGHT, S_DATA_SRC, S_IDENTIFIER, S_TRANSACTION, S_REGS_INTR, S_PHYS_ADDR = (
    1 << i for i in range(14, 20))
S_AUX, S_CGROUP, S_DATA_PAGE_SIZE, S_CODE_PAGE_SIZE, S_WEIGHT_STRUCT = (
    1 << i for i in range(20, 25))
S_KNOWN = (1 << 25) - 1

# read_format bits
R_ENABLED, R_RUNNING, R_ID, R_GROUP, R_LOST = (1 << i for i in range(5))
# branch_sample_type bits
B_HW_INDEX, B_COUNTERS = 1 << 17, 1 << 19

# perf_event_attr: (offset, size, kind); kind 'u' = integer, 'b' = bit-field word
ATTR_FIELDS = [
    (0, 4, "u"), (4, 4, "u"), (8, 8, "u"), (16, 8, "u"), (24, 8, "u"), (32, 8, "u"),
    (40, 8, "b"), (48, 4, "u"), (52, 4, "u"), (56, 8, "u"), (64, 8, "u"), (72, 8, "u"),
    (80, 8, "u"), (88, 4, "u"), (92, 4, "u"), (96, 8, "u"), (104, 4, "u"), (108, 2, "u"),
    (110, 2, "u"), (112, 4, "u"), (116, 4, "b"), (120, 8, "u"), (128, 8, "u"),
    (136, 8, "u"),
]
ATTR_KNOWN = 144

# struct bpf_prog_info (uapi bpf.h): (offset, size, kind); 'r' = bytes
BPF_PROG_INFO_FIELDS = [
    (0, 4, "u"), (4, 4, "u"), (8, 8, "r"), (16, 4, "u"), (20, 4, "u"), (24, 8, "u"),
    (32, 8, "u"), (40, 8, "u"), (48, 4, "u"), (52, 4, "u"), (56, 8, "u"), (64, 16, "r"),
    (80, 4, "u"), (84, 4, "b"), (88, 8, "u"), (96, 8, "u"), (104, 4, "u"), (108, 4, "u"),
    (112, 8, "u"), (120, 8, "u"), (128, 4, "u"), (132, 4, "u"), (136, 8, "u"),
    (144, 4, "u"), (148, 4, "u"), (152, 8, "u"), (160, 8, "u"), (168, 4, "u"),
    (172, 4, "u"), (176, 4, "u"), (180, 4, "u"), (184, 8, "u"), (192, 8, "u"),
    (200, 8, "u"), (208, 8, "u"), (216, 4, "u"), (220, 4, "u"), (224, 4, "u"),
    (228, 4, "r"),
]
BPF_PROG_INFO_KNOWN = 232
# perf's PERF_BPIL_* arrays: (pointer offset, count offset, element: size or
# -(offset of the record-size field), element kind)
BPIL_ARRAYS = [
    (24, 16, 1, "bytes"),  # JITED_INSNS: jited_prog_len bytes
    (32, 20, 8, "insn"),   # XLATED_INSNS: xlated_prog_len bytes of struct bpf_insn
    (56, 52, 4, "u32"),    # MAP_IDS
    (112, 104, 8, "u64"),  # JITED_KSYMS
    (120, 108, 4, "u32"),  # JITED_FUNC_LENS
    (136, 144, -132, "u32"),  # FUNC_INFO, func_info_rec_size
    (152, 148, -172, "u32"),  # LINE_INFO, line_info_rec_size
    (160, 168, -176, "u64"),  # JITED_LINE_INFO, jited_line_info_rec_size
    (184, 180, 8, "bytes"),   # PROG_TAGS
]

# branch entry flags: (LE bit position, width), perf_branch_entry
BRANCH_FLAG_FIELDS = [(0, 1), (1, 1), (2, 1), (3, 1), (4, 16), (20, 4), (24, 2), (26, 4),
                      (30, 3), (33, 31)]

REVBITS = bytes(int("{:08b}".format(i)[::-1], 2) for i in range(256))

FEATURE_NAMES = {
    1: "TRACING_DATA", 2: "BUILD_ID", 3: "HOSTNAME", 4: "OSRELEASE", 5: "VERSION",
    6: "ARCH", 7: "NRCPUS", 8: "CPUDESC", 9: "CPUID", 10: "TOTAL_MEM", 11: "CMDLINE",
    12: "EVENT_DESC", 13: "CPU_TOPOLOGY", 14: "NUMA_TOPOLOGY", 15: "BRANCH_STACK",
    16: "PMU_MAPPINGS", 17: "GROUP_DESC", 18: "AUXTRACE", 19: "STAT", 20: "CACHE",
    21: "SAMPLE_TIME", 22: "MEM_TOPOLOGY", 23: "CLOCKID", 24: "DIR_FORMAT",
    25: "BPF_PROG_INFO", 26: "BPF_BTF", 27: "COMPRESSED", 28: "CPU_PMU_CAPS",
    29: "CLOCK_DATA", 30: "HYBRID_TOPOLOGY", 31: "PMU_CAPS", 32: "CPU_DOMAIN_INFO",
    33: "E_MACHINE", 34: "CLN_SIZE",
}
FEAT_COMPRESSED = 27

REC_SAMPLE = 9
REC_HEADER_ATTR, REC_TRACING_DATA, REC_AUXTRACE = 64, 66, 71
REC_FEATURE, REC_COMPRESSED, REC_COMPRESSED2 = 80, 81, 83


class SwapError(Exception):
    pass


def popcount(v):
    return bin(v).count("1")


class Buf:
    """Input bytes, the output being built in place, and which bytes were
    interpreted.  Every operation keeps offsets; the output differs only in
    the order of bytes inside fields."""

    def __init__(self, data, e, swap, track, name):
        self.b = bytes(data)
        self.o = bytearray(data)
        self.e = e  # struct prefix of the input's byte order
        self.oe = (">" if e == "<" else "<") if swap else e
        self.swap = swap
        self.claim = bytearray(len(data)) if track else None
        self.name = name

    def __len__(self):
        return len(self.b)

    def need(self, off, n, what="field"):
        if off < 0 or n < 0 or off + n > len(self.b):
            raise SwapError("%s: %s of %d bytes at %#x runs past the end (%#x)"
                            % (self.name, what, n, off, len(self.b)))

    def mark(self, off, n):
        if self.claim is not None:
            self.claim[off:off + n] = b"\1" * n

    def u8(self, off):
        self.need(off, 1)
        return self.b[off]

    def u16(self, off):
        self.need(off, 2)
        return struct.unpack_from(self.e + "H", self.b, off)[0]

    def u32(self, off):
        self.need(off, 4)
        return struct.unpack_from(self.e + "I", self.b, off)[0]

    def u64(self, off):
        self.need(off, 8)
        return struct.unpack_from(self.e + "Q", self.b, off)[0]

    def sw(self, off, n):
        """one integer of n bytes"""
        self.need(off, n)
        if self.swap:
            self.o[off:off + n] = self.b[off:off + n][::-1]
        self.mark(off, n)

    def sw_arr(self, off, size, count, what="array"):
        """count integers of size bytes"""
        if count <= 0:
            return
        self.need(off, size * count, what)
        if self.swap and size > 1:
            fmt = "%d%s" % (count, {2: "H", 4: "I", 8: "Q"}[size])
            vals = struct.unpack_from(self.e + fmt, self.b, off)
            struct.pack_into(self.oe + fmt, self.o, off, *vals)
        self.mark(off, size * count)

    def raw(self, off, n, what="bytes"):
        """bytes that keep their order (strings, padding, opaque data)"""
        if n <= 0:
            return
        self.need(off, n, what)
        self.mark(off, n)

    def bitrev(self, off, n):
        """a bit-field word: reverse the bits of each byte in place"""
        self.need(off, n)
        if self.swap:
            self.o[off:off + n] = self.b[off:off + n].translate(REVBITS)
        self.mark(off, n)

    def read_bits(self, off, n):
        """a bit-field word as a little-endian-layout integer"""
        self.need(off, n)
        raw = self.b[off:off + n]
        if self.e == ">":
            raw = raw.translate(REVBITS)
        return int.from_bytes(raw, "little")

    def string(self, off, end, what="string"):
        """perf_header_string: u32 len, len bytes; returns the next offset"""
        n = self.u32(off)
        self.sw(off, 4)
        if off + 4 + n > end:
            raise SwapError("%s: %s of %d bytes at %#x overruns its section"
                            % (self.name, what, n, off))
        self.raw(off + 4, n)
        return off + 4 + n

    def string_list(self, off, end):
        nr = self.u32(off)
        self.sw(off, 4)
        off += 4
        for _ in range(nr):
            off = self.string(off, end)
        return off

    def put(self, off, fmt, *vals):
        """write a new value in the output's byte order"""
        struct.pack_into(self.oe + fmt, self.o, off, *vals)

    def unclaimed(self, start=0, end=None):
        if self.claim is None:
            return []
        end = len(self.b) if end is None else end
        out, i = [], start
        while i < end:
            if self.claim[i]:
                i += 1
                continue
            j = i
            while j < end and not self.claim[j]:
                j += 1
            out.append((i, j - i))
            i = j
        return out


class Attr:
    def __init__(self, buf, off, avail):
        self.size = buf.u32(off + 4) or 64
        if self.size < 64 or self.size > avail:
            raise SwapError("%s: attr at %#x has size %d (room %d)"
                            % (buf.name, off, self.size, avail))
        self.type = buf.u32(off)
        self.config = buf.u64(off + 8)
        self.sample_type = buf.u64(off + 24)
        self.read_format = buf.u64(off + 32)
        flags = buf.read_bits(off + 40, 8)
        self.sample_id_all = bool(flags >> 18 & 1)
        self.branch_sample_type = buf.u64(off + 72) if self.size >= 80 else 0
        self.regs_user = buf.u64(off + 80) if self.size >= 96 else 0
        self.regs_intr = buf.u64(off + 96) if self.size >= 104 else 0
        self.ids = []

    def id_hdr_size(self):
        st = self.sample_type
        return 8 * popcount(st & (S_TID | S_TIME | S_ID | S_STREAM_ID | S_CPU | S_IDENTIFIER))


def swap_attr(buf, off, avail):
    """convert one perf_event_attr; return (Attr, its size in the file)"""
    attr = Attr(buf, off, avail)
    for f_off, f_size, kind in ATTR_FIELDS:
        if f_off + f_size > attr.size:
            break
        if kind == "b":
            buf.bitrev(off + f_off, f_size)
        else:
            buf.sw(off + f_off, f_size)
    if attr.size > ATTR_KNOWN:
        warn(buf, "attr at %#x: %d bytes past the known layout left as they are"
             % (off, attr.size - ATTR_KNOWN))
        buf.raw(off + ATTR_KNOWN, attr.size - ATTR_KNOWN)
    return attr, attr.size


WARNINGS = []


def warn(buf, msg):
    text = "%s: %s" % (buf.name, msg)
    if text not in WARNINGS:
        WARNINGS.append(text)


class TpField:
    __slots__ = ("name", "offset", "size", "kind", "elem")

    def __init__(self, name, offset, size, kind, elem):
        self.name, self.offset, self.size, self.kind, self.elem = name, offset, size, kind, elem


CHAR_TYPES = {"char", "signed char", "unsigned char", "u8", "s8", "__u8", "__s8", "bool",
              "_Bool", "int8_t", "uint8_t"}


def ctype_size(t, long_size):
    t = " ".join(w for w in t.replace("*", " * ").split()
                 if w not in ("const", "volatile", "struct", "enum"))
    if "*" in t:
        return long_size
    if t in CHAR_TYPES:
        return 1
    table = {
        "short": 2, "unsigned short": 2, "u16": 2, "s16": 2, "__u16": 2, "__s16": 2,
        "int": 4, "unsigned int": 4, "unsigned": 4, "u32": 4, "s32": 4, "__u32": 4,
        "__s32": 4, "pid_t": 4, "uid_t": 4, "gid_t": 4,
        "long": long_size, "unsigned long": long_size, "size_t": long_size,
        "cpumask_t": long_size,
        "long long": 8, "unsigned long long": 8, "u64": 8, "s64": 8, "__u64": 8,
        "__s64": 8, "dma_addr_t": 8,
    }
    return table.get(t)


def parse_format(text, long_size):
    """tracefs format text -> (id, [TpField]); None when there is no ID"""
    tp_id, fields = None, []
    for line in text.decode("latin-1").splitlines():
        line = line.strip()
        if line.startswith("ID:"):
            tp_id = int(line[3:].strip())
            continue
        if not line.startswith("field:"):
            continue
        parts = {}
        decl = None
        for item in line.split(";"):
            item = item.strip()
            if item.startswith("field:"):
                decl = item[6:].strip()
            elif ":" in item:
                k, v = item.split(":", 1)
                parts[k.strip()] = v.strip()
        if decl is None or "offset" not in parts or "size" not in parts:
            continue
        offset, size = int(parts["offset"]), int(parts["size"])
        words = decl.split()
        name = words[-1]
        if decl.startswith("__data_loc") or decl.startswith("__rel_loc"):
            kind = "rel_loc" if decl.startswith("__rel_loc") else "data_loc"
            t = " ".join(words[1:-1])
            t = t.split("[")[0].strip()
            elem = ctype_size(t, long_size)
            fields.append(TpField(name, offset, size, kind, elem))
        elif "[" in decl:  # the bound may hold spaces: "u8 a[sizeof(struct x)]"
            head = decl[:decl.index("[")].split()
            elem = ctype_size(" ".join(head[:-1]), long_size)
            fields.append(TpField(head[-1], offset, size, "array", elem))
        else:
            fields.append(TpField(name, offset, size, "scalar", size))
    if tp_id is None:
        return None
    return tp_id, fields


class Converter:
    def __init__(self, data, opts):
        self.opts = opts
        if data[:8] == MAGIC_LE:
            e = "<"
        elif data[:8] == MAGIC_BE:
            e = ">"
        elif data[:8] == b"PERFFILE":
            raise SwapError("version 1 perf.data (magic PERFFILE) is not supported")
        else:
            raise SwapError("not a perf.data file (magic %r)" % data[:8])
        self.swap = not opts.no_swap
        self.track = opts.check
        self.buf = Buf(data, e, self.swap, self.track, opts.input)
        self.attrs = []
        self.id2attr = {}
        self.tp = {}  # tracepoint id -> [TpField]
        self.long_size = 8
        self.nr_cpus = None
        self.stats = {}
        self.streams = []  # decompressed streams (Buf) for --check
        self.regions = []  # (start, end) of the main buffer that structures cover
        self.junk_off = None  # where bytes that are not records start (pipe)

    # ------------------------------------------------------------------
    # attrs and ids

    def add_attr(self, attr):
        self.attrs.append(attr)
        for i in attr.ids:
            self.id2attr.setdefault(i, attr)

    def attr_for_sample(self, buf, off, size):
        if len(self.attrs) == 1:
            return self.attrs[0]
        if not self.attrs:
            raise SwapError("%s: record at %#x before any attr" % (buf.name, off))
        first = self.attrs[0].sample_type
        if first & S_IDENTIFIER:
            pos = 8
        elif first & S_ID:
            pos = 8 + 8 * popcount(first & (S_IP | S_TID | S_TIME | S_ADDR))
        else:
            return self.attrs[0]
        if pos + 8 > size:
            raise SwapError("%s: sample at %#x too short for its id" % (buf.name, off))
        return self.lookup(buf, off, buf.u64(off + pos))

    def attr_for_other(self, buf, off, size):
        if not self.attrs:
            return None
        first = self.attrs[0]
        if len(self.attrs) == 1 or not first.sample_id_all:
            return first
        st = first.sample_type
        if st & S_IDENTIFIER:
            pos = 1
        elif st & S_ID:
            pos = 1 + popcount(st & (S_CPU | S_STREAM_ID))
        else:
            return first
        if 8 * pos > size - 8:
            raise SwapError("%s: record at %#x too short for its sample_id" % (buf.name, off))
        return self.lookup(buf, off, buf.u64(off + size - 8 * pos))

    def lookup(self, buf, off, ident):
        if ident == 0:  # synthesized: perf uses the first event
            return self.attrs[0]
        attr = self.id2attr.get(ident)
        if attr is None:
            raise SwapError("%s: record at %#x has unknown id %d" % (buf.name, off, ident))
        return attr

    # ------------------------------------------------------------------
    # file header, attrs, features

    def convert_file(self):
        b = self.buf
        hsize = b.u64(8)
        if hsize == 16:
            return self.convert_pipe()
        if hsize not in (72, 104) and hsize < 104:
            raise SwapError("%s: unexpected header size %d" % (b.name, hsize))
        b.sw_arr(0, 8, 9)  # magic .. event_types (72 bytes)
        self.regions.append((0, hsize))
        bitmap = [0, 0, 0, 0]
        if hsize >= 104:
            bitmap = [b.u64(72 + 8 * i) for i in range(4)]
            b.sw_arr(72, 8, 4)
        if hsize > 104:
            b.raw(104, hsize - 104)
            warn(b, "file header is %d bytes; the tail was left as bytes" % hsize)
        attr_size = b.u64(16)
        attrs_off, attrs_len = b.u64(24), b.u64(32)
        data_off, data_len = b.u64(40), b.u64(48)
        if attr_size == 0 or attr_size < 16 + 64:
            raise SwapError("%s: attr_size %d" % (b.name, attr_size))
        nr_attrs = attrs_len // attr_size
        b.need(attrs_off, nr_attrs * attr_size, "attrs section")
        b.need(data_off, data_len, "data section")
        self.regions += [(attrs_off, attrs_off + nr_attrs * attr_size),
                         (data_off, data_off + data_len)]
        ids_sites = []
        for i in range(nr_attrs):
            entry = attrs_off + i * attr_size
            attr, asz = swap_attr(b, entry, attr_size - 16)
            if asz < attr_size - 16:
                b.raw(entry + asz, attr_size - 16 - asz)
            ids = entry + attr_size - 16
            ids_off, ids_len = b.u64(ids), b.u64(ids + 8)
            b.sw_arr(ids, 8, 2)
            ids_sites.append(ids)
            b.need(ids_off, ids_len, "ids array")
            self.regions.append((ids_off, ids_off + ids_len))
            attr.ids = list(struct.unpack_from("%s%dQ" % (b.e, ids_len // 8), b.b, ids_off))
            b.sw_arr(ids_off, 8, ids_len // 8, "ids array")
            self.add_attr(attr)
        if data_len == 0 and not any(bitmap) and len(b) > data_off:
            # perf record did not finish: no features, records up to EOF
            warn(b, "data.size is 0 (unfinished recording): converting records up to EOF")
            pieces, _ = self.records(b, data_off, len(b), pipe=True)
            self.regions.append((data_off, self.junk_off or len(b)))
            return bytes(b.o[:data_off]) + b"".join(pieces)
        feat_bits = [n for n in range(256) if bitmap[n // 64] >> (n % 64) & 1]
        table = data_off + data_len
        sections = []
        for i, feat in enumerate(feat_bits):
            if table + 16 * (i + 1) > len(b):
                warn(b, "feature table truncated after %d of %d entries" % (i, len(feat_bits)))
                break
            s_off, s_len = b.u64(table + 16 * i), b.u64(table + 16 * i + 8)
            b.sw_arr(table + 16 * i, 8, 2)
            sections.append((feat, s_off, s_len, table + 16 * i))
            self.regions += [(table + 16 * i, table + 16 * i + 16), (s_off, s_off + s_len)]
        # features first: samples need the tracepoint formats and NRCPUS
        for feat, s_off, s_len, _ in sections:
            b.need(s_off, s_len, "feature %d section" % feat)
            self.feature(b, feat, s_off, s_len)
        pieces, rec_map = self.records(b, data_off, data_off + data_len, pipe=False)
        return self.assemble_file(pieces, rec_map, data_off, data_len, attrs_off, ids_sites,
                                  sections)

    def assemble_file(self, pieces, rec_map, data_off, data_len, attrs_off, ids_sites, sections):
        """The output file when compressed records changed the data section's
        size: everything after the data moves and the offsets that point
        there (attrs, ids, feature table, AUXTRACE index) are rewritten."""
        b = self.buf
        data_end = data_off + data_len
        if pieces is None:  # nothing moved
            return bytes(b.o)
        new_data = b"".join(pieces)
        delta = len(new_data) - data_len
        drop = None
        removed = []  # old (offset, length) ranges after the data that go away
        if self.opts.inline:
            for feat, s_off, s_len, site in sections:
                if feat == FEAT_COMPRESSED:
                    drop = site
                    removed = sorted([(site, 16), (s_off, s_len)], reverse=True)
        tail = bytearray(b.o[data_end:])
        for r_off, r_len in removed:
            if r_off < data_end:
                raise SwapError("%s: COMPRESSED feature before the data" % b.name)
            del tail[r_off - data_end:r_off - data_end + r_len]
        out = bytearray(b.o[:data_off]) + new_data + tail

        def move(pos):
            """old file position -> new"""
            if pos < data_off:
                return pos
            if pos < data_end:
                if pos in rec_map:
                    return rec_map[pos]
                raise SwapError("%s: offset %#x points inside a moved record" % (b.name, pos))
            return pos + delta - sum(r_len for r_off, r_len in removed if r_off + r_len <= pos)

        def patch(site, fmt="Q"):
            """rewrite the offset stored at old position site"""
            old = struct.unpack_from(b.oe + fmt, b.o, site)[0]
            struct.pack_into(b.oe + fmt, out, move(site), move(old))

        struct.pack_into(b.oe + "Q", out, 48, len(new_data))
        if drop is not None:
            # clear the COMPRESSED bit in the feature bitmap
            word = struct.unpack_from(b.oe + "Q", out, 72)[0]
            struct.pack_into(b.oe + "Q", out, 72, word & ~(1 << FEAT_COMPRESSED))
        if attrs_off >= data_end:
            struct.pack_into(b.oe + "Q", out, 24, move(attrs_off))
        for site in ids_sites:
            patch(site)
        for feat, s_off, s_len, site in sections:
            if site == drop:
                continue
            patch(site)
            if feat == 18:  # AUXTRACE index: file offsets of AUXTRACE records
                nr = b.u64(s_off)
                for i in range(nr):
                    patch(s_off + 8 + 16 * i)
        return bytes(out)

    def feature(self, b, feat, off, size):
        end = off + size
        self.stats[("feature", feat)] = self.stats.get(("feature", feat), 0) + 1
        if size == 0:
            return
        if feat == 1:
            self.tracing_data(b, off, size)
            off = end
        elif feat == 2:
            while off < end:
                off = self.build_id_entry(b, off, end)
        elif feat in (3, 4, 5, 6, 8, 9):
            off = b.string(off, end)
        elif feat == 7:
            self.nr_cpus = b.u32(off)
            b.sw_arr(off, 4, 2)
            off += 8
        elif feat in (10, 23, 24):
            b.sw(off, 8)
            off += 8
        elif feat == 11:
            off = b.string_list(off, end)
        elif feat == 12:
            off = self.event_desc(b, off, end)
        elif feat == 13:
            off = self.cpu_topology(b, off, end)
        elif feat == 14:
            nr = b.u32(off)
            b.sw(off, 4)
            off += 4
            for _ in range(nr):
                b.sw(off, 4)
                b.sw_arr(off + 4, 8, 2)
                off = b.string(off + 20, end)
        elif feat in (15, 19):
            pass
        elif feat == 16:
            nr = b.u32(off)
            b.sw(off, 4)
            off += 4
            for _ in range(nr):
                b.sw(off, 4)
                off = b.string(off + 4, end)
        elif feat == 17:
            nr = b.u32(off)
            b.sw(off, 4)
            off += 4
            while off < end:  # only groups with more than one member are written
                off = b.string(off, end)
                b.sw_arr(off, 4, 2)
                off += 8
        elif feat == 18:
            nr = b.u64(off)
            b.sw_arr(off, 8, 1 + 2 * nr)
            off += 8 + 16 * nr
        elif feat == 20:
            nr = b.u32(off + 4)
            b.sw_arr(off, 4, 2)
            off += 8
            for _ in range(nr):
                b.sw_arr(off, 4, 4)
                off += 16
                for _ in range(3):
                    off = b.string(off, end)
        elif feat == 21:
            b.sw_arr(off, 8, 2)
            off += 16
        elif feat == 22:
            nr = b.u64(off + 16)
            b.sw_arr(off, 8, 3)
            off += 24
            for _ in range(nr):
                nbits = b.u64(off + 16)
                words = (nbits + 63) // 64
                b.sw_arr(off, 8, 3 + words)
                off += 24 + 8 * words
        elif feat == 25:
            off = self.bpf_prog_info(b, off)
        elif feat == 26:
            nr = b.u32(off)
            b.sw(off, 4)
            off += 4
            for _ in range(nr):
                dsize = b.u32(off + 4)
                b.sw_arr(off, 4, 2)
                self.btf(b, off + 8, dsize)
                off += 8 + dsize
        elif feat == 27:
            b.sw_arr(off, 4, 5)
            off += 20
        elif feat in (28, 30):
            nr = b.u32(off)
            b.sw(off, 4)
            off += 4
            for _ in range(2 * nr):
                off = b.string(off, end)
        elif feat == 29:
            b.sw_arr(off, 4, 2)
            b.sw_arr(off + 8, 8, 2)
            off += 24
        elif feat == 31:
            nr = b.u32(off)
            b.sw(off, 4)
            off += 4
            for _ in range(nr):
                ncaps = b.u32(off)
                b.sw(off, 4)
                off += 4
                for _ in range(2 * ncaps + 1):
                    off = b.string(off, end)
        elif feat == 32:
            version = b.u32(off)
            b.sw_arr(off, 4, 2)
            off += 8
            while off < end:
                ndom = b.u32(off + 4)
                b.sw_arr(off, 4, 2)
                off += 8
                for _ in range(ndom):
                    b.sw(off, 4)
                    off += 4
                    for _ in range(3 if version >= 17 else 2):
                        off = b.string(off, end)
        elif feat == 33:
            b.sw_arr(off, 4, 2)
            off += 8
        else:
            warn(b, "feature %d (%s) is not known: %d bytes left as they are"
                 % (feat, FEATURE_NAMES.get(feat, "?"), size))
            b.raw(off, size)
            return
        if off > end:
            raise SwapError("%s: feature %d overruns its %d bytes" % (b.name, feat, size))
        if off < end:
            warn(b, "feature %d (%s): %d trailing bytes left as they are"
                 % (feat, FEATURE_NAMES.get(feat, "?"), end - off))
            b.raw(off, end - off)

    def build_id_entry(self, b, off, end):
        size = b.u16(off + 6)
        if size < 36 or off + size > end:
            raise SwapError("%s: build-id entry at %#x has size %d" % (b.name, off, size))
        b.sw(off, 4)
        b.sw(off + 4, 2)
        b.sw(off + 6, 2)
        b.sw(off + 8, 4)  # pid
        b.raw(off + 12, size - 12)  # build id, size byte, reserved, file name
        return off + size

    def event_desc(self, b, off, end):
        nr, attr_size = b.u32(off), b.u32(off + 4)
        b.sw_arr(off, 4, 2)
        off += 8
        for _ in range(nr):
            _, asz = swap_attr(b, off, attr_size)
            if asz < attr_size:
                b.raw(off + asz, attr_size - asz)
            off += attr_size
            nr_ids = b.u32(off)
            b.sw(off, 4)
            off = b.string(off + 4, end)
            b.sw_arr(off, 8, nr_ids)
            off += 8 * nr_ids
        return off

    def cpu_topology(self, b, off, end):
        off = b.string_list(off, end)  # package (socket) cpu lists
        off = b.string_list(off, end)  # core/thread sibling lists
        if off < end:
            nr = self.nr_cpus
            if nr is None or off + 8 * nr > end:
                nr = (end - off) // 8
                warn(b, "CPU_TOPOLOGY: NRCPUS unknown, assuming %d cpus" % nr)
            b.sw_arr(off, 4, 2 * nr)  # core_id, socket_id per cpu
            off += 8 * nr
        if off < end:
            off = b.string_list(off, end)  # die cpu lists
            nr = min(self.nr_cpus or 0, (end - off) // 4)
            b.sw_arr(off, 4, nr)  # die_id per cpu
            off += 4 * nr
        return off

    def bpf_prog_info(self, b, off):
        nr = b.u32(off)
        b.sw(off, 4)
        off += 4
        for _ in range(nr):
            info_len, data_len = b.u32(off), b.u32(off + 4)
            arrays = b.u64(off + 8)
            b.sw_arr(off, 4, 2)
            b.sw(off + 8, 8)
            info = off + 16
            data = info + info_len
            b.need(info, info_len + data_len, "bpf_prog_info")
            for f_off, f_size, kind in BPF_PROG_INFO_FIELDS:
                if f_off + f_size > info_len:
                    break
                if kind == "u":
                    b.sw(info + f_off, f_size)
                elif kind == "b":
                    b.bitrev(info + f_off, f_size)
                else:
                    b.raw(info + f_off, f_size)
            if info_len > BPF_PROG_INFO_KNOWN:
                warn(b, "bpf_prog_info of %d bytes: fields past %d left as they are"
                     % (info_len, BPF_PROG_INFO_KNOWN))
                b.raw(info + BPF_PROG_INFO_KNOWN, info_len - BPF_PROG_INFO_KNOWN)
            for bit, (p_off, n_off, elem, kind) in enumerate(BPIL_ARRAYS):
                if not arrays >> bit & 1 or p_off + 8 > info_len or n_off + 4 > info_len:
                    continue
                ptr, count = b.u64(info + p_off), b.u32(info + n_off)
                if elem < 0:
                    rec = b.u32(info - elem) if -elem + 4 <= info_len else 0
                    nbytes = rec * count
                else:
                    rec = elem
                    nbytes = count * elem if kind != "insn" else count
                if ptr + nbytes > data_len:
                    raise SwapError("%s: bpf_prog_info array %d overruns data" % (b.name, bit))
                at = data + ptr
                if kind == "bytes":
                    b.raw(at, nbytes)
                elif kind == "insn":  # struct bpf_insn: u8 code, u8 regs, s16 off, s32 imm
                    for i in range(nbytes // 8):
                        p = at + 8 * i
                        b.raw(p, 1)
                        b.need(p + 1, 1)
                        if self.swap:  # dst_reg:4/src_reg:4 trade nibbles
                            v = b.b[p + 1]
                            b.o[p + 1] = (v >> 4) | ((v & 15) << 4)
                        b.mark(p + 1, 1)
                        b.sw(p + 2, 2)
                        b.sw(p + 4, 4)
                elif kind == "u32":
                    b.sw_arr(at, 4, nbytes // 4)
                else:
                    b.sw_arr(at, 8, nbytes // 8)
            for gap_off, gap_len in b.unclaimed(data, data + data_len):
                b.raw(gap_off, gap_len)  # alignment between arrays
            off = data + data_len
        return off

    def btf(self, b, off, size):
        """a BTF blob: header fields, then the type section (all u32), strings"""
        if size < 24:
            b.raw(off, size)
            return
        magic = b.u16(off)
        if magic != 0xEB9F:
            warn(b, "BTF blob at %#x has magic %#x: left as bytes" % (off, magic))
            b.raw(off, size)
            return
        hdr_len = b.u32(off + 4)
        type_off, type_len = b.u32(off + 8), b.u32(off + 12)
        b.sw(off, 2)
        b.raw(off + 2, 2)  # version, flags
        b.sw_arr(off + 4, 4, (hdr_len - 4) // 4)
        start = off + hdr_len
        if hdr_len + type_off + type_len > size:
            raise SwapError("%s: BTF at %#x: type section out of bounds" % (b.name, off))
        b.sw_arr(start + type_off, 4, type_len // 4)
        for gap_off, gap_len in b.unclaimed(off, off + size):
            b.raw(gap_off, gap_len)  # string section

    def tracing_data(self, b, off, size):
        """tracing-data blob: flip its endianness flag, swap its integers"""
        end = off + size
        p = off
        b.need(p, 10)
        if b.b[p:p + 10] != b"\x17\x08\x44tracing":
            raise SwapError("%s: tracing data at %#x has a bad magic" % (b.name, off))
        b.raw(p, 10)
        p += 10
        nul = b.b.index(b"\0", p, end)
        version = b.b[p:nul].decode("latin-1")
        b.raw(p, nul + 1 - p)
        p = nul + 1
        big = b.u8(p)
        if self.swap:
            b.o[p] = 0 if big else 1
        b.mark(p, 1)
        e = ">" if big else "<"
        self.long_size = b.u8(p + 1)
        b.raw(p + 1, 1)
        p += 2
        tb = TBlob(b, e)
        tb.sw(p, 4)  # page size
        p += 4
        for tag in (b"header_page\0", b"header_event\0"):
            if b.b[p:p + len(tag)] != tag:
                raise SwapError("%s: tracing data: expected %r at %#x" % (b.name, tag, p))
            b.raw(p, len(tag))
            p += len(tag)
            n = tb.u64(p)
            tb.sw(p, 8)
            b.raw(p + 8, n)
            p += 8 + n
        count = tb.u32(p)  # ftrace event formats
        tb.sw(p, 4)
        p += 4
        for _ in range(count):
            p = self.tp_format(b, tb, p)
        nr_sys = tb.u32(p)
        tb.sw(p, 4)
        p += 4
        for _ in range(nr_sys):
            nul = b.b.index(b"\0", p, end)
            b.raw(p, nul + 1 - p)
            p = nul + 1
            count = tb.u32(p)
            tb.sw(p, 4)
            p += 4
            for _ in range(count):
                p = self.tp_format(b, tb, p)
        for what in ("kallsyms", "printk"):
            n = tb.u32(p)
            tb.sw(p, 4)
            b.raw(p + 4, n, what)
            p += 4 + n
        if tuple(int(x) for x in version.split(".")[:2] if x.isdigit()) >= (0, 6) and p < end:
            n = tb.u64(p)
            tb.sw(p, 8)
            b.raw(p + 8, n, "saved_cmdlines")
            p += 8 + n
        if p > end:
            raise SwapError("%s: tracing data overruns its %d bytes" % (b.name, size))
        if p < end:
            if any(b.b[p:end]):
                warn(b, "tracing data: %d trailing bytes left as they are" % (end - p))
            b.raw(p, end - p)

    def tp_format(self, b, tb, p):
        n = tb.u64(p)
        tb.sw(p, 8)
        b.raw(p + 8, n)
        parsed = parse_format(b.b[p + 8:p + 8 + n], self.long_size)
        if parsed:
            self.tp[parsed[0]] = parsed[1]
        return p + 8 + n

    # ------------------------------------------------------------------
    # records

    def records(self, b, start, end, pipe):
        """Convert the records in [start, end).  Returns (pieces, rec_map):
        pieces is None when every record kept its size, else the list of
        output byte strings for the whole range and a map of old record
        offsets to new ones."""
        off = start
        comp = [(o, t) for o, t in self.scan(b, start, end) if t in (REC_COMPRESSED,
                                                                    REC_COMPRESSED2)]
        stream = None
        if comp:
            stream = Stream(self, b, comp)
        pieces = [] if (comp or pipe) else None
        rec_map = {}
        new_off = start
        k = 0
        while off < end:
            if end - off < 8:
                warn(b, "%d bytes after the last record left as they are" % (end - off))
                if pieces is not None:
                    pieces.append(b.o[off:end])
                break
            rtype, size = b.u32(off), b.u16(off + 6)
            extra = 0
            if size >= 8 and off + size <= end:
                if rtype == REC_TRACING_DATA and size >= 12:
                    extra = b.u32(off + 8)
                elif rtype == REC_AUXTRACE and size >= 16:
                    extra = b.u64(off + 8)
            if size < 8 or off + size + extra > end:
                if not pipe:
                    raise SwapError("%s: record at %#x has size %d past the data end"
                                    % (b.name, off, size))
                warn(b, "%d bytes at %#x are not records (type %#x, size %d): copied as they are"
                     % (end - off, off, rtype, size))
                pieces.append(b.o[off:end])
                self.junk_off = off
                break
            rec_map[off] = new_off
            if rtype in (REC_COMPRESSED, REC_COMPRESSED2):
                self.header(b, off)
                piece = stream.chunk(k, off, size)
                k += 1
            else:
                self.record(b, off, size, rtype)
                piece = None
                if pieces is not None:
                    if pipe and self.opts.inline and rtype == REC_FEATURE and \
                            b.u64(off + 8) == FEAT_COMPRESSED:
                        piece = b""
                    else:
                        piece = b.o[off:off + size + extra]
            if pieces is not None:
                pieces.append(piece)
                new_off += len(piece)
            off += size + extra
        if stream:
            stream.finish()
            self.streams.append(stream.buf)
        return pieces, rec_map

    def scan(self, b, start, end):
        off = start
        while end - off >= 8:
            rtype, size = b.u32(off), b.u16(off + 6)
            if size < 8 or off + size > end:
                return
            extra = 0
            if rtype == REC_TRACING_DATA and size >= 12:
                extra = b.u32(off + 8)
            elif rtype == REC_AUXTRACE and size >= 16:
                extra = b.u64(off + 8)
            yield off, rtype
            off += size + extra

    def header(self, b, off):
        b.sw(off, 4)
        b.sw(off + 4, 2)
        b.sw(off + 6, 2)

    def record(self, b, off, size, rtype):
        self.stats[("record", rtype)] = self.stats.get(("record", rtype), 0) + 1
        self.header(b, off)
        end = off + size
        if rtype < 64:
            if rtype == REC_SAMPLE:
                self.sample(b, off, size)
            else:
                self.kernel_record(b, off, size, rtype)
            return
        p = off + 8
        if rtype == REC_HEADER_ATTR:
            attr, asz = swap_attr(b, p, size - 8)
            nids = (size - 8 - asz) // 8
            attr.ids = list(struct.unpack_from("%s%dQ" % (b.e, nids), b.b, p + asz))
            b.sw_arr(p + asz, 8, nids)
            p += asz + 8 * nids
            self.add_attr(attr)
        elif rtype == 65:  # EVENT_TYPE
            b.sw(p, 8)
            b.raw(p + 8, min(64, end - p - 8))
            p = end
        elif rtype == REC_TRACING_DATA:
            blob = b.u32(p)
            b.sw(p, 4)
            b.raw(p + 4, size - 12)  # pad
            self.tracing_data(b, end, blob)
            p = end
        elif rtype == 67:
            p = self.build_id_entry(b, off, end)
        elif rtype in (68, 82):  # FINISHED_ROUND, FINISHED_INIT
            pass
        elif rtype in (69, 75, 77):  # ID_INDEX, STAT_CONFIG, STAT_ROUND: all u64
            b.sw_arr(p, 8, (end - p) // 8)
            p += 8 * ((end - p) // 8)
        elif rtype == 70:  # AUXTRACE_INFO
            b.sw_arr(p, 4, 2)
            b.sw_arr(p + 8, 8, (end - p - 8) // 8)
            p += 8 + 8 * ((end - p - 8) // 8)
        elif rtype == REC_AUXTRACE:
            n = b.u64(p)
            b.sw_arr(p, 8, 3)
            b.sw_arr(p + 24, 4, 4)
            b.raw(end, n, "AUX data")
            p += 40
        elif rtype == 72:  # AUXTRACE_ERROR
            b.sw_arr(p, 4, 6)
            b.sw_arr(p + 24, 8, 2)
            b.raw(p + 40, 64)
            p += 104
            b.sw_arr(p, 4, (end - p) // 4)
            p += 4 * ((end - p) // 4)
        elif rtype == 73:  # THREAD_MAP
            nr = b.u64(p)
            b.sw(p, 8)
            p += 8
            for _ in range(nr):
                b.sw(p, 8)
                b.raw(p + 8, 16)
                p += 24
        elif rtype == 74:  # CPU_MAP
            p = self.cpu_map(b, p, end)
        elif rtype == 76:  # STAT
            b.sw(p, 8)
            b.sw_arr(p + 8, 4, 2)
            b.sw_arr(p + 16, 8, 3)
            p += 40
        elif rtype == 78:  # EVENT_UPDATE
            utype = b.u64(p)
            b.sw_arr(p, 8, 2)
            p += 16
            if utype in (0, 2):  # UNIT, NAME: string
                b.raw(p, end - p)
                p = end
            elif utype == 1:  # SCALE: double
                b.sw(p, 8)
                p += 8
            elif utype == 3:  # CPUS
                p = self.cpu_map(b, p, end)
        elif rtype == 79:  # TIME_CONV
            b.sw_arr(p, 8, 3)
            p += 24
            if end - p >= 24:
                b.sw_arr(p, 8, 2)
                b.raw(p + 16, 8)
                p += 24
        elif rtype == REC_FEATURE:
            feat = b.u64(p)
            b.sw(p, 8)
            if size > 16:
                self.feature(b, feat, p + 8, size - 16)
            p = end
        elif rtype == 84:  # BPF_METADATA
            b.raw(p, 512)
            nr = b.u64(p + 512)
            b.sw(p + 512, 8)
            b.raw(p + 520, 320 * nr)
            p += 520 + 320 * nr
        elif rtype in (85, 86):  # SCHEDSTAT_CPU, SCHEDSTAT_DOMAIN
            b.sw(p, 8)
            b.sw(p + 8, 4)
            b.sw(p + 12, 2)
            if rtype == 86:
                b.sw(p + 14, 2)
            else:
                b.raw(p + 14, 2)
            warn(b, "SCHEDSTAT record counters (version-specific) left as they are")
            b.raw(p + 16, end - p - 16)
            p = end
        else:
            warn(b, "record type %d is not known: body left as it is" % rtype)
            b.raw(p, end - p)
            p = end
        if p > end:
            raise SwapError("%s: record type %d at %#x overruns its size %d"
                            % (b.name, rtype, off, size))
        if p < end:
            if any(b.b[p:end]):
                warn(b, "record type %d: non-zero bytes after the known fields" % rtype)
            b.raw(p, end - p)

    def cpu_map(self, b, p, end):
        ctype = b.u16(p)
        b.sw(p, 2)
        p += 2
        if ctype == 0:
            nr = b.u16(p)
            b.sw_arr(p, 2, 1 + nr)
            p += 2 + 2 * nr
        elif ctype == 1:
            nr, long_size = b.u16(p), b.u16(p + 2)
            b.sw_arr(p, 2, 2)
            p += 4
            if long_size == 8:
                b.raw(p, 4)
                p += 4
            b.sw_arr(p, long_size, nr)
            p += long_size * nr
        elif ctype == 2:
            b.raw(p, 2)  # any_cpu, pad
            b.sw_arr(p + 2, 2, 2)
            p += 6
        else:
            warn(b, "cpu map type %d is not known" % ctype)
            b.raw(p, end - p)
            p = end
        return p

    # kernel records: list of (offset after header, size) fixed fields; 'str'
    # marks the string that runs to the sample_id trailer
    def kernel_record(self, b, off, size, rtype):
        end = off + size
        attr = self.attr_for_other(b, off, size)
        tsize = attr.id_hdr_size() if attr is not None and attr.sample_id_all else 0
        tstart = end - tsize
        if tstart < off + 8:
            raise SwapError("%s: record type %d at %#x is shorter than its sample_id"
                            % (b.name, rtype, off))
        p = off + 8
        if rtype in (1, 10):  # MMAP, MMAP2
            b.sw_arr(p, 4, 2)
            b.sw_arr(p + 8, 8, 3)
            p += 32
            if rtype == 10:
                misc = b.u16(off + 4)
                if misc & (1 << 14):  # build id form
                    b.raw(p, 2)
                    b.sw(p + 2, 2)
                    b.raw(p + 4, 20)
                else:
                    b.sw_arr(p, 4, 2)
                    b.sw_arr(p + 8, 8, 2)
                b.sw_arr(p + 24, 4, 2)
                p += 32
            p = self.kstring(b, p, tstart, rtype, off)
        elif rtype in (2, 11, 21):  # LOST, AUX, AUX_OUTPUT_HW_ID
            n = {2: 2, 11: 3, 21: 1}[rtype]
            b.sw_arr(p, 8, n)
            p += 8 * n
        elif rtype == 3:  # COMM
            b.sw_arr(p, 4, 2)
            p = self.kstring(b, p + 8, tstart, rtype, off)
        elif rtype in (4, 7):  # EXIT, FORK
            b.sw_arr(p, 4, 4)
            b.sw(p + 16, 8)
            p += 24
        elif rtype in (5, 6):  # THROTTLE, UNTHROTTLE
            b.sw_arr(p, 8, 3)
            p += 24
        elif rtype == 8:  # READ: pid, tid, read_format block (all u64)
            b.sw_arr(p, 4, 2)
            p += 8
            b.sw_arr(p, 8, (tstart - p) // 8)
            p += 8 * ((tstart - p) // 8)
        elif rtype in (12, 15):  # ITRACE_START, SWITCH_CPU_WIDE
            b.sw_arr(p, 4, 2)
            p += 8
        elif rtype == 13:  # LOST_SAMPLES
            b.sw(p, 8)
            p += 8
        elif rtype == 14:  # SWITCH
            pass
        elif rtype == 16:  # NAMESPACES
            b.sw_arr(p, 4, 2)
            nr = b.u64(p + 8)
            b.sw_arr(p + 8, 8, 1 + 2 * nr)
            p += 16 + 16 * nr
        elif rtype == 17:  # KSYMBOL
            b.sw(p, 8)
            b.sw(p + 8, 4)
            b.sw_arr(p + 12, 2, 2)
            p = self.kstring(b, p + 16, tstart, rtype, off)
        elif rtype == 18:  # BPF_EVENT
            b.sw_arr(p, 2, 2)
            b.sw(p + 4, 4)
            b.raw(p + 8, 8)
            p += 16
        elif rtype == 19:  # CGROUP
            b.sw(p, 8)
            p = self.kstring(b, p + 8, tstart, rtype, off)
        elif rtype == 20:  # TEXT_POKE
            b.sw(p, 8)
            old_len, new_len = b.u16(p + 8), b.u16(p + 10)
            b.sw_arr(p + 8, 2, 2)
            p += 12
            b.raw(p, old_len + new_len)
            p += old_len + new_len
            pad = (-(4 + old_len + new_len)) % 8
            b.raw(p, min(pad, tstart - p))
            p += pad
        elif rtype == 22:  # CALLCHAIN_DEFERRED
            nr = b.u64(p + 8)
            b.sw_arr(p, 8, 2 + nr)
            p += 16 + 8 * nr
        else:
            warn(b, "kernel record type %d is not known: body left as it is" % rtype)
            b.raw(p, tstart - p)
            p = tstart
        if p > tstart:
            raise SwapError("%s: record type %d at %#x: fields overrun the sample_id"
                            % (b.name, rtype, off))
        if p < tstart:
            if any(b.b[p:tstart]):
                warn(b, "record type %d: %d unexpected bytes before the sample_id left as "
                     "they are" % (rtype, tstart - p))
            b.raw(p, tstart - p)
        if tsize:
            self.sample_id(b, tstart, attr.sample_type)

    def kstring(self, b, p, tstart, rtype, off):
        """NUL-terminated string padded to 8: bytes up to the trailer"""
        if p > tstart or b.b.find(b"\0", p, tstart) < 0:
            raise SwapError("%s: record type %d at %#x: string not terminated before the "
                            "sample_id" % (b.name, rtype, off))
        b.raw(p, tstart - p)
        return tstart

    def sample_id(self, b, p, st):
        if st & S_TID:
            b.sw_arr(p, 4, 2)
            p += 8
        for bit in (S_TIME, S_ID, S_STREAM_ID):
            if st & bit:
                b.sw(p, 8)
                p += 8
        if st & S_CPU:
            b.sw_arr(p, 4, 2)
            p += 8
        if st & S_IDENTIFIER:
            b.sw(p, 8)

    def sample(self, b, off, size):
        attr = self.attr_for_sample(b, off, size)
        st = attr.sample_type
        if st & ~S_KNOWN:
            raise SwapError("%s: sample_type %#x has bits this tool does not know"
                            % (b.name, st))
        end = off + size
        p = off + 8
        for bit in (S_IDENTIFIER, S_IP):
            if st & bit:
                b.sw(p, 8)
                p += 8
        if st & S_TID:
            b.sw_arr(p, 4, 2)
            p += 8
        for bit in (S_TIME, S_ADDR, S_ID, S_STREAM_ID):
            if st & bit:
                b.sw(p, 8)
                p += 8
        if st & S_CPU:
            b.sw_arr(p, 4, 2)
            p += 8
        if st & S_PERIOD:
            b.sw(p, 8)
            p += 8
        if st & S_READ:
            rf = attr.read_format
            if rf & R_GROUP:
                nr = b.u64(p)
                n = 1 + popcount(rf & (R_ENABLED | R_RUNNING)) + \
                    nr * (1 + popcount(rf & (R_ID | R_LOST)))
            else:
                n = 1 + popcount(rf & (R_ENABLED | R_RUNNING | R_ID | R_LOST))
            b.sw_arr(p, 8, n, "read_format block")
            p += 8 * n
        if st & S_CALLCHAIN:
            nr = b.u64(p)
            b.sw_arr(p, 8, 1 + nr, "callchain")
            p += 8 + 8 * nr
        if st & S_RAW:
            n = b.u32(p)
            b.sw(p, 4)
            b.need(p + 4, n, "raw data")
            self.raw_data(b, p + 4, n, attr)
            p += 4 + n
        if st & S_BRANCH_STACK:
            nr = b.u64(p)
            b.sw(p, 8)
            p += 8
            if attr.branch_sample_type & B_HW_INDEX:
                b.sw(p, 8)
                p += 8
            for _ in range(nr):
                b.sw_arr(p, 8, 2)
                self.branch_flags(b, p + 16)
                p += 24
            if attr.branch_sample_type & B_COUNTERS:
                b.sw_arr(p, 8, nr)
                p += 8 * nr
        if st & S_REGS_USER:
            p = self.regs(b, p, attr.regs_user)
        if st & S_STACK_USER:
            n = b.u64(p)
            b.sw(p, 8)
            p += 8
            if n:
                b.raw(p, n, "user stack")
                b.sw(p + n, 8)
                p += n + 8
        for bit in (S_WEIGHT | S_WEIGHT_STRUCT, S_DATA_SRC, S_TRANSACTION):
            if st & bit:
                b.sw(p, 8)  # WEIGHT_STRUCT's u32/u16/u16 swap as one u64 (see uapi)
                p += 8
        if st & S_REGS_INTR:
            p = self.regs(b, p, attr.regs_intr)
        for bit in (S_PHYS_ADDR, S_CGROUP, S_DATA_PAGE_SIZE, S_CODE_PAGE_SIZE):
            if st & bit:
                b.sw(p, 8)
                p += 8
        if st & S_AUX:
            n = b.u64(p)
            b.sw(p, 8)
            b.raw(p + 8, n, "aux sample")
            p += 8 + n
        if p != end:
            raise SwapError("%s: sample at %#x: fields end at +%d, record size is %d"
                            % (b.name, off, p - off, size))

    def regs(self, b, p, mask):
        abi = b.u64(p)
        b.sw(p, 8)
        p += 8
        if abi:
            n = popcount(mask)
            b.sw_arr(p, 8, n, "registers")
            p += 8 * n
        return p

    def branch_flags(self, b, p):
        v = b.u64(p)
        if self.swap:
            out = 0
            for pos, width in BRANCH_FLAG_FIELDS:
                src = pos if b.e == "<" else 64 - pos - width
                dst = 64 - pos - width if b.e == "<" else pos
                out |= ((v >> src) & ((1 << width) - 1)) << dst
            b.put(p, "Q", out)
        b.mark(p, 8)

    def raw_data(self, b, p, n, attr):
        fields = None
        if attr.type == 2:
            fields = self.tp.get(attr.config)
        if fields is None and n >= 2:
            fields = self.tp.get(b.u16(p))  # common_type
        if fields is None:
            warn(b, "RAW data without a tracepoint format (attr type %d config %d): left as "
                 "bytes" % (attr.type, attr.config))
            b.raw(p, n)
            return
        end = p + n
        for f in fields:
            at = p + f.offset
            if at + f.size > end:
                continue
            if f.kind == "scalar":
                if f.size in (2, 4, 8):
                    b.sw(at, f.size)
                else:
                    b.raw(at, f.size)
            elif f.kind == "array":
                if f.elem in (2, 4, 8) and f.size % f.elem == 0:
                    b.sw_arr(at, f.elem, f.size // f.elem)
                else:
                    b.raw(at, f.size)
            else:  # __data_loc / __rel_loc: u32 offset | len << 16
                v = b.u32(at)
                b.sw(at, 4)
                d_off, d_len = v & 0xFFFF, v >> 16
                d_at = (at + 4 if f.kind == "rel_loc" else p) + d_off
                if d_len == 0 or d_at + d_len > end:
                    continue
                if f.elem in (2, 4, 8) and d_len % f.elem == 0:
                    b.sw_arr(d_at, f.elem, d_len // f.elem)
                else:
                    if f.elem is None:
                        warn(b, "tracepoint field %s: dynamic data of unknown type left as "
                             "bytes" % f.name)
                    b.raw(d_at, d_len)
        if b.claim is not None:
            for gap_off, gap_len in b.unclaimed(p, end):
                b.raw(gap_off, gap_len)  # padding

    # ------------------------------------------------------------------

    def convert_pipe(self):
        b = self.buf
        b.sw_arr(0, 8, 2)
        pieces, _ = self.records(b, 16, len(b), pipe=True)
        self.regions.append((0, self.junk_off if self.junk_off is not None else len(b)))
        return bytes(b.o[:16]) + b"".join(pieces)


class TBlob:
    """integers of the tracing-data blob, in the blob's own byte order"""

    def __init__(self, b, e):
        self.b, self.e = b, e

    def u32(self, off):
        self.b.need(off, 4)
        return struct.unpack_from(self.e + "I", self.b.b, off)[0]

    def u64(self, off):
        self.b.need(off, 8)
        return struct.unpack_from(self.e + "Q", self.b.b, off)[0]

    def sw(self, off, n):
        self.b.sw(off, n)


class Stream:
    """The zstd stream of a file's COMPRESSED records, decompressed, with the
    records inside converted, and re-emitted per chunk."""

    def __init__(self, conv, b, comp):
        self.conv, self.b = conv, b
        self.payloads = []
        for off, rtype in comp:
            size = b.u16(off + 6)
            if rtype == REC_COMPRESSED:
                self.payloads.append(b.b[off + 8:off + size])
            else:
                n = b.u64(off + 8)
                if 16 + n > size:
                    raise SwapError("%s: COMPRESSED2 at %#x: data_size %d > record" %
                                    (b.name, off, n))
                self.payloads.append(b.b[off + 16:off + 16 + n])
        data, self.bounds = zstd().decompress_chunks(self.payloads)
        self.comp = None
        self.buf = Buf(data, b.e, b.swap, b.claim is not None, b.name + " (decompressed)")
        self.conv_upto = 0   # records converted up to here
        self.emit_upto = 0   # bytes emitted (inline mode)
        self.rec_ends = []

    def convert_until(self, limit):
        """convert every record that starts before limit"""
        s = self.buf
        while self.conv_upto < limit:
            off = self.conv_upto
            if len(s) - off < 8:
                raise SwapError("%s: %d stray bytes at the end" % (s.name, len(s) - off))
            rtype, size = s.u32(off), s.u16(off + 6)
            if size < 8 or off + size > len(s):
                raise SwapError("%s: record at %#x has size %d" % (s.name, off, size))
            self.conv.record(s, off, size, rtype)
            self.conv_upto = off + size
            self.rec_ends.append(self.conv_upto)

    def chunk(self, k, off, size):
        """the output bytes replacing compressed record k (at off)"""
        b, s = self.b, self.buf
        lo, hi = (self.bounds[k - 1] if k else 0), self.bounds[k]
        self.convert_until(hi)
        b.mark(off, size)
        if self.conv.opts.inline:
            # emit the records that are complete by the end of this chunk
            upto = self.emit_upto
            for e in self.rec_ends:
                if e <= hi:
                    upto = max(upto, e)
            piece = bytes(s.o[self.emit_upto:upto])
            self.emit_upto = upto
            return piece
        rtype = b.u32(off)
        misc = b.u16(off + 4)
        if self.comp is None:
            self.comp = zstd().compressor()
        data = self.comp.chunk(bytes(s.o[lo:hi]))
        # like perf: a chunk too big for one record goes on in the next one
        limit = 65535 - (8 if rtype == REC_COMPRESSED else 16 + 7)
        return b"".join(make_compressed(b.oe, rtype, misc, data[i:i + limit])
                        for i in range(0, len(data), limit))

    def finish(self):
        if self.comp is not None:
            self.comp.close()
        if self.conv_upto != len(self.buf):
            self.convert_until(len(self.buf))
        if self.conv.opts.inline and self.emit_upto != len(self.buf):
            raise SwapError("%s: records left over after the last chunk" % self.buf.name)


def make_compressed(oe, rtype, misc, frame):
    if rtype == REC_COMPRESSED:
        return struct.pack(oe + "IHH", rtype, misc, 8 + len(frame)) + frame
    pad = (-(16 + len(frame))) % 8
    return struct.pack(oe + "IHHQ", rtype, misc, 16 + len(frame) + pad, len(frame)) + \
        frame + b"\0" * pad


# ----------------------------------------------------------------------
# zstd: libzstd through ctypes (standard library), else the zstd CLI

ZSTD_LEVEL = 3


class _ZBuf(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p), ("size", ctypes.c_size_t), ("pos", ctypes.c_size_t)]


class LibZstd:
    """Streaming (de)compression as perf does it (util/zstd.c): one stream
    per file, flushed after every chunk and never ended."""

    def __init__(self, path):
        lib = self.lib = ctypes.CDLL(path)
        vp, sz, bp = ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(_ZBuf)
        for name, res, args in (
                ("ZSTD_createDStream", vp, []), ("ZSTD_freeDStream", sz, [vp]),
                ("ZSTD_initDStream", sz, [vp]), ("ZSTD_decompressStream", sz, [vp, bp, bp]),
                ("ZSTD_createCStream", vp, []), ("ZSTD_freeCStream", sz, [vp]),
                ("ZSTD_initCStream", sz, [vp, ctypes.c_int]),
                ("ZSTD_compressStream", sz, [vp, bp, bp]), ("ZSTD_flushStream", sz, [vp, bp]),
                ("ZSTD_isError", ctypes.c_uint, [sz]),
                ("ZSTD_getErrorName", ctypes.c_char_p, [sz])):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args

    def check(self, ret, what):
        if self.lib.ZSTD_isError(ret):
            raise SwapError("zstd: %s: %s" % (what, self.lib.ZSTD_getErrorName(ret).decode()))
        return ret

    def decompress_chunks(self, payloads):
        lib = self.lib
        ds = lib.ZSTD_createDStream()
        out, bounds = bytearray(), []
        obuf = ctypes.create_string_buffer(1 << 17)
        try:
            self.check(lib.ZSTD_initDStream(ds), "init")
            for p in payloads:
                src = ctypes.create_string_buffer(p, len(p))
                zin = _ZBuf(ctypes.cast(src, ctypes.c_void_p), len(p), 0)
                while True:
                    zout = _ZBuf(ctypes.cast(obuf, ctypes.c_void_p), len(obuf), 0)
                    self.check(lib.ZSTD_decompressStream(ds, ctypes.byref(zout),
                                                         ctypes.byref(zin)), "decompress")
                    out += obuf.raw[:zout.pos]
                    if zin.pos == zin.size and zout.pos < zout.size:
                        break
                bounds.append(len(out))
        finally:
            lib.ZSTD_freeDStream(ds)
        return bytes(out), bounds

    def compressor(self):
        return _LibCompressor(self)


class _LibCompressor:
    def __init__(self, z):
        self.z, self.lib = z, z.lib
        self.cs = self.lib.ZSTD_createCStream()
        z.check(self.lib.ZSTD_initCStream(self.cs, ZSTD_LEVEL), "init")
        self.obuf = ctypes.create_string_buffer(1 << 17)

    def chunk(self, data):
        """compress and flush: the bytes of one chunk, decodable on their own"""
        lib, out = self.lib, bytearray()
        src = ctypes.create_string_buffer(data, len(data))
        zin = _ZBuf(ctypes.cast(src, ctypes.c_void_p), len(data), 0)
        while zin.pos < zin.size:
            zout = _ZBuf(ctypes.cast(self.obuf, ctypes.c_void_p), len(self.obuf), 0)
            self.z.check(lib.ZSTD_compressStream(self.cs, ctypes.byref(zout), ctypes.byref(zin)),
                         "compress")
            out += self.obuf.raw[:zout.pos]
        while True:
            zout = _ZBuf(ctypes.cast(self.obuf, ctypes.c_void_p), len(self.obuf), 0)
            left = self.z.check(lib.ZSTD_flushStream(self.cs, ctypes.byref(zout)), "flush")
            out += self.obuf.raw[:zout.pos]
            if not left:
                return bytes(out)

    def close(self):
        self.lib.ZSTD_freeCStream(self.cs)


class CliZstd:
    """The zstd command: decompress growing prefixes of the stream (slow),
    compress every chunk as a frame of its own (larger than perf's)."""

    def __init__(self, path):
        self.path = path

    def decompress_chunks(self, payloads):
        prefix, out, bounds = b"", b"", []
        for p in payloads:
            prefix += p
            r = subprocess.run([self.path, "-d", "-c", "-q"], input=prefix, capture_output=True)
            # the frame is never ended: "premature end" is expected
            if r.returncode and b"premature end" not in r.stderr:
                raise SwapError("zstd -d: %s" % r.stderr.decode(errors="replace").strip())
            if not r.stdout.startswith(out):
                raise SwapError("zstd -d: a longer prefix does not extend the shorter's output")
            out = r.stdout
            bounds.append(len(out))
        return out, bounds

    def compressor(self):
        return self

    def chunk(self, data):
        r = subprocess.run([self.path, "-q", "-c", "-%d" % ZSTD_LEVEL, "--no-check"],
                           input=data, capture_output=True)
        if r.returncode:
            raise SwapError("zstd: %s" % r.stderr.decode(errors="replace").strip())
        return r.stdout

    def close(self):
        pass


_ZSTD = None


def zstd():
    """PERFDATA_SWAP_ZSTD=cli forces the command-line tool"""
    global _ZSTD
    if _ZSTD is None:
        if os.environ.get("PERFDATA_SWAP_ZSTD") != "cli":
            for name in ("libzstd.so.1", None):
                try:
                    # find_library runs ldconfig: only when the soname fails
                    name = name or ctypes.util.find_library("zstd")
                    if name:
                        _ZSTD = LibZstd(name)
                        return _ZSTD
                except (OSError, AttributeError):
                    pass
        path = shutil.which("zstd")
        if not path:
            raise SwapError("compressed records need libzstd or the zstd command "
                            "(apt-get install zstd)")
        _ZSTD = CliZstd(path)
    return _ZSTD


def main(argv):
    ap = argparse.ArgumentParser(
        description="Rewrite a perf.data file (file or pipe mode) in the other byte order.")
    ap.add_argument("input", metavar="IN")
    ap.add_argument("output", metavar="OUT")
    ap.add_argument("--inline", action="store_true",
                    help="write COMPRESSED records decompressed, drop the COMPRESSED feature")
    ap.add_argument("--no-swap", action="store_true", help="keep the byte order")
    ap.add_argument("--check", action="store_true",
                    help="report bytes that were not interpreted")
    ap.add_argument("-v", "--verbose", action="store_true")
    opts = ap.parse_args(argv)
    with open(opts.input, "rb") as f:
        data = f.read()
    try:
        conv = Converter(data, opts)
        out = conv.convert_file()
    except (SwapError, struct.error, ValueError, IndexError) as exc:
        print("perfdata-swap: %s" % exc, file=sys.stderr)
        return 1
    tmp = opts.output + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out)
    os.replace(tmp, opts.output)
    for w in WARNINGS:
        print("perfdata-swap: warning: %s" % w, file=sys.stderr)
    rc = 0
    if opts.verbose:
        b = conv.buf
        print("%s: %s-endian -> %s-endian, %d attrs, %d tracepoint formats"
              % (opts.input, "little" if b.e == "<" else "big",
                 "little" if b.oe == "<" else "big", len(conv.attrs), len(conv.tp)))
        for kind, n in sorted(conv.stats):
            name = FEATURE_NAMES.get(n, "?") if kind == "feature" else ""
            print("  %s %3d %-16s %d" % (kind, n, name, conv.stats[(kind, n)]))
    if opts.check:
        for buf in [conv.buf] + conv.streams:
            regions = conv.regions if buf is conv.buf else [(0, len(buf))]
            for off, n in buf.unclaimed():
                inside = any(s < off + n and off < e for s, e in regions)
                if inside:
                    print("unconverted: %s: %d bytes at %#x" % (buf.name, n, off))
                    rc = 3
                elif opts.verbose:
                    print("unreferenced (gap, slack or junk): %s: %d bytes at %#x"
                          % (buf.name, n, off))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
