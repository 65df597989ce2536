#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism util -- command against the kernel's own accounting (issue 22),
# on the same runs:
# - 8 runs of a multi-process workload (two compilers and a pipe chain, on
#   both CPUs) under perf stat -e task-clock: the workload's rows (every
#   image but perf's and prism's pre-exec ones) sum to its task-clock within
#   max(3 ms, 1.5%); the accounting check line gives the workload's rusage;
# - a workload pinned to one CPU beside a pinned CPU hog: its user + sys
#   (all images) within max(3 ms, 1.5%) of its rusage (wait4), and the hog,
#   not recorded, is not shown;
# - Ctrl-C during prism util -- sleep 30: the sleep is shown ~0% busy, and
#   the trace lasts until the Ctrl-C.
. tests/e2e/lib.sh
require_root
require_perf
require_tracefs
require_cmd cc
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || skip "python3 is missing"
[ "$(nproc)" -ge 2 ] || skip "the workloads need two CPUs"
K="$PY $PRISM_SRC/tests/tools/util-kernel.py"
cd "$TMP" || exit 1

# within max(3 ms, 1.5%) of B: within A B
within() {
	awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; t = b * 0.015;
		if (t < 3) t = 3; exit !(d <= t) }'
}

for f in 1 2; do
	"$PY" -c "
for i in range(120):
    print(f'int f{i}(int x) {{ int s = 0; for (int i = 0; i < x; i++) s += i * {i} ^ (s >> 3); return s + (x > 1 ? f{i - 1 if i else 0}(x - 1) : 0); }}')
" >big$f.c
done
work='cc -O2 -c big1.c -o /dev/null & cc -O2 -c big2.c -o /dev/null & seq 1 200000 | sort -n | md5sum >/dev/null; wait'
for i in 1 2 3 4 5 6 7 8; do
	prism util --csv --no-calls -- perf stat -x, -e task-clock -o tc.txt -- sh -c "$work" \
		>w.csv 2>w.err
	check "run $i: prism util -- perf stat ... exits 0" test $? -eq 0
	tc=$(awk -F, '$3 == "task-clock" { print $1 }' tc.txt)
	# task-clock counts by the wall clock: steal time too
	got=$($K sum w.csv --comm-not perf,prism --with-steal)
	echo "note: run $i: task-clock $tc ms, prism $got ms" >&3
	check "run $i: the workload's rows ($got ms) match its task-clock ($tc ms)" \
		within "$got" "${tc:-0}"
	line=$(grep '^check,' w.csv)
	wl=$(echo "$line" | awk -F, '{ for (i = 1; i < NF; i++) if ($i == "workload_ms") print $(i + 1) }')
	ru=$(echo "$line" | awk -F, '{ for (i = 1; i < NF; i++) if ($i == "workload_rusage_ms") print $(i + 1) }')
	echo "note: run $i: accounting check: workload $wl ms, rusage $ru ms" >&3
	check "run $i: the accounting check names the workload's rusage" test -n "$ru"
done

# a pinned hog beside a pinned workload: it runs a third of the time
taskset -c 1 sh -c 'while :; do :; done' &
hog=$!
taskset -c 1 "$PRISM_BIN" util --csv --no-calls -- \
	$K rusage ru.txt "$PY" -c 'x = 0
for i in range(1000000): x += i' >c.csv 2>c.err
rc=$?
kill $hog
check "pinned: prism util exits 0" test $rc -eq 0
read -r pid ru <ru.txt
got=$($K sum c.csv --pid "$pid")
echo "note: pinned: rusage $ru ms, prism $got ms" >&3
check "pinned: the workload's rows ($got ms) match its rusage ($ru ms)" within "$got" "$ru"
check "pinned: the hog (not recorded) is not shown" test "$(grep -c "^row,task,$hog," c.csv)" -eq 0

# Ctrl-C during util -- sleep 30
"$PRISM_BIN" util --csv --no-calls -- sleep 30 >s.csv 2>s.err &
p=$!
sleep 1.5
kill -INT $p
wait $p
check "Ctrl-C: prism util exits 0" test $? -eq 0
busy=$(awk -F, '$1 == "row" && $2 == "task" && $5 == -1 && $6 == "sleep" && $7 == "ALL" { print $17 }' s.csv)
len=$(awk -F, '$1 == "trace" { print $3 }' s.csv)
echo "note: Ctrl-C: sleep ${busy:-?}% busy, trace ${len:-?} ms" >&3
check "Ctrl-C: the sleep is shown ~0% busy (${busy:-none}%)" \
	awk -v b="${busy:-100}" 'BEGIN { exit !(b < 2) }'
check "Ctrl-C: the trace lasts until the Ctrl-C (${len:-?} ms)" \
	awk -v l="${len:-0}" 'BEGIN { exit !(l > 1000) }'
done_testing
