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

# the accounting check travels in the file (PRISM_FEAT_UTIL_CHECK, a
# feature bit perf passes over): prism util -i checks the report against
# the schedstat read at the recording's edges, as the live report does
prism util -i "$PRISM_SRC/tests/data/util-check-p.data" --csv --no-calls >st.csv 2>st.err
check "a stored recording with the check: exit 0, no warnings" test $? -eq 0 -a ! -s st.err
grep_q '^check,within,1,differ,0,worst_tid,12636,worst_comm,python3,worst_ms,-0.018617' st.csv
prism header -i "$PRISM_SRC/tests/data/util-check-p.data" >sth.txt 2>&1
grep_q '^# prism util check: schedstat of 1 tasks at the recording.s edges, events disabled at ' sth.txt

# a task that wakes 100 times a second, so that the report has its row
# (the system's python: a pyenv shim would be a shell that runs others first)
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" -c 'import time
while True:
    time.sleep(0.01)' &
sl=$!
sleep 0.3
prism record --util -p $sl --duration 0.5 -o p.data >/dev/null 2>p.err
check "prism record --util -p exits 0" test $? -eq 0
prism util -i p.data --csv --no-calls >p.csv 2>p.ierr
check "prism util -i on it: no warnings" test ! -s p.ierr
grep_q "^check,within,[01],differ,[01],worst_tid,$sl,worst_comm,python3," p.csv
prism util -p $sl --duration 0.5 --keep --csv --no-calls >live.csv 2>live.err
kept=$(sed -n "s/.*recording is kept in '\(.*\)'.*/\1/p" live.err)
check "prism util -p --keep names its file ($kept)" test -s "$kept"
prism util -i "$kept" --csv --no-calls >again.csv 2>/dev/null
grep '^check,' live.csv >c1.txt
grep '^check,' again.csv >c2.txt
check "the live check line is there" test -s c1.txt
check "prism util -i on the kept file prints the live run's check line" cmp -s c1.txt c2.txt
kill $sl 2>/dev/null
if command -v perf >/dev/null; then
	perf script -i "$kept" >/dev/null 2>ps2.err
	check "perf script reads a file with the section" test $? -eq 0
	check "... without a word about it" test ! -s ps2.err
	perf report -i "$kept" --header-only >/dev/null 2>ph.err
	check "perf report --header-only: no warning" test ! -s ph.err
fi
rm -f "$kept"
# -C: the tasks ran on other CPUs too: no check
prism record --util -C 0 --duration 0.2 -o c.data >/dev/null 2>&1
prism util -i c.data --csv --no-calls >c.csv 2>/dev/null
check "-C: no accounting check line" eval "! grep -q '^check,' c.csv"

# the preset only
expect_exit 129 prism record --util -e cpu-clock -a --duration 0.1 -o x.data 2>err.txt
grep_q 'util preset only' err.txt
done_testing
