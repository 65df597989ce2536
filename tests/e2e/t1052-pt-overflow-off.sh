#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An overflow that resolves with tracing off (tests/tools/perfdata-pt.py
# --ovf-pge: OVF, then TIP.PGE, no FUP): libipt reports it without an IP;
# perf 6.1 does the last branch before it (a taken TNT bit, a compressed
# return, a TIP) and reports the overflow at its target. prism script
# --itrace=be, i1ie, ie, cre, i1ige, i10ie line for line against perf, the
# OVF after each kind of branch (--ovf-at 1: a compressed return, 2: a jz
# taken or not, 3: the loop's jnz, 4: an indirect call's TIP), with and
# without timing packets, per CPU, through prism's walk, the instruction
# decoder and libipt's block decoder (not after a compressed return there:
# its call stack is libipt's own).
. tests/e2e/lib.sh
require_pt_files

$GEN --loops 8 --ovf-pge 2 "$WL" "$TMP/a.data" || fail "the generator failed"
perf script -i "$TMP/a.data" --itrace=be >"$TMP/ref" 2>/dev/null
check "perf does the jnz before the overflow" \
	grep -q 'pt_loop+0x14 (.*) => *555555555140 pt_loop+0x3' "$TMP/ref"
check "perf reports the overflow at its target" grep -q 'ip 0x555555555140 code 7: Overflow' "$TMP/ref"

for extra in "" "--no-tsc" "--tsc-every 2" "--per-cpu" "--mtc 1 --cyc 2"; do
	for at in 1 2 3 4; do
		for k in 2 3; do
			name="ovf-at$at-k$k${extra:+ $extra}"
			# shellcheck disable=SC2086
			$GEN $extra --ovf-pge $k --ovf-at $at --loops 9 "$WL" "$TMP/o.data" ||
				fail "$name: the generator failed"
			for it in be i1ie ie cre i1ige i10ie; do
				pt_vs_perf "$name" "$TMP/o.data" $it
				decs="PRISM_PT_INSN_DECODER"
				[ $at = 1 ] || decs="$decs PRISM_PT_LIBIPT_BLOCKS"
				for dec in $decs; do
					(export "$dec=1" && prism script -i "$TMP/o.data" --itrace=$it \
						>"$TMP/prism.txt" 2>/dev/null)
					check "$name --itrace=$it $dec=1: equal to perf's" \
						cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
				done
			done
		done
	done
done
done_testing
