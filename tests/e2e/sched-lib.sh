# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Helpers of the prism sched tests (t052x), after tests/e2e/lib.sh.

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
	for o in "" --compact "--cpus 1" "--compact --cpus 0" "--color-pids 999999" "--color-cpus 1"; do
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

