#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT times between TSC packets: prism script --itrace --ns against
# perf 6.1's, line for line, on synthesized traces (tests/tools/perfdata-pt.py)
# with MTC packets (TMA in the PSB+, mtc_period 0, 3 and 10, a whole and a
# fractional TSC/CTC ratio), MTC with CYC (the cycles-to-TSC ratio measured
# between MTCs), CYC with CBR changes and no MTC, an overflow in between, TSC
# and TMA again mid-trace, per CPU; branches, instructions and periods in
# ticks and time (which count from the last timing packet); a CBR change
# gives the samples after it its time (perf returns it as an event).  The
# files do have the packets, and times that move between the TSCs.
. tests/e2e/lib.sh
require_pt_files

cases=(
	"mtc0:--mtc 0 --loops 40"
	"mtc3:--mtc 3 --loops 300"
	"mtc10:--mtc 10 --loops 60 --iter-cycles 3000 --ctc 141:2"
	"frac:--mtc 0 --loops 40 --ctc 141:2"
	"cyc:--mtc 0 --cyc 1 --loops 40"
	"cyc3:--mtc 2 --cyc 3 --loops 90 --tsc-every 25"
	"cbr:--mtc 1 --cyc 1 --cbr-at 12:20 --loops 40"
	"cbr-tsc:--mtc 1 --cyc 1 --cbr-at 12:20 --tsc-every 12 --loops 40"
	"cyc-cbr:--cyc 1 --cbr-at 6:30 --loops 30"
	"cyc-tsc:--cyc 2 --tsc-every 5 --loops 30"
	"ovf:--mtc 0 --cyc 2 --ovf 9 --loops 30"
	"ovf-tsc:--mtc 1 --ovf 6 --tsc-every 4 --loops 30"
	"percpu:--mtc 0 --cyc 1 --per-cpu --loops 10"
)
for c in "${cases[@]}"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in b i1i be i1us i100ns i64t i3t i7tc; do
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
	pt_vs_perf "$name" "$TMP/$name.data" b -F +flags # microseconds
done

# a long run: perf's default i (100 us) and time periods over CBR changes
$GEN --mtc 3 --cyc 2 --cbr-at 3000:16 --tsc-every 1500 --loops 6000 --iter-cycles 1400 \
	"$WL" "$TMP/long.data"
for it in b i i10us i4096t; do
	pt_vs_perf long "$TMP/long.data" $it --ns
done
check "long: i (100 us) gives samples" \
	test "$(prism script -i "$TMP/long.data" --itrace=i | wc -l)" -gt 10

# the cases are what they say: the packets are there, the times move between TSCs
perf script -D -i "$TMP/cbr.data" 2>/dev/null >"$TMP/dump"
for p in TMA MTC CYC CBR; do
	check "cbr: the trace has $p packets" grep -qE "^\. +[0-9a-f]+: .* $p (0x|CTC)" "$TMP/dump"
done
check "cbr: two CBR values" test "$(grep -o 'CBR 0x[0-9a-f]*' "$TMP/dump" | sort -u | wc -l)" -eq 2
check "cyc-cbr: no MTC" test "$(perf script -D -i "$TMP/cyc-cbr.data" 2>/dev/null | grep -cE '^\. +[0-9a-f]+: .* MTC 0x')" -eq 0
for name in mtc0 cyc cyc-cbr; do
	times=$(prism script -i "$TMP/$name.data" --itrace=b --ns | awk '{print $3}' | sort -u | wc -l)
	check "$name: the branches have more than one time ($times) with one TSC" test "$times" -gt 5
done
check "ovf: the overflow" grep -q 'code 7: Overflow packet' \
	<(prism script -i "$TMP/ovf.data" --itrace=e --ns)

# --ns is an option of plain samples too: nine digits, as perf's
f=$FIXTURES/perf-6.1/$(ls "$FIXTURES/perf-6.1" 2>/dev/null | grep -m1 '\.data$')
if [ -f "$f" ]; then
	perf script -i "$f" --ns -F comm,tid,time,event 2>/dev/null | head -50 >"$TMP/perf.txt"
	prism script -i "$f" --ns -F comm,tid,time,event 2>/dev/null | head -50 >"$TMP/prism.txt"
	check "--ns on a perf-6.1 fixture: the times equal perf's" cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
	check "--ns: nine digits" grep -qE '[0-9]+\.[0-9]{9}:' "$TMP/prism.txt"
fi
done_testing
