#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism top -b: a process spinning on one CPU shows the share the kernel
# accounted to it (± 10 points; SCHED_FIFO: the machine is shared), a
# sleeping one near 0; every interval has its per-CPU
# lines, the anomalies line and the syscall table; -n stops it; --filter
# keeps one process; usage errors and the terminal requirement.
. tests/e2e/lib.sh
require_tracefs
require_cmd chrt
cd "$TMP" || exit 1

expect_exit 129 prism top --sort nosuch
expect_exit 129 prism top -b -n -1
expect_exit 129 prism top extra-word
prism top </dev/null >notty.out 2>notty.err
check "without a terminal and -b: exit 1" test $? -eq 1
grep_q "needs a terminal" notty.err
grep_q "use -b" notty.err

# SCHED_FIFO: the spinner keeps its CPU when other work shares the machine
# (the kernel's RT throttling leaves others 5%: it runs 95% of the time)
chrt -f 1 sh -c 'while :; do :; done' &
spin=$!
sh -c 'while :; do sleep 0.2; done' &
sleeper=$!
trap 'kill $spin $sleeper 2>/dev/null; rm -rf "$TMP"' EXIT

run_top() {
	prism top -b -n 4 -d 1 --processes >top.out 2>top.err
	echo $? >top.rc
}
k=$(cpu_share $spin run_top)
check "prism top -b -n 4 exits 0" test "$(cat top.rc)" = 0
[ -r /proc/self/schedstat ] || k=100
check "4 intervals printed" test "$(grep -c '^prism top - interval' top.out)" -eq 4
check "a line per CPU and their sum in each interval" \
	test "$(grep -c '^all ' top.out)" -eq 4
check "the anomalies line in each interval" test "$(grep -c '^anomalies: lost' top.out)" -eq 4
grep_q "SYSCALL" top.out

# the busiest interval of each process after the first (which holds the start)
util_of() { # PID FILE: the highest UTIL% of the PID's row over intervals 2..
	awk -v pid="$1" '/^prism top - interval/ { n++ } n > 1 && $1 == pid { if ($4 > m) m = $4 } END { print m + 0 }' "$2"
}
# against the kernel's share over the run (near 95% when the VM is quiet,
# less when the host steals or interrupts pile up on that CPU)
u=$(awk -v pid=$spin '/^prism top - interval/ { n++ } n > 1 && $1 == pid { s += $4; c++ } END { if (c) printf "%.1f", s / c }' top.out)
check "the spinner's mean UTIL% ($u) within 10 points of the kernel's share ($k%)" \
	awk -v u="${u:-0}" -v k="${k:-0}" 'BEGIN { exit !(u != "" && u >= k - 10 && u <= k + 10 && u <= 101) }'
# the columns add up: USR + SYS + IRQ + SIRQ + HV + BUSY = UTIL (rounding)
bad=$(awk '$1 ~ /^[0-9]+$/ && NF == 12 { d = $5 + $6 + $7 + $8 + $9 + $10 - $4; if (d > 0.4 || d < -0.4) n++ } END { print n + 0 }' top.out)
check "every row's USR..BUSY% add up to its UTIL% ($bad rows do not)" test "$bad" -eq 0
u=$(util_of $sleeper top.out)
check "the sleeper shows near 0% ($u)" awk -v u="$u" 'BEGIN { exit !(u < 5) }'

prism top -b -n 2 -d 0.5 --filter $spin --sort sys >f.out 2>f.err
check "--filter: exit 0" test $? -eq 0
rows=$(awk '$1 ~ /^[0-9]+$/ && NF >= 12 { print $1 }' f.out | sort -u)
check "--filter PID keeps that process only ($rows)" test "$rows" = "$spin"
grep_q "sort sys, filter '$spin'" f.out
kill $spin $sleeper
done_testing
