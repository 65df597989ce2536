#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT: cases that went through other decoders than prism's walk, or
# that it decoded otherwise than perf 6.1; prism's output equals perf's
# line for line:
# - a PTWRITE's FUP, then a TSX event's FUP at the same IP (--ptw K --tsx K):
#   perf's decoder stands at the PTWRITE's FUP, the instruction there not
#   done, so the transaction is there too (no mismatch), then the
#   instruction (counted then: periods in ticks with an overflow after it);
# - power events (not at a FUP) inside a transaction: the last branch's flags
#   without "in a transaction", as perf's (it says so only of states it
#   walked code for), none after a FUP;
# - the last branches (l) are walked by prism's walk as every --itrace: after
#   code that is missing (a binary, the kernel without kcore) or trace that
#   does not match (Apollo Lake's FUP with the next IP on another CPU) on
#   from the next IP as perf, not from the next PSB; branch stacks on the
#   instruction, branch and event samples;
# - kernel code changed by TEXT_POKE records is walked by prism's walk too
#   (its runs there read anew each time): missing user code, on from the
#   next IP as perf; so are traces with MNT packets (perf skips them) and
#   VMCS packets (perf keeps the value only; libipt's decoders wait for the
#   VMPTRLD it binds to and lose the trace after it), and a TraceStop.
. tests/e2e/lib.sh
require_pt_files

pt_cases "bepwxe i1ipwxe i3tbgxe i1ixgecr" "-F +flags --ns" \
	"ptw-tsx:--loops 6 --ptw 2 --tsx 2" "ptw-tsx-next:--loops 10 --ptw 3 --tsx 2" \
	"ptw-tsx-tsc:--loops 10 --ptw 2 --tsx 2 --tsc-every 1" \
	"ptw-tsx-percpu:--loops 10 --ptw 3 --tsx 2 --per-cpu --tsc-every 2" \
	"ptw-ovf:--loops 10 --ovf 3 --ptw 2" "ptw-ovf-tsc:--loops 10 --ovf 3 --ptw 2 --tsc-every 1"
# power events inside a transaction: perf's flags without its (x)
miss="--map-path /nonexistent/pt-loop"
pt_cases "bepwxe i1ipwxe i3tbgxe pwx" "-F +flags --ns" \
	"tsx-pwr:--loops 10 --tsx 2 --power 3 --tsc-every 1" \
	"tsx-pwr-ptw:--loops 10 --ptw 3 --tsx 2 --power 2 --mtc 1" \
	"tsx-pwr-percpu:--loops 12 --tsx 2 --power 3 --ptw 4 --per-cpu --tsc-every 2" \
	"tsx-pwr-miss:--loops 10 --tsx 3 --power 4 $miss" \
	"tsx-pwr-kernel:--loops 10 --tsx 2 --power 3 --kernel --tsc-every 1"
prism script -i "$TMP/ptw-tsx.data" --itrace=bepwxe >"$TMP/prism.txt" 2>/dev/null
check "ptw-tsx: no mismatch" test "$(grep -c 'trace error' "$TMP/prism.txt")" -eq 0
check "ptw-tsx: the transaction after the ptwrite at its IP" \
	grep -A1 'ptwrite: .* 0x1122334455667788' "$TMP/prism.txt" | grep -q 'transactions: *x *555555555140'

pt_cases "i1il i3il4 bl i2ile i1tle i1ilgxpwe" "-F +brstack --ns" \
	"l-miss:--loops 10 --power 2 --tsc-every 1 $miss" "l-kernel:--loops 10 --kernel --tsc-every 1" \
	"l-ovf:--loops 10 --ovf 3 --ovf-mid" "l-nlip:--loops 10 --fup-nlip --tsc-every 3" \
	"l-percpu:--loops 10 --tsc-every 1 --per-cpu $miss"
prism script -v -i "$TMP/l-miss.data" --itrace=i1il 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "l-miss: walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"

for c in "poke-miss:$miss" "poke-miss-pwr:--power 3 $miss"; do
	name=${c%%:*}
	rm -rf "$TMP/$name" && mkdir "$TMP/$name"
	# shellcheck disable=SC2086
	$GEN --kernel --text-poke --tsc-every 1 --loops 6 ${c#*:} --kcore-dir "$TMP/$name/kcore_dir" \
		"$WL" "$TMP/$name/data" || fail "$name: the generator failed"
	for it in be i1ie i3tbgxe bpwxe; do
		pt_vs_perf "$name" "$TMP/$name" $it -F +flags --ns
	done
done
prism script -v -i "$TMP/poke-miss" --itrace=be 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "poke-miss: walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"

pt_cases "be i1ie i3tbgxe bpwxe i1il" "-F +flags --ns" "mnt:--loops 10 --mnt 3" \
	"mnt-miss:--loops 10 --mnt 3 --tsc-every 1 --power 2 $miss" \
	"mnt-percpu:--loops 10 --mnt 2 --per-cpu --tsc-every 2" "mnt-mtc:--loops 10 --mnt 3 --mtc 1 --cyc 1"
prism script -v -i "$TMP/mnt-miss.data" --itrace=be 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "mnt-miss: walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"
pt_cases "be i1ie i3tbgxe bpwxe i1il" "-F +flags --ns" "vmcs:--loops 10 --vmcs 3" \
	"vmcs-miss:--loops 10 --vmcs 3 --tsc-every 1 --power 2 $miss" \
	"vmcs-percpu:--loops 10 --vmcs 2 --per-cpu --tsc-every 2" \
	"vmcs-kernel:--loops 10 --vmcs 3 --kernel --tsc-every 1 --ptw 3"
prism script -v -i "$TMP/vmcs.data" --itrace=be 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "vmcs: walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"
pt_cases "be i1ie i3tbgxe bpwxe i1il" "-F +flags --ns" "stop:--loops 10 --trace-stop" \
	"stop-miss:--loops 10 --trace-stop --tsc-every 1 --power 2 $miss" \
	"stop-percpu:--loops 10 --trace-stop --per-cpu --tsc-every 2"
prism script -v -i "$TMP/stop-miss.data" --itrace=be 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "stop-miss: walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"
done_testing
