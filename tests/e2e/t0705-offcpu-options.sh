#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live (root, kernel BTF, prism built with BPF): the off-CPU options users
# reach for in bcc's offcputime, and the counts both commands print.  The
# workload sleeps 20 x 2 ms, then 3 x 150 ms.
#  - record and offcpu count the same blocks; record's sample total holds
#    the offcpu-time samples;
#  - --off-cpu-thresh 0 keeps every block one by one;
#  - --min-block 50ms keeps the 3 long sleeps only, --max-block 50ms the
#    short ones only;
#  - --kernel-threads-only shows kernel threads only;
#  - a task asleep through the whole recording (-p) is shown, from its start;
#  - one step: prism offcpu -- cmd, prism offcpu -a --duration;
#  - one row per thread in the task table;
#  - a bad value gives the error, the hint and the option's line, not the
#    whole usage.
. tests/e2e/lib.sh
require_root
require_cmd cc "apt-get install gcc"
[ -r /sys/kernel/btf/vmlinux ] || skip "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
prism version --build-options | grep -q 'bpf: \[ on' || skip "prism was built without BPF support"

cat >"$TMP/mix.c" <<'C'
#include <time.h>
__attribute__((noinline)) void nap(long ns)
{
	struct timespec ts = { 0, ns };
	nanosleep(&ts, NULL);
}
int main(void)
{
	for (int i = 0; i < 20; i++)
		nap(2000000);
	for (int i = 0; i < 3; i++)
		nap(150000000);
	return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/mix" "$TMP/mix.c" || skip "cannot compile the test program"

total_ms() { awk '/^# total:/ { print $3; exit }' "$1"; }
blocks() { awk '/^# total:/ { print $6; exit }' "$1"; }

# counts: what record says it wrote is what offcpu reads
prism record --off-cpu -o "$TMP/a.data" -- "$TMP/mix" 2>"$TMP/a.rec"
check "record exits 0" test $? -eq 0
prism offcpu -i "$TMP/a.data" >"$TMP/a.txt" 2>/dev/null
rb=$(sed -n 's/.*offcpu-time samples, [0-9.]* s off CPU, \([0-9]*\) blocks.*/\1/p' "$TMP/a.rec")
check "record and offcpu count the same blocks (${rb:-none} vs $(blocks "$TMP/a.txt"))" \
	test "${rb:-x}" = "$(blocks "$TMP/a.txt")"
n=$(sed -n 's/.*(\([0-9]*\) samples, \([0-9]*\) of them offcpu-time).*/\1 \2/p' "$TMP/a.rec")
ns=$(sed -n 's/.*off-CPU (BPF): \([0-9]*\) offcpu-time samples.*/\1/p' "$TMP/a.rec")
check "record's sample total holds its offcpu-time samples (${n:-none}; $ns)" \
	test -n "$n" -a "${n#* }" = "$ns" -a "${n% *}" -ge "${ns:-1}"
check "23 blocks of the workload ($(blocks "$TMP/a.txt"))" test "$(blocks "$TMP/a.txt")" -ge 23
# one row per thread
awk '/^# Off-CPU time by task/ { t = 1; next } /^$/ { t = 0 } t && !/^#/ { print $NF }' \
	"$TMP/a.txt" | sort | uniq -d >"$TMP/dups"
check "one task row per thread ($(head -c 100 "$TMP/dups"))" test ! -s "$TMP/dups"

# --off-cpu-thresh 0: every block is kept individually
prism record -q --off-cpu --off-cpu-thresh 0 -o "$TMP/t0.data" -- "$TMP/mix"
prism offcpu -i "$TMP/t0.data" >"$TMP/t0.txt" 2>/dev/null
grep_q '^# BPF side: ([0-9]+) blocks seen, [0-9]+ still off CPU at the end \(counted up to it\), \1 kept individually' "$TMP/t0.txt"
grep_q '^# Longest individual blocks' "$TMP/t0.txt"

# --min-block / --max-block
prism record -q --off-cpu --min-block 50ms -o "$TMP/min.data" -- "$TMP/mix"
prism offcpu -i "$TMP/min.data" >"$TMP/min.txt" 2>/dev/null
check "--min-block 50ms: the 3 long sleeps ($(blocks "$TMP/min.txt") blocks)" \
	test "$(blocks "$TMP/min.txt")" -eq 3
check "--min-block 50ms: at least 450 ms ($(total_ms "$TMP/min.txt"))" \
	awk -v m="$(total_ms "$TMP/min.txt")" 'BEGIN { exit !(m >= 450 && m < 5000) }'
# with every block kept one by one, the longest is in the block table
prism record -q --off-cpu --max-block 50ms --off-cpu-thresh 0 -o "$TMP/max.data" -- "$TMP/mix"
prism offcpu -i "$TMP/max.data" >"$TMP/max.txt" 2>/dev/null
longest=$(awk '/^# Longest individual blocks/ { t = 1; next } t && !/^#/ && NF { print $2; exit }' "$TMP/max.txt")
check "--max-block 50ms: the longest block is shorter (${longest:-none} ms)" \
	awk -v m="${longest:-99999}" 'BEGIN { exit !(m < 50) }'
check "--max-block 50ms: at least the 20 short sleeps ($(blocks "$TMP/max.txt"))" \
	test "$(blocks "$TMP/max.txt")" -ge 20
check "--max-block 50ms: the short sleeps' time ($(total_ms "$TMP/max.txt") ms)" \
	awk -v m="$(total_ms "$TMP/max.txt")" 'BEGIN { exit !(m >= 35) }'

# one step, with a command and system-wide
prism offcpu --folded -- "$TMP/mix" >"$TMP/one.folded" 2>"$TMP/one.err"
check "prism offcpu -- cmd exits 0 ($(head -c 200 "$TMP/one.err"))" test $? -eq 0
grep_q '^mix;.*main;nap;[^ ]*nanosleep[^ ]* [0-9]+$' "$TMP/one.folded"
prism offcpu -a --duration 0.5 --kernel-threads-only --limit 200 >"$TMP/k.txt" 2>/dev/null
check "prism offcpu -a --duration --kernel-threads-only exits 0" test $? -eq 0
# kernel threads have no user part: their commands look like [kworker/0:1] in ps
awk '/^# Off-CPU time by task/ { t = 1; next } /^$/ { t = 0 } t && !/^#/ { print $NF }' \
	"$TMP/k.txt" | cut -d/ -f1 >"$TMP/k.pids"
check "kernel threads were seen ($(wc -l <"$TMP/k.pids"))" test -s "$TMP/k.pids"
user=0
while read -r p; do
	[ -r "/proc/$p/exe" ] && readlink "/proc/$p/exe" >/dev/null 2>&1 && user=$((user + 1))
done <"$TMP/k.pids"
check "--kernel-threads-only: no user process among them ($user)" test "$user" -eq 0
check "the one-step file is removed" \
	test -z "$(find /var/tmp -maxdepth 1 -name 'prism-offcpu-*' -newer "$TMP/one.err" 2>/dev/null)"

# a task asleep since before the recording: its time from the start
sleep 30 &
sp=$!
sleep 0.3
prism record -q --off-cpu -p "$sp" --duration 1 -o "$TMP/asleep.data"
check "record -p of a sleeping task exits 0" test $? -eq 0
kill "$sp" 2>/dev/null
wait "$sp" 2>/dev/null
prism offcpu -i "$TMP/asleep.data" --folded >"$TMP/asleep.folded" 2>"$TMP/asleep.err"
check "no 'no off-CPU time' warning ($(head -c 200 "$TMP/asleep.err"))" test ! -s "$TMP/asleep.err"
ns=$(awk '/^sleep;\[asleep since before the recording\] [0-9]+$/ { print $NF }' "$TMP/asleep.folded")
check "the sleeping task's second is there (${ns:-none} ns)" \
	test "${ns:-0}" -ge 900000000 -a "${ns:-0}" -le 1300000000
prism offcpu -i "$TMP/asleep.data" >"$TMP/asleep.txt" 2>/dev/null
grep_q '^# 1 tasks were asleep when the recording began' "$TMP/asleep.txt"

# a precise error is not followed by the whole usage
prism offcpu --min-block 5parsecs -- true >"$TMP/bad.out" 2>"$TMP/bad.err"
check "bad --min-block exits 129 ($?)" test $? -eq 129
grep_q "^error: bad --min-block '5parsecs'" "$TMP/bad.err"
grep_q '^ +--min-block <time> ' "$TMP/bad.err"
check "no other option's line after it ($(wc -l <"$TMP/bad.err") lines)" \
	test "$(grep -c '^ *--' "$TMP/bad.err")" -eq 1
done_testing
