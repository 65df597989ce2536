#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -r N: "(N runs)", the mean counts with ( +- stddev% ) where the runs
# differ, none where they do not (a deterministic tracepoint count), and
# the elapsed time with its stddev, in perf stat's layout.
. tests/e2e/lib.sh
. tests/e2e/stat-lib.sh
require_perf
require_tracefs
W=$PRISM_OUT/tests/workloads/getppid-loop
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1
EV=syscalls:sys_enter_getppid,task-clock

perf stat -r 3 -e $EV -- "$W" 20000 2>perf.txt
prism stat -r 3 -e $EV -- "$W" 20000 2>prism.txt
check "prism stat -r succeeded" test $? -eq 0
stat_cmp repeat perf.txt prism.txt
grep_q "Performance counter stats for '$W 20000' \(3 runs\):" prism.txt
grep_q "^             20000      syscalls:sys_enter_getppid       # +[0-9.]+ [KMG]?/sec +$" prism.txt
grep_q "task-clock .*\( \+- *[0-9.]+% \)$" prism.txt
grep_q "^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed  \( \+- *[0-9.]+% \)$" prism.txt
done_testing
