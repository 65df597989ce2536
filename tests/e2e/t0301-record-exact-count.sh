#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A workload makes exactly N = 100000 getppid() calls: prism record of
# raw_syscalls:sys_enter gives exactly N samples with id 110 for the
# workload's pid, none for prism's own pid, and perf script agrees.
. tests/e2e/lib.sh
require_root
require_perf
require_tracefs
[ "$(uname -m)" = x86_64 ] || skip "syscall number 110 is getppid on x86_64 only"
W=$PRISM_OUT/tests/workloads/getppid-loop
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1
N=100000

prism record -o sys.data -e raw_syscalls:sys_enter -- "$W" $N 2>rec.err
check "record succeeded" test $? -eq 0
grep_q 'prism record: Captured and wrote' rec.err
prism script -i sys.data -F pid,event,trace >prism.txt 2>err.txt
check "prism script without warnings" test ! -s err.txt
pid=$(awk '/NR 110 /{print $1; exit}' prism.txt)
check "found the workload's pid" test -n "$pid"
n=$(awk -v p="$pid" '$1 == p && / NR 110 /' prism.txt | wc -l)
check "exactly $N getppid entries in prism script (got $n)" test "$n" -eq $N
perf script -i sys.data >perf.txt 2>perr.txt
check "perf script without warnings" test ! -s perr.txt
n=$(awk -v p="$pid" '$2 == p && / NR 110 /' perf.txt | wc -l)
check "exactly $N getppid entries in perf script (got $n)" test "$n" -eq $N

# system-wide: prism never records its own syscalls
"$PRISM_BIN" record -o all.data -e raw_syscalls:sys_enter -a -- "$W" 20000 2>/dev/null &
rec=$!
wait $rec
check "system-wide record succeeded" test $? -eq 0
prism script -i all.data -F pid,event >all.txt 2>/dev/null
n=$(awk -v p="$rec" '$1 == p' all.txt | wc -l)
check "no samples of prism's own pid $rec (got $n)" test "$n" -eq 0
check "system-wide file has samples" test -s all.txt
done_testing
