#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism trace prints events live in prism script's layout, merged in time
# order, and -s sums a workload's syscalls per thread (exact call counts).
. tests/e2e/lib.sh
require_root
require_tracefs
W=$PRISM_OUT/tests/workloads/getppid-loop
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1

# the layout of prism script's default tracepoint line
re='^ *[^ ].* +-?[0-9]+ \[[0-9]{3}\] +[0-9]+\.[0-9]{6}: sched:sched_switch: prev_comm=.* prev_pid=[0-9]+ prev_prio=[0-9]+ prev_state=[^ ]+ ==> next_comm=.* next_pid=[0-9]+ next_prio=[0-9]+$'

"$PRISM_BIN" trace --raw -e sched:sched_switch -a --stop-after 1 >trace.txt 2>trace.err &
tp=$!
wait $tp
check "trace exits 0" test $? -eq 0
check "trace printed events" test -s trace.txt
check "trace: nothing on stderr" test ! -s trace.err
n=$(grep -cvE "$re" trace.txt)
check "every trace line has prism script's layout ($n do not)" test "$n" -eq 0
n=$(awk -v p="$tp" '$2 == p' trace.txt | wc -l)
check "no event of prism trace itself ($n)" test "$n" -eq 0
# time order within the stream
sed -E 's/.* ([0-9]+\.[0-9]{6}): .*/\1/' trace.txt >times.txt
check "trace lines are in time order" sort -c -g times.txt

prism record -q -o sw.data -e sched:sched_switch -a --duration 0.3
prism script -i sw.data >script.txt 2>/dev/null
check "prism script printed the recorded events" test -s script.txt
n=$(grep -cvE "$re" script.txt)
check "prism script lines match the same layout ($n do not)" test "$n" -eq 0

prism trace -s -- "$W" 10000 >sum.txt 2>sum.err
check "trace -s exits 0" test $? -eq 0
grep_q '^ getppid-loop \([0-9]+\), [0-9]+ events' sum.txt
grep_q '^   getppid +10000 +0 ' sum.txt
done_testing
