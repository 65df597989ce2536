#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --itrace=x (TSX transactions, "(x)" on the branches inside one,
# "tx abrt"), p (psb, cbr, mwait, pwre, exstop, pwrx) and w (ptwrite) against
# perf 6.1's perf script, line for line, on synthesized Intel PT files
# (tests/tools/perfdata-pt.py --tsx, --power, --ptw): alone and with
# branches and instructions, with call chains (g), -F +flags, --call-trace and --call-ret-trace
# (which ask for p and w), per thread and per CPU, with and without TSC, in
# pipe mode (against perf on the same trace in a file).  Where a trace goes
# on after an overflow without a timing packet, the times (--ns) are perf's.
# Not compared: a PWRE without MWAIT, for which perf 6.1 prints the fields
# of the last MWAIT's PWRE (prism prints its own).  d writes ./intel_pt.log
# (perf's name; prism's content: the packets and the errors).
. tests/e2e/lib.sh
require_pt_files

for c in "power:--loops 10 --power 2 --tsc-every 2" "tsx:--loops 9 --tsx 2 --tsc-every 3" \
	"ptw:--loops 7 --ptw 2" "all:--loops 12 --tsx 1 --ptw 6 --power 8 --tsc-every 2" \
	"notsc:--no-tsc --loops 12 --tsx 1 --ptw 6 --power 8" \
	"percpu:--per-cpu --loops 12 --tsx 1 --ptw 6 --power 8" \
	"thread2:--thread2 --loops 10 --power 2 --ptw 5"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in x p w pwx bpwx i1ipwx cpwx epwx; do
		pt_vs_perf "$name" "$TMP/$name.data" $it
	done
	pt_vs_perf "$name" "$TMP/$name.data" bpwx -F +flags
	pt_vs_perf "$name" "$TMP/$name.data" i1ix -F +flags --ns
	# with call chains: the events' chains under them, as the instructions'
	for it in gx gp gw g4pwx bgpwx i1igpwx; do
		pt_vs_perf "$name" "$TMP/$name.data" $it
	done
	pt_vs_perf "$name" "$TMP/$name.data" i64tgxwp --ns
	pt_vs_perf "$name" "$TMP/$name.data" gpwx -F +flags
	# the events' instruction bytes: the last branch's (decoded one by one)
	pt_vs_perf "$name" "$TMP/$name.data" i1igpwx -F +insn,+insnlen
	pt_vs_perf "$name" "$TMP/$name.data" bpwx -F +insn
	for o in --call-trace --call-ret-trace; do
		perf script -i "$TMP/$name.data" $o >"$TMP/perf.txt" 2>/dev/null
		prism script -i "$TMP/$name.data" $o >"$TMP/prism.txt" 2>"$TMP/err"
		check "$name $o: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
		diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
	done
done

# the cases are not empty
prism script -i "$TMP/all.data" --itrace=bpwx -F +flags >"$TMP/out"
check "all: 4 transactions (begin, commit, begin, abort)" \
	test "$(grep -c ' transactions: ' "$TMP/out")" -eq 4
check "all: the abort's branch" grep -q 'branches:uH:   tx abrt  .*pt_loop+0x3 .*=> .*pt_loop+0x3 ' "$TMP/out"
check "all: a call in a transaction" grep -q 'branches:uH:   call              (x) ' "$TMP/out"
check "all: PTWRITE's 8 bytes by a FUP" grep -q 'ptwrite: .* IP: 1 payload: 0x1122334455667788 ' "$TMP/out"
check "all: the CBR change" grep -q 'cbr: .* cbr: 30 freq: 2500 MHz (125%) .*pt_loop+0x3 ' "$TMP/out"
check "all: the PSB at offset 0" grep -q 'psb: .* psb offs: 0 .* 0 \[unknown\]' "$TMP/out"
check "all: MWAIT, PWRE, EXSTOP at the FUP" \
	test "$(grep -c 'mwait: .*hints: 0x21 extensions: 0x1 \|pwre: .*hw: 0 cstate: 2 sub-cstate: 1 \|exstop: .*IP: 1 ' "$TMP/out")" -eq 3
prism script -i "$TMP/all.data" --itrace=gpwx >"$TMP/out"
check "all g: a chain under an event" grep -A1 -q '^pt-loop  4343 .* cbr:  cbr: 30 ' "$TMP/out"
check "all g: the event's frame" test "$(grep -A1 '^pt-loop  4343 .* cbr:  cbr: 30 ' "$TMP/out" | tail -1)" = \
	"$(printf '\t            1140 pt_loop+0x3 (%s)' "$WL")"
check "all: PWRX" grep -q 'pwrx: .* deepest cstate: 2 last cstate: 3 wake reason: 0x1 ' "$TMP/out"
prism script -i "$TMP/percpu.data" --itrace=p >"$TMP/out"
check "percpu: a PSB a CPU" test "$(grep -c ' psb offs: 0 ' "$TMP/out")" -eq 2
check "x on a trace without TSX: nothing" test -z "$(prism script -i "$TMP/power.data" --itrace=x)"

# a PWRE without MWAIT: its own fields (perf 6.1 repeats the last MWAIT's PWRE)
$GEN --loops 6 --power 2 --hw-pwre "$WL" "$TMP/hw.data"
check "a hardware PWRE: its fields" grep -q 'pwre: .* hw: 1 cstate: 1 sub-cstate: 0 ' \
	<(prism script -i "$TMP/hw.data" --itrace=p)

# pipe mode against perf on the same trace in a file
$GEN --loops 12 --tsx 1 --ptw 6 --power 8 --tsc-every 2 "$WL" "$TMP/f.data"
$GEN --loops 12 --tsx 1 --ptw 6 --power 8 --tsc-every 2 --pipe --split 64 "$WL" "$TMP/p.data"
perf script -i "$TMP/f.data" --itrace=bpwx -F +flags >"$TMP/perf.txt" 2>/dev/null
prism script -i - --itrace=bpwx -F +flags <"$TMP/p.data" >"$TMP/prism.txt" 2>/dev/null
check "pipe: the $(wc -l <"$TMP/perf.txt") lines equal perf's on the file" \
	cmp -s "$TMP/perf.txt" "$TMP/prism.txt"

# restarts after an overflow with no timing packet after it, and power events
# between MTC / CYC timing packets: perf's times to the ns
for c in "o1:--loops 14 --ovf 4" "o2:--loops 14 --ovf 4 --tsc-every 5" \
	"o3:--loops 14 --ovf 4 --mtc 3 --cyc 1" "o4:--loops 14 --ovf 6 --mtc 3 --cyc 1 --tsc-every 4 --cbr-at 3:20" \
	"o5:--loops 14 --ovf 4 --power 2" "t1:--truncated --loops 10 --tsc-every 3" \
	"m1:--loops 12 --mtc 3 --cyc 1 --power 3" "m2:--loops 12 --mtc 2 --power 3 --ptw 6 --tsc-every 4" \
	"m3:--loops 12 --cyc 2 --power 5 --tsc-every 3 --ovf 8"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	pt_vs_perf "$name" "$TMP/$name.data" bepw --ns
	pt_vs_perf "$name" "$TMP/$name.data" i1ipw --ns
done

# d: ./intel_pt.log with the trace's packets and the decoding errors
$GEN --loops 14 --ovf 4 --power 2 "$WL" "$TMP/log.data"
(cd "$TMP" && prism script -i log.data --itrace=bed >/dev/null 2>&1)
check "d: the AUXTRACE record in the log" grep -q '^AUXTRACE size 0x[0-9a-f]* offset 0 .* tid 4343 cpu 0$' "$TMP/intel_pt.log"
check "d: its packets as -D shows them" grep -q '^\.  00000000:  02 82 02 82 .* PSB$' "$TMP/intel_pt.log"
check "d: the overflow error" grep -q 'code 7: Overflow packet' "$TMP/intel_pt.log"
check "d: no log without d" test "$(cd "$TMP" && rm -f intel_pt.log &&
	prism script -i log.data --itrace=b >/dev/null && ls intel_pt.log 2>/dev/null)" = ""
(cd "$TMP" && rm -f intel_pt.log && prism report -i log.data --itrace=bed >/dev/null 2>&1)
check "d: prism report writes the log too" grep -q 'code 7: Overflow packet' "$TMP/intel_pt.log"

# the letters in --itrace's error message and --help
expect_exit 129 prism script -i "$TMP/all.data" --itrace=k
check "--help names x, p, w" grep -q 'x.*p.*w' <(prism script --help 2>&1 | grep -i 'itrace')

done_testing
