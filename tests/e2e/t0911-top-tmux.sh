#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism top on a terminal (tmux): the screen shows a spinning process at
# the share the kernel accounted to it (± 10 points); the keys sort (s, U, l, u), switch the task/process
# view (t), filter by pid (f), pause (space) and quit (q); h switches to the
# hot functions, where a process spinning in a known function
# (tests/workloads/hot-spin) is the top row once filtered, and back; the
# terminal comes back in its own mode and off the alternate screen after q,
# after SIGTERM and after SIGHUP.
. tests/e2e/lib.sh
require_tracefs
require_cmd tmux
require_cmd chrt
WL=$PRISM_OUT/tests/workloads/hot-spin
[ -x "$WL" ] || skip "the hot-spin workload is not built ($WL)"
cd "$TMP" || exit 1

SOCK="prism-t0911-$$"
tm() { tmux -L "$SOCK" "$@"; }
chrt -f 1 sh -c 'while :; do :; done' &
spin=$!
trap 'kill $spin 2>/dev/null; tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

screen() { tm capture-pane -t top -p; }
# wait_for PATTERN: up to 15 s for the screen to show it
wait_for() {
	local i
	for i in $(seq 1 150); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	screen >"$TMP/screen.txt"
	head -n 30 "$TMP/screen.txt" >&3
	return 1
}
# start: prism top in a new tmux session; the shell prints its exit status
# and the terminal's mode afterwards
start() {
	tm kill-session -t top 2>/dev/null
	rm -f "$TMP/stty.after"
	tm new-session -d -s top -x 150 -y 50 \
		"$PRISM_BIN top -d 0.5 $*; echo EXIT=\$?; stty -a >$TMP/stty.after; sleep 60"
}
stty_ok() { # the shell's terminal is back in cooked mode with echo
	local i
	for i in $(seq 1 50); do
		[ -s "$TMP/stty.after" ] && break
		sleep 0.1
	done
	grep -Eq '(^| )icanon( |$)' "$TMP/stty.after" && grep -Eq '(^| )echo( |$)' "$TMP/stty.after"
}

start
check "the screen shows the intervals" wait_for '^prism top - interval [0-9]+'
check "the key line is shown" wait_for 'q quit'
check "the alternate screen is used" test "$(tm display -p -t top '#{alternate_on}')" = 1
tm send-keys -t top f
check "f asks for a filter" wait_for '^filter \(pid'
tm send-keys -t top "$spin" Enter
check "the filter is applied" wait_for "filter '$spin'"
check "the spinner is shown" wait_for "^ *$spin +$spin "
# the oracle: the share the kernel accounted to the spinner over the
# intervals the screen shows, from its schedstat read as the screen's
# interval number changes; four intervals (2 s), against the mean of their
# UTIL% (a window polled to ~30 ms at each end, and RT throttling's 50 ms
# gaps, move a single 0.5 s interval's share by more than the tolerance)
interval_no() { screen | sed -n 's/^prism top - interval \([0-9]*\):.*/\1/p'; }
next_interval() { # N: the screen shows an interval after N (up to 5 s)
	local i
	for i in $(seq 1 500); do
		[ "$(interval_no)" != "$1" ] && return 0
		sleep 0.01
	done
	return 1
}
spin_util() { screen | awk -v pid="$spin" '$1 == pid && $2 == pid { print $4; exit }'; }
k=100 u=
if [ -r "/proc/$spin/schedstat" ]; then
	next_interval "$(interval_no)"
	read -r a _ <"/proc/$spin/schedstat"
	t0=$(date +%s%N)
	sum=0
	for i in 1 2 3 4; do
		next_interval "$(interval_no)"
		[ "$i" = 4 ] && read -r b _ <"/proc/$spin/schedstat" && t1=$(date +%s%N)
		sum=$(awk -v s="$sum" -v u="$(spin_util)" 'BEGIN { print s + u }')
	done
	u=$(awk -v s="$sum" 'BEGIN { printf "%.1f\n", s / 4 }')
	k=$(awk -v a="$a" -v b="$b" -v t="$((t1 - t0))" 'BEGIN { printf "%.1f\n", (b - a) * 100 / t }')
else
	u=$(spin_util)
fi
check "the spinner's UTIL% ($u) within 10 points of the kernel's share ($k%)" \
	awk -v u="${u:-0}" -v k="${k:-0}" 'BEGIN { exit !(u >= k - 10 && u <= k + 10 && u <= 101) }'
tm send-keys -t top s
check "s sorts by sys" wait_for 'sort sys'
tm send-keys -t top U
check "U sorts by user" wait_for 'sort user'
tm send-keys -t top l
check "l sorts by latency" wait_for 'sort latency'
tm send-keys -t top u
check "u sorts by util" wait_for 'sort util'
tm send-keys -t top t
check "t switches to processes" wait_for 'process view'
check "the process view has a THREADS column" wait_for 'PID THREADS COMM'
tm send-keys -t top t
check "t switches back to tasks" wait_for 'task view'
tm send-keys -t top Space
check "space pauses" wait_for 'space resume'
n1=$(screen | sed -n 's/^prism top - interval \([0-9]*\):.*/\1/p')
sleep 1.5
n2=$(screen | sed -n 's/^prism top - interval \([0-9]*\):.*/\1/p')
check "paused: the interval stays $n1 ($n2)" test "$n1" = "$n2"
tm send-keys -t top Space
check "space resumes" wait_for 'space pause'
tm send-keys -t top q
check "q quits with status 0" wait_for '^EXIT=0'
check "q: the terminal's mode is restored" stty_ok
check "q: off the alternate screen" test "$(tm display -p -t top '#{alternate_on}')" = 0

# the hot view: the spinner is now one in a known function (one SCHED_FIFO
# spinner at a time: the others need the second CPU)
kill $spin
chrt -f 1 "$WL" 0 &
spin=$!
start
check "the util view first" wait_for 'task view, sort util'
check "the key line names h" wait_for 'h hot view'
tm send-keys -t top h
check "h switches to the hot view" wait_for 'hot view, sort overhead'
check "the hot rows are shown" wait_for '^ Overhead  Shared Object'
tm send-keys -t top f
check "f asks for a filter in the hot view" wait_for '^filter \(pid'
tm send-keys -t top "$spin" Enter
check "the filter is applied" wait_for "hot view, sort overhead, filter '$spin'"
check "hot_spin becomes the top row" wait_for '^ +[0-9.]+%  hot-spin +\[\.\] hot_spin'
tm send-keys -t top h
check "h switches back to the util view" wait_for "task view, sort util, filter '$spin'"
check "the key line offers the hot view again" wait_for 'h hot view'
tm send-keys -t top q
check "q from the hot view: status 0" wait_for '^EXIT=0'
check "hot view, q: the terminal's mode is restored" stty_ok
check "hot view, q: off the alternate screen" \
	test "$(tm display -p -t top '#{alternate_on}')" = 0

for sig in TERM HUP; do
	start
	check "started again for SIG$sig" wait_for '^prism top - interval'
	pid=$(pgrep -P "$(tm display -p -t top '#{pane_pid}')" prism)
	check "found prism's pid ($pid)" test -n "$pid"
	kill -s $sig "$pid"
	check "SIG$sig ends it" wait_for '^EXIT='
	check "SIG$sig: the terminal's mode is restored" stty_ok
	check "SIG$sig: off the alternate screen" \
		test "$(tm display -p -t top '#{alternate_on}')" = 0
done
kill $spin
done_testing
