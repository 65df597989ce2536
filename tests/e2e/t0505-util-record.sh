#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism record --util: records the util preset only (the same events, group
# and buffers as prism util's one-step mode); prism util -i reports on the
# file and perf reads it.
. tests/e2e/lib.sh
require_root
require_tracefs
cd "$TMP" || exit 1

# prism excludes itself: the workload makes sure the file has syscalls even
# on an idle machine
prism record --util -a -o util.data -- sh -c 'ls / >/dev/null; sleep 1' \
	>rec.out 2>rec.err
check "prism record --util -a -- sh exits 0" test $? -eq 0
check "the file is written" test -s util.data
grep_q 'prism record: Captured and wrote' rec.err

prism util -i util.data >rep.txt 2>rep.err
check "prism util -i on it exits 0" test $? -eq 0
check "prism util -i: no warnings" test ! -s rep.err
grep_q '^   \[   ALL\] +ALL ' rep.txt
grep_q '^Anomalies:' rep.txt
grep_q '^  lost events +0 ' rep.txt
check "no util event is missing from the file" eval "! grep -q 'events not in the file' rep.txt"
# prism record traced the system for 1 s: a report of about that length
len=$(prism util -i util.data --json | python3 -c "import json,sys; print(json.load(sys.stdin)['length'])")
check "the trace is about 1 s long ($len ms)" python3 -c "import sys; sys.exit(0 if 900 < $len < 1500 else 1)"

# the very same preset as prism util's one-step mode: events, group, CPU field
prism util -a --duration 0.2 --per-cpu --keep >one.txt 2>one.err
kept=$(sed -n "s/.*recording is kept in '\(.*\)'.*/\1/p" one.err)
check "prism util --keep names its file ($kept)" test -s "$kept"
prism header -i util.data >h1.txt 2>&1
prism header -i "$kept" >h2.txt 2>&1
grep -E '^# event|^# group|sample_type|mmap' h1.txt | sed 's/id = {[^}]*}//' >e1.txt
grep -E '^# event|^# group|sample_type|mmap' h2.txt | sed 's/id = {[^}]*}//' >e2.txt
check "the header shows the events" test -s e1.txt
test_cmp e2.txt e1.txt
rm -f "$kept"

if command -v perf >/dev/null; then
	perf script -i util.data -F event >ps.txt 2>ps.err
	check "perf script reads the file" test $? -eq 0
	grep_q 'raw_syscalls:sys_enter' ps.txt
	grep_q 'sched:sched_switch' ps.txt
	perf evlist -g -i util.data >evl.txt 2>/dev/null
	grep_q '^\{sched:sched_switch,raw_syscalls:sys_enter,raw_syscalls:sys_exit,' evl.txt
fi

# the preset only
expect_exit 129 prism record --util -e cpu-clock -a --duration 0.1 -o x.data 2>err.txt
grep_q 'util preset only' err.txt
done_testing
