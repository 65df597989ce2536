#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report --itrace against perf 6.1's perf report --itrace --stdio on
# synthesized Intel PT files: the sections of the synthesized events
# (branches, then instructions, as perf), their sample counts and rows, per
# thread and per CPU, with the default sort and with --sort (rows of the same
# percentage compared in one order: perf's order of ties is not prism's);
# pipe mode (which perf cannot decode) against perf on the file; options
# that do not go with --itrace are refused; periods in time and ticks.  Not compared: sorts ending in
# dso, pid or comm (perf pads those last columns differently there).
. tests/e2e/lib.sh
require_pt_files


for c in "plain:--loops 6" "ovf:--loops 12 --ovf 4 --tsc-every 2" "percpu:--per-cpu --loops 4" \
	"thread2:--thread2 --loops 5"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data"
	for it in i1i b i1ib c r i3i; do
		for sort in "" "--sort sym" "--sort dso,sym" "--sort comm,sym"; do
			# shellcheck disable=SC2086
			perf report -i "$TMP/$name.data" --itrace=$it --stdio $sort >"$TMP/p1" 2>/dev/null
			# shellcheck disable=SC2086
			prism report -i "$TMP/$name.data" --itrace=$it --stdio $sort >"$TMP/p2" 2>"$TMP/err"
			check "$name --itrace=$it $sort: prism exits 0" test $? -eq 0
			check "$name --itrace=$it $sort: the report equals perf's" \
				cmp -s <(report_rows "$TMP/p1") <(report_rows "$TMP/p2")
		done
	done
done
# periods in time and ticks: perf report's default --itrace=i (i100us), i1us, i8t
$GEN --loops 20000 --tsc-every 1 "$WL" "$TMP/tsc.data"
for it in i i1us i8t i5tb; do
	perf report -i "$TMP/tsc.data" --itrace=$it --stdio >"$TMP/p1" 2>/dev/null
	prism report -i "$TMP/tsc.data" --itrace=$it --stdio >"$TMP/p2" 2>/dev/null
	check "tsc --itrace=$it: the report equals perf's" cmp -s <(report_rows "$TMP/p1") <(report_rows "$TMP/p2")
done
check "tsc --itrace=i: 152 samples of 100 us" \
	grep -q "^# Samples: 152  of event 'instructions:uH'" <(prism report -i "$TMP/tsc.data" --itrace=i)
check "plain: the branches section has 24 samples" \
	grep -q "^# Samples: 24  of event 'branches:uH'" <(prism report -i "$TMP/plain.data" --itrace=b)

$GEN --loops 6 --pipe "$WL" "$TMP/pipe.data"
perf report -i "$TMP/plain.data" --itrace=i1ib --stdio >"$TMP/p1" 2>/dev/null
prism report -i - --itrace=i1ib --stdio <"$TMP/pipe.data" >"$TMP/p2"
check "pipe: the report equals perf's on the file" cmp -s <(report_rows "$TMP/p1") <(report_rows "$TMP/p2")

for o in "--comms pt-loop" "--pid 4343"; do
	# shellcheck disable=SC2086
	expect_exit 129 prism report -i "$TMP/plain.data" --itrace=b $o
done
done_testing
