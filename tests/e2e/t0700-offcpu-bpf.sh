#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live (root, kernel BTF, prism built with BPF): prism record --off-cpu of
# tests/workloads/offcpu-sleep, which blocks in nanosleep (sleeper_loop, and
# writer_loop in a forked child, thread_fn in a thread) and in a pipe read
# (reader_loop) and prints the wall-clock time it measured around each
# blocking call.  prism offcpu must attribute 95..101% of each of those to
# the right function (off-CPU time can only be a little lower than the
# wall-clock time around the call); perf 6.1 reads the file without a
# warning and reports the same split; folded output and the flame graph are
# well-formed; in-progress blocks are counted up to the end; a filter that
# matches nothing records nothing.
. tests/e2e/lib.sh
require_root
require_perf
WL=$PRISM_OUT/tests/workloads/offcpu-sleep
[ -x "$WL" ] || skip "workload $WL not built (make test-bins)"
[ -r /sys/kernel/btf/vmlinux ] || skip "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
prism version --build-options | grep -q 'bpf: \[ on' || skip "prism was built without BPF support"

# A block whose switch-in the kernel never traced ("unclosed", a few per
# run on this VM) is charged up to an estimate of its end, not lost: no retry.
prism record --off-cpu -o "$TMP/off.data" -- "$WL" 20 10 >"$TMP/wl.out" 2>"$TMP/rec.err"
rc=$?
check "record --off-cpu exits 0" test $rc -eq 0
grep_q 'off-CPU \(BPF\): [1-9][0-9]* offcpu-time samples' "$TMP/rec.err"
grep_q 'off-CPU: no stacks or blocks lost|off-CPU loss: ' "$TMP/rec.err"

# perf reads the file without a warning
perf report -i "$TMP/off.data" --stats >"$TMP/stats.txt" 2>"$TMP/stats.err"
check "perf report --stats exits 0" test $? -eq 0
check "perf report --stats: no warning ($(head -c 200 "$TMP/stats.err"))" test ! -s "$TMP/stats.err"
grep_q '^offcpu-time stats:' "$TMP/stats.txt"
perf script -i "$TMP/off.data" >"$TMP/script.txt" 2>"$TMP/script.err"
check "perf script exits 0" test $? -eq 0
check "perf script: no warning ($(head -c 200 "$TMP/script.err"))" test ! -s "$TMP/script.err"
grep_q 'offcpu-time:' "$TMP/script.txt"

prism offcpu -i "$TMP/off.data" --user-only --limit 100 >"$TMP/off.txt" 2>"$TMP/off.err"
check "prism offcpu exits 0" test $? -eq 0
grep_q '^# method: BPF' "$TMP/off.txt"
grep_q '^# losses: none|^# loss: ' "$TMP/off.txt"
# libc has no frame pointers: the callers of its leaves come back from the
# window at sp; only pthread_join's futex wait (a deeper frameless chain) may
# stay without its caller, and be warned about; so may the dynamic loader's
# (no frame pointers either), whose page-ins at the workload's start block
# in state D when a loaded machine has evicted the pages (seen in CI runs)
grep -v -e '^warning: libc.so.6 has no frame pointers: 1 of [0-9]* stacks lost their caller above __futex_abstimed_wait_common;' \
	-e '^warning: ld-linux[-a-z0-9_.]* has no frame pointers: ' "$TMP/off.err" >"$TMP/off.err2"
check "no other frame-pointer warning for a frame-pointer build ($(head -c 300 "$TMP/off.err2"))" \
	test ! -s "$TMP/off.err2"

# function total (ms) in prism offcpu's function table vs the workload's own ns
ms_of() { awk -v f="$2" '/^# Off-CPU time by function/ { t = 1; next } /^#/ && t && !/total ms/ { t = 0 }
	t && $(NF-1) == f { print $1; exit }' "$1"; }
ns_of() { awk -v f="$1" '$1 == "time" && $2 == f { print $3 }' "$TMP/wl.out"; }
ratio_ok() { # FILE FUNC MEASURED-NAME
	local ms ns
	ms=$(ms_of "$1" "$2")
	ns=$(ns_of "$3")
	echo "note: $2: prism ${ms:-none} ms, workload measured ${ns:-none} ns" >&3
	check "$2 holds 95..101% of the measured $3 time (${ms:-none} ms vs ${ns:-none} ns)" \
		awk -v m="${ms:-0}" -v n="${ns:-0}" 'BEGIN { r = m * 1e6 / (n ? n : 1); exit !(r >= 0.95 && r <= 1.01) }'
}
ratio_ok "$TMP/off.txt" sleeper_loop sleeper_loop
ratio_ok "$TMP/off.txt" reader_loop reader_loop
ratio_ok "$TMP/off.txt" writer_loop writer_loop   # the forked child, followed from fork
ratio_ok "$TMP/off.txt" thread_fn thread_fn       # a thread

# S/D split: every block of this workload is an interruptible sleep
s_line=$(grep '^# by state:' "$TMP/off.txt")
check "all S ($s_line)" awk -v l="$s_line" 'BEGIN { split(l, a, /[()%]/); exit !(a[2] + 0 >= 99) }'

# perf report shows the same split (children of sleeper_loop, in %)
perf report -i "$TMP/off.data" --stdio --children --sort sym -g none --percentage absolute \
	2>/dev/null >"$TMP/perf.txt"
pp=$(awk '$NF == "sleeper_loop" && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' "$TMP/perf.txt")
op=$(awk '/^# Off-CPU time by function/ { t = 1 } t && $(NF-1) == "sleeper_loop" { sub("%", "", $2); print $2; exit }' \
	"$TMP/off.txt")
check "perf's children share of sleeper_loop equals prism's (${pp:-none} vs ${op:-none})" \
	awk -v a="${pp:-x}" -v b="${op:-y}" 'BEGIN { d = a - b; exit !(a != "x" && (d < 0 ? -d : d) <= 0.02) }'

# prism report shows offcpu-time like any event
prism report -i "$TMP/off.data" --no-children --sort sym >"$TMP/report.txt" 2>/dev/null
grep_q "of event 'offcpu-time'" "$TMP/report.txt"

# folded: "comm;root;...;leaf NS", the sum of NS = the total
prism offcpu -i "$TMP/off.data" --folded >"$TMP/folded" 2>/dev/null
check "folded lines are 'comm;frames NS'" awk '!/^[^ ;]+(;[^;]+)+ [0-9]+$/ { exit 1 }' "$TMP/folded"
# the frameless libc leaf's callers are there (sleep_once, __nanosleep)
grep_q '^offcpu-sleep;(.*;)?main;sleeper_loop;sleep_once;__nanosleep;clock_nanosleep[^; ]* [0-9]+$' "$TMP/folded"
check "no kernel frames by default" test "$(grep -c '_\[k\]' "$TMP/folded")" = 0
sum=$(awk '{ s += $NF } END { printf "%.3f", s / 1e6 }' "$TMP/folded")
tot=$(awk '/^# total:/ { print $3; exit }' "$TMP/off.txt")
check "folded sum = total ($sum vs $tot ms)" test "$sum" = "$tot"

# --off-cpu-kernel-stack: the kernel part too (where in the kernel it waited)
prism record -q --off-cpu --off-cpu-kernel-stack -o "$TMP/k.data" -- "$WL" 5 10 >/dev/null 2>&1
prism offcpu -i "$TMP/k.data" --folded >"$TMP/k.folded" 2>/dev/null
grep_q '^offcpu-sleep;(.*;)?main;sleeper_loop;sleep_once;__nanosleep;clock_nanosleep[^;]*;(.*;)?do_nanosleep_\[k\](;.*)? [0-9]+$' "$TMP/k.folded"
grep_q '^offcpu-sleep;(.*;)?main;reader_loop;read_once;read;(.*;)?(anon_)?pipe_read_\[k\](;.*)? [0-9]+$' "$TMP/k.folded"
# the function table leaves the scheduler and syscall entry out, unless asked
prism offcpu -i "$TMP/k.data" --limit 500 >"$TMP/k.txt" 2>/dev/null
check "no __schedule row in the function table" \
	test "$(grep -c ' __schedule \[\[kernel.kallsyms\]\]$' "$TMP/k.txt")" -eq 0
grep_q '^ .* do_nanosleep \[\[kernel.kallsyms\]\]$' "$TMP/k.txt"
grep_q '^# [0-9]+ scheduler and syscall-entry functions left out \(--all-functions\)' "$TMP/k.txt"
prism offcpu -i "$TMP/k.data" --limit 500 --all-functions >"$TMP/ka.txt" 2>/dev/null
grep_q '^ .* __schedule \[\[kernel.kallsyms\]\]$' "$TMP/ka.txt"
perf script -i "$TMP/k.data" 2>&1 >/dev/null | head -3 >"$TMP/k.err"
check "perf script reads kernel+user call chains without a warning" test ! -s "$TMP/k.err"

# flame graph
prism offcpu -i "$TMP/off.data" --flamegraph "$TMP/off.svg" 2>/dev/null
check "flame graph written" test -s "$TMP/off.svg"
if command -v xmllint >/dev/null; then
	check "flame graph is well-formed XML" xmllint --noout "$TMP/off.svg"
fi
grep_q 'Off-CPU Time Flame Graph' "$TMP/off.svg"

# a block still open at the end is counted up to the end, as its own sample
prism record --off-cpu --off-cpu-thresh 100 --duration 0.4 -o "$TMP/open.data" -- sleep 1.2 >/dev/null 2>&1
prism offcpu -i "$TMP/open.data" --user-only >"$TMP/open.txt" 2>/dev/null
grep_q 'sleep [0-9]+/[0-9]+ +clock_nanosleep.*still off CPU at the end' "$TMP/open.txt"
ms=$(awk '/still off CPU at the end\)$/ { print $2; exit }' "$TMP/open.txt")
check "the open block lasts ~0.4 s (${ms:-none} ms)" awk -v m="${ms:-0}" 'BEGIN { exit !(m >= 300 && m <= 600) }'

# a filter that matches nothing records nothing: an empty cgroup, system-wide
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cg=${cgroot:-/nonexistent}/prism-t0700-$$
if [ -n "$cgroot" ] && mkdir "$cg" 2>/dev/null; then
	prism record --off-cpu -a --duration 0.3 --off-cpu-cgroup "prism-t0700-$$" \
		-o "$TMP/none.data" >/dev/null 2>"$TMP/none.err"
	check "record with an empty cgroup exits 0" test $? -eq 0
	rmdir "$cg"
	grep_q 'off-CPU \(BPF\): 1 offcpu-time samples, 0.000 s off CPU, 0 blocks' "$TMP/none.err"
	prism offcpu -i "$TMP/none.data" >"$TMP/none.txt" 2>&1
	grep_q '^# total: 0.000 ms in 0 blocks' "$TMP/none.txt"
	perf report -i "$TMP/none.data" --stats >/dev/null 2>"$TMP/none.perr"
	check "perf reads the empty result without a warning" test ! -s "$TMP/none.perr"
else
	echo "note: cannot create a cgroup v2 directory: empty-filter check left out" >&3
fi
# pipe mode: the events are announced in the stream, decided at the first sample
prism record -q --off-cpu=bpf -o - -- sh -c "'$WL' 5 10 >/dev/null" 2>/dev/null |
	prism offcpu -i - --user-only --limit 100 >"$TMP/pipe.txt" 2>/dev/null
grep_q '^# method: BPF' "$TMP/pipe.txt"
grep_q ' sleeper_loop \[offcpu-sleep\]$' "$TMP/pipe.txt"
done_testing
