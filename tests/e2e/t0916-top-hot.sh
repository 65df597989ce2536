#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism top's hot view: a process spinning in a known noinline function
# (tests/workloads/hot-spin, frame pointers) is the top row of --hot with
# most of its samples in batch mode; -g shows its caller; -F usage errors.
# perf record -p on the same process is the oracle for the share.  (The h
# key on a terminal: t0911.)
. tests/e2e/lib.sh
require_tracefs
require_cmd chrt
WL=$PRISM_OUT/tests/workloads/hot-spin
[ -x "$WL" ] || skip "the hot-spin workload is not built ($WL)"
cd "$TMP" || exit 1

expect_exit 129 prism top -b --hot -F 0
expect_exit 129 prism top -b --hot -F 1000000

# SCHED_FIFO: the spinner keeps its CPU on a shared machine
chrt -f 1 "$WL" 0 &
spin=$!
trap 'kill $spin 2>/dev/null; rm -rf "$TMP"' EXIT

# hot_share FILE: "SYMBOL SHARE" of the first row of the last interval, the
# share of the samples the filter kept
hot_share() {
	awk '/^prism top - interval/ { first = 1 }
	     /^hot functions:/ { total = $3; filt = substr($9, 2) }
	     first && /^ +[0-9.]+%  / { first = 0; pct = $1 + 0; sym = $NF }
	     END { kept = total - filt; if (kept > 0) printf "%s %.1f\n", sym, pct * total / kept }' "$1"
}

prism top -b --hot -g -n 3 -d 1 -F 499 --filter $spin --rows 6 >hot.out 2>hot.err
check "prism top -b --hot exits 0" test $? -eq 0
check "3 intervals printed" test "$(grep -c '^prism top - interval' hot.out)" -eq 3
grep_q "hot view, sort overhead, filter '$spin'" hot.out
grep_q "cpu-clock samples at 499 Hz" hot.out
grep_q " Overhead  Shared Object" hot.out
read -r sym share < <(hot_share hot.out)
check "hot_spin is the top row ($sym)" test "$sym" = hot_spin
check "hot_spin has most of the process's samples ($share%)" \
	awk -v s="${share:-0}" 'BEGIN { exit !(s >= 80) }'
# the oracle: perf's profile of the same process over the same kind of samples
if command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1; then
	perf record -q -F 499 -e cpu-clock -p $spin -o perf.data -- sleep 2 >/dev/null 2>&1
	pshare=$(perf report -i perf.data --stdio --sort dso,sym 2>/dev/null |
		awk '$NF == "hot_spin" { print $1 + 0; exit }')
	check "perf gives hot_spin ${pshare:-nothing}%, prism $share%: within 10 points" \
		awk -v a="${share:-0}" -v b="${pshare:-0}" 'BEGIN { d = a - b; exit !(b > 0 && d <= 10 && d >= -10) }'
fi
check "its shared object is the workload" grep -Eq '%  hot-spin +\[\.\] hot_spin$' hot.out
# hot_spin is a leaf without a frame of its own: the walk goes on from
# main's frame, in libc (perf shows the same chain)
check "-g: the caller line of hot_spin" \
	grep -Eq '^ +\|-- +[0-9.]+% .*__libc_start' hot.out

kill $spin
done_testing
