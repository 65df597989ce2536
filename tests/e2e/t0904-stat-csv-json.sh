#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# -x SEP (value, unit, event, run time, percentage, metric value, metric
# unit) and -j (perf 6.1's JSON lines) in perf's layout, for counted, not
# counted and not supported events, with -r's noise column.
. tests/e2e/lib.sh
. tests/e2e/stat-lib.sh
require_perf
cd "$TMP" || exit 1

for args in "-x," "-x;" "-j"; do
	perf stat $args -- true 2>perf.txt
	prism stat $args -- true 2>prism.txt
	check "prism stat $args succeeded" test $? -eq 0
	stat_cmp "default$args" perf.txt prism.txt "$args"
	perf stat $args -r 2 -e task-clock,page-faults -- true 2>perf-r.txt
	prism stat $args -r 2 -e task-clock,page-faults -- true 2>prism-r.txt
	stat_cmp "repeat$args" perf-r.txt prism-r.txt "$args"
done
if [ "$(id -u)" -eq 0 ] && [ -d /sys/kernel/tracing/events/sched ]; then
	# a count without a metric: JSON's metric unit is "(null)" in perf 6.1
	perf stat -j -e sched:sched_process_exec -- true 2>perf-tp.txt
	prism stat -j -e sched:sched_process_exec -- true 2>prism-tp.txt
	stat_cmp json-tp perf-tp.txt prism-tp.txt -j
	grep_q '"counter-value" : "1.000000"' prism-tp.txt
fi
# every JSON line parses
if command -v python3 >/dev/null; then
	prism stat -j -- true 2>j.txt
	check "JSON lines parse" python3 -c '
import json, sys
for l in open(sys.argv[1]):
    json.loads(l)' j.txt
fi
done_testing
