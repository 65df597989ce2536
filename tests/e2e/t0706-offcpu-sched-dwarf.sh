#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live (root): the fallback with DWARF stacks, prism record --off-cpu=sched
# --call-graph dwarf of tests/workloads/offcpu-sleep.  The recorder writes
# each sample's user stack copy cut to the bytes the kernel filled
# (dyn_size, rounded up to 8) instead of the 8 KiB asked for: a sample with
# less stack than that is smaller than 8 KiB, prism offcpu still
# attributes 95..101% of the measured time to sleeper_loop and reader_loop
# through DWARF unwinding, and perf 6.1 reads and unwinds the file without
# a warning.  A plain --call-graph dwarf recording is cut the same way.
. tests/e2e/lib.sh
require_root
require_perf
WL=$PRISM_OUT/tests/workloads/offcpu-sleep
[ -x "$WL" ] || skip "workload $WL not built (make test-bins)"

prism record -q --off-cpu=sched --call-graph dwarf -o "$TMP/sd.data" -- "$WL" 20 10 \
	>"$TMP/wl.out" 2>"$TMP/rec.err"
check "record --off-cpu=sched --call-graph dwarf exits 0 ($(head -c 200 "$TMP/rec.err"))" \
	test $? -eq 0

# Uncut, every sample holds a copy of the size asked for (less only where
# the stack ends less far from the top of the address space), whatever its
# dyn_size (perf -D: "PERF_RECORD_SAMPLE" with the record's [0xSIZE], then
# "ustack: size DYN_SIZE").  Cut, a sample is its stack and less than 2 KiB
# more.  Asked for 65528 bytes (perf's maximum), a copy holds the whole stack
# of the workload's tasks, a few KiB, wherever the kernel put it.
cut_ok() { # FILE WHAT
	local counts
	counts=$(perf report -i "$1" -D 2>/dev/null | awk '
		function hex(h,  i, v) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
		/PERF_RECORD_SAMPLE/ { match($0, /\[0x[0-9a-f]+\]/); size = hex(substr($0, RSTART + 3, RLENGTH - 4)) }
		/ustack: size/ { dyn = $4 + 0; if (dyn < 60000) { short++; if (size > dyn + 2048) uncut++ } }
		END { print short + 0, uncut + 0 }')
	check "$2: samples are cut to their stack (${counts% *} such samples, ${counts#* } uncut)" \
		test "${counts% *}" -gt 0 -a "${counts#* }" -eq 0
}
prism record -q --off-cpu=sched --call-graph dwarf,65528 -o "$TMP/sd64.data" -- "$WL" 5 10 \
	>/dev/null 2>&1
check "record --off-cpu=sched --call-graph dwarf,65528 exits 0" test $? -eq 0
cut_ok "$TMP/sd64.data" "--off-cpu=sched"
perf report -i "$TMP/sd64.data" -D >/dev/null 2>"$TMP/dump.err"
check "perf report -D: no warning ($(head -c 200 "$TMP/dump.err"))" test ! -s "$TMP/dump.err"
perf script -i "$TMP/sd64.data" >"$TMP/script64" 2>"$TMP/script64.err"
check "perf script on the 64 KiB file: no warning ($(head -c 200 "$TMP/script64.err"))" \
	test ! -s "$TMP/script64.err"
grep_q ' sleeper_loop\+0x' "$TMP/script64"

perf script -i "$TMP/sd.data" >"$TMP/script" 2>"$TMP/script.err"
check "perf script exits 0" test $? -eq 0
check "perf script: no warning ($(head -c 200 "$TMP/script.err"))" test ! -s "$TMP/script.err"
grep_q ' sleeper_loop\+0x' "$TMP/script"
grep_q ' reader_loop\+0x' "$TMP/script"

prism offcpu -i "$TMP/sd.data" --user-only --limit 100 >"$TMP/off.txt" 2>"$TMP/off.err"
check "prism offcpu exits 0 ($(head -c 200 "$TMP/off.err"))" test $? -eq 0
check_offcpu_share "$TMP/off.txt" "$TMP/wl.out" sleeper_loop reader_loop
prism offcpu -i "$TMP/sd.data" --folded >"$TMP/folded" 2>/dev/null
grep_q '^offcpu-sleep;(.*;)?main;sleeper_loop;(.*;)?[^;]*nanosleep[^;]*(;[^;]*_\[k\])* [0-9]+$' "$TMP/folded"
grep_q '^offcpu-sleep;(.*;)?main;reader_loop;(.*;)?[^;]*read[^;]*(;[^;]*_\[k\])* [0-9]+$' "$TMP/folded"

# an ordinary --call-graph dwarf recording is cut too, and still unwinds
prism record -q -e context-switches -c 1 --call-graph dwarf,65528 -o "$TMP/cs.data" -- "$WL" 5 10 \
	>/dev/null 2>&1
check "record -e context-switches --call-graph dwarf,65528 exits 0" test $? -eq 0
cut_ok "$TMP/cs.data" "plain dwarf"
perf script -i "$TMP/cs.data" >"$TMP/cs.script" 2>"$TMP/cs.err"
check "plain dwarf: perf script without a warning ($(head -c 200 "$TMP/cs.err"))" \
	test ! -s "$TMP/cs.err"
grep_q ' sleeper_loop\+0x' "$TMP/cs.script"
prism script -i "$TMP/cs.data" >"$TMP/cs.prism" 2>/dev/null
grep_q 'sleeper_loop' "$TMP/cs.prism"
done_testing
