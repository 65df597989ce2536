#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism record --namespaces -p PID on a process whose threads started before
# the recording: one NAMESPACES record per thread (after its COMM), with the
# same namespace devices and inodes as perf record --namespaces -p PID.
. tests/e2e/lib.sh
require_root
require_perf
require_cmd python3
cd "$TMP" || exit 1
python3 -c 'import threading, time
for _ in range(3):
    threading.Thread(target=time.sleep, args=(10,), daemon=True).start()
time.sleep(10)' &
pid=$!
# its 3 threads running (a loaded machine takes its time to start python)
for _ in $(seq 1 100); do
	[ "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -ge 4 ] && break
	sleep 0.1
done
check "the workload has its 4 threads" test "$(ls /proc/$pid/task 2>/dev/null | wc -l)" -eq 4
perf record -q --namespaces -p $pid -o perf.data -- sleep 0.2 >perf.out 2>&1
check "perf record --namespaces -p succeeded" test $? -eq 0
prism record -q --namespaces -p $pid --duration 0.2 -o prism.data 2>rec.err
check "prism record --namespaces -p succeeded" test $? -eq 0
kill $pid
# the record and its namespace list; perf's synthesized records carry no pid in their trailer
for f in perf prism; do
	perf script --show-namespace-events -i $f.data 2>/dev/null | grep -A2 "NAMESPACES $pid/" |
		sed 's/^.*PERF_RECORD_/PERF_RECORD_/' >$f.ns
done
n=$(grep -c "NAMESPACES $pid/" prism.ns)
check "one NAMESPACES record per thread (4, got $n)" test "$n" -eq 4
test_cmp perf.ns prism.ns
done_testing
