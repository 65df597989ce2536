#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Code prism cannot read (a user+kernel trace, tests/tools/perfdata-pt.py
# --kernel, decoded without kcore or vmlinux): perf 6.1 reports "Failed to
# get instruction" (at its estimated time), then goes on from the next packet
# with an IP (a "tr strt"), and stops reporting the error once the same file
# (here the kernel) failed twice, in time order over the CPUs. prism's walk does the same, line for
# line with perf for --itrace=be, ce, cre, bge, ie, with and without timing
# packets, MTC/CYC, PIPs, MOV CR3s, per CPU and with --calls, and with the
# workload's own file missing; trace that does not match the code (perf goes
# on from the next IP there too). libipt's decoders (the instruction decoder
# for small periods and 'l', the block decoder for VMCS/MNT/TraceStop or
# TEXT_POKE) still go on from the next PSB.
. tests/e2e/lib.sh
require_pt_files

$GEN --kernel --loops 6 "$WL" "$TMP/a.data" || fail "the generator failed"
pt_vs_perf "kernel" "$TMP/a.data" be --ns
check "perf reports the missing kernel code" \
	grep -q 'ip 0xffffffff81000100 code 5: Failed to get instruction' "$TMP/perf.txt"
check "perf goes on at the interrupt's return" \
	grep -q 'branches:kuH: *0 \[unknown\] (\[unknown\]) => *555555555140 pt_loop+0x3' "$TMP/perf.txt"
check "prism goes on there too (not from the next PSB)" test "$(grep -c pt_loop "$TMP/prism.txt")" -gt 20

for c in "plain:--loops 6" "notsc:--loops 4 --no-tsc" "mtc:--loops 6 --mtc 1 --cyc 1" \
	"tsc1:--loops 6 --tsc-every 1" "pip:--pip --loops 6 --mtc 2" \
	"cr3:--cr3 --loops 6 --tsc-every 1" "calls:--calls 5 --loops 4" \
	"percpu:--per-cpu --loops 5 --tsc-every 1"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN --kernel ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in be ce cre bge ie; do
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
done
# the third failure in the same file is not reported (perf's), the trace goes on
check "percpu: two errors reported, as perf" test "$(grep -c 'code 5' "$TMP/prism.txt")" -eq 2

# the workload's file missing: every user address fails; perf reports two
# failures, then goes on silently; a TIP.PGD with an IP ends a resync
# ("tr strt tr end"); the periods and call chains on the blocks' path
for c in "miss:--loops 100" "miss-tsc:--loops 100 --tsc-every 3" "miss-mtc:--loops 30 --mtc 1 --cyc 2" \
	"miss-percpu:--per-cpu --loops 30 --tsc-every 2" "miss-t2:--thread2 --loops 8"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} --map-path /nonexistent/pt-loop "$WL" "$TMP/$name.data" ||
		fail "$name: the generator failed"
	for it in be ce cre bge i100ibe i1000i i64tge; do
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
done
check "miss: two errors reported, as perf (in time order over the CPUs)" \
	test "$(grep -c 'code 5' "$TMP/prism.txt")" -eq 2
# PTWRITEs: their FUP is an IP to go on from (the event itself skipped, as perf)
$GEN --loops 8 --ptw 2 --map-path /nonexistent/pt-loop "$WL" "$TMP/miss-ptw.data" ||
	fail "miss-ptw: the generator failed"
for it in be bepwx cre i100ibepw; do
	pt_vs_perf miss-ptw "$TMP/miss-ptw.data" $it --ns
done

# trace that does not match the code (a FUP at the indirect call's next IP,
# --fup-nlip, without Apollo Lake's CPUID): perf's error at the call, then on
# from the TIP after the FUP, the call stack kept (the return pops the call's)
for c in "nlip:--loops 4" "nlip-tsc:--loops 6 --tsc-every 1" "nlip-percpu:--per-cpu --loops 3"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} --fup-nlip "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in be ce cre bge i100ibe; do
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
done
check "nlip: the mismatch at the call" grep -q 'ip 0x55555555515a code 6' "$TMP/prism.txt"

done_testing
