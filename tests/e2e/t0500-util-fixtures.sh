#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism util on the perf 6.1 fixtures with syscall and sched events:
# every thread's syscall counts equal perf trace -s's and total/min/max agree
# to its printed precision; every task's run time matches perf sched
# timehist -s (within 0.1% or 10 us, plus what prism reports as inferred);
# per-CPU rows sum to the trace length; a file with lost events gives a
# full report, the loss in the footer, and exit status 0.
. tests/e2e/lib.sh
require_fixtures
require_cmd python3
F=$FIXTURES/perf-6.1
CMP="python3 $PRISM_SRC/tests/tools/util-compare.py"
cd "$TMP" || exit 1

# the stored perf trace -s output of q-trace
prism util -i "$F/q-trace.data" --json >q.json 2>q.err
check "q-trace: exit 0" test $? -eq 0
check "q-trace: no warnings" test ! -s q.err
check "q-trace: calls equal the stored perf trace -s" $CMP trace "$F/q-trace.trace-summary.txt" q.json
check "q-trace: CPU rows sum to the trace length" $CMP cpusum q.json

# the text layout: curt's columns, names from the x86_64 table, pending
prism util -i "$F/q-trace.data" >q.txt
grep_q '^-- \[  task\] command +cpu +user +sys +irq +softirq +hv +busy +idle' q.txt
grep_q '^   \[ 15488\] ls +ALL ' q.txt
grep_q '^     \(  9\)mmap +17 +0\.091465 ' q.txt
grep_q '^     \( 59\)execve +0 +0\.000000 +0\.000000 +-- +-- +--' q.txt
grep_q '^Total Trace Time: [0-9.]+ ms' q.txt
grep_q '^Anomalies:' q.txt

if command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1; then
	for f in q-trace g-syscalls-group r-lost; do
		perf trace -s -i "$F/$f.data" 2>"$f.trace" >/dev/null
		prism util -i "$F/$f.data" --json >"$f.json" 2>/dev/null
		check "$f: exit 0" test $? -eq 0
		check "$f: calls/total/min/max equal perf trace -s" $CMP trace "$f.trace" "$f.json"
		check "$f: CPU rows sum to the trace length" $CMP cpusum "$f.json"
	done
	for f in p-sched f-sched-tp; do
		perf sched timehist -s -i "$F/$f.data" >"$f.th" 2>/dev/null
		prism util -i "$F/$f.data" --json >"$f.json" 2>/dev/null
		check "$f: exit 0" test $? -eq 0
		check "$f: run times match perf sched timehist -s" $CMP timehist "$f.th" "$f.json"
		check "$f: CPU rows sum to the trace length" $CMP cpusum "$f.json"
	done
	# the stored timehist of p-sched names the same tasks
	check "p-sched: timehist lists perf[15326]" grep -q 'perf\[15326\]' p-sched.th
else
	echo "note: perf not runnable, compared with stored outputs only"
fi

# lost events: full report, loss in the footer, exit 0
prism util -i "$F/r-lost.data" >lost.txt 2>lost.err
check "r-lost: exit 0" test $? -eq 0
grep_q '^  lost events +4444 ' lost.txt
grep_q 'lost 4444 events' lost.err
grep_q '^     \(  1\)write ' lost.txt
grep_q '^ALL:' lost.txt

# pipe mode (events and formats arrive with the data)
prism util -i - <"$F/d2-pipe-tp.data" --json >pipe.json 2>pipe.err
check "d2-pipe-tp from a pipe: exit 0" test $? -eq 0
check "d2-pipe-tp: CPU rows sum to the trace length" $CMP cpusum pipe.json
check "d2-pipe-tp: saw the events" python3 -c "import json,sys; sys.exit(json.load(open('pipe.json'))['events'] < 50)"

# a file without any util event: a report of what there is, missing events named
prism util -i "$F/a-fp.data" >afp.txt 2>&1
check "a-fp: exit 0" test $? -eq 0
grep_q 'events not in the file: sched:sched_switch raw_syscalls:sys_enter' afp.txt
done_testing
