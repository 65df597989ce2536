#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perfdata-pt.py - write a perf.data file with a synthesized Intel PT trace.

usage: perfdata-pt.py [options] WORKLOAD OUT

WORKLOAD is the built tests/workloads/pt-loop (its pt_loop and pt_leaf
are assembly, so their control flow is known here: see pt-loop.c).  The
file holds what `perf record -e intel_pt//u --per-thread` writes for one
run of pt_loop(N): an intel_pt event (PMU type 8) and a dummy:u tracking
event, AUXTRACE_INFO (Intel PT, TIME_SHIFT/MULT/ZERO below), TIME_CONV,
COMM, an MMAP2 of WORKLOAD's executable segment at 0x555555554000 (under
the name --map-path, default WORKLOAD), ITRACE_START, AUX, the AUXTRACE
record with the trace, EXIT.  The trace (hand-made packets, return
compression on): PSB, [TSC,] CBR, PSBEND, MODE.Exec 64, TIP.PGE pt_loop,
the loop's TNT bits, TIP to pt_leaf for the indirect call, TIP.PGD to the
return address in main.

options:
  --loops N       pt_loop's count (default 3)
  --no-tsc        no timing packets (the event without its tsc bit)
  --tsc-every K   a TSC packet every K iterations (default 0: only in the PSB)
  --ovf K         an OVF after iteration K, the next 2 iterations lost, FUP
                  to the loop top
  --ovf-mid       with --ovf, the FUP at pt_loop+0xa (after pt_leaf's return),
                  the iteration's jz and jnz bits after it: tracing resumes
                  elsewhere than where the last branch before the OVF went
  --ovf-psb K     an OVF after iteration K, the next 2 iterations lost, the
                  trace restarting at a PSB+ (TSC, CBR, MODE.Exec, FUP to the
                  loop top) with no FUP after the OVF
  --ovf-pge K     an OVF after iteration K that resolves with tracing off
                  (no FUP), then TIP.PGE at the loop's top; 2 iterations lost
  --ovf-at B      where --ovf-pge's OVF falls: after the bit of the iteration's
                  compressed return (1), of its jz (2), of its jnz (3, the
                  default), or after the TIP of the indirect call at the end
                  (4: tracing on again at pt_leaf, its return then a TIP)
  --ovf-fup K     as --ovf-pge, with a FUP to pt_leaf after the OVF all the
                  same (Apollo Lake's erratum APL12)
  --fup-nlip      a FUP holding the address after pt_loop's indirect call
                  (its next linear IP) before the call's TIP, as Apollo Lake
                  (CPUID GenuineIntel,6,92) may write it: perf with that
                  CPUID takes the FUP and TIP as an interrupt at the call
  --no-branch     the event with pt and without branch (BranchEn off): after
                  TIP.PGE no TNT or TIP, only the packets of --ptw and --power
                  (their FUPs at the loop's top), then TIP.PGD without IP
  --truncated     the AUX record flagged truncated, the trace cut at the
                  last packet boundary in the first half of its bytes
  --per-cpu       per-CPU buffers (perf record -a): thread 1 then thread 2 on
                  CPU 0, thread 2 again on CPU 1, with SWITCH_CPU_WIDE side-band
                  (loops N, N+1, N+2)
  --thread2       per thread, the trace of thread 4344 of process 4343 (not its
                  main thread)
  --pipe          pipe mode (HEADER_ATTR records, no file header sections)
  --index         the AUXTRACE feature (the index of the AUXTRACE records), as
                  perf record writes it: perf script then lets -F ask for addr
                  and cpu, which the intel_pt event does not sample
  --split N       the trace in AUXTRACE records of N bytes at most
  --split-packets with --split, each record ends at a packet's end (perf 6.1
                  loses the trace after an MTC split between two records)
  --map-path P    the name the MMAP2 record gives the workload
  --zoo           after the trace, one packet of every kind libipt knows
                  (for -D; not meant to be decoded), and bytes that are no packet
  --cpuid S       a CPUID feature holding S (as perf's x86 writes it:
                  "GenuineIntel,6,92,9"; default: none)
  --nrcpus        an NRCPUS feature (2 CPUs, as perf record writes it; perf
                  script -C refuses a file without)
  --error         an AUXTRACE_ERROR record (as perf inject writes them) after
                  the trace
  --calls K       the trace of pt_calls(K) instead: pt_rec recursing K deep
                  (returns compressed), pt_mid whose callee pt_jump returns
                  past it (TIP), the call of pt_leaf where tracing stops
                  (TIP.PGD), tracing again from its return address (TIP.PGE)

timing packets between the TSCs (the event with the mtc, mtc_period and cyc
bits; the times simulated: an iteration of the loop takes --iter-cycles
cycles, the TSC runs at MAX_NONTURBO_RATIO / CBR ticks a cycle, the CTC at
TSC * D / N; a TSC packet is followed by a TMA):
  --mtc P         MTC packets (mtc_period P: one each 2^P CTC ticks), TMA in
                  the PSB+
  --cyc K         CYC packets: one after every K iterations and before each MTC
  --cbr-at K:R    a CBR packet with ratio R after iteration K (R from then on)
  --ctc N:D       TSC_CTC_N and TSC_CTC_D (default 188:2)
  --iter-cycles C the cycles of an iteration (default 40)
  --power K       power events after iteration K (the event with pwr_evt): CBR
                  30, MWAIT, PWRE, EXSTOP with the IP of a FUP at the loop's top,
                  PWRX; after K+1: EXSTOP without IP, PWRX, CBR 24
  --hw-pwre       with --power, a PWRE without MWAIT after K+1 (h/w C1)
  --mnt K         an MNT (maintenance) packet after iteration K
  --vmcs K        a VMCS packet after iteration K (as a VMPTRLD writes it)
  --trace-stop    a TraceStop packet after the TIP.PGD where tracing stops (as
                  a TraceStop address filter writes it)
  --ptw K         PTWRITE after iteration K (the event with ptw, fup_on_ptw):
                  PTW 8 bytes, then after K+1 PTW 4 bytes, each with a FUP at
                  the loop's top
  --tsx K         MODE.TSX with a FUP at the loop's top: begin after iteration
                  K, commit after K+1, begin after K+2, abort after K+3 (a TIP
                  to the loop's top)
  --kernel        the trace also runs kernel code (the event intel_pt//, not
                  only user): an interrupt after the first iteration (FUP at
                  the loop's top, TIP to prism_kentry), prism_kentry's loop of
                  two calls of prism_kleaf, iretq back (TIP); a kernel MMAP of
                  [kernel.kallsyms]_text at KBASE (needs --loops 2 or more)
  --kabort        with --kernel, the interrupt does not return by its iretq's
                  TIP but by a TSX abort (MODE.TSX, FUP and TIP at the loop's
                  top): without the kernel's code, the next IP after the error
                  is the abort's FUP, its TIP taken by pt_leaf's return
  --kabort-jcc    as --kabort, the abort's FUP and TIP at pt_loop+0xa, before
                  a conditional jump (the trace then does not match the code)
  --pip           a PIP (the CR3) in each PSB+, as with kernel tracing
  --cr3           with --kernel: a second interrupt, after iteration 3, into
                  prism_kswitch, which moves to CR3 three times (each a PIP
                  after the branches before it): a MOV CR3 in a run before a
                  call, at a jump's target, before the iretq; needs --loops 4
  --cr3-stop N    with --cr3, tracing stops at the third MOV CR3 (TIP.PGD, no
                  IP: a CR3 filter) and starts again at the loop's top: 1
                  without its PIP, 2 after it
  --kvm           with --kernel: an interrupt after iteration 5 into prism_kvm,
                  whose VMLAUNCH disables tracing (FUP, TIP.PGD: libipt's
                  SKD022 takes it for a sync disable with a Skylake CPUID);
                  tracing resumes at the loop's top; needs --loops 6
  --far-pip       with --cr3, a fourth PIP, which binds to the iretq (a far
                  branch; perf 6.1 then times the return to user space later)
  --text-poke     with --kernel and --tsc-every 1: two more interrupts, after
                  iterations 2 and 4, into prism_kpoke, whose first 5 bytes
                  (a jmp to its second iretq) a TEXT_POKE record of perf's
                  text_poke dummy turns into a 5-byte nop between them: the
                  first runs the jmp (TIP back), the second the nop and a call
                  of prism_kleaf (TNT, TIP back); needs --loops 6 or more
  --kcore-dir D   write D as perf record --kcore's kcore_dir for --kernel:
                  kallsyms (_text, _stext, prism_kentry, prism_kleaf, _etext),
                  an empty modules and kcore, an ELF whose one PT_LOAD holds
                  the kernel code page at KBASE
  --proc-dir D    write D as a /proc to copy kcore_dir from (prism_kcore__copy):
                  kallsyms with a module and the entry trampoline, modules,
                  and a kcore with a data segment, the kernel text (the code
                  page, an entry page) in a larger segment, the module's and
                  the trampoline's (the entry page's bytes again, as the
                  kernel maps them twice)
  --vmlinux F     write F, an ELF executable with the kernel code page at
                  KBASE - KASLR and a _text symbol there (a vmlinux that KASLR
                  moved by KASLR)
"""
import bisect
import struct
import sys

PID, CPU = 4343, 0
PT_TYPE = 8
BASE = 0x555555554000
TIME_SHIFT, TIME_MULT, TIME_ZERO = 10, 512, 1000000000000  # ns = tsc / 2 + 1000 s
TSC_BIT, NORETCOMP_BIT, MTC_BIT, CYC_BIT = 1 << 10, 1 << 11, 1 << 9, 1 << 1
PWR_EVT_BIT, FUP_ON_PTW_BIT, PTW_BIT = 1 << 4, 1 << 5, 1 << 12
BRANCH_BIT = 1 << 13
PT_CONFIG = 1 | BRANCH_BIT  # pt, branch (tsc added unless --no-tsc)
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CPU, SAMPLE_IDENTIFIER = 1, 2, 4, 128, 1 << 16
SAMPLE_TYPE = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CPU | SAMPLE_IDENTIFIER
PT_ID, DUMMY_ID = 11, 12
MAX_NONTURBO = 24
# --kernel: the kernel code page, its functions and the interrupt's place
KBASE = 0xFFFFFFFF81000000
KENTRY, KLEAF, KPOKE, KASLR = KBASE + 0x100, KBASE + 0x200, KBASE + 0x300, 0x3000000
KSWITCH, KVM = KBASE + 0x400, KBASE + 0x500
POKE_ID = 13
POKE_OLD = b"\xe9" + struct.pack("<i", 0x20 - 5)  # jmp prism_kpoke+0x20
POKE_NEW = b"\x0f\x1f\x44\x00\x00"  # nopl 0x0(%rax,%rax,1)
MBASE, TRAMP = 0xFFFFFFFFC0000000, 0xFFFFFE0000006000


def die(msg):
    sys.exit("perfdata-pt.py: " + msg)


def workload(path):
    """symbols and the executable PT_LOAD (offset, vaddr, filesz) of an ELF64 file"""
    with open(path, "rb") as f:
        img = f.read()
    if img[:4] != b"\x7fELF" or img[4] != 2:
        die("%s: not an ELF64 file" % path)
    phoff, shoff = struct.unpack_from("<QQ", img, 32)
    phentsize, phnum, shentsize, shnum = struct.unpack_from("<HHHH", img, 54)
    text = None
    for i in range(phnum):
        p_type, p_flags, p_off, p_vaddr, _, p_filesz = struct.unpack_from(
            "<IIQQQQ", img, phoff + i * phentsize)
        if p_type == 1 and p_flags & 1:
            text = (p_off, p_vaddr, p_filesz)
    syms = {}
    sh = [struct.unpack_from("<IIQQQQIIQQ", img, shoff + i * shentsize) for i in range(shnum)]
    for s in (s for s in sh if s[1] == 2):
        strtab = sh[s[6]][4]
        for j in range(s[5] // 24):
            name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", img, s[4] + j * 24)
            syms[img[strtab + name:img.index(b"\0", strtab + name)].decode()] = value
    if text is None or any(f not in syms for f in ("pt_loop", "pt_leaf", "pt_calls")):
        die("%s: not tests/workloads/pt-loop (no pt_loop, pt_leaf or code segment)" % path)
    return img, syms, text


def check_layout(img, syms, text):
    """the instruction bytes pt-loop.c's comments promise; the return address in main"""
    def at(vaddr, n):
        off = vaddr - text[1] + text[0]
        return img[off:off + n]
    loop, leaf = syms["pt_loop"], syms["pt_leaf"]
    expect = {leaf: b"\x8d\x47\x01\xc3", loop: b"\x53\x89\xfb\x89\xdf\xe8",
              loop + 10: b"\xf6\xc3\x01\x74\x03\x83\xc0\x02\xff\xcb\x75\xed\x48\x8d\x0d",
              loop + 29: b"\xff\xd1\x5b\xc3"}
    for addr, code in expect.items():
        if at(addr, len(code)) != code:
            die("pt_loop/pt_leaf are not laid out as pt-loop.c says (at %#x)" % addr)
    calls, rec, mid, jump = (syms[f] for f in ("pt_calls", "pt_rec", "pt_mid", "pt_jump"))
    expect = {rec: b"\x85\xff\x74\x07\xff\xcf\xe8", rec + 11: b"\xc3", jump: b"\x58\xc3",
              mid: b"\xe8", calls: b"\x53\xe8", calls + 6: b"\xe8", calls + 11: b"\x48\x8d\x0d",
              calls + 18: b"\xff\xd1\x5b\xc3"}
    for addr, code in expect.items():
        if at(addr, len(code)) != code:
            die("pt_calls and its callees are not laid out as pt-loop.c says (at %#x)" % addr)
    main = syms.get("main")
    code = at(main, 128) if main else b""
    ret = {}
    for i in range(len(code) - 4):
        if code[i] == 0xE8:
            ret.setdefault(main + i + 5 + struct.unpack_from("<i", code, i + 1)[0], main + i + 5)
    if loop not in ret or calls not in ret:
        die("main does not call pt_loop and pt_calls")
    return ret[loop], ret[calls]


class Trace:
    """Intel PT packets, TNT bits gathered into short TNT packets"""

    def __init__(self):
        self.buf = bytearray()
        self.tnt = []
        self.starts = [0]  # where packets start

    def flush(self):
        while self.tnt:
            bits, self.tnt = self.tnt[:6], self.tnt[6:]
            v = 1
            for b in bits:
                v = (v << 1) | b
            self.buf.append(v << 1)
            self.starts.append(len(self.buf))

    def put(self, b):
        self.flush()
        self.buf += b
        self.starts.append(len(self.buf))

    def branch(self, taken):
        self.tnt.append(1 if taken else 0)

    def ip(self, opcode, ip):
        """TIP (0x0d), TIP.PGE (0x11), TIP.PGD (0x01), FUP (0x1d); None: IP suppressed"""
        if ip is None:
            self.put(bytes([opcode]))
        else:  # IPBytes 3: 48 bits, sign-extended
            self.put(bytes([(3 << 5) | opcode]) + struct.pack("<Q", ip)[:6])

    pip = False  # a PIP in each PSB+ (--pip)

    def psb(self, tsc, cbr=40):
        self.put(b"\x02\x82" * 8)
        if Trace.pip:
            self.put(b"\x02\x43" + struct.pack("<Q", 0x1234000 << 5)[:6])  # PIP, CR3
        if tsc is not None:
            self.tsc(tsc)
        self.put(bytes([0x02, 0x03, cbr, 0]))  # CBR
        self.put(b"\x02\x23")  # PSBEND

    def tsc(self, v):
        self.put(b"\x19" + struct.pack("<Q", v)[:7])

    def ovf_psb(self, tsc, ip):
        """an OVF whose trace restarts at a PSB+ (no FUP after the OVF): the PSB+ holds
        the state, MODE.Exec and a FUP at @ip, where decoding goes on"""
        self.put(b"\x02\xf3")  # OVF
        self.put(b"\x02\x82" * 8)
        if Trace.pip:
            self.put(b"\x02\x43" + struct.pack("<Q", 0x1234000 << 5)[:6])  # PIP, CR3
        if tsc is not None:
            self.tsc(tsc)
        self.put(b"\x02\x03\x28\x00")  # CBR 40
        self.put(b"\x99\x01")  # MODE.Exec: 64-bit
        self.ip(0x1D, ip)  # FUP
        self.put(b"\x02\x23")  # PSBEND


def run_calls(o, t, ret_main, depth):
    """pt_calls(depth) after TIP.PGE at its start"""
    calls = BASE + o.syms["pt_calls"]
    for _ in range(depth):
        t.branch(False)  # jz 1f: not yet
    t.branch(True)  # jz 1f at 0
    for _ in range(depth + 1):
        t.branch(True)  # pt_rec's ret (compressed)
    t.ip(0x0D, calls + 11)  # pt_jump's ret: not to its caller, past it
    t.ip(0x01, BASE + o.syms["pt_leaf"])  # call *%rcx (pt_leaf): tracing stops there
    t.put(b"\x99\x01")
    t.ip(0x11, calls + 20)  # and starts again where it returns
    t.ip(0x01, ret_main)  # pt_calls's ret


class Clock:
    """the simulated time of a run: cycles -> TSC ticks -> CTC ticks"""

    def __init__(self, o, tsc):
        self.o, self.tsc, self.cbr, self.cyc = o, float(tsc), 40, 0
        self.last_mtc = self.ctc() >> o.mtc if o.mtc is not None else 0

    def ctc(self):
        return int(self.tsc) * self.o.ctc_d // self.o.ctc_n

    def tma(self, t):
        """TMA: the CTC's low 16 bits and the TSC ticks since its last tick"""
        ctc = self.ctc()
        fc = int(self.tsc) - ctc * self.o.ctc_n // self.o.ctc_d
        t.put(b"\x02\x73" + struct.pack("<H", ctc & 0xFFFF) + b"\x00" +
              struct.pack("<H", fc & 0x1FF))

    def put_cyc(self, t):
        """CYC with the cycles since the last (at least 1)"""
        n, self.cyc = max(self.cyc, 1), 0
        b = [((n & 0x1F) << 3) | 3]
        n >>= 5
        while n:
            b[-1] |= 4 if len(b) == 1 else 1
            b.append((n & 0x7F) << 1)
            n >>= 7
        t.put(bytes(b))

    def step(self, t, cycles, emit=True):
        """@cycles pass; the CYC and MTC packets they make"""
        o = self.o
        self.cyc += cycles
        self.tsc += cycles * MAX_NONTURBO / self.cbr
        mtc = self.ctc() >> o.mtc if o.mtc is not None else self.last_mtc
        if not emit:
            self.last_mtc = mtc
            return
        if o.cyc and (mtc != self.last_mtc or self.it % o.cyc == 0):
            self.put_cyc(t)
        if mtc != self.last_mtc:
            t.put(bytes([0x59, mtc & 0xFF]))
            self.last_mtc = mtc


def loop_end(o, t, loop, leaf, ret_main):
    """pt_loop's indirect call of pt_leaf, its return, pt_loop's (tracing stops)"""
    t.ip(0x0D, leaf)  # call *%rcx
    if o.ovf_pge and o.ovf_at == 4:  # OVF, resolved with tracing off, on again in pt_leaf
        t.put(b"\x02\xf3")
        t.ip(0x11, leaf)
        t.ip(0x0D, loop + 31)  # its ret (the call stack lost in the overflow)
    else:
        t.branch(True)  # pt_leaf's ret
    t.ip(0x01, ret_main)  # pt_loop's ret, tracing stops
    if o.trace_stop:
        t.put(b"\x02\x83")  # TraceStop


def run_timed(o, t, ret_main, loops, tsc, first):
    """run() with MTC, CYC and CBR packets as the simulated time passes"""
    loop, leaf = BASE + o.syms["pt_loop"], BASE + o.syms["pt_leaf"]
    c = Clock(o, tsc)
    if first:
        t.put(b"\x02\x82" * 8)
        t.tsc(tsc)
        if o.mtc is not None:
            c.tma(t)
        t.put(bytes([0x02, 0x03, c.cbr, 0]))  # CBR
        t.put(b"\x02\x23")  # PSBEND
    else:
        t.tsc(tsc)
        if o.mtc is not None:
            c.tma(t)
    t.put(b"\x99\x01")  # MODE.Exec: 64-bit
    t.ip(0x11, loop)  # TIP.PGE
    i, c.it = loops, 0
    while i:
        t.branch(True)  # pt_leaf's ret (compressed)
        t.branch(i % 2 == 0)  # jz 2f
        t.branch(i != 1)  # jnz 1b
        i, c.it = i - 1, c.it + 1
        c.step(t, o.iter_cycles)
        if o.ovf and c.it == o.ovf and i > 3:
            i -= 2  # two iterations lost in the overflow
            t.put(b"\x02\xf3")  # OVF
            c.step(t, 2 * o.iter_cycles, False)
            c.cyc = 0
            t.ip(0x1D, loop + 3)  # FUP: tracing resumes at the loop's top
        if i:
            events(o, t, c.it, loop + 3, c)
        if o.cbr_at and c.it == o.cbr_at[0]:
            c.cbr = o.cbr_at[1]
            t.put(bytes([0x02, 0x03, c.cbr, 0]))
        if o.tsc_every and c.it % o.tsc_every == 0 and i:
            if o.cyc:
                c.put_cyc(t)
            t.tsc(int(c.tsc))
            if o.mtc is not None:
                c.tma(t)
    loop_end(o, t, loop, leaf, ret_main)


def run(o, t, ret_main, loops, tsc, first):
    """one run of pt_loop(loops) into @t: PSB+ first on a buffer, else TSC and MODE.Exec"""
    loop, leaf = BASE + o.syms["pt_loop"], BASE + o.syms["pt_leaf"]
    if first:
        t.psb(tsc)
    elif tsc is not None:
        t.tsc(tsc)
    t.put(b"\x99\x01")  # MODE.Exec: 64-bit
    if o.calls is not None:
        t.ip(0x11, BASE + o.syms["pt_calls"])  # TIP.PGE
        return run_calls(o, t, ret_main[1], o.calls)
    ret_main = ret_main[0]
    t.ip(0x11, loop)  # TIP.PGE
    i, it = loops, 0
    if not (o.ovf or o.ovf_psb or o.ovf_fup or o.ovf_pge or o.tsc_every or o.kernel) and \
            loops > 64:
        # the bits repeat every two iterations (one TNT byte each) until the last two
        pairs = (loops - 2) // 2 if loops % 2 == 0 else 0
        t.flush()
        t.buf += bytes([_pair_tnt()]) * pairs
        t.starts.append(len(t.buf))
        i -= 2 * pairs
    if o.no_branch:  # only the events' packets (--ptw, --power) at the loop's top
        for it in range(1, i + 1):
            events(o, t, it, loop + 3)
        t.ip(0x01, None)  # TIP.PGD, IP suppressed
        return
    while i:
        # --ovf-at 1 or 2: the iteration's other bits lost in the overflow
        cut = o.ovf_at if o.ovf_at < 3 and it + 1 == o.ovf_pge and i > 4 else 3
        # pt_leaf's ret (compressed), jz 2f, jnz 1b
        for bit in (True, i % 2 == 0, i != 1)[:cut]:
            t.branch(bit)
        i, it = i - 1, it + 1
        if o.ovf and it == o.ovf and i > 3:
            i -= 2  # two iterations lost in the overflow
            t.put(b"\x02\xf3")  # OVF
            if o.ovf_mid:  # FUP: tracing resumes after pt_leaf's return
                t.ip(0x1D, loop + 0xA)
                t.branch(i % 2 == 0)  # jz 2f
                t.branch(True)  # jnz 1b
            else:
                t.ip(0x1D, loop + 3)  # FUP: tracing resumes at the loop's top
        if it in (o.ovf_fup, o.ovf_pge) and i > 3 and o.ovf_at != 4:
            i -= 2  # two iterations lost in the overflow
            t.put(b"\x02\xf3")  # OVF, resolved with tracing off
            if it == o.ovf_fup:
                t.ip(0x1D, leaf)  # APL12's stray FUP
            t.ip(0x11, loop + 3)  # TIP.PGE: tracing on again at the loop's top
        if o.ovf_psb and it == o.ovf_psb and i > 3:
            i -= 2  # two iterations lost in the overflow
            if tsc is not None:
                tsc += 3000
            t.ovf_psb(tsc, loop + 3)
        if o.kernel and it == 1:
            kernel_visit(t, loop + 3, (loop + 3 if o.kabort else 0) or
                         (loop + 0xa if o.kabort_jcc else 0))
        if o.text_poke and it in (2, 4):
            poke_visit(t, loop + 3, it == 4)
        if o.cr3 and it == 3:
            switch_visit(t, loop + 3, o.far_pip, o.cr3_stop)
        if o.kvm and it == 5:
            kvm_visit(t, loop + 3)
        if i:
            events(o, t, it, loop + 3)
        if tsc is not None and o.tsc_every and it % o.tsc_every == 0 and i:
            tsc += 1000
            t.tsc(tsc)
    if o.fup_nlip:  # what perf on Apollo Lake reads as an interrupt at the call
        t.ip(0x1D, loop + 31)
    loop_end(o, t, loop, leaf, ret_main)
    if o.zoo:
        zoo(t, loop)


def events(o, t, it, top, clock=None):
    """--power, --ptw, --tsx: their packets after iteration @it, at the loop's @top
    (the CBRs change @clock's ratio)"""
    if o.power and it == o.power:
        t.put(bytes([0x02, 0x03, 30, 0]))  # CBR 30
        if clock:
            clock.cbr = 30
        t.put(b"\x02\xc2" + struct.pack("<II", 0x21, 1))  # MWAIT hints 0x21, ext 1
        t.put(b"\x02\x22\x00\x21")  # PWRE: C2.1, not by h/w
        t.put(b"\x02\xe2")  # EXSTOP, IP: the FUP's
        t.ip(0x1D, top)
        t.put(b"\x02\xa2\x32\x01\x00\x00\x00")  # PWRX: last C3, deepest C2, wake 1
    if o.power and it == o.power + 1:
        t.put(b"\x02\x62")  # EXSTOP without IP
        if o.hw_pwre:  # perf 6.1 shows the last MWAIT's PWRE fields for it
            t.put(b"\x02\x22\x80\x10")  # PWRE: C1.0 by h/w
        t.put(b"\x02\xa2\x10\x04\x00\x00\x00")  # PWRX: last C1, deepest C0, wake 4
        t.put(bytes([0x02, 0x03, 24, 0]))  # CBR 24
        if clock:
            clock.cbr = 24
    if o.vmcs and it == o.vmcs:
        t.put(b"\x02\xc8" + struct.pack("<Q", 0xABCDE)[:5])  # VMCS
    if o.mnt and it == o.mnt:
        t.put(b"\x02\xc3\x88" + struct.pack("<Q", 0xFEEDFACE))  # MNT
    if o.ptw and it == o.ptw:
        t.put(b"\x02\xb2" + struct.pack("<Q", 0x1122334455667788))  # PTW 8 bytes, IP
        t.ip(0x1D, top)
    if o.ptw and it == o.ptw + 1:
        t.put(b"\x02\x92" + struct.pack("<I", 0xCAFE))  # PTW 4 bytes, IP
        t.ip(0x1D, top)
    if o.tsx and it in (o.tsx, o.tsx + 2):  # MODE.TSX: begin at the loop's top
        t.put(b"\x99\x21")
        t.ip(0x1D, top)
    if o.tsx and it == o.tsx + 1:  # commit
        t.put(b"\x99\x20")
        t.ip(0x1D, top)
    if o.tsx and it == o.tsx + 3:  # abort, to the loop's top again
        t.put(b"\x99\x22")
        t.ip(0x1D, top)
        t.ip(0x0D, top)


def kernel_visit(t, resume, abort=0):
    """an interrupt at @resume: prism_kentry's two calls of prism_kleaf, iretq back
    (@abort: back by a TSX abort's FUP and TIP there)"""
    t.ip(0x1D, resume)  # FUP: where the interrupt came
    t.ip(0x0D, KENTRY)  # TIP
    for taken in (True, True, True, False):  # ret, jnz taken, ret, jnz not taken
        t.branch(taken)
    if abort:
        t.put(b"\x99\x22")
        t.ip(0x1D, abort)
        t.ip(0x0D, abort)  # the abort's TIP
        return
    t.ip(0x0D, resume)  # iretq


def pip(t, cr3):
    """a PIP: @cr3 (bits 5 and up, NR 0)"""
    t.put(b"\x02\x43" + struct.pack("<Q", (cr3 >> 5) << 1)[:6])


def kvm_visit(t, resume):
    """an interrupt at @resume into prism_kvm, whose VMLAUNCH disables tracing (an
    async disable, its FUP at it; libipt's SKD022 takes it for a sync one on the
    CPUs with that erratum); tracing resumes at @resume"""
    t.ip(0x1D, resume)  # FUP
    t.ip(0x0D, KVM)  # TIP
    t.ip(0x1D, KVM)  # FUP: at the VMLAUNCH
    t.ip(0x01, None)  # TIP.PGD
    t.ip(0x11, resume)  # TIP.PGE


def switch_visit(t, resume, far_pip, stop):
    """an interrupt at @resume into prism_kswitch: its three MOV CR3s, iretq back"""
    t.ip(0x1D, resume)  # FUP
    t.ip(0x0D, KSWITCH)  # TIP
    pip(t, 0x1234000)  # the first mov to cr3
    t.branch(True)  # prism_kleaf's ret (compressed)
    t.branch(True)  # jnz 1b
    pip(t, 0x2345000)  # the mov at 1b
    t.branch(True)  # prism_kleaf's ret
    t.branch(False)  # jnz not taken
    if stop == 2:
        pip(t, 0x3456000)
    if stop:  # tracing stops at the mov (a CR3 filter), starts again at @resume
        t.ip(0x01, None)
        t.ip(0x11, resume)
        return
    pip(t, 0x3456000)  # the mov with a REX prefix
    if far_pip:  # as for a far branch that switches the CR3: it binds to the iretq
        pip(t, 0x4567000)
    t.ip(0x0D, resume)  # iretq


def poke_visit(t, resume, poked):
    """an interrupt at @resume into prism_kpoke: its jmp, or (@poked) its nop and call"""
    t.ip(0x1D, resume)  # FUP
    t.ip(0x0D, KPOKE)  # TIP
    if poked:
        t.branch(True)  # prism_kleaf's ret
    t.ip(0x0D, resume)  # iretq


def kernel_code():
    """the kernel code page at KBASE (int3 around the functions)"""
    page = bytearray(b"\xcc" * 0x1000)
    entry = (b"\xb9\x02\x00\x00\x00"  # mov $2, %ecx
             + b"\xe8" + struct.pack("<i", KLEAF - (KENTRY + 10))  # 1: call prism_kleaf
             + b"\xff\xc9\x75\xf7"  # dec %ecx; jnz 1b
             + b"\x48\xcf")  # iretq
    page[KENTRY - KBASE:KENTRY - KBASE + len(entry)] = entry
    page[KLEAF - KBASE] = 0xC3  # ret
    poke = (POKE_OLD  # the text poke's 5 bytes
            + b"\xe8" + struct.pack("<i", KLEAF - (KPOKE + 10))  # call prism_kleaf
            + b"\x48\xcf")  # iretq
    page[KPOKE - KBASE:KPOKE - KBASE + len(poke)] = poke
    page[KPOKE - KBASE + 0x20:KPOKE - KBASE + 0x22] = b"\x48\xcf"  # iretq
    switch = (b"\xb9\x02\x00\x00\x00"  # mov $2, %ecx
              + b"\x0f\x22\xd8"  # 1: mov %rax, %cr3
              + b"\xe8" + struct.pack("<i", KLEAF - (KSWITCH + 13))  # call prism_kleaf
              + b"\xff\xc9\x75\xf4"  # dec %ecx; jnz 1b
              + b"\x41\x0f\x22\xd8"  # mov %r8, %cr3
              + b"\x48\xcf")  # iretq
    page[KSWITCH - KBASE:KSWITCH - KBASE + len(switch)] = switch
    page[KVM - KBASE:KVM - KBASE + 5] = b"\x0f\x01\xc2\x48\xcf"  # vmlaunch; iretq
    return bytes(page)


def elf(etype, segs, syms=None):
    """an ELF64 x86-64 file: PT_LOAD (vaddr, offset, bytes, flags) segments, each
    at its offset (None: the next page); @syms {name: value} in a .symtab"""
    ph = 64 + 56 * len(segs)
    out = bytearray(b"\0" * ((ph + 0xFFF) & ~0xFFF))
    phdrs = b""
    for vaddr, off, data, flags in segs:
        if off is None:
            off = (len(out) + 0xFFF) & ~0xFFF
        out += b"\0" * (off + len(data) - len(out)) if off + len(data) > len(out) else b""
        out[off:off + len(data)] = data
        phdrs += struct.pack("<IIQQQQQQ", 1, flags, off, vaddr, 0, len(data), len(data), 0x1000)
    shoff, shnum, shstrndx = 0, 0, 0
    if syms:
        strtab = b"\0" + b"".join(n.encode() + b"\0" for n in syms)
        symtab, pos = b"\0" * 24, 1
        for n, v in syms.items():  # GLOBAL NOTYPE, absolute
            symtab += struct.pack("<IBBHQQ", pos, 0x10, 0, 0xFFF1, v, 0)
            pos += len(n) + 1
        shstr = b"\0.symtab\0.strtab\0.shstrtab\0"
        secs = [(1, 2, symtab, 2, 1, 24), (9, 3, strtab, 0, 0, 0), (17, 3, shstr, 0, 0, 0)]
        shdrs = b"\0" * 64
        for name, stype, data, link, info, ent in secs:
            off = len(out)
            out += data
            shdrs += struct.pack("<IIQQQQIIQQ", name, stype, 0, 0, off, len(data), link, info,
                                 8 if ent else 1, ent)
        out += b"\0" * (-len(out) % 8)
        shoff, shnum, shstrndx = len(out), 4, 3
        out += shdrs
    out[0:64] = (b"\x7fELF\x02\x01\x01" + b"\0" * 9 +
                 struct.pack("<HHIQQQIHHHHHH", etype, 62, 1, 0, 64, shoff, 0, 64, 56,
                             len(segs), 64, shnum, shstrndx))
    out[64:ph] = phdrs
    return bytes(out)


def write_kernel_files(o):
    """--kcore-dir, --proc-dir, --vmlinux"""
    import os
    code = kernel_code()
    ksyms = [(KBASE, "_text"), (KBASE, "_stext"), (KENTRY, "prism_kentry"),
             (KLEAF, "prism_kleaf"), (KPOKE, "prism_kpoke"), (KSWITCH, "prism_kswitch"),
             (KVM, "prism_kvm"),
             (KBASE + 0x1000, "_etext")]
    if o.kcore_dir:
        os.makedirs(o.kcore_dir, exist_ok=True)
        with open(os.path.join(o.kcore_dir, "kallsyms"), "w") as f:
            f.writelines("%x T %s\n" % s for s in ksyms)
        open(os.path.join(o.kcore_dir, "modules"), "w").close()
        with open(os.path.join(o.kcore_dir, "kcore"), "wb") as f:
            f.write(elf(4, [(KBASE, None, code, 7)]))
    if o.proc_dir:
        os.makedirs(o.proc_dir, exist_ok=True)
        mod = bytes((i * 7 + 3) & 0xFF for i in range(0x4000))
        with open(os.path.join(o.proc_dir, "kallsyms"), "w") as f:
            f.write("%x t __entry_SYSCALL_64_trampoline\n" % (TRAMP + 0x40))
            f.writelines("%x T %s\n" % s for s in ksyms[:-1])
            f.write("%x T _etext\n" % (KBASE + 0x2000))  # the text's second page: entry code
            f.write("%x d prism_kdata\n" % (KBASE + 0x2000))
            f.write("%x t prism_mod_a\t[prism_mod]\n" % (MBASE + 0x10))
            f.write("%x T prism_mod_b\t[prism_mod]\n" % (MBASE + 0x1010))
        with open(os.path.join(o.proc_dir, "modules"), "w") as f:
            f.write("prism_mod 16384 0 - Live 0x%x\n" % MBASE)
        entry = b"\x90" * 0x1000
        text = b"\xcc" * 0x2000 + code + entry + b"\xcc" * 0x1000  # KBASE - 0x2000 .. + 0x3000
        segs = [(0xFFFFC90000000000, None, b"\x55" * 0x1000, 4),  # data (r--)
                (KBASE - 0x2000, 0x3000, text, 5), (MBASE, None, mod, 5)]
        segs.append((TRAMP, 0x6000, entry, 5))  # the entry page mapped again
        with open(os.path.join(o.proc_dir, "kcore"), "wb") as f:
            f.write(elf(4, segs))
    if o.vmlinux:
        with open(o.vmlinux, "wb") as f:
            f.write(elf(2, [(KBASE - KASLR, None, code, 5)], {"_text": KBASE - KASLR}))


def _pair_tnt():
    """the TNT byte of iterations i (even) and i - 1 (odd, not the last)"""
    v = 1
    for b in (1, 1, 1, 1, 0, 1):  # ret, jz taken, jnz taken; ret, jz not, jnz taken
        v = (v << 1) | b
    return v << 1


def zoo(t, ip):
    """every packet kind, each IP compression, and bytes that are no packet"""
    t.put(b"\x02\x73\x34\x12\x00\x56\x01")  # TMA CTC 0x1234 FC 0x156
    t.put(b"\x59\x2a")  # MTC
    t.put(b"\x1f\x04")  # CYC, two bytes
    t.put(b"\x03")  # CYC 0
    t.put(b"\x02\x43" + struct.pack("<Q", (0x123456789 << 1) | 1)[:6])  # PIP, NR
    t.put(b"\x02\xc8" + struct.pack("<Q", 0xABCDE)[:5])  # VMCS
    t.put(b"\x99\x21\x99\x22\x99\x05\x99\x02\x99\x00")  # MODE.TSX x2, MODE.Exec IF 64/32/16
    t.put(b"\x02\x12\x78\x56\x34\x12")  # PTW 4 bytes, no IP
    t.put(b"\x02\xb2" + struct.pack("<Q", 0x1122334455667788))  # PTW 8 bytes, IP
    t.put(b"\x02\x62\x02\xe2")  # EXSTOP, EXSTOP IP
    t.put(b"\x02\xc2" + struct.pack("<Q", 0x0000000300000021))  # MWAIT
    t.put(b"\x02\x22\x80\x21")  # PWRE
    t.put(b"\x02\xa2\x21\x03\x00\x00\x00")  # PWRX
    t.put(b"\x02\xa3" + struct.pack("<Q", (1 << 47) | 0x5A5A5A5A5A5A)[:6])  # long TNT
    t.put(b"\x02\xc3\x88" + struct.pack("<Q", 0xFEEDFACE))  # MNT
    for ipc, n in ((1, 2), (2, 4), (4, 6), (6, 8)):
        t.put(bytes([(ipc << 5) | 0x1D]) + struct.pack("<Q", ip)[:n])  # FUP
    t.put(b"\x0d\x11\x01\x1d")  # TIP, TIP.PGE, TIP.PGD, FUP without IP
    t.put(b"\x02\x83")  # TraceSTOP
    t.put(b"\x00\x00\x02\xff\xd9\x02\x82\x02\x82")  # PADs, bad ext, bad opcode, part PSB
    t.put(b"\xf9\x01")  # IP compression 7: reserved


def sid(time, tid=PID, cpu=CPU, ident=DUMMY_ID):
    """the sample_id trailer: TID, TIME, CPU, IDENTIFIER"""
    return struct.pack("<IIQIIQ", PID, tid, time, cpu, 0, ident)


def rec(rtype, misc, body):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def padded(s):
    b = s.encode() + b"\0"
    return b + b"\0" * (-len(b) % 8)


def padded_bytes(b):
    return b + b"\0" * (-len(b) % 8)


def attr(atype, config, flags):
    a = struct.pack("<IIQQQQQIIQQQQIi", atype, 128, config, 1, SAMPLE_TYPE, 0, flags,
                    0, 0, 0, 0, 0, 0, 0, 0)
    return a + b"\0" * (128 - len(a))


def tsc_to_ns(tsc):
    q, r = tsc >> TIME_SHIFT, tsc & ((1 << TIME_SHIFT) - 1)
    return TIME_ZERO + q * TIME_MULT + ((r * TIME_MULT) >> TIME_SHIFT)


def segments(o):
    """(cpu, tid, first TSC, loops) of each run of pt_loop"""
    if not o.per_cpu:
        return [(CPU, PID + 1 if o.thread2 else PID, 2000000, o.loops)]
    # thread 1 then thread 2 on CPU 0, thread 2 again on CPU 1
    return [(0, PID, 2000000, o.loops), (0, PID + 1, 2200000, o.loops + 1),
            (1, PID + 1, 2400000, o.loops + 2)]


def build(o):
    img, o.syms, text = workload(o.workload)
    ret_main = [BASE + r for r in check_layout(img, o.syms, text)]
    segs = segments(o)
    t0 = tsc_to_ns(segs[0][2])
    traces, side = {}, []
    for k, (cpu, tid, tsc, loops) in enumerate(segs):
        first = cpu not in traces
        t = traces.setdefault(cpu, Trace())
        if o.mtc is not None or o.cyc:
            run_timed(o, t, ret_main[0], loops, tsc, first)
        else:
            run(o, t, ret_main, loops, tsc if o.tsc else None, first)
        t.flush()
        if not o.per_cpu:
            continue
        # SWITCH_CPU_WIDE in (prev task) before the run's TSC, out (next task) after it
        prev = [g[1] for g in segs[:k] if g[0] == cpu]
        nxt = [g[1] for g in segs[k + 1:] if g[0] == cpu]
        ns = tsc_to_ns(tsc)
        side.append((ns - 100, 15, 0, struct.pack("<II", PID if prev else 0,
                                                  prev[-1] if prev else 0), tid, cpu))
        side.append((ns + 50000, 15, 1 << 13, struct.pack("<II", PID if nxt else 0,
                                                          nxt[0] if nxt else 0), tid, cpu))
    config = PT_CONFIG | (TSC_BIT if o.tsc else 0)
    if o.no_branch:
        config &= ~BRANCH_BIT
    if o.mtc is not None:
        config |= MTC_BIT | (o.mtc << 14)
    if o.cyc:
        config |= CYC_BIT
    if o.power:
        config |= PWR_EVT_BIT
    if o.ptw:
        config |= PTW_BIT | FUP_ON_PTW_BIT
    # disabled, exclude_kernel, exclude_hv, sample_id_all, exclude_guest
    common = (1 << 0) | (1 << 5) | (1 << 6) | (1 << 18) | (1 << 20)
    pt_common = common & ~(1 << 5) if o.kernel else common
    # + mmap, comm, task, mmap2, comm_exec (+ context_switch per CPU)
    tracking = common | (1 << 8) | (1 << 9) | (1 << 13) | (1 << 23) | (1 << 24)
    if o.per_cpu:
        tracking |= 1 << 35
    attrs = [(attr(PT_TYPE, config, pt_common), [PT_ID]),
             (attr(1, 9, tracking), [DUMMY_ID])]  # dummy:u
    if o.text_poke:  # perf's text_poke dummy:u: on, ksymbol, text_poke
        attrs.append((attr(1, 9, (common & ~1) | (1 << 29) | (1 << 33)), [POKE_ID]))
    priv = [PT_TYPE, TIME_SHIFT, TIME_MULT, TIME_ZERO, 1, TSC_BIT, NORETCOMP_BIT,
            3 if o.per_cpu else 0, 0, 1 if o.per_cpu else 0,
            MTC_BIT, 0xF << 14, 2, 100, CYC_BIT, MAX_NONTURBO, 0]
    if o.mtc is not None or o.cyc:
        priv[12:14] = [o.ctc_n, o.ctc_d]
    data = rec(70, 0, struct.pack("<II", 1, 0) + b"".join(struct.pack("<Q", v) for v in priv))
    data += rec(79, 0, struct.pack("<QQQQQBB6x", TIME_SHIFT, TIME_MULT, TIME_ZERO, 0, 0, 1, 0))
    side.append((t0 - 2000, 3, 1 << 13, struct.pack("<II", PID, PID) + padded("pt-loop"),
                 PID, CPU))
    if o.per_cpu or o.thread2:
        side.append((t0 - 1900, 3, 0, struct.pack("<II", PID, PID + 1) + padded("pt-loop-2"),
                     PID + 1, CPU))
    p_off, p_vaddr, p_filesz = text
    start = BASE + (p_vaddr & ~0xFFF)
    length = (p_filesz + (p_vaddr & 0xFFF) + 0xFFF) & ~0xFFF
    side.append((t0 - 1000, 10, 2, struct.pack("<IIQQQIIQQII", PID, PID, start, length,
                                               p_off & ~0xFFF, 8, 1, 4242, 0, 5, 2) +
                 padded(o.map_path or o.workload), PID, CPU))
    if o.kernel:  # perf's kernel map: pid -1, the recorded _text as pgoff
        side.append((t0 - 1500, 1, 1, struct.pack("<IIQQQ", 0xFFFFFFFF, 0, KBASE, 0x1000000,
                                                  KBASE) + padded("[kernel.kallsyms]_text"),
                     -2, CPU))
    for cpu in sorted(traces):
        tid = segs[0][1] if cpu == segs[0][0] else PID + 1
        side.append((t0 - 500 + cpu, 12, 0, struct.pack("<II", PID, tid), -PT_ID, cpu))
    if o.text_poke:  # between the TSCs of iterations 2 and 3
        side.append((tsc_to_ns(segs[0][2] + 2500), 20, 1,
                     padded_bytes(struct.pack("<QHH", KPOKE, 5, 5) + POKE_OLD + POKE_NEW),
                     -3, CPU))
    if o.error:  # type 1, code 7 (overflow), fmt 1, at the loop's top
        side.append((None, 72, 0, struct.pack("<IIIIIIQQ64s", 1, 7, CPU, PID, PID, 1,
                                              BASE + o.syms["pt_loop"] + 3, t0 + 15000,
                                              b"Overflow packet"), 0, 0))
    tend = tsc_to_ns(segs[-1][2]) + 100000
    side.append((tend, 4, 0, struct.pack("<IIIIQ", PID, PID, PID, PID, tend), PID, CPU))
    side.sort(key=lambda r: 1 << 62 if r[0] is None else r[0])
    for time, rtype, misc, body, tid, cpu in side:
        if time is None:
            data += rec(rtype, misc, body)
        elif tid == -2:  # the kernel's record: pid -1, tid 0
            data += rec(rtype, misc, body + struct.pack("<IIQIIQ", 0xFFFFFFFF, 0, time, cpu, 0,
                                                        DUMMY_ID))
        elif tid == -3:  # the text_poke dummy's
            data += rec(rtype, misc, body + sid(time, PID, cpu, POKE_ID))
        elif tid < 0:  # the intel_pt event's own record
            data += rec(rtype, misc, body + sid(time, PID, cpu, PT_ID))
        else:
            data += rec(rtype, misc, body + sid(time, tid, cpu))
    for cpu in sorted(traces):
        trace = bytes(traces[cpu].buf)
        if o.truncated:  # cut between packets, half way
            trace = trace[:max(n for n in traces[cpu].starts if n <= len(trace) // 2)]
        payload = trace + b"\0" * (-len(trace) % 8)
        data += rec(11, 0, struct.pack("<QQQ", 0, len(payload), 1 if o.truncated else 0) +
                    sid(tend - 1000, PID, cpu, PT_ID))
        off = 0
        while off < len(payload):
            end = off + (o.split or len(payload))
            if o.split_packets and end < len(trace):
                cut = traces[cpu].starts[bisect.bisect_right(traces[cpu].starts, end) - 1]
                end = cut if cut > off else end
            chunk = payload[off:end]
            data += rec(71, 0, struct.pack("<QQQIIII", len(chunk), off, 0x1234 + off,
                                           cpu if o.per_cpu else 0,
                                           0xFFFFFFFF if o.per_cpu else segs[0][1], cpu, 0))
            data += chunk
            off += len(chunk)
    data += rec(68, 0, b"")  # FINISHED_ROUND
    desc = event_desc(attrs, ["intel_pt//" if o.kernel else "intel_pt//u", "dummy:u",
                              "dummy:u"][:len(attrs)])
    if o.pipe:
        out = b"PERFILE2" + struct.pack("<Q", 16)
        for a, ids in attrs:
            out += rec(64, 0, a + b"".join(struct.pack("<Q", i) for i in ids))
        if o.nrcpus:
            out += rec(80, 0, struct.pack("<QII", FEAT_NRCPUS, 2, 2))
        if o.cpuid is not None:
            out += rec(80, 0, struct.pack("<Q", FEAT_CPUID) + feat_string(o.cpuid))
        return out + rec(80, 0, struct.pack("<Q", FEAT_EVENT_DESC) + desc) + data
    hdr_size, attr_entry = 104, 128 + 16
    # header: magic, size, attr size, attrs, data, event_types, features
    ids_off = hdr_size
    attr_off = ids_off + 8 * len(attrs)
    data_off = attr_off + attr_entry * len(attrs)
    out = b"PERFILE2" + struct.pack("<QQQQQQQQ", hdr_size, attr_entry, attr_off,
                                    attr_entry * len(attrs), data_off, len(data), 0, 0)
    feats = [(FEAT_EVENT_DESC, desc)]  # (NRCPUS,) (CPUID,) EVENT_DESC: in their bits' order
    if o.cpuid is not None:
        feats.insert(0, (FEAT_CPUID, feat_string(o.cpuid)))
    if o.nrcpus:
        feats.insert(0, (FEAT_NRCPUS, struct.pack("<II", 2, 2)))
    if o.index:
        feats.append((FEAT_AUXTRACE, auxtrace_index(data, data_off)))
    out += struct.pack("<Q", sum(1 << n for n, _ in feats)) + b"\0" * 24
    out += b"".join(struct.pack("<Q", ids[0]) for _, ids in attrs)
    for n, (a, ids) in enumerate(attrs):
        out += a + struct.pack("<QQ", ids_off + 8 * n, 8)
    out += data
    # the feature sections' table, then the sections (EVENT_DESC: the event names, as perf
    # record writes them)
    at = len(out) + 16 * len(feats)
    for _, body in feats:
        out += struct.pack("<QQ", at, len(body))
        at += len(body)
    return out + b"".join(body for _, body in feats)


FEAT_NRCPUS, FEAT_CPUID, FEAT_EVENT_DESC, FEAT_AUXTRACE = 7, 9, 12, 18


def auxtrace_index(data, data_off):
    """the AUXTRACE feature as perf record writes it: u64 count, then each AUXTRACE
    record's file offset and header.size (its trace bytes not counted)"""
    ents, at = [], 0
    while at + 8 <= len(data):
        rtype, _, size = struct.unpack_from("<IHH", data, at)
        if rtype == 71:
            ents.append(struct.pack("<QQ", data_off + at, size))
            size += struct.unpack_from("<Q", data, at + 8)[0]
        at += size
    return struct.pack("<Q", len(ents)) + b"".join(ents)


def feat_string(s):
    """a string feature as perf writes it: u32 length (NUL, padded to 64), the string"""
    b = s.encode() + b"\0"
    b += b"\0" * (-len(b) % 64)
    return struct.pack("<I", len(b)) + b


def event_desc(attrs, names):
    """the EVENT_DESC feature: each event's attr, ids and name"""
    out = struct.pack("<II", len(attrs), 128)
    for (a, ids), name in zip(attrs, names):
        b = name.encode() + b"\0"
        b += b"\0" * (-len(b) % 64)
        out += a + struct.pack("<II", len(ids), len(b)) + b
        out += b"".join(struct.pack("<Q", i) for i in ids)
    return out


class Opts:
    loops, tsc, tsc_every, ovf, truncated, pipe, split, map_path, error, zoo = 3, True, 0, \
        0, False, False, 0, None, False, False
    per_cpu = thread2 = kernel = text_poke = hw_pwre = pip = cr3 = far_pip = fup_nlip = kvm = False
    kabort = kabort_jcc = ovf_mid = trace_stop = False
    split_packets = False
    no_branch = False
    calls = None
    power = ptw = tsx = ovf_psb = cr3_stop = ovf_fup = ovf_pge = mnt = vmcs = 0
    ovf_at = 3
    kcore_dir = proc_dir = vmlinux = cpuid = None
    nrcpus = index = False
    mtc, cyc, cbr_at, ctc_n, ctc_d, iter_cycles = None, 0, None, 188, 2, 40


def main(argv):
    o = Opts()
    args = []
    it = iter(argv)
    for a in it:
        if a in ("--loops", "--tsc-every", "--ovf", "--split", "--mtc", "--cyc",
                 "--iter-cycles", "--calls", "--power", "--ptw", "--tsx", "--ovf-psb", "--cr3-stop",
                 "--ovf-fup", "--ovf-pge", "--ovf-at", "--mnt", "--vmcs"):
            try:
                setattr(o, a[2:].replace("-", "_"), int(next(it)))
            except (StopIteration, ValueError):
                die("%s needs a number" % a)
        elif a in ("--cbr-at", "--ctc"):
            try:
                x, y = (int(v) for v in next(it).split(":"))
            except (StopIteration, ValueError):
                die("%s needs two numbers, as 10:20" % a)
            if a == "--ctc":
                o.ctc_n, o.ctc_d = x, y
            else:
                o.cbr_at = (x, y)
        elif a in ("--map-path", "--kcore-dir", "--proc-dir", "--vmlinux", "--cpuid"):
            setattr(o, a[2:].replace("-", "_"), next(it, None))
        elif a == "--no-tsc":
            o.tsc = False
        elif a == "--nrcpus":
            o.nrcpus = True
        elif a in ("--truncated", "--pipe", "--error", "--zoo", "--per-cpu", "--thread2",
                   "--kernel", "--text-poke", "--hw-pwre", "--pip", "--cr3", "--far-pip",
                   "--fup-nlip", "--no-branch", "--kvm", "--index", "--split-packets",
                   "--kabort", "--kabort-jcc", "--ovf-mid", "--trace-stop"):
            setattr(o, a[2:].replace("-", "_"), True)
        elif a.startswith("-"):
            die("unknown option %s\n%s" % (a, __doc__))
        else:
            args.append(a)
    if len(args) != 2:
        sys.exit(__doc__)
    o.workload = args[0]
    Trace.pip = o.pip
    if o.ovf_at not in (1, 2, 3, 4) or (o.ovf_at != 3 and not o.ovf_pge):
        die("--ovf-at takes 1, 2, 3 or 4, with --ovf-pge")
    if o.ovf_mid and (not o.ovf or o.mtc is not None or o.cyc or o.cbr_at or o.calls is not None):
        die("--ovf-mid needs --ovf, without --mtc, --cyc, --cbr-at or --calls")
    if o.kernel and o.loops < 2:
        die("--kernel needs --loops 2 or more")
    if o.ovf_psb and (o.mtc is not None or o.cyc or o.calls is not None):
        die("--ovf-psb is not made with --mtc, --cyc or --calls")
    if (o.kabort or o.kabort_jcc) and not o.kernel:
        die("--kabort and --kabort-jcc need --kernel")
    if o.cr3 and (not o.kernel or o.loops < 4):
        die("--cr3 needs --kernel and --loops 4 or more")
    if o.kvm and (not o.kernel or o.loops < 6):
        die("--kvm needs --kernel and --loops 6 or more")
    if (o.far_pip or o.cr3_stop) and not o.cr3:
        die("--far-pip and --cr3-stop need --cr3")
    if o.text_poke and (not o.kernel or o.tsc_every != 1 or o.loops < 6):
        die("--text-poke needs --kernel, --tsc-every 1 and --loops 6 or more")
    write_kernel_files(o)
    with open(args[1], "wb") as f:
        f.write(build(o))


if __name__ == "__main__":
    main(sys.argv[1:])
