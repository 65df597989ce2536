#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT traces with MTCs among the TNTs (perf record's default
# mtc_period=3 puts one every few TNTs): prism's walk counts blocks many at a
# time across them (lib/pt/walk-batch.c, pt_time_pass / pt_time_due apply
# each MTC at the unit perf's decoder does), and prints what perf 6.1 prints,
# line for line: periods in ticks, time and instructions, call chains,
# branches, the power events and PTWRITEs of perf report's default; with CYC
# (not walked across), an overflow, per CPU, and in AUXTRACE pieces; the
# same as one instruction at a time (PRISM_PT_INSN_DECODER=1).  Per CPU
# against the instruction decoder only (perf 6.1 gives the branches at a
# switch's time to swapper, see t1024).
. tests/e2e/lib.sh
require_pt_files

for c in "mtc3:--mtc 3 --loops 40000" "mtc0:--mtc 0 --loops 20000" "mtc1:--mtc 1 --loops 30000 --tsc-every 9000" \
	"split3:--mtc 3 --loops 40000 --split 4096" "cyc:--mtc 3 --cyc 7 --loops 20000" \
	"ovf:--mtc 2 --loops 20000 --ovf 7000" "percpu:--mtc 3 --per-cpu --loops 8000" \
	"events:--mtc 2 --loops 20000 --power 900 --ptw 5000 --tsc-every 4000" \
	"calls:--calls 6 --mtc 1 --loops 20000"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for a in i1us i10us i100us i3000t i1000i i100usg i10usgxwp b; do
		perf script -i "$TMP/$name.data" --itrace=$a --ns >"$TMP/perf.txt" 2>/dev/null
		prism script -i "$TMP/$name.data" --itrace=$a --ns >"$TMP/prism.txt" 2>/dev/null
		PRISM_PT_INSN_DECODER=1 prism script -i "$TMP/$name.data" --itrace=$a --ns \
			>"$TMP/insn.txt" 2>/dev/null
		check "$name --itrace=$a: the instruction decoder's $(wc -l <"$TMP/insn.txt") lines" \
			cmp -s "$TMP/insn.txt" "$TMP/prism.txt"
		[ $name = percpu ] && continue
		check "$name --itrace=$a: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
		diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
	done
	[ $name = percpu ] && continue
	perf report -i "$TMP/$name.data" --stdio 2>/dev/null | grep -v '^#\|^$' >"$TMP/perf.txt"
	prism report -i "$TMP/$name.data" --stdio 2>/dev/null | grep -v '^#\|^$' >"$TMP/prism.txt"
	check "$name: prism report's $(wc -l <"$TMP/perf.txt") lines equal perf report's" \
		cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
	diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
done
# the walk went across the MTCs: blocks walked many at once
prism script -v -i "$TMP/mtc0.data" --itrace=i100us 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "mtc0: blocks walked at once" grep -qE ', [1-9][0-9]* blocks walked' "$TMP/v"
done_testing
