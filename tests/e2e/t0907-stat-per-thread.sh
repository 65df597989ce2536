#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -p and -t of a running process with threads: --per-thread shows a line
# per thread (comm-tid), busiest first, <not counted> for one that did not
# run, in perf stat's layout (columns, -x, -j); the total of -p is the sum
# of its threads.
. tests/e2e/lib.sh
. tests/e2e/stat-lib.sh
require_root
require_perf
require_tracefs
W=$PRISM_OUT/tests/workloads/spin-threads
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1

"$W" 1 10 &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$TMP"' EXIT
sleep 0.3
EV=syscalls:sys_enter_getppid,task-clock
for fmt in "" -x, -j; do
	perf stat --per-thread $fmt -p $pid -e $EV -- sleep 0.5 2>perf.txt
	prism stat --per-thread $fmt -p $pid -e $EV -- sleep 0.5 2>prism.txt
	check "prism stat --per-thread $fmt succeeded" test $? -eq 0
	stat_cmp "per-thread$fmt" perf.txt prism.txt "$fmt"
done
prism stat --per-thread -x, -p $pid -e $EV -- sleep 0.5 2>pt.csv
n=$(grep -c ",$(echo $EV | cut -d, -f1)," pt.csv)
check "a line per thread (2: main and a spinner; got $n)" test "$n" -eq 2
grep_q "^spin-threads-$pid,<not counted>,,syscalls:sys_enter_getppid," pt.csv
first=$(grep -m1 ",syscalls:sys_enter_getppid," pt.csv | cut -d, -f2)
check "the busiest thread first ($first calls)" test "$first" -gt 0

prism stat -p $pid -x, -e $EV -- sleep 0.5 2>p.csv
grep_q "^[0-9]+,,syscalls:sys_enter_getppid," p.csv
tid=$(ls /proc/$pid/task | sort -n | tail -1)
prism stat -t $tid -e $EV -- sleep 0.5 2>t.txt
grep_q "Performance counter stats for thread id '$tid':" t.txt
perf stat -t $tid -e $EV -- sleep 0.5 2>tperf.txt
stat_cmp tid tperf.txt t.txt
# -p alone counts until the process ends
"$W" 1 0.5 &
short=$!
sleep 0.1
timeout 10 "$PRISM_BIN" stat -p $short -x, -e task-clock 2>end.csv
check "-p alone ends with its process" test $? -eq 0
grep_q "^[0-9.]+,msec,task-clock," end.csv
expect_exit 1 prism stat -t 999999999 -e task-clock -- true 2>gone.txt
grep_q "no thread 999999999" gone.txt
done_testing
