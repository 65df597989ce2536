#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Stopping and failing cleanly: SIGINT mid-recording leaves a file perf
# reads; a full file system (small tmpfs) gives a clear error, a non-zero
# exit and a readable file; a 1-page buffer under load produces LOST
# records that prism reports; --duration stops on time.
. tests/e2e/lib.sh
require_root
require_perf
require_tracefs
W=$PRISM_OUT/tests/workloads/getppid-loop
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"
cd "$TMP" || exit 1

# SIGINT
"$PRISM_BIN" record -o int.data -e raw_syscalls:sys_enter -a 2>int.err &
rec=$!
for i in $(seq 50); do [ -s int.data ] && break; sleep 0.1; done
sleep 0.5
kill -INT $rec
wait $rec
check "SIGINT: exit 0" test $? -eq 0
perf report --stats -i int.data >int.perf 2>int.perr
check "SIGINT: perf reads the file without warnings" test ! -s int.perr
grep_q 'SAMPLE events' int.perf

# --duration
start=$(date +%s%N)
prism record -q -o dur.data -e sched:sched_switch -a --duration 0.5
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "--duration 0.5: exit 0" test $rc -eq 0
check "--duration 0.5 took ${ms} ms (< 2000)" test $ms -lt 2000
perf report --stats -i dur.data >/dev/null 2>dur.perr
check "--duration: perf reads the file" test ! -s dur.perr

# ENOSPC on a 2 MiB tmpfs
mkdir -p small
if mount -t tmpfs -o size=2m tmpfs small; then
	prism record -o small/full.data -e raw_syscalls:sys_enter,raw_syscalls:sys_exit -- "$W" 500000 2>full.err
	rc=$?
	check "ENOSPC: non-zero exit (got $rc)" test $rc -ne 0
	grep_q 'No space left on device' full.err
	grep_q 'readable' full.err
	perf report --stats -i small/full.data >full.perf 2>full.perr
	check "ENOSPC: perf reads the file (exit)" test $? -eq 0
	grep_q 'SAMPLE events' full.perf
	prism stats -i small/full.data >full.prism 2>full.prerr
	check "ENOSPC: prism reads the file" test $? -eq 0
	# the summary counts what the file holds, not what was captured
	kept=$(sed -n 's/.*wrote .* (\([0-9]*\) samples) before the write error.*/\1/p' full.err)
	held=$(sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' full.prism | head -n 1)
	check "ENOSPC: the summary's samples are the file's (${kept:-none} = ${held:-none})" \
		test -n "$kept" -a "$kept" = "$held"
	umount small
else
	echo "# cannot mount a tmpfs: ENOSPC part skipped"
fi

# 1-page buffer under load: LOST records, counted by prism stats
prism record -o lost.data -m 1 -e raw_syscalls:sys_enter,raw_syscalls:sys_exit -- "$W" 300000 2>lost.err
check "1-page buffer: record succeeded" test $? -eq 0
grep_q 'lost [1-9][0-9]* events' lost.err
prism stats -i lost.data >lost.prism 2>/dev/null
grep_q 'LOST events: +[1-9]' lost.prism
grep_q 'lost events +: [1-9]' lost.prism
perf report --stats -i lost.data >lost.perf 2>/dev/null
p=$(grep -E '^ +LOST events' lost.perf | awk '{print $3}')
q=$(grep -E '^ +LOST events' lost.prism | awk '{print $3}')
check "perf and prism count the same LOST records ($p, $q)" test -n "$p" -a "$p" = "$q"
# a thread or process that does not exist: an error, and a good perf.data
# is left as it was (no .old)
mkdir gone && echo keep >gone/perf.data
for t in "-t 999999" "-p 999999"; do
	# shellcheck disable=SC2086 # the words are the arguments
	(cd gone && expect_exit 1 "$PRISM_BIN" record $t --duration 0.2 2>err)
	grep_q "^error: no (thread|process) 999999" gone/err
done
check "perf.data untouched" test "$(cat gone/perf.data)" = keep
check "no perf.data.old" test ! -e gone/perf.data.old
(cd gone && expect_exit 1 "$PRISM_BIN" trace -t 999999 --stop-after 0.2 2>err)
grep_q "^error: no thread 999999" gone/err
# -p/-t end when their targets have exited (they never ended, spinning)
for cmd in "record -o p.data -p" "record -o t.data -t" "trace -p" "util -p"; do
	sleep 1 &
	# shellcheck disable=SC2086 # the words are the arguments
	timeout 30 "$PRISM_BIN" $cmd $! >/dev/null 2>&1
	rc=$?
	wait
	check "prism $cmd ends when its target exits (exit $rc)" test $rc -ne 124
done
# the workload's exit status is record's, as perf's (128 + N for a signal)
for w in 'exit 3' 'kill -TERM $$' 'exit 0'; do
	perf record -q -o pe.data -- sh -c "$w" >/dev/null 2>&1
	want=$?
	"$PRISM_BIN" record -q -o xe.data -- sh -c "$w" >/dev/null 2>&1
	got=$?
	check "record -- sh -c '$w' exits $got, as perf ($want)" test "$got" -eq "$want"
	check "the file is good" perf script -i xe.data >/dev/null 2>&1
done
done_testing
