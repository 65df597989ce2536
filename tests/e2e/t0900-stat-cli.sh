#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism stat's command line: --help, usage errors (exit 129, the bad
# option's line only), an event this machine cannot count given with -e
# (an error with hints, as record's), a command that cannot run, -o and
# --append, the workload's exit status.
. tests/e2e/lib.sh
cd "$TMP" || exit 1

prism stat --help >help.txt
check "--help exits 0" test $? -eq 0
for o in --event --all-cpus --cpu --pid --tid --no-inherit --repeat --interval-print \
	--interval-count --field-separator --json-output --no-aggr --per-cpu --per-core \
	--per-die --per-socket --per-thread --output --append --timeout --delay --summary --null; do
	grep_q "$o" help.txt
done

expect_exit 129 prism stat 2>e1.txt
grep_q "nothing to count" e1.txt
expect_exit 129 prism stat -A true 2>e2.txt
grep_q "need per-CPU counts: add -a or -C" e2.txt
expect_exit 129 prism stat --per-thread true 2>e3.txt
grep_q "--per-thread needs -p or -t" e3.txt
expect_exit 129 prism stat -x, -j true 2>e4.txt
grep_q "-x and -j exclude each other" e4.txt
expect_exit 129 prism stat --interval-count 2 true 2>e5.txt
grep_q "--interval-count needs -I" e5.txt
expect_exit 129 prism stat --append true 2>e6.txt
check "a usage error prints the usage once, not every option" test "$(wc -l <e6.txt)" -lt 8
expect_exit 129 prism stat -e cpu-clok true 2>e7.txt
grep_q "unknown event 'cpu-clok'" e7.txt
grep_q "did you mean 'cpu-clock'" e7.txt
expect_exit 129 prism stat -a -p 1 true 2>/dev/null

expect_exit 1 prism stat -e task-clock -- ./no-such-command 2>e8.txt
grep_q "cannot run './no-such-command': No such file or directory" e8.txt

# the workload's exit status is prism stat's, as perf stat's
expect_exit 3 prism stat -e task-clock -- sh -c 'exit 3' 2>/dev/null

# -o FILE (perf's "# started on" line first), --append adds a second report
prism stat -o out.txt -e page-faults true 2>err.txt
check "-o: nothing on stderr" test ! -s err.txt
grep_q "^# started on " out.txt
grep_q "Performance counter stats for 'true':" out.txt
prism stat -o out.txt --append -x, -e page-faults true
check "--append keeps the first report" test "$(grep -c '^# started on' out.txt)" -eq 2
grep_q "^[0-9]+,,page-faults," out.txt

# an explicit hardware event on a machine without a PMU is an error, the
# default set shows it as <not supported>
if [ -z "$(ls /sys/bus/event_source/devices/ 2>/dev/null | grep -E '^(cpu|cpu_core|armv8_pmuv3.*)$')" ]; then
	expect_exit 1 prism stat -e cycles true 2>cyc.txt
	grep_q "event 'cycles' is not supported on this machine" cyc.txt
	grep_q "^hint: " cyc.txt
	prism stat true 2>def.txt
	check "the default set succeeds" test $? -eq 0
	grep_q "^   <not supported>      cycles  " def.txt
	grep_q "^   <not supported>      branch-misses  " def.txt
else
	echo "ok: (this machine has a hardware PMU: the no-PMU checks do not apply)" >&3
fi
done_testing
