#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism util on a fresh system-wide recording (made by perf, the oracle) of
# a workload with forks, execs, threads and sleeps (util-mix): for every
# thread of the workload and every syscall, prism's count equals perf trace
# -s's and total/min/max agree to its printed precision (exec images summed);
# run times match perf sched timehist -s; per-CPU rows sum to the trace
# length; the known getppid() counts come out exactly, split at the exec.
. tests/e2e/lib.sh
require_root
require_perf
require_tracefs
require_cmd python3
[ "$(uname -m)" = x86_64 ] || skip "the workload's syscall numbers are checked on x86_64 only"
W=$PRISM_OUT/tests/workloads/util-mix
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
CMP="python3 $PRISM_SRC/tests/tools/util-compare.py"
cd "$TMP" || exit 1

ev=
for e in sched:sched_switch raw_syscalls:sys_enter raw_syscalls:sys_exit \
	irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry irq:softirq_exit \
	sched:sched_waking sched:sched_wakeup_new sched:sched_migrate_task \
	sched:sched_process_fork sched:sched_process_exec sched:sched_process_exit \
	sched:sched_process_free; do
	[ -d "/sys/kernel/tracing/events/${e%%:*}/${e#*:}" ] && ev="$ev${ev:+,}$e"
done
perf record -q -a -m 64M -e "{$ev}" -o live.data -- "$W" 2 >rec.out 2>rec.err
check "perf record of util-mix succeeded" test $? -eq 0
prism util -i live.data --json >live.json 2>live.err
check "prism util exits 0" test $? -eq 0
check "prism util: no warnings" test ! -s live.err
lost=$(python3 -c "import json; a=json.load(open('live.json'))['anomalies']; print(a['lost_events'] + a['lost_samples'])")
check "nothing lost with 64 MiB buffers (lost $lost)" test "$lost" -eq 0

# the workload's threads and processes (the exec'd images are named "exe")
tids=$(python3 -c "
import json
d = json.load(open('live.json'))
print(','.join(sorted({str(t['tid']) for p in d['processes'] for t in p['tasks']
                       if t['comm'] in ('util-mix', 'exe')})))")
check "found the workload's tasks ($tids)" test -n "$tids"

perf trace -s -i live.data 2>trace.txt >/dev/null
check "syscalls equal perf trace -s for every workload thread" \
	$CMP trace trace.txt live.json --tids "$tids"
perf sched timehist -s -i live.data >th.txt 2>/dev/null
check "run times match perf sched timehist -s" $CMP timehist th.txt live.json --tids "$tids"
check "CPU rows sum to the trace length" $CMP cpusum live.json

# exact counts: 2 x 2000 getppid in threads, 2000 + 1000 in the fork child
# (pre-exec image) and 1000 after its exec (loops = 2)
check "getppid counts are exact and split at the exec" python3 -c "
import json, sys
d = json.load(open('live.json'))
by = {}
for p in d['processes']:
    for t in p['tasks']:
        if t['comm'] not in ('util-mix', 'exe'):
            continue
        n = sum(c['count'] for c in t['calls']['syscall'] if c['name'] == 'getppid')
        if n:
            by.setdefault(t['tid'], {})[t['image']] = n
got = sorted(sorted(v.items()) for v in by.values())
want = sorted([[(-1, 4000)], [(-1, 4000)], [(-1, 1000), (0, 2000)]])
print(got)
sys.exit(0 if got == want else 1)"

# text report: the exec'd child shows its old image as tid-0
prism util -i live.data --comm util-mix,exe --no-calls >live.txt
grep_q '^   \[ *[0-9]+-0\] util-mix ' live.txt
grep_q '^   \[ *[0-9]+\] exe ' live.txt
done_testing
