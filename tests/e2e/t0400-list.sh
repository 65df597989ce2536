#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism list prints the events of this machine as perf list does: the
# tracepoint, software and PMU event lines must equal perf's (the oracle),
# globs select the same events, categories and errors behave.
. tests/e2e/lib.sh
require_perf
require_tracefs

# the event lines of one kind, e.g. "Tracepoint event"
lines() {
	grep -F "[$1]" "$2" || true
}

for cat in tracepoint sw pmu; do
	prism list "$cat" >"$TMP/prism-$cat.txt" 2>"$TMP/err-$cat.txt"
	perf list "$cat" >"$TMP/perf-$cat.txt" 2>/dev/null
	for kind in "Tracepoint event" "Software event" "Kernel PMU event"; do
		lines "$kind" "$TMP/prism-$cat.txt" >"$TMP/p.txt"
		lines "$kind" "$TMP/perf-$cat.txt" >"$TMP/o.txt"
		test_cmp "$TMP/o.txt" "$TMP/p.txt"
	done
done

# tracepoint names: same set and order, and not a trivial one
awk '/Tracepoint event/ {print $1}' "$TMP/prism-tracepoint.txt" >"$TMP/names.txt"
n=$(wc -l <"$TMP/names.txt")
check "more than 100 tracepoints listed ($n)" test "$n" -gt 100
check "sched:sched_switch listed" grep -qx 'sched:sched_switch' "$TMP/names.txt"
# every listed tracepoint is a directory of tracefs with an id
ids=0
while IFS=: read -r sys ev; do
	[ -f "/sys/kernel/tracing/events/$sys/$ev/id" ] && ids=$((ids + 1))
done <"$TMP/names.txt"
check "every listed tracepoint has an id file ($ids of $n)" test "$ids" -eq "$n"

# globs select what perf's globs select
for glob in 'sched:sched_wak*' '*fault*' 'raw_syscalls:*' 'sched:sched_switch' 'cs' 'clock'; do
	prism list "$glob" >"$TMP/p.txt"
	perf list "$glob" 2>/dev/null | grep -F -e '[Tracepoint event]' -e '[Software event]' \
		-e '[Kernel PMU event]' >"$TMP/o.txt"
	test_cmp "$TMP/o.txt" "$TMP/p.txt"
done
prism list 'sched:sched_wak*' >"$TMP/wak.txt"
check "the glob 'sched:sched_wak*' finds several events" test "$(wc -l <"$TMP/wak.txt")" -ge 2

# a category plus a glob: both apply
prism list tracepoint '*fault*' >"$TMP/p.txt"
check "category + glob: no software event" bash -c "! grep -q 'Software event' '$TMP/p.txt'"
grep_q 'exceptions:page_fault_user' "$TMP/p.txt"

# hardware: events when the PMU exists, else a note saying there is none
prism list hw >"$TMP/hw.txt"
if ls /sys/bus/event_source/devices/*/type 2>/dev/null | xargs grep -lx 4 >/dev/null 2>&1; then
	grep_q 'cycles .*\[Hardware event\]' "$TMP/hw.txt"
else
	grep_q '^  \(no hardware PMU on this machine: .*use cpu-clock or task-clock\)$' "$TMP/hw.txt"
	check "no hardware events listed without a PMU" bash -c "! grep -q 'Hardware' '$TMP/hw.txt'"
fi

# --raw-dump: names only, on one line
prism list --raw-dump sw >"$TMP/raw.txt"
check "--raw-dump prints one line" test "$(wc -l <"$TMP/raw.txt")" -eq 1
grep_q '^alignment-faults bpf-output .*task-clock$' "$TMP/raw.txt"

# nothing matches: an error, exit 1, and a hint for a misspelt category
expect_exit 1 prism list tracepont 2>"$TMP/err.txt"
grep_q "^error: no event matches 'tracepont'" "$TMP/err.txt"
grep_q "did you mean the category 'tracepoint'" "$TMP/err.txt"
expect_exit 1 prism list 'nosuch:event*' 2>"$TMP/err.txt"
grep_q "no event matches 'nosuch:event\*'" "$TMP/err.txt"

# --help documents the categories and the option
expect_exit 0 prism list --help >"$TMP/help.txt"
grep_q 'tracepoint' "$TMP/help.txt"
grep_q '[-]-raw-dump' "$TMP/help.txt"
expect_exit 129 prism list --bogus 2>/dev/null

done_testing
