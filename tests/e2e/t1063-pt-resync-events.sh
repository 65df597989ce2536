#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT: what perf 6.1's decoder does after an error (code it cannot
# read, trace that does not match the code) besides going on from the next
# IP (t1053, t1062); prism's output equals perf's line for line:
# - power events in the packets skipped to that IP: only a CBR's, at the
#   trace start (IP 0, its time); the events due at the next instruction
#   when the error comes are at the error's IP, those waiting for their
#   FUP are lost; events after the kernel at perf's estimated time;
# - a TSX abort or an interrupt whose FUP is that IP: the trace starts
#   there, its TIP is a plain one for the next branch that needs trace
#   (a return takes it; a conditional jump does not match it: an error),
#   not an asynchronous branch; a compressed return that fails took its bit;
# - an overflow in the packets skipped: perf's error (IP 0), then on from
#   its FUP; a PSB+ right after an OVF gives no psb event (perf's walk from
#   no IP to its FUP fails first), also where no error came before; the
#   CBRs read on the way are one cbr sample, the last one's, at the trace
#   start (none at the overflow's error), also with the code there; the
#   overflow's error is where the last branch before it went, also where
#   tracing resumes at a FUP elsewhere (--ovf-mid);
# - a mismatch where a period ends (in instructions or ticks): perf counts
#   the branch and starts the next period there, without a sample;
# - per CPU, a thread that moves to another CPU keeps its call stack for
#   the psb and cbr events there (Apollo Lake's FUP with the next IP leaves
#   a frame on it; each queue starts at its first PSB's time); without
#   BranchEn, a CBR after TIP.PGE is an event after the trace start, at
#   its IP (the FUP that follows gives the next events' IP).
. tests/e2e/lib.sh
require_pt_files

miss="--map-path /nonexistent/pt-loop"
pt_cases "bepwx i1ipwe bgpwe i10tpwe" "--ns" \
	"pwr:--loops 8 --power 2 $miss" "pwr-tsc:--loops 8 --power 2 --tsc-every 2 $miss" \
	"pwr-mtc:--loops 8 --power 0 --mtc 1 --cyc 1 $miss" "pwr-ptw:--loops 8 --power 2 --ptw 3 $miss" \
	"pwr-cbr:--loops 30 --power 5 --tsc-every 3 --cbr-at 7:20 --per-cpu $miss" \
	"pwr-kernel-tsc:--loops 8 --power 3 --kernel --tsc-every 1"
$GEN --loops 8 --power 2 $miss "$WL" "$TMP/pwr.data"
prism script -i "$TMP/pwr.data" --itrace=pe --ns >"$TMP/prism.txt" 2>/dev/null
check "pwr: the CBR skipped to the FUP at the trace start" \
	grep -q 'cbr: 30 freq: 2500 MHz (125%) *0 \[unknown\]' "$TMP/prism.txt"
check "pwr: the PWRX after the FUP at its IP" \
	grep -q 'pwrx: .* 555555555140 \[unknown\]' "$TMP/prism.txt"
check "pwr: the MWAIT waiting for the FUP is lost, as perf's" \
	test "$(grep -c mwait "$TMP/prism.txt")" -eq 0

pt_cases "bex cre bepwxe i3tbxe" "--ns" \
	"tsx:--loops 8 --tsx 1 $miss" "tsx-events:--loops 10 --tsx 3 --power 1 --ptw 5 --mtc 2 $miss" \
	"tsx-percpu:--loops 10 --tsx 2 --per-cpu --tsc-every 2 $miss"
# the abort's code there (the kernel's is not): --kabort, --kabort-jcc
for c in "kabort:--kabort --loops 6" "kabort-jcc:--kabort-jcc --loops 6" \
	"kabort-mtc:--kabort-jcc --loops 6 --mtc 1 --cyc 1" \
	"kabort-percpu:--kabort-jcc --loops 6 --per-cpu --tsc-every 2 --power 3"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN --kernel ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in be cre i1ie i3tbe i1ixgecr; do
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
done
check "kabort-jcc: the conditional jump does not match the abort's TIP" \
	grep -q 'ip 0x55555555514a code 6' "$TMP/prism.txt"
# an interrupt's FUP where the code is missing, the kernel's there (kcore_dir)
rm -rf "$TMP/k" && mkdir "$TMP/k"
$GEN --kernel --loops 6 --tsc-every 1 --kcore-dir "$TMP/k/kcore_dir" $miss "$WL" "$TMP/k/data" ||
	fail "kcore: the generator failed"
for it in be i1ie bge; do
	pt_vs_perf kcore "$TMP/k" $it --ns
done

pt_cases "bepwxe i1ipwxe i3tpwxge" "--ns" \
	"ovf:--loops 10 --ovf 3 --power 4 $miss" "ovf-tsc:--loops 10 --ovf 3 --per-cpu --tsc-every 2 $miss" \
	"ovf-psb:--loops 10 --ovf-psb 4 --tsc-every 1 $miss" "ovf-psb-code:--loops 10 --ovf-psb 4 --tsc-every 1" \
	"ovf-pwr:--loops 10 --ovf 4 --power 2 --tsc-every 1 $miss" \
	"ovf-psb-pwr:--loops 10 --ovf-psb 4 --power 2 --tsc-every 1 $miss" \
	"ovf-psb-pwr-code:--loops 10 --ovf-psb 4 --power 2 --tsc-every 1" \
	"ovf-psb-pwr-percpu:--loops 12 --ovf-psb 5 --power 2 --tsc-every 2 --per-cpu $miss" \
	"ovf-mid:--loops 10 --ovf 3 --ovf-mid --tsc-every 1 --power 2" \
	"ovf-mid-percpu:--loops 12 --ovf 4 --ovf-mid --per-cpu --tsc-every 2" \
	"ovf-mid-miss:--loops 10 --ovf 3 --ovf-mid --tsc-every 1 --power 2 $miss"
prism script -i "$TMP/ovf.data" --itrace=e --ns >"$TMP/prism.txt" 2>/dev/null
check "ovf: the overflow in the packets skipped is reported" grep -q 'ip 0 code 7' "$TMP/prism.txt"
prism script -i "$TMP/ovf-psb-pwr.data" --itrace=pe --ns >"$TMP/prism.txt" 2>/dev/null
check "ovf-psb-pwr: the CBR skipped before the overflow is not sampled, as perf's" \
	test "$(grep -c 'cbr: 24' "$TMP/prism.txt")" -eq 0
check "ovf-psb-pwr: the PSB+'s CBR at the trace start after the overflow (IP 0)" \
	sh -c "sed -n '/code 7/,\$p' '$TMP/prism.txt' | grep -q 'cbr: 40 freq: 3333 MHz (167%) *0 \[unknown\]'"

$GEN --loops 8 --tsx 1 $miss "$WL" "$TMP/tsx.data"
prism script -i "$TMP/tsx.data" --itrace=b --ns >"$TMP/prism.txt" 2>/dev/null
check "tsx: no branch from the abort's FUP (perf's second trace start)" \
	test "$(grep -c '555555555140 \[unknown\] (/nonexistent/pt-loop) =>' "$TMP/prism.txt")" -eq 0

pt_cases "i2ie i3tbe i3te i2tbe i2ibgecr" "--ns" \
	"nlip:--loops 300 --fup-nlip --tsc-every 3" "nlip-percpu:--loops 40 --fup-nlip --per-cpu --mtc 1 --cyc 1"
$GEN --loops 300 --fup-nlip --tsc-every 3 "$WL" "$TMP/nlip.data"
prism script -i "$TMP/nlip.data" --itrace=i3te --ns >"$TMP/prism.txt" 2>/dev/null
check "nlip i3t: the sample after the mismatch counts the period ended at it" \
	grep -A1 'code 6' "$TMP/prism.txt" | grep -q ' 4 instructions:uH: .*pt_leaf+0x3'

apl="--fup-nlip --cpuid GenuineIntel,6,92,9"
pt_cases "pwg bgpwe i1ipwg i3ipwxgecr" "--ns" \
	"apl:--per-cpu --loops 3 $apl" "apl-events:--per-cpu --loops 6 --power 1 --ptw 2 --tsc-every 3 $apl" \
	"apl-mtc:--per-cpu --loops 6 --mtc 1 --cyc 2 $apl" "nobr:--per-cpu --loops 3 --no-branch --power 1 --ptw 2" \
	"nobr-tsc:--loops 6 --no-branch --power 1 --ptw 3 --tsc-every 2"
$GEN --per-cpu --loops 3 $apl "$WL" "$TMP/apl.data"
prism script -i "$TMP/apl.data" --itrace=pg --ns >"$TMP/prism.txt" 2>/dev/null
check "apl: the psb event on the next CPU has the frame the interrupt left" \
	grep -A2 '\[001\].*psb:' "$TMP/prism.txt" | grep -q '115a pt_loop+0x1d'
done_testing
