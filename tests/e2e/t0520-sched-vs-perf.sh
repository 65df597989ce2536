#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism sched timehist/latency/map against perf sched on the same files,
# whole outputs: perf's own outputs stored with the p-sched fixture, perf
# run here on the fixtures for every option, and the fixtures' pipe streams
# (which perf cannot analyze) read by prism against perf on the files.
# Live recordings: t0521.
. tests/e2e/lib.sh
. tests/e2e/sched-lib.sh
require_fixtures
F=$FIXTURES/perf-6.1
cd "$TMP" || exit 1

# stored outputs (perf sched -i p-sched.data SUB > OUT 2>&1)
prism sched -i "$F/p-sched.data" latency >lat.out 2>lat.err
check "latency exits 0" test $? -eq 0
test_cmp "$F/p-sched.sched-latency.txt" lat.out
# perf also said it found no kallsyms for the recording kernel: not prism's to say
grep -v '^No kallsyms or vmlinux' "$F/p-sched.sched-timehist.txt" >th.want
prism sched -i "$F/p-sched.data" timehist >th.out 2>&1
test_cmp th.want th.out
# map draws one column per CPU of the reading machine (perf's sysconf)
if [ "$(getconf _NPROCESSORS_CONF)" = 2 ]; then
	prism sched -i "$F/p-sched.data" map >map.out 2>map.err
	test_cmp "$F/p-sched.sched-map.txt" map.out
else
	echo "ok: # the stored map has 2 CPU columns; this machine has $(getconf _NPROCESSORS_CONF)" >&3
fi

require_perf
require_cmd python3
all_options "$F/p-sched.data" 15393 15394 608.25,608.26
# shellcheck disable=SC2046
all_options "$F/f-sched-tp.data" $(pick "$F/f-sched-tp.data")

# pipe input, which perf 6.1 cannot analyze: the pipe stream of a file
# read by prism gives perf's output on the file (but for what depends on
# the CPUs online, which a pipe's reader learns only later: -V, -s/-S)
for f in p-sched f-sched-tp; do
	python3 "$PRISM_SRC/tests/tools/perfdata-pipe.py" "$F/$f.data" "$f.pipe"
	for o in timehist "timehist -w -M -n --state" "timehist -p 1" latency "latency -p" \
		map "map --compact"; do
		# shellcheck disable=SC2086
		perf sched -i "$F/$f.data" $o >pipe.perf 2>/dev/null
		# shellcheck disable=SC2086
		prism sched $o <"$f.pipe" -i - >pipe.prism 2>pipe.err
		check "prism sched $o on $f's pipe stream exits 0" test $? -eq 0
		test_cmp pipe.perf pipe.prism
	done
done

# a file without scheduler events: latency and map print their empty tables
vs_perf "$F/a-fp.data" latency
vs_perf "$F/a-fp.data" map
expect_exit 1 prism sched -i "$F/a-fp.data" timehist >/dev/null 2>&1

# usage errors as perf's
expect_exit 129 prism sched -i "$F/p-sched.data" timehist -s -w >/dev/null 2>&1
expect_exit 129 prism sched -i "$F/p-sched.data" nosuch >/dev/null 2>&1

done_testing
