#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A recording that lost events (one-page buffers under a syscall loop):
# prism util still prints the full report, counts the loss in the
# anomalies footer, warns, and exits 0 (curt stopped with no report).
. tests/e2e/lib.sh
require_root
require_perf
require_tracefs
W=$PRISM_OUT/tests/workloads/util-mix
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1

perf record -q -a -m 1 -e '{sched:sched_switch,raw_syscalls:sys_enter,raw_syscalls:sys_exit}' \
	-o lost.data -- "$W" 20 >rec.out 2>rec.err
check "perf record succeeded" test $? -eq 0
prism util -i lost.data >lost.txt 2>lost.err
check "prism util exits 0 despite the loss" test $? -eq 0
n=$(awk '/^  lost events /{print $3}' lost.txt)
[ "${n:-0}" -gt 0 ] || skip "perf lost nothing this time (a faster machine?)"
grep_q '^ALL:$' lost.txt
grep_q '^Total Trace Time: ' lost.txt
grep_q '^   \[ *[0-9]+\] util-mix ' lost.txt
grep_q "lost $n events" lost.err
prism util -i lost.data --json >lost.json
check "JSON report of the lossy file" python3 -c "
import json, sys
d = json.load(open('lost.json'))
sys.exit(0 if d['anomalies']['lost_events'] > 0 and d['processes'] else 1)"
done_testing
