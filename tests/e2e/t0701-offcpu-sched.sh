#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live (root): the fallback without BPF, prism record --off-cpu=sched of
# tests/workloads/offcpu-sleep: the context-switches event (period 1, call
# chains) plus switch records; prism offcpu pairs switch-out/switch-in in
# userspace and must attribute 95..101% of the time the workload measured
# around its blocking calls to the same functions as the BPF method, and say
# which method it used.  perf 6.1 reads the file without a warning.  Kernel
# stacks are recorded only with --off-cpu-kernel-stack.
. tests/e2e/lib.sh
require_root
require_perf
WL=$PRISM_OUT/tests/workloads/offcpu-sleep
[ -x "$WL" ] || skip "workload $WL not built (make test-bins)"

prism record --off-cpu=sched -o "$TMP/cs.data" -- "$WL" 20 10 >"$TMP/wl.out" 2>"$TMP/rec.err"
check "record --off-cpu=sched exits 0" test $? -eq 0
grep_q 'off-CPU by context switches' "$TMP/rec.err"

perf report -i "$TMP/cs.data" --stats >"$TMP/stats.txt" 2>"$TMP/stats.err"
check "perf report --stats: no warning ($(head -c 200 "$TMP/stats.err"))" test ! -s "$TMP/stats.err"
grep_q '^context-switches stats:' "$TMP/stats.txt"
grep_q 'SWITCH events: +[1-9]' "$TMP/stats.txt"
perf script -i "$TMP/cs.data" >/dev/null 2>"$TMP/script.err"
check "perf script: no warning ($(head -c 200 "$TMP/script.err"))" test ! -s "$TMP/script.err"

prism offcpu -i "$TMP/cs.data" --user-only --limit 100 >"$TMP/off.txt" 2>"$TMP/off.err"
check "prism offcpu exits 0" test $? -eq 0
grep_q '^# method: context switches' "$TMP/off.txt"
grep_q '^# switch pairing: [1-9][0-9]* intervals' "$TMP/off.txt"

check_offcpu_share "$TMP/off.txt" "$TMP/wl.out" sleeper_loop reader_loop writer_loop thread_fn

# the same stacks as the BPF method: main -> sleeper_loop -> clock_nanosleep
prism offcpu -i "$TMP/cs.data" --folded >"$TMP/folded" 2>/dev/null
grep_q '^offcpu-sleep;(.*;)?main;sleeper_loop;clock_nanosleep[^;]*(;[^;]*_\[k\])* [0-9]+$' "$TMP/folded"
grep_q '^offcpu-sleep;(.*;)?main;reader_loop;read(;[^;]*_\[k\])* [0-9]+$' "$TMP/folded"

# kernel stacks only when asked, as with the BPF method (their walk costs most)
check "no kernel frames by default ($(grep -c '_\[k\]' "$TMP/folded") stacks with some)" \
	test "$(grep -c '_\[k\]' "$TMP/folded")" -eq 0
prism record -q --off-cpu=sched --off-cpu-kernel-stack -o "$TMP/k.data" -- "$WL" 5 10 >/dev/null 2>&1
check "record --off-cpu=sched --off-cpu-kernel-stack exits 0" test $? -eq 0
prism offcpu -i "$TMP/k.data" --folded >"$TMP/k.folded" 2>/dev/null
grep_q '^offcpu-sleep;(.*;)?main;sleeper_loop;clock_nanosleep[^;]*(;[^;]*_\[k\])+ [0-9]+$' "$TMP/k.folded"

# --state needs task states, which switch records do not have
prism offcpu -i "$TMP/cs.data" --state D >/dev/null 2>"$TMP/state.err"
grep_q 'no task states' "$TMP/state.err"
# pipe mode: the events are announced in the stream, decided at the first sample
prism record -q --off-cpu=sched -o - -- sh -c "'$WL' 5 10 >/dev/null" 2>/dev/null |
	prism offcpu -i - --user-only --limit 100 >"$TMP/pipe.txt" 2>/dev/null
grep_q '^# method: context switches' "$TMP/pipe.txt"
grep_q ' sleeper_loop \[offcpu-sleep\]$' "$TMP/pipe.txt"
done_testing
