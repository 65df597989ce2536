#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A command is counted from its exec with every child and thread it
# creates (util-mix: 2 threads x 2000, a fork child 1000 then 500 after its
# exec = 5500 getppid calls), as perf stat counts it; --no-inherit counts
# the command's own thread only, as perf stat --no-inherit.
. tests/e2e/lib.sh
require_perf
require_tracefs
W=$PRISM_OUT/tests/workloads/util-mix
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1
EV=syscalls:sys_enter_getppid

count() {
	awk -F, -v ev=$EV '$3 == ev { print $1 }' "$1"
}
prism stat -x, -e $EV -- "$W" 2>inh.csv
perf stat -x, -e $EV -- "$W" 2>inh-perf.csv
a=$(count inh.csv)
b=$(count inh-perf.csv)
check "children and threads counted: 5500 (got $a)" test "$a" = 5500
check "perf stat counts the same ($b)" test "$b" = "$a"

prism stat --no-inherit -x, -e $EV -- "$W" 2>no.csv
perf stat --no-inherit -x, -e $EV -- "$W" 2>no-perf.csv
a=$(count no.csv)
b=$(count no-perf.csv)
check "--no-inherit: the command's own thread only (got $a, perf $b)" test "$a" = "$b"
check "--no-inherit counts fewer than 5500 ($a)" test "$a" -lt 5500
done_testing
