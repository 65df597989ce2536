#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An overflow whose trace restarts at a PSB+ (tests/tools/perfdata-pt.py
# --ovf-psb: OVF, then PSB, TSC, CBR, MODE.Exec, FUP, PSBEND, no FUP right
# after the OVF): perf 6.1 reports the overflow, then a failed instruction at
# IP 0 (its walk from no IP to the PSB's FUP), and decodes on from the FUP.
# prism script --itrace=b, i1i, e, be, c, r with and without --ns, line for
# line against perf, per thread (with and without PIP, another thread), per
# CPU, with and without timing packets, through prism's walk, libipt's block
# decoder and its instruction decoder.
. tests/e2e/lib.sh
require_pt_files

$GEN --loops 12 --ovf-psb 3 --tsc-every 2 "$WL" "$TMP/a.data" || fail "the generator failed"
perf script -i "$TMP/a.data" --itrace=be >"$TMP/ref" 2>/dev/null
check "perf reports the overflow" grep -q 'code 7: Overflow packet' "$TMP/ref"
check "perf goes on from the PSB's FUP" \
	grep -q 'branches:uH: *0 \[unknown\] (\[unknown\]) => *555555555140 pt_loop+0x3' "$TMP/ref"

# NAME: libipt's block decoder and its instruction decoder give perf's --itrace=be too
other_decoders() {
	local dec
	perf script -i "$TMP/$1.data" --itrace=be >"$TMP/perf.txt" 2>/dev/null
	for dec in PRISM_PT_LIBIPT_BLOCKS PRISM_PT_INSN_DECODER; do
		(export "$dec=1" && prism script -i "$TMP/$1.data" --itrace=be >"$TMP/prism.txt" 2>/dev/null)
		check "$1 $dec=1: --itrace=be equal to perf's" cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
	done
}

for c in "tsc2:--loops 12 --ovf-psb 3 --tsc-every 2" "psb-only:--loops 12 --ovf-psb 3" \
	"tsc1:--loops 20 --ovf-psb 7 --tsc-every 1" "pip:--pip --loops 12 --ovf-psb 5 --tsc-every 3" \
	"percpu:--per-cpu --loops 8 --ovf-psb 4" "thread2:--thread2 --loops 9 --ovf-psb 4 --tsc-every 2"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in b i1i e be c r; do
		pt_vs_perf "$name" "$TMP/$name.data" $it
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
	other_decoders "$name"
done

# without timestamps: perf's error at IP 0 too (prism reads the packets
# after the OVF then, where no timing packets are scanned)
for c in "notsc:--loops 12 --ovf-psb 4" "notsc-pip:--pip --loops 9 --ovf-psb 3" \
	"notsc-t2:--thread2 --loops 9 --ovf-psb 5"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN --no-tsc ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed (--no-tsc)"
	for it in b i1i be e; do
		pt_vs_perf "$name" "$TMP/$name.data" $it
	done
	check "$name: perf's error at IP 0" grep -q 'time 0 .* ip 0 code 5: Failed to get instruction' "$TMP/perf.txt"
	other_decoders "$name"
done
# an overflow without timestamps: its error's time is "0", as perf prints it
$GEN --no-tsc --loops 12 --ovf 4 "$WL" "$TMP/notsc-ovf.data" || fail "the generator failed (--ovf)"
pt_vs_perf "notsc-ovf" "$TMP/notsc-ovf.data" be

done_testing
