#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script's disassembly of Intel PT samples (libcapstone): --insn-trace=disasm
# and -F +disasm, in AT&T (perf's) and Intel syntax, checked instruction by
# instruction against objdump -d of the same bytes of the workload (mnemonic,
# operands and the branch targets, named by symbol as newer perf names them);
# the layout: the bytes, then a tab pair and the disassembly.
. tests/e2e/lib.sh
require_pt_files
prism version --build-options | grep -q 'capstone: \[ on' || skip "prism built without libcapstone"
command -v objdump >/dev/null || skip "objdump is not installed"

$GEN --loops 5 --tsc-every 1 "$WL" "$TMP/a.data" || fail "the generator failed"
# compare.py SYNTAX OBJDUMP PRISM: every disassembled sample against objdump's line at its address
cat >"$TMP/compare.py" <<'PY'
import re, sys
BASE = 0x555555554000
syntax, objd, out = sys.argv[1:4]
num = re.compile(r'(?<![\w])(-?)(0x[0-9a-f]+|\d+)\b')
def val(m):  # 64-bit two's complement as objdump -M intel writes rip-4: 0xff..fc
    v = int(m.group(2), 0)
    v = v - (1 << 64) if v >= 1 << 63 else v
    return ('-' if m.group(1) else '') + str(v)
def norm(s):
    s = s.split('#')[0].lower().replace('ptr', '')
    s = re.sub(r'\b[0-9a-f]+ <([\w.]+)>', r'\1+0x0', s)  # objdump: "1139 <pt_leaf>"
    s = re.sub(r'<([\w.]+)\+(0x[0-9a-f]+)>', r'\1+\2', s)
    s = re.sub(r'\b[0-9a-f]+ ([\w.]+\+0x)', r'\1', s)
    s = num.sub(val, re.sub(r'\s+', '', s))
    return s.replace('+-', '-')
ref = {}
for line in open(objd):
    m = re.match(r'\s+([0-9a-f]+):\t(\S+)\s*(.*)$', line)
    if m:
        ref[int(m.group(1), 16)] = (m.group(2), m.group(3))
n = bad = 0
for line in open(out):
    m = re.search(r' ([0-9a-f]+) \S+ \(.*\)(?: insn: [0-9a-f ]+)?\t\t(\S+) ?(.*)$', line)
    if not m:
        continue
    n += 1
    addr = int(m.group(1), 16) - BASE
    mnem, ops = m.group(2), m.group(3)
    if addr not in ref:
        print('no objdump line at %#x: %s' % (addr, line.strip())); bad += 1; continue
    rm, rops = ref[addr]
    # AT&T: capstone adds the operand size to the mnemonic (movl, callq)
    ok_m = mnem == rm or (syntax == 'att' and mnem[:-1] == rm and mnem[-1] in 'bwlq')
    if not ok_m or norm(ops) != norm(rops):
        print('at %#x: prism "%s %s", objdump "%s %s"' % (addr, mnem, ops, rm, rops)); bad += 1
print('%d compared, %d differ' % (n, bad))
sys.exit(1 if bad or n == 0 else 0)
PY
objdump -d --no-show-raw-insn "$WL" >"$TMP/att.txt"
objdump -d --no-show-raw-insn -M intel "$WL" >"$TMP/intel.txt"
prism script -i "$TMP/a.data" --insn-trace=disasm >"$TMP/out" 2>"$TMP/err"
check "--insn-trace=disasm: exits 0" test $? -eq 0
check "--insn-trace=disasm: every instruction as objdump (AT&T)" \
	python3 "$TMP/compare.py" att "$TMP/att.txt" "$TMP/out"
python3 "$TMP/compare.py" att "$TMP/att.txt" "$TMP/out" | tail -3 >&3
check "--insn-trace=disasm: one line per instruction" test "$(wc -l <"$TMP/out")" -eq \
	"$(prism script -i "$TMP/a.data" --insn-trace | wc -l)"
prism script -i "$TMP/a.data" --insn-trace=disasm -M intel >"$TMP/out"
check "-M intel: every instruction as objdump -M intel" \
	python3 "$TMP/compare.py" intel "$TMP/intel.txt" "$TMP/out"
python3 "$TMP/compare.py" intel "$TMP/intel.txt" "$TMP/out" | tail -3 >&3
# the targets by symbol; the layout of -F +insn,+disasm (newer perf's)
check "the call's target by name" grep -qP '\tcallq? pt_leaf\+0x0$' "$TMP/out"
check "the jnz's target by name" grep -qP '\tjne pt_loop\+0x3$' "$TMP/out"
prism script -i "$TMP/a.data" --itrace=b -F +flags,+insn,+disasm >"$TMP/out"
check "-F +insn,+disasm: bytes, two tabs, the instruction" \
	grep -qP 'pt_loop\+0x14 \(.*\) insn: 75 ed\t\tjne pt_loop\+0x3$' "$TMP/out"
check "branches: as many as without disasm" test "$(wc -l <"$TMP/out")" -eq \
	"$(prism script -i "$TMP/a.data" --itrace=b | wc -l)"
check "python compare catches a wrong instruction" \
	bash -c "! python3 $TMP/compare.py att $TMP/intel.txt $TMP/out >/dev/null"
done_testing
