#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism sched on fresh system-wide recordings, against perf sched on the
# same files (whole outputs, every option): one made by perf sched record,
# one by prism sched record (which must record perf's event set), and one
# with call chains (perf sched record -g).
. tests/e2e/lib.sh
. tests/e2e/sched-lib.sh
require_perf
require_tracefs
require_cmd python3
perf bench sched messaging -g 1 -l 1 >/dev/null 2>&1 || skip "perf bench sched messaging does not run here"
cd "$TMP" || exit 1

# live: perf's recording and prism's, each read by both
export HOME=$TMP # no build-id cache writes into the real ~/.debug
WL="perf bench sched messaging -g 2 -l 10"
# shellcheck disable=SC2086
perf sched record -N -o perf-live.data -- $WL >rec1.out 2>&1
check "perf sched record succeeded" test $? -eq 0
# shellcheck disable=SC2086
prism sched record -N -o prism-live.data -- $WL >rec2.out 2>&1
check "prism sched record succeeded" test $? -eq 0
perf evlist -i perf-live.data | grep -v '^dummy\|^#' >ev.perf
perf evlist -i prism-live.data | grep -v '^dummy\|^#' >ev.prism
test_cmp ev.perf ev.prism
for f in perf-live.data prism-live.data; do
	# shellcheck disable=SC2046
	all_options "$f" $(pick "$f")
done

# one-page buffers that lose events: timehist's "lost N events on cpu C"
# lines, latency's and map's INFO lines
perf record -N -a -m 1 -c 1 -o lossy.data \
	-e sched:sched_switch,sched:sched_waking,sched:sched_wakeup_new,sched:sched_stat_runtime \
	-- perf bench sched messaging -g 4 -l 30 >rec4.out 2>&1
check "perf record of a lossy trace succeeded" test $? -eq 0
if perf report --stats -i lossy.data 2>/dev/null | grep -q 'LOST events'; then
	for o in timehist "timehist -s" latency map; do
		# shellcheck disable=SC2086
		vs_perf lossy.data $o
	done
	# the map's (the last output) INFO line: the lost events were counted
	grep_q 'INFO: .* lost events' "prism.$n_cmp"
else
	echo "ok: # nothing was lost with one-page buffers this time" >&3
fi

# call chains (-g at record time): perf prints them by default; its user
# frames stay "[unknown]" (it reads no MMAP2 records), prism names them:
# those frames may differ, nothing else
# shellcheck disable=SC2086
perf sched record -g -N -o perf-g.data -- $WL >rec3.out 2>&1
check "perf sched record -g succeeded" test $? -eq 0
read -r pid tid _ < <(pick perf-g.data)
for o in "" -S "--max-stack 1" "--max-stack 9 -S" "-w -n --state -V -M" "-I -S" "-p $pid" \
	--no-call-graph; do
	# shellcheck disable=SC2086
	perf sched -i perf-g.data timehist $o >g.perf 2>/dev/null
	# shellcheck disable=SC2086
	prism sched -i perf-g.data timehist $o >g.prism 2>/dev/null
	check "timehist -g $o: perf's output but for user frames" \
		python3 "$PRISM_SRC/tests/tools/sched-chains-cmp.py" g.perf g.prism
done
# garbage in the user part of a chain (a -1 return address read by a
# frame-pointer walk): perf drops such a sample's whole chain
n=$(python3 "$PRISM_SRC/tests/tools/perfdata-badchain.py" perf-g.data bad-g.data 3)
check "garbage put in $n chains" test "${n:-0}" -gt 0
for o in "" "--max-stack 1" "-I -S"; do
	# shellcheck disable=SC2086
	perf sched -i bad-g.data timehist $o >b.perf 2>/dev/null
	# shellcheck disable=SC2086
	prism sched -i bad-g.data timehist $o >b.prism 2>/dev/null
	check "timehist -g $o with corrupted chains: perf's output but for user frames" \
		python3 "$PRISM_SRC/tests/tools/sched-chains-cmp.py" b.perf b.prism
done
done_testing
