#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism sched timehist/latency/map against perf sched on the same files,
# whole outputs: perf's own outputs stored with the p-sched fixture, perf
# run here on the fixtures for every option, and (as root with tracefs) a
# fresh perf sched record and a prism sched record, each read by both.
. tests/e2e/lib.sh
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

# vs_perf FILE SUBCOMMAND [OPTIONS...]: stdout equal to perf sched's, and the exit status
vs_perf() {
	local f=$1 n
	shift
	n=$((${n_cmp:-0} + 1))
	n_cmp=$n
	perf sched -i "$f" "$@" >"perf.$n" 2>"perf.$n.err"
	local want=$?
	prism sched -i "$f" "$@" >"prism.$n" 2>"prism.$n.err"
	local got=$?
	if [ "$want" -ne "$got" ]; then
		fail "exit $got, perf $want: sched $* ($(basename "$f"))"
		return
	fi
	if diff -u "perf.$n" "prism.$n" >"diff.$n"; then
		echo "ok: sched $* on $(basename "$f") ($(wc -l <"perf.$n") lines)" >&3
	else
		head -n 40 "diff.$n" >&3
		fail "sched $* on $(basename "$f") differs from perf"
	fi
}

# every option on FILE; PID TID: a process and thread of it; T0,T1: a window
all_options() {
	local f=$1 pid=$2 tid=$3 win=$4 o
	for o in "" -s -S -w -M -V -n --state "-p $pid" "-t $tid" "-C 0" "-C 1 -S" \
		"--time $win" "--time $win -S" "--time ${win%,*}, -S -w" "--time ,${win#*,} -S -M" \
		-I "-I -S" "-w -n -V -M -S --state" "-p $pid -S -w" --no-call-graph "--max-stack 3"; do
		# shellcheck disable=SC2086
		vs_perf "$f" timehist $o
	done
	for o in "" -p "-s max" "-s runtime,switch" "-s switch,avg" "-C 0" "-C 1 -p" "-s bogus"; do
		# shellcheck disable=SC2086
		vs_perf "$f" latency $o
	done
	for o in "" --compact "--cpus 1" "--compact --cpus 0" "--color-pids 999999"; do
		# shellcheck disable=SC2086
		vs_perf "$f" map $o
	done
}

# a task of FILE's timehist (its pid and tid: "comm[tid/pid]" preferred, else
# "comm[tid]") and a window in the first half of its time span
pick() {
	perf sched -i "$1" timehist 2>/dev/null | awk '
		NR > 3 && $3 ~ /\[[0-9]+\/[0-9]+\]$/ && !t { t = $3 }
		NR > 3 && $3 ~ /\[[0-9]+\]$/ && !u { u = $3 }
		NR == 4 { a = $1 } NR > 3 { b = $1 }
		END {
			if (!t) t = u
			sub(/.*\[/, "", t); sub(/\]/, "", t)
			n = split(t, x, "/"); if (n == 1) x[2] = x[1]
			m = (a + b) / 2
			printf "%s %s %.6f,%.6f\n", x[2], x[1], a + (m - a) / 2, m
		}'
}

require_perf
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

# usage errors as perf's
expect_exit 129 prism sched -i "$F/p-sched.data" timehist -s -w >/dev/null 2>&1
expect_exit 129 prism sched -i "$F/p-sched.data" nosuch >/dev/null 2>&1

# live: perf's recording and prism's, each read by both
if [ "$(id -u)" -ne 0 ] || { [ ! -d /sys/kernel/tracing/events ] &&
	! mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; }; then
	echo "ok: # skip live recordings: needs root and tracefs" >&3
	done_testing
fi
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
done_testing
