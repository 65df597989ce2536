#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-rewrite.py - make "a file from another machine" out of one recorded here.

usage: perfdata-rewrite.py late-comm IN OUT [N]
       perfdata-rewrite.py mem-loads IN OUT

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
             lock, blocked).

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
        if self.sample_type & ~(S_IP | S_TID | S_TIME | S_ID | S_CPU | S_PERIOD):
            die("%s: sample_type %#x has more than IP|TID|TIME|ID|CPU|PERIOD"
                % (path, self.sample_type))

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
    per_tid, nth = {}, {}
    for off, rtype, _, _ in f.records():
        if rtype == REC_SAMPLE:
            pid, tid = f.sample_tid(off)
            per_tid[tid] = per_tid.get(tid, 0) + 1
            if per_tid[tid] == n:
                nth[tid] = struct.unpack_from("<Q", f.buf, f.sample_time_off(off))[0]
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


def main(argv):
    if len(argv) < 4 or argv[1] not in ("late-comm", "mem-loads"):
        die("usage: perfdata-rewrite.py late-comm|mem-loads IN OUT [N]")
    f = PerfFile(argv[2])
    if argv[1] == "late-comm":
        late_comm(f, int(argv[4]) if len(argv) > 4 else 10)
    else:
        mem_loads(f)
    open(argv[3], "wb").write(f.buf)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
