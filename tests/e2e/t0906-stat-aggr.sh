#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# System-wide counts and their aggregation: -a, -A (a line per CPU),
# --per-core, --per-die and --per-socket from the sysfs topology, -C, in perf stat's
# layouts (columns, -x and -j); the per-CPU lines add up to the total.
. tests/e2e/lib.sh
. tests/e2e/stat-lib.sh
require_root
require_perf
require_tracefs
cd "$TMP" || exit 1
ncpu=$(getconf _NPROCESSORS_ONLN)

for mode in "" -A --per-core --per-die --per-socket; do
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

# the per-CPU lines of a known process's calls add up to its exact count
W=$PRISM_OUT/tests/workloads/getppid-loop
if [ -x "$W" ] && [ -d /sys/kernel/tracing/events/syscalls ]; then
	sh -c "sleep 0.3; exec $W 100000" &
	wpid=$!
	prism stat -a -A -x, -e syscalls:sys_enter_getppid --filter "common_pid == $wpid" \
		-- sleep 1.5 2>sum.csv
	wait $wpid
	lines=$(grep -c '^CPU[0-9]*,' sum.csv)
	total=$(awk -F, '{ s += $2 } END { print s }' sum.csv)
	check "a line per CPU ($lines)" test "$lines" -eq "$ncpu"
	check "the per-CPU counts add up to 100000 (got $total)" test "$total" = 100000
fi

# -a alone counts until SIGINT, then prints
timeout --preserve-status -s INT 0.5 "$PRISM_BIN" stat -a -x, -e task-clock 2>int.csv
check "SIGINT ends -a with status 0" test $? -eq 0
grep_q "^[0-9.]+,msec,task-clock," int.csv
done_testing
