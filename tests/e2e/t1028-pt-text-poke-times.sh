#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT over kernel code changed while tracing: tests/tools/perfdata-pt.py
# --text-poke writes a kernel trace with perf's text_poke dummy and a
# TEXT_POKE record that turns prism_kpoke's jmp into a 5-byte nop between
# two interrupts into it.  perf 6.1 decodes the first with the kcore's jmp
# and the second with the nop (a call of prism_kleaf); prism prints perf's
# lines, with libipt's cached sections (blocks) and one instruction at a
# time.  The same trace without the poke's interrupts (TSC packets between
# interrupts: the interrupt's TIP and the iret's are units of the timing,
# as TNT bits) gives perf's times too, to the ns: after an iret into user
# space, and where tracing starts again (TIP.PGE after TIP.PGD), the
# samples have perf's estimated time (the last timing update plus 2 ticks
# an instruction at max non-turbo / CBR) until a later time comes, the
# iret's instruction sample too.  prism record adds perf's text_poke
# dummy to a timed kernel trace: t1018 compares its attr with perf's.
# Without --itrace, prism script decodes a trace as perf does (cepwx),
# prism report with perf's instructions every 100 us and call chains.
. tests/e2e/lib.sh
require_pt_files
cd "$TMP" || exit 1
exec 3>&2

mkdir -p "$TMP/d" "$TMP/e"
$GEN --kernel --text-poke --tsc-every 1 --loops 6 --kcore-dir "$TMP/d/kcore_dir" "$WL" "$TMP/d/data"
$GEN --kernel --tsc-every 1 --loops 6 --kcore-dir "$TMP/e/kcore_dir" "$WL" "$TMP/e/data"
perf script -i "$TMP/d" --itrace=b -F +flags >"$TMP/ref" 2>"$TMP/err"
check "perf: the first interrupt runs the kcore's jmp" \
	grep -q 'jmp .*prism_kpoke+0x0 .*=> .*prism_kpoke+0x20 ' "$TMP/ref"
check "perf: the second runs the poke's nop and calls prism_kleaf" \
	grep -q 'call .*prism_kpoke+0x5 .*=> .*prism_kleaf+0x0 ' "$TMP/ref"
check "perf warns of nothing" test ! -s "$TMP/err"
for it in b "b -F +flags" c r i1i "i1i -F +flags" i3i; do
	# shellcheck disable=SC2086
	pt_vs_perf "text poke:" "$TMP/d" $it
	# shellcheck disable=SC2086
	PRISM_PT_INSN_DECODER=1 pt_vs_perf "text poke, one instruction at a time:" "$TMP/d" $it
	# shellcheck disable=SC2086
	pt_vs_perf "interrupts between TSCs:" "$TMP/e" $it
done
# perf's estimated times (--ns): kernel interrupts between TSCs, a CBR
# change, per-CPU; tracing stopped and started again (--calls)
n=0
for opts in "--kernel --loops 6 --tsc-every 1" "--kernel --loops 9 --tsc-every 2 --cbr-at 3:20" \
	"--kernel --loops 50 --tsc-every 3 --per-cpu" "--calls 5"; do
	n=$((n + 1))
	mkdir -p "$TMP/m$n"
	# shellcheck disable=SC2086
	$GEN $opts --kcore-dir "$TMP/m$n/kcore_dir" "$WL" "$TMP/m$n/data"
	for it in b i1i i10i c; do
		pt_vs_perf "$opts:" "$TMP/m$n" $it --ns
		PRISM_PT_INSN_DECODER=1 pt_vs_perf "$opts, one instruction at a time:" "$TMP/m$n" $it --ns
	done
done
# no --itrace: perf's default for a trace (calls, errors, power events, ptwrites, transactions)
for f in "$TMP/d" "$TMP/m4" "$TMP/m3"; do
	perf script -i "$f" >"$TMP/perf.txt" 2>/dev/null
	prism script -i "$f" >"$TMP/prism.txt" 2>&1
	check "$(basename "$f") without --itrace: perf's $(wc -l <"$TMP/perf.txt") lines" cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
done
# prism report without --itrace: perf report's default (i100usg and the x, p, w sections), said so
$GEN --loops 400000 --tsc-every 1000 "$WL" "$TMP/big.data"
perf report -i "$TMP/big.data" --stdio 2>/dev/null | grep -v '^# To\|^#$\|Tip:' >"$TMP/perf.txt"
prism report -i "$TMP/big.data" --stdio 2>"$TMP/err" | grep -v '^# To\|^#$' >"$TMP/prism.txt"
check "report without --itrace: perf report's $(wc -l <"$TMP/perf.txt") lines" \
	cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
check "report without --itrace: it says which --itrace" grep -q 'with --itrace=i100usgxwp' "$TMP/err"
check "report without --itrace: some samples" grep -q 'pt_loop' "$TMP/prism.txt"
# a workload recorded by a relative name: read from the current directory, as perf
(
	cd "$(dirname "$WL")" || exit 1
	$GEN --loops 4 ./pt-loop "$TMP/rel.data"
	perf script -i "$TMP/rel.data" --itrace=b >"$TMP/perf.txt" 2>/dev/null
	prism script -i "$TMP/rel.data" --itrace=b >"$TMP/prism.txt" 2>"$TMP/err"
)
check "a relative name: perf's $(wc -l <"$TMP/perf.txt") lines" cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
check "a relative name: it decodes" grep -q 'pt_leaf+0x3' "$TMP/prism.txt"
(cd / && prism script -i "$TMP/rel.data" --itrace=b >/dev/null 2>"$TMP/err")
check "a relative name not found from /: the decoding stop is said" \
	grep -q 'instruction trace errors where decoding stopped' "$TMP/err"
prism script -i "$TMP/d" --itrace=e >"$TMP/errs" 2>&1
check "no decoding error" test ! -s "$TMP/errs"
done_testing
