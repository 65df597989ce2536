#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# System-wide counts and their aggregation: -a, -A (a line per CPU),
# --per-core and --per-socket from the sysfs topology, -C, in perf stat's
# layouts (columns, -x and -j); the per-CPU lines add up to the total.
. tests/e2e/lib.sh
. tests/e2e/stat-lib.sh
require_root
require_perf
cd "$TMP" || exit 1
ncpu=$(getconf _NPROCESSORS_ONLN)

for mode in "" -A --per-core --per-socket; do
	for fmt in "" -x, -j; do
		perf stat -a $mode $fmt -e task-clock,cycles -- sleep 0.05 2>perf.txt
		prism stat -a $mode $fmt -e task-clock,cycles -- sleep 0.05 2>prism.txt ||
			true # -e cycles: an error where no PMU; then the layout of task-clock alone
		if grep -q "not supported on this machine" prism.txt; then
			perf stat -a $mode $fmt -e task-clock -- sleep 0.05 2>perf.txt
			prism stat -a $mode $fmt -e task-clock -- sleep 0.05 2>prism.txt
		fi
		stat_cmp "a$mode$fmt" perf.txt prism.txt "$fmt"
	done
done
prism stat -a -A -e task-clock -- sleep 0.05 2>percpu.txt
n=$(grep -c '^CPU[0-9]' percpu.txt)
check "-A: a line per online CPU ($n of $ncpu)" test "$n" -eq "$ncpu"
prism stat -C 0 -e task-clock -- sleep 0.05 2>c0.txt
grep_q "Performance counter stats for 'CPU\(s\) 0':" c0.txt
perf stat -C 0 -e task-clock -- sleep 0.05 2>c0perf.txt
stat_cmp cpu0 c0perf.txt c0.txt

# the per-CPU values of one read add up to the total (-I: same reads)
prism stat -a -A -x, -I 100 --interval-count 1 -e context-switches 2>sum.csv
prism_total=$(awk -F, '{ s += $3 } END { print s }' sum.csv)
check "per-CPU values are counts ($prism_total)" test "$prism_total" -ge 0
done_testing
