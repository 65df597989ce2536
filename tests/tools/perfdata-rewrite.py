#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-rewrite.py - make "a file from another machine" out of one recorded here.

usage: perfdata-rewrite.py late-comm IN OUT [N]
       perfdata-rewrite.py mem-loads IN OUT [struct]
       perfdata-rewrite.py absent IN OUT
       perfdata-rewrite.py brstack IN OUT [cycles]
       perfdata-rewrite.py socket IN OUT

  late-comm  the COMM records of the thread that has the most samples move
             in time to just after its Nth sample (default 10), in their
             order, and lose their exec bit: the thread's first samples come
             before it has a name, as in a file whose COMM was recorded late
             (perf -p, lost records).  perf gives those samples the name of
             the first COMM that comes later.
  mem-loads  every sample of a cpu-clock file (sample_type IP|TID|TIME|PERIOD
             and optionally ID, CPU) becomes one of a cpu/mem-loads/pp-style
             event: the attr gains ADDR, WEIGHT and DATA_SRC and every sample
             body gets an address, a data_src and a weight made from its
             position (the data_src values cycle through the encodings perf
             decodes: loads and stores, cache levels, remote, snoop, TLB,
             lock, blocked).  The event becomes a raw one (type 4, perf's
             defaults for raw events print these fields) named
             cpu/mem-loads/pp.  With 'struct' the weight is a WEIGHT_STRUCT
             (var1 the weight, var2 the instruction latency) and the samples
             carry a PHYS_ADDR too.

  absent     every MMAP and MMAP2 file name that starts with '/' (not "//") gets an
             'X' for its second character ("/usr/lib/..." -> "/Xsr/lib/..."):
             the binaries are absent, as on a machine that has none of the
             recording machine's files (the build-id table keeps the old
             names, so no build id is known for the new ones).

  brstack    every sample of a cpu-clock file (sample_type IP|TID|TIME|PERIOD
             and optionally ID, CPU) gets a branch stack, as perf record -b
             writes them (the attr gains BRANCH_STACK and branch_sample_type
             any|u|k, the header the BRANCH_STACK feature): sample n has
             1 + n % 5 entries whose ends are the sampled addresses of its
             process (the other samples' ips, so that they resolve as the
             samples do), every 7th stack's oldest entry from address 0;
             mispredicted or predicted by position.  With 'cycles' the
             entries carry basic block cycles (n + j) % 9 (0: none).

  socket     the header's CPU topology puts every odd CPU on socket 1 (a
             machine of two sockets); any number of events.

IN must be a little-endian perf.data file in file mode (not a pipe), not
compressed, with one event (perf record -e cpu-clock -o IN -- ...).  Record
sizes change in mem-loads: the data section is rewritten and every offset
after it (feature sections) moves with it.
"""
import struct
import sys

S_IP, S_TID, S_TIME, S_ADDR, S_READ, S_CALLCHAIN, S_ID, S_CPU, S_PERIOD = (
    1, 2, 4, 8, 16, 32, 64, 128, 256)
S_STREAM_ID, S_WEIGHT, S_DATA_SRC, S_IDENTIFIER = 1 << 9, 1 << 14, 1 << 15, 1 << 16
S_PHYS_ADDR, S_WEIGHT_STRUCT = 1 << 19, 1 << 24
FEAT_EVENT_DESC = 12
# data_src values (perf_event.h's union perf_mem_data_src): op 0-4, lvl 5-18,
# snoop 19-23, lock 24-25, dtlb 26-32, lvl_num 33-36, remote 37, snoopx 38-39,
# blk 40-42, hops 43-45.  The first is the one of the example.
DATA_SRCS = [
    0x68100142,                     # LOAD, L1 hit, snoop None, TLB L1 or L2 hit
    0x0,                            # nothing valid
    0x1,                            # op N/A
    0x1 | 1 << 5 | 1 << 19 | 1 << 24 | 1 << 26,  # everything N/A
    0x4 | (0x2 | 0x100) << 5 | 0x8 << 19 | 0x2 << 24 | 0x4 << 26,  # STORE, L3 hit, HitM, locked
    0x8 | 0x4 << 5,                 # PFETCH, miss
    0x10 | (0x2 | 0x80) << 5,       # EXEC, Local RAM hit
    0x2 | (0x4 | 0x200) << 5 | 1 << 37,  # remote RAM 2 hops miss, remote bit
    0x2 | 0x2 << 5 | 0x2 << 33,     # lvl_num L2
    0x2 | 0x2 << 5 | 0xb << 33,     # lvl_num ANY_CACHE
    0x2 | 0x2 << 5 | 0xc << 33,     # lvl_num LFB
    0x2 | 0x2 << 5 | 0xd << 33,     # lvl_num RAM
    0x2 | 0x2 << 5 | 0xe << 33,     # lvl_num PMEM
    0x2 | 0x2 << 5 | 0xf << 33,     # lvl_num N/A
    0x2 | 0x2 << 5 | 0x9 << 33,     # lvl_num CXL
    0x2 | 0x2 << 5 | 0x8 << 33,     # lvl_num Uncached
    0x2 | 0x2 << 5 | 0xa << 33,     # lvl_num I/O
    0x2 | 0x4 << 5 | 0x1 << 33,     # lvl_num L1, miss
    0x2 | 0x2 << 5 | 0x7 << 33,     # lvl_num 7 (no name)
    0x2 | 0x8 << 5 | 0x3 << 33,     # an lvl bit and an lvl_num: "L1 or L3"
    0x2 | 0x2 << 5 | 0x3 << 33 | 0x2 << 43,  # hops 2, no remote bit
    0x2 | 0x2 << 5 | 0x3 << 33 | 1 << 37 | 0x4 << 43,  # remote, hops 4
    0x2 | 0x2 << 5 | 1 << 37,       # remote bit only
    0x2 | 0x2 << 5 | 0x3 << 33 | 1 << 37 | 0x1 << 43,  # remote, hops 1
    0x2 | 0x2 << 5 | 0x3 << 33 | 1 << 37 | 0x3 << 43,  # remote, hops 3
    0x2 | 0x10 << 5 | 0x1 << 38,    # snoopx Fwd
    0x2 | 0x10 << 5 | 0x2 << 38,    # snoopx Peer
    0x2 | 0x10 << 5 | 0x3 << 38 | 0x6 << 19,  # Fwd and Peer, Hit or Miss
    0x2 | 0x1 << 40,                # blk N/A
    0x2 | 0x2 << 40,                # blk Data
    0x2 | 0x6 << 40,                # blk Data Addr
    0x2 | 0x7f << 26,               # every TLB bit
    0x2 | 0x3fff << 5,              # every lvl bit
    0x1f | 0x1f << 19 | 0x3 << 24,  # every op, snoop, lock bit
    0x3fffffffffff,                 # every bit
]
REC_MMAP, REC_COMM, REC_SAMPLE, REC_MMAP2 = 1, 3, 9, 10
MISC_COMM_EXEC = 1 << 13


def die(msg):
    sys.stderr.write("perfdata-rewrite: %s\n" % msg)
    sys.exit(2)


class PerfFile:
    def __init__(self, path):
        self.buf = bytearray(open(path, "rb").read())
        b = self.buf
        if b[:8] != b"PERFILE2":
            die("%s: not a little-endian perf.data file in file mode" % path)
        (self.attr_size, self.attrs_off, self.attrs_size, self.data_off,
         self.data_size) = struct.unpack_from("<QQQQQ", b, 16)
        if self.attrs_size != self.attr_size:
            die("%s: %d events; one is expected" % (path, self.attrs_size // self.attr_size))
        self.sample_type = struct.unpack_from("<Q", b, self.attrs_off + 24)[0]
        flags = struct.unpack_from("<Q", b, self.attrs_off + 40)[0]
        self.id_all = bool(flags & (1 << 18))

    def records(self):
        off, end = self.data_off, self.data_off + self.data_size
        while off + 8 <= end:
            rtype, misc, size = struct.unpack_from("<IHH", self.buf, off)
            if size < 8:
                die("record at %#x has size %d" % (off, size))
            if rtype == 81:
                die("compressed data: record with -z off")
            yield off, rtype, misc, size
            off += size

    def sample_time_off(self, off):
        """offset of a sample's time field"""
        p = off + 8
        for bit in (S_IDENTIFIER, S_IP, S_TID):
            if self.sample_type & bit:
                p += 8
        return p

    def sample_tid(self, off):
        p = off + 8 + (8 if self.sample_type & S_IDENTIFIER else 0) + 8
        return struct.unpack_from("<II", self.buf, p)

    def id_time_off(self, off, size):
        """offset of the time in a non-sample record's sample_id trailer"""
        st = self.sample_type
        n = sum(8 for bit in (S_TID, S_TIME, S_ID, S_STREAM_ID, S_CPU, S_IDENTIFIER)
                if st & bit)
        return off + size - n + (8 if st & S_TID else 0)


def late_comm(f, n):
    if not f.id_all or not f.sample_type & S_TIME:
        die("records carry no time (sample_id_all, TIME)")
    times = {}
    for off, rtype, _, _ in f.records():
        if rtype == REC_SAMPLE:
            pid, tid = f.sample_tid(off)
            t = struct.unpack_from("<Q", f.buf, f.sample_time_off(off))[0]
            times.setdefault(tid, []).append(t)
    # the nth in time: a thread's samples from two CPUs are not in time order in the file
    per_tid = {tid: len(ts) for tid, ts in times.items()}
    nth = {tid: sorted(ts)[n - 1] for tid, ts in times.items() if len(ts) >= n}
    if not nth:
        die("no thread has %d samples" % n)
    tid = max(nth, key=lambda t: per_tid[t])
    moved = 0
    for off, rtype, misc, size in f.records():
        if rtype != REC_COMM or struct.unpack_from("<I", f.buf, off + 12)[0] != tid:
            continue
        moved += 1
        struct.pack_into("<H", f.buf, off + 4, misc & ~MISC_COMM_EXEC)
        struct.pack_into("<Q", f.buf, f.id_time_off(off, size), nth[tid] + moved)
        comm = bytes(f.buf[off + 16:off + size]).split(b"\0", 1)[0].decode()
        sys.stderr.write("perfdata-rewrite: COMM %s of tid %d now after its sample %d\n"
                         % (comm, tid, n))
    if not moved:
        die("tid %d has no COMM record" % tid)


def check_plain(f):
    if f.sample_type & ~(S_IP | S_TID | S_TIME | S_ID | S_CPU | S_PERIOD):
        die("sample_type %#x has more than IP|TID|TIME|ID|CPU|PERIOD" % f.sample_type)


def rewrite_samples(f, body):
    """the header and data section of @f, each sample's fields (after its
    8-byte header) made by body(off, rec, n) for the nth sample"""
    out = bytearray(f.buf[:f.data_off])
    n = 0
    for off, rtype, misc, size in f.records():
        rec = bytes(f.buf[off:off + size])
        if rtype != REC_SAMPLE:
            out += rec
            continue
        new = body(off, rec, n)
        out += struct.pack("<IHH", rtype, misc, 8 + len(new)) + new
        n += 1
    return out, n


def mem_loads(f, struct_weight):
    st = f.sample_type
    check_plain(f)
    add = S_ADDR | S_DATA_SRC | (S_WEIGHT_STRUCT | S_PHYS_ADDR if struct_weight else S_WEIGHT)

    def body(off, rec, n):
        # IDENTIFIER, IP, TID, TIME come before ADDR; ID, STREAM_ID, CPU, PERIOD after
        head = 8 + sum(8 for bit in (S_IDENTIFIER, S_IP, S_TID, S_TIME) if st & bit)
        ip = struct.unpack_from("<Q", rec, 8 + (8 if st & S_IDENTIFIER else 0))[0]
        rest = rec[head:]
        addr = 0x7ffd00000000 + n * 0x48 if n % 3 else ip ^ 0xfff
        src = DATA_SRCS[n % len(DATA_SRCS)]
        new = rec[8:head] + struct.pack("<Q", addr) + rest
        if struct_weight:
            new += struct.pack("<IHH", 7 + n % 500, 3 + n % 40, 0)
        else:
            new += struct.pack("<Q", 7 + n % 500)
        new += struct.pack("<Q", src)
        if struct_weight:
            new += struct.pack("<Q", 0x100000000 + n * 0x1000)
        return new

    out, n = rewrite_samples(f, body)
    delta = replace_data(f, out)
    # the attr (and its copy in EVENT_DESC): a raw event with the new sample_type
    for a in attr_offsets(f, out, delta):
        struct.pack_into("<I", out, a, 4)
        struct.pack_into("<Q", out, a + 8, 0x1cd)
        struct.pack_into("<Q", out, a + 24, st | add)
    f.buf = out
    sys.stderr.write("perfdata-rewrite: %d samples with addr, data_src and weight\n" % n)


S_BRANCH_STACK, FEAT_BRANCH_STACK = 1 << 11, 15


def replace_data(f, out):
    """@out is the header and the new data section: append the feature
    sections of @f, their index moved by the size change"""
    delta = len(out) - f.data_off - f.data_size
    feat_off = f.data_off + f.data_size
    nfeat = bin(int.from_bytes(f.buf[72:104], "little")).count("1")
    index = bytearray(f.buf[feat_off:feat_off + 16 * nfeat])
    for i in range(nfeat):
        o, sz = struct.unpack_from("<QQ", index, 16 * i)
        struct.pack_into("<Q", index, 16 * i, o + delta)
    struct.pack_into("<Q", out, 48, len(out) - f.data_off)
    out += index + f.buf[feat_off + 16 * nfeat:]
    return delta


def brstack(f, cycles):
    st = f.sample_type
    check_plain(f)
    ip_off = 8 + (8 if st & S_IDENTIFIER else 0)
    ips = {}
    for off, rtype, _, _ in f.records():
        if rtype == REC_SAMPLE:
            ip = struct.unpack_from("<Q", f.buf, off + ip_off)[0]
            ips.setdefault(f.sample_tid(off)[0], []).append(ip)
    # the BRANCH_STACK flag feature: a bit and an empty section in the index
    bits = int.from_bytes(f.buf[72:104], "little")
    if not bits & (1 << FEAT_BRANCH_STACK):
        feat_off = f.data_off + f.data_size
        nfeat = bin(bits).count("1")
        for k in range(nfeat):  # the sections move by the new index entry
            o = struct.unpack_from("<Q", f.buf, feat_off + 16 * k)[0]
            struct.pack_into("<Q", f.buf, feat_off + 16 * k, o + 16)
        i = bin(bits & ((1 << FEAT_BRANCH_STACK) - 1)).count("1")
        f.buf[feat_off + 16 * i:feat_off + 16 * i] = struct.pack("<QQ", feat_off, 0)
        f.buf[72:104] = (bits | 1 << FEAT_BRANCH_STACK).to_bytes(32, "little")

    def body(off, rec, n):
        pool = ips[f.sample_tid(off)[0]]
        nr = 1 + n % 5
        new = rec[8:] + struct.pack("<Q", nr)
        for j in range(nr):
            frm = pool[(n + 2 * j + 1) % len(pool)]
            to = pool[(n + 2 * j + 2) % len(pool)]
            if j == nr - 1 and n % 7 == 0:
                frm = 0
            flags = 1 if (n + j) % 3 == 0 else 2  # mispred, predicted
            if cycles:
                flags |= ((n + j) % 9) << 4
            new += struct.pack("<QQQ", frm, to, flags)
        return new

    out, n = rewrite_samples(f, body)
    delta = replace_data(f, out)
    for a in attr_offsets(f, out, delta, None):
        struct.pack_into("<Q", out, a + 24, st | S_BRANCH_STACK)
        struct.pack_into("<Q", out, a + 72, 0x1 | 0x2 | 0x8)  # u, k, any
    f.buf = out
    sys.stderr.write("perfdata-rewrite: %d samples with branch stacks\n" % n)


def attr_offsets(f, out, delta, name=b"cpu/mem-loads/pp"):
    yield f.attrs_off
    bits = int.from_bytes(out[72:104], "little")
    if not bits & (1 << FEAT_EVENT_DESC):
        return
    feat_off = struct.unpack_from("<Q", out, 40)[0] + struct.unpack_from("<Q", out, 48)[0]
    i = bin(bits & ((1 << FEAT_EVENT_DESC) - 1)).count("1")
    off = struct.unpack_from("<Q", out, feat_off + 16 * i)[0]
    nr, attr_size = struct.unpack_from("<II", out, off)
    if nr != 1:
        die("EVENT_DESC has %d events" % nr)
    yield off + 8
    # the name: u32 nr_ids, then the padded string (u32 len + bytes)
    name_off = off + 8 + attr_size + 4
    nlen = struct.unpack_from("<I", out, name_off)[0]
    if name is None:
        return
    if nlen <= len(name):
        die("no room for the event name")
    out[name_off + 4:name_off + 4 + nlen] = name + bytes(nlen - len(name))


def absent(f):
    n = 0
    for off, rtype, _, size in f.records():
        if rtype not in (REC_MMAP, REC_MMAP2):
            continue
        name = off + 8 + (32 if rtype == REC_MMAP else 64)
        # "//anon" stays: anonymous memory is not a file
        if name + 2 <= off + size and f.buf[name] == ord("/") and f.buf[name + 1] not in b"/\0":
            f.buf[name + 1] = ord("X")
            n += 1
    sys.stderr.write("perfdata-rewrite: %d file names changed\n" % n)


def two_sockets(path, out):
    b = bytearray(open(path, "rb").read())
    if b[:8] != b"PERFILE2":
        die("%s: not a little-endian perf.data file in file mode" % path)
    data_off, data_size = struct.unpack_from("<QQ", b, 40)
    feats = struct.unpack_from("<4Q", b, 72)
    sect, ncpus, topo = data_off + data_size, None, None
    for bit in range(256):
        if not feats[bit // 64] >> (bit % 64) & 1:
            continue
        off, _ = struct.unpack_from("<QQ", b, sect)
        sect += 16
        if bit == 7:  # NRCPUS: available, online
            ncpus = struct.unpack_from("<I", b, off)[0]
        elif bit == 13:  # CPU_TOPOLOGY
            topo = off
    if ncpus is None or topo is None:
        die("%s: no NRCPUS or CPU_TOPOLOGY feature" % path)
    p = topo
    for _ in range(2):  # sibling cores, then sibling threads: u32 nr, strings
        nr = struct.unpack_from("<I", b, p)[0]
        p += 4
        for _ in range(nr):
            p += 4 + struct.unpack_from("<I", b, p)[0]
    for cpu in range(1, ncpus, 2):  # {core_id, socket_id} per CPU
        struct.pack_into("<I", b, p + 8 * cpu + 4, 1)
    open(out, "wb").write(b)


def main(argv):
    if len(argv) < 4 or argv[1] not in ("late-comm", "mem-loads", "absent", "brstack",
                                        "socket"):
        die("usage: perfdata-rewrite.py late-comm|mem-loads|absent|brstack|socket IN OUT "
            "[N|struct|cycles]")
    if argv[1] == "socket":
        two_sockets(argv[2], argv[3])
        return 0
    f = PerfFile(argv[2])
    if argv[1] == "late-comm":
        late_comm(f, int(argv[4]) if len(argv) > 4 else 10)
    elif argv[1] == "absent":
        absent(f)
    elif argv[1] == "brstack":
        brstack(f, len(argv) > 4 and argv[4] == "cycles")
    else:
        mem_loads(f, len(argv) > 4 and argv[4] == "struct")
    open(argv[3], "wb").write(f.buf)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
