#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A hardware breakpoint (mem:ADDR:w) on a variable the workload's main()
# writes exactly N times: prism record captures exactly N samples in main
# (plus the kernel's clearing of .bss at exec), under perf's name for the
# event, and perf script agrees.  Skips where perf stat counts no
# breakpoint hits on the same workload.
. tests/e2e/lib.sh
require_perf
require_cmd setarch util-linux
W=$PRISM_OUT/tests/workloads/bp-write
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1
N=1000
addr=$(setarch -R "$W" --addr)
check "the workload names its variable ($addr)" test -n "$addr"
# some machines (hypervisors) deliver no hardware-breakpoint events at all
require_event "mem:$addr:w" $N setarch -R "$W" $N

prism record -q -e "mem:$addr:w" -o bp.data -- setarch -R "$W" $N 2>rec.err
check "record -e mem:$addr:w succeeded" test $? -eq 0
prism script -i bp.data -F comm,event,ip,sym >prism.txt 2>err.txt
check "prism script without warnings" test ! -s err.txt
n=$(grep -cE "^ *bp-write +mem:$addr:w: +[0-9a-f]+ main\$" prism.txt)
check "exactly $N breakpoint samples in prism script (got $n)" test "$n" -eq $N
perf script -i bp.data -F comm,event,ip,sym >perf.txt 2>perr.txt
check "perf script without warnings" test ! -s perr.txt
n=$(grep -cE "^ *bp-write +mem:$addr:w: +[0-9a-f]+ main\$" perf.txt)
check "exactly $N breakpoint samples in perf script (got $n)" test "$n" -eq $N
check "prism and perf show the same samples" test "$(wc -l <prism.txt)" -eq "$(wc -l <perf.txt)"
done_testing
