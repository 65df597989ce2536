#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A workload touching N pages: prism stat's page-faults within 1% of perf
# stat's (both count from the workload's exec), and at least N.
. tests/e2e/lib.sh
require_perf
W=$PRISM_OUT/tests/workloads/touch-pages
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1
N=20000

prism stat -x, -e page-faults -- "$W" $N 2>prism.csv
check "prism stat succeeded" test $? -eq 0
perf stat -x, -e page-faults -- "$W" $N 2>perf.csv
a=$(awk -F, '$3 == "page-faults" { print $1 }' prism.csv)
b=$(awk -F, '$3 == "page-faults" { print $1 }' perf.csv)
check "prism counts at least $N page faults (got $a)" test "${a:-0}" -ge $N
check "within 1% of perf's $b (prism $a)" \
	awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= b) }'
done_testing
