#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism util's report options on a fixture: filters, sorting, --top,
# --per-cpu, --no-calls, --time, --csv and --json carry the same numbers,
# usage errors exit 129, --help explains every flag.
. tests/e2e/lib.sh
require_fixtures
require_cmd python3
F=$FIXTURES/perf-6.1/p-sched.data
Q=$FIXTURES/perf-6.1/q-trace.data
cd "$TMP" || exit 1

prism util -i "$F" >all.txt
check "report exits 0" test $? -eq 0
n_all=$(grep -c '^[0-9]*:$' all.txt)
check "several processes ($n_all)" test "$n_all" -gt 3

prism util -i "$F" --top 2 >top.txt
check "--top 2 keeps two processes" test "$(grep -c '^[0-9]*:$' top.txt)" -eq 2
check "--top keeps the busiest first" test "$(grep -m1 '^[0-9]*:$' top.txt)" = "$(grep -m1 '^[0-9]*:$' all.txt)"

prism util -i "$F" --pid 15394 >pid.txt
check "--pid keeps one process" test "$(grep -c '^[0-9]*:$' pid.txt)" -eq 1
grep_q '^15394:$' pid.txt
prism util -i "$F" --tid 15394,15393 --sort tid >tid.txt
check "--tid keeps two tasks" test "$(grep -c '^[0-9]*:$' tid.txt)" -eq 2
check "--sort tid orders by pid" test "$(grep -m1 '^[0-9]*:$' tid.txt)" = "15393:"
prism util -i "$F" --comm xz --no-calls >comm.txt
grep_q '^   \[ 15394\] xz ' comm.txt
check "--comm keeps only xz" test "$(grep -c '^[0-9]*:$' comm.txt)" -eq 1
prism util -i "$F" --sort name >name.txt
check "--sort name exits 0" test $? -eq 0
prism util -i "$F" --cpu 1 --json >cpu1.json
check "--cpu 1: only CPU 1 rows" python3 -c "
import json, sys
d = json.load(open('cpu1.json'))
ok = [c['cpu'] for c in d['system']['cpus']] == [1]
for p in d['processes']:
    for t in p['tasks']:
        ok = ok and all(c['cpu'] == 1 for c in t['cpus'])
sys.exit(0 if ok else 1)"

prism util -i "$F" --per-cpu >percpu.txt
check "--per-cpu: no process sections" test "$(grep -c '^[0-9]*:$' percpu.txt)" -eq 0
grep_q '^ALL:$' percpu.txt
grep_q '^   \[   ALL\] +1 ' percpu.txt

prism util -i "$Q" --no-calls >nocalls.txt
check "--no-calls: no call tables" test "$(grep -c '( ID)name' nocalls.txt)" -eq 0

# --time: a window is a shorter trace
prism util -i "$F" --time 608.25,608.26 --json >win.json
check "--time window is 10 ms or less" python3 -c "
import json, sys
d = json.load(open('win.json'))
sys.exit(0 if 0 < d['length'] <= 10.0 and d['start'] >= 608.25 else 1)"

# CSV and JSON carry the same numbers as the text
prism util -i "$Q" --csv >q.csv
prism util -i "$Q" --json >q.json
grep_q '^row,task,15488,15488,-1,ls,ALL,0\.817269,0\.274165,' q.csv
grep_q '^call,task,15488,15488,-1,syscall,9,mmap,17,0\.091465,' q.csv
check "JSON parses and agrees with the CSV" python3 -c "
import json, sys
d = json.load(open('q.json'))
t = d['processes'][0]['tasks'][0]
mm = [c for c in t['calls']['syscall'] if c['name'] == 'mmap'][0]
sys.exit(0 if (t['tid'], round(t['all']['user'], 6), mm['count'], round(mm['elapsed'], 6)) == (15488, 0.817269, 17, 0.091465) else 1)"

# usage errors
expect_exit 129 prism util -i "$F" --sort bogus 2>err1.txt
grep_q "unknown --sort key 'bogus'" err1.txt
expect_exit 129 prism util -i "$F" --csv --json 2>/dev/null
expect_exit 129 prism util -i "$F" --duration 3 2>/dev/null
expect_exit 129 prism util -i "$F" -a 2>/dev/null
expect_exit 129 prism util -i "$F" extra 2>/dev/null
expect_exit 129 prism util -i "$F" --pid 1,x 2>err2.txt
grep_q "invalid pid list '1,x'" err2.txt
expect_exit 129 prism util -i "$F" --time 5 2>err3.txt
grep_q "invalid --time '5'" err3.txt
expect_exit 129 prism util -i "$F" --arch vax 2>/dev/null
# --arch names the syscalls of a file recorded elsewhere (x86_64's 9, mmap, is arm64's lgetxattr)
G=$FIXTURES/perf-6.1/g-syscalls-group.data
prism util -i "$G" --arch arm64 >arm.txt 2>&1
grep_q 'arch arm64\)$' arm.txt
grep_q '^     \(  9\)lgetxattr ' arm.txt
expect_exit 1 prism util -i "$TMP/none.data" 2>err4.txt
grep_q "cannot open '.*none.data'" err4.txt

prism util --help >help.txt
for o in --input --sort --pid --tid --comm --cpu --time --top --per-cpu --no-calls --csv --json \
	--arch --all-cpus --cpu-list --record-pid --duration --keep; do
	grep_q "$o" help.txt
done
# an unprivileged user: the error says which tracefs problem it is
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ -d /sys/kernel/tracing/events ]; then
	pub=$(mktemp -d /tmp/prism-pub.XXXXXX)
	chmod 755 "$pub"
	cp "$PRISM_BIN" "$pub/prism"
	chmod 755 "$pub/prism"
	as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
	if ! as_nobody "$pub/prism" version >/dev/null 2>&1; then
		echo "note: user nobody cannot run $pub/prism: unprivileged checks left out" >&3
	elif as_nobody test -r /sys/kernel/tracing/events; then
		echo "note: tracefs is readable by nobody here: the permission message is not reached" >&3
	else
		as_nobody "$pub/prism" util -a --duration 0.1 >np.out 2>np.err
		check "unprivileged util exits 1" test $? -eq 1
		grep_q 'tracefs is mounted but this user may not read it' np.err
		grep_q 'hint: run as root' np.err
		check "... and does not tell to mount what is mounted" eval "! grep -q 'mount -t tracefs' np.err"
	fi
	rm -rf "$pub"
fi
done_testing
