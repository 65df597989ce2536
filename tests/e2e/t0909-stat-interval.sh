#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -I: the header line every 25 intervals, the time column, <not counted>
# for an interval where the command did not run, --interval-count, in perf
# stat's layouts (columns, -x, -j, with -A); --summary adds the total;
# -D delays the start; --timeout stops a command.
. tests/e2e/lib.sh
. tests/e2e/stat-lib.sh
require_perf
cd "$TMP" || exit 1

for fmt in "" -x, -j; do
	perf stat -I 100 --interval-count 2 $fmt -e task-clock,page-faults -- sleep 1 2>perf.txt
	prism stat -I 100 --interval-count 2 $fmt -e task-clock,page-faults -- sleep 1 2>prism.txt
	check "prism stat -I $fmt succeeded" test $? -eq 0
	stat_cmp "interval$fmt" perf.txt prism.txt "$fmt"
done
prism stat -I 100 --interval-count 2 -e task-clock -- sleep 1 2>std.txt
grep_q "^#           time             counts unit events$" std.txt

# --summary: the total after the intervals ("summary" in front with -x)
for fmt in "" -x, -j; do
	perf stat -I 100 --summary $fmt -e task-clock,page-faults -- sleep 0.25 2>perf.txt
	prism stat -I 100 --summary $fmt -e task-clock,page-faults -- sleep 0.25 2>prism.txt
	stat_cmp "summary$fmt" perf.txt prism.txt "$fmt"
done
prism stat -I 100 --summary -x, -e page-faults -- sleep 0.25 2>sum.csv
grep_q "^         summary,[0-9]+,,page-faults," sum.csv
prism stat -I 100 --summary --no-csv-summary -x, -e page-faults -- sleep 0.25 2>nosum.csv
grep_q "^[0-9]+,,page-faults," nosum.csv
grep_q "^ +0\.[0-9]{9}      <not counted> msec task-clock" std.txt
check "--interval-count 2: two intervals" test "$(grep -c 'task-clock' std.txt)" -eq 2

# 30 intervals: the header again after 25
prism stat -I 10 --interval-count 30 -e page-faults -- sleep 2 2>many.txt
check "the header every 25 intervals" test "$(grep -c '^#' many.txt)" -eq 2

if [ "$(id -u)" -eq 0 ]; then
	perf stat -a -A -I 100 --interval-count 1 -e task-clock 2>perfa.txt
	prism stat -a -A -I 100 --interval-count 1 -e task-clock 2>prisma.txt
	stat_cmp interval-A perfa.txt prisma.txt
fi

# -D: the command runs 100 ms uncounted, as perf says
for fmt in "" -x,; do
	perf stat -D 100 $fmt -e task-clock,page-faults -- sleep 0.3 2>perf.txt
	prism stat -D 100 $fmt -e task-clock,page-faults -- sleep 0.3 2>prism.txt
	stat_cmp "delay$fmt" perf.txt prism.txt "$fmt"
done
grep_q "^Events enabled$" prism.txt

# --timeout: the command is stopped, the counts printed
start=$(date +%s)
prism stat --timeout 200 -e task-clock -- sleep 5 2>to.txt
end=$(date +%s)
check "--timeout stopped the command ($((end - start)) s)" test $((end - start)) -lt 4
grep_q "msec task-clock" to.txt
done_testing
