#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The TRACING_DATA blob prism builds for a set of tracepoints equals, byte
# for byte up to saved_cmdlines (which changes from moment to moment), the
# one perf 6.1 writes when it records the same events: same sections, same
# system and event order, same formats, printk_formats.
. tests/e2e/lib.sh
require_perf
require_tracefs
cmp_bin=$PRISM_BUILD/tests/helper/tracing-data-cmp
[ -x "$cmp_bin" ] || skip "tests/helper/tracing-data-cmp is not built"

n=0
for ev in 'sched:sched_switch' \
	'sched:sched_switch,raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_wakeup' \
	'sched:*' \
	'{raw_syscalls:sys_enter,raw_syscalls:sys_exit}' \
	'ftrace:print,irq:*,sched:sched_waking'; do
	n=$((n + 1))
	if ! perf record -q -e "$ev" -o "$TMP/perf$n.data" -- true >"$TMP/rec.out" 2>&1; then
		cat "$TMP/rec.out" >&3
		fail "perf record -e '$ev' failed"
		continue
	fi
	check "blob for '$ev' equals perf's" "$cmp_bin" "$TMP/perf$n.data" "$ev"
done

done_testing
