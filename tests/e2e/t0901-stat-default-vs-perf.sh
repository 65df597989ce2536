#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The default set and a mixed -e list print in perf stat 6.1's layout: the
# same lines, columns and summary (seconds time elapsed, user, sys), only
# the numbers differing; groups, modifiers and a tracepoint's name as perf
# shows them; -n with only the times.
. tests/e2e/lib.sh
. tests/e2e/stat-lib.sh
require_perf
cd "$TMP" || exit 1

perf stat true 2>perf.txt
prism stat true 2>prism.txt
check "prism stat succeeded" test $? -eq 0
stat_cmp default perf.txt prism.txt

# -n: no counters, only the times
perf stat -n -- true 2>perf-n.txt
prism stat -n -- true 2>prism-n.txt
stat_cmp null perf-n.txt prism-n.txt
perf stat -n -r 3 -- true 2>perf-nr.txt
prism stat -n -r 3 -- true 2>prism-nr.txt
stat_cmp null-repeat perf-nr.txt prism-nr.txt

ev='task-clock,{context-switches,page-faults}:u,cpu-migrations:k,faults'
perf stat -e "$ev" -- sleep 0.01 2>perf2.txt
prism stat -e "$ev" -- sleep 0.01 2>prism2.txt
stat_cmp mixed perf2.txt prism2.txt

if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/sched ]; then
	perf stat -e sched:sched_process_exec,task-clock -- true 2>perf3.txt
	prism stat -e sched:sched_process_exec,task-clock -- true 2>prism3.txt
	stat_cmp tracepoint perf3.txt prism3.txt
	grep_q "^                 1      sched:sched_process_exec " prism3.txt
fi
done_testing
