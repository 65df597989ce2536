#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism top's hot view: a process spinning in a known noinline function
# (tests/workloads/hot-spin, frame pointers) is the top row of --hot with
# most of its samples, in batch mode and on a terminal (tmux); -g shows its
# caller; the h key switches between the util and hot views and back; the
# terminal is restored after q; -F usage errors.
. tests/e2e/lib.sh
require_tracefs
require_cmd tmux
require_cmd chrt
WL=$PRISM_OUT/tests/workloads/hot-spin
[ -x "$WL" ] || skip "the hot-spin workload is not built ($WL)"
cd "$TMP" || exit 1

expect_exit 129 prism top -b --hot -F 0
expect_exit 129 prism top -b --hot -F 1000000

# SCHED_FIFO: the spinner keeps its CPU on a shared machine
chrt -f 1 "$WL" 0 &
spin=$!
SOCK="prism-t0916-$$"
tm() { tmux -L "$SOCK" "$@"; }
trap 'kill $spin 2>/dev/null; tmux -L "$SOCK" kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

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
check "its shared object is the workload" grep -Eq '%  hot-spin +\[\.\] hot_spin$' hot.out
# hot_spin is a leaf without a frame of its own: the walk goes on from
# main's frame, in libc (perf shows the same chain)
check "-g: the caller line of hot_spin" \
	grep -Eq '^ +\|-- +[0-9.]+% .*__libc_start' hot.out

# on a terminal: h switches views, the filter key works in the hot view
screen() { tm capture-pane -t top -p; }
wait_for() {
	local i
	for i in $(seq 1 150); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	screen | head -n 30 >&3
	return 1
}
tm new-session -d -s top -x 150 -y 40 \
	"$PRISM_BIN top -d 0.5; echo EXIT=\$?; stty -a >$TMP/stty.after; sleep 60"
check "the util view first" wait_for 'task view, sort util'
check "the key line names h" wait_for 'h hot view'
tm send-keys -t top h
check "h switches to the hot view" wait_for 'hot view, sort overhead'
check "the hot rows are shown" wait_for '^ Overhead  Shared Object'
tm send-keys -t top f
check "f asks for a filter in the hot view" wait_for '^filter \(pid'
tm send-keys -t top "$spin" Enter
check "the filter is applied" wait_for "filter '$spin'"
check "hot_spin becomes the top row" wait_for '^ +[0-9.]+%  hot-spin +\[\.\] hot_spin'
tm send-keys -t top h
check "h switches back to the util view" wait_for "task view, sort util, filter '$spin'"
check "the key line offers the hot view again" wait_for 'h hot view'
tm send-keys -t top q
check "q quits with status 0" wait_for '^EXIT=0'
for i in $(seq 1 50); do [ -s "$TMP/stty.after" ] && break; sleep 0.1; done
check "the terminal's mode is restored" \
	grep -Eq '(^| )icanon( |$)' "$TMP/stty.after"
check "off the alternate screen" test "$(tm display -p -t top '#{alternate_on}')" = 0
kill $spin
done_testing
