#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A workload making exactly N getppid() calls: prism stat counts N
# syscalls:sys_enter_getppid, as perf stat does; the -I intervals add up to
# the same total, the last partial interval included.
. tests/e2e/lib.sh
require_perf
require_tracefs
W=$PRISM_OUT/tests/workloads/getppid-loop
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1
N=100000
EV=syscalls:sys_enter_getppid

prism stat -x, -e $EV -- "$W" $N 2>prism.csv
check "prism stat succeeded" test $? -eq 0
n=$(awk -F, '$3 == "'$EV'" { print $1 }' prism.csv)
check "exactly $N getppid entries (got $n)" test "$n" = $N
perf stat -x, -e $EV -- "$W" $N 2>perf.csv
p=$(awk -F, '$3 == "'$EV'" { print $1 }' perf.csv)
check "perf stat counts the same ($p)" test "$p" = "$n"

# perf's columns: the count, then the event name
prism stat -e $EV -- "$W" $N 2>prism.txt
grep_q "^            100000      $EV  " prism.txt

# intervals: their sum is the total
M=2000000
prism stat -I 20 -x, -e $EV -- "$W" $M 2>int.csv
check "prism stat -I succeeded" test $? -eq 0
lines=$(grep -c ",$EV," int.csv)
sum=$(awk -F, '{ s += $2 } END { print s }' int.csv)
check "several intervals ($lines)" test "$lines" -ge 2
check "the intervals add up to $M (got $sum)" test "$sum" = $M
done_testing
