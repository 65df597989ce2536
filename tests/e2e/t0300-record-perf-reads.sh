#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Files recorded by prism (cpu-clock -g of a workload; tracepoints with -a; a
# group; -z; pipe mode; --call-graph dwarf) are read by the real perf
# (report --stats and script) with nothing on stderr, and perf's per-type
# record counts equal prism stats of the same file.
. tests/e2e/lib.sh
require_root
require_perf
require_tracefs
W=$PRISM_OUT/tests/workloads/getppid-loop
[ -x "$W" ] || skip "workload $W is not built (make test-bins)"

# the per-type lines of perf report --stats / prism stats ("X events: N")
counts() {
	sed -n '/^Aggregated stats/,/^ *$/p' "$1" | grep -E ' events: ' |
		sed -E 's/ *\(.*\)//; s/^ +//' | sort
}

check_file() { # NAME FILE [pipe]
	local name=$1 f=$2 in=(-i "$2")
	if [ "${3:-}" = pipe ]; then
		perf report --stats -i - <"$f" >"$TMP/$name.perf" 2>"$TMP/$name.perf.err"
		perf script -i - <"$f" >"$TMP/$name.script" 2>"$TMP/$name.script.err"
		prism stats -i - <"$f" >"$TMP/$name.prism" 2>"$TMP/$name.prism.err"
	else
		perf report --stats "${in[@]}" >"$TMP/$name.perf" 2>"$TMP/$name.perf.err"
		perf script "${in[@]}" >"$TMP/$name.script" 2>"$TMP/$name.script.err"
		prism stats "${in[@]}" >"$TMP/$name.prism" 2>"$TMP/$name.prism.err"
	fi
	check "$name: perf report --stats without warnings $(head -c 200 "$TMP/$name.perf.err")" test ! -s "$TMP/$name.perf.err"
	check "$name: perf script without warnings $(head -c 200 "$TMP/$name.script.err")" test ! -s "$TMP/$name.script.err"
	check "$name: perf script printed samples" test -s "$TMP/$name.script"
	check "$name: prism stats without warnings $(head -c 200 "$TMP/$name.prism.err")" test ! -s "$TMP/$name.prism.err"
	counts "$TMP/$name.perf" >"$TMP/$name.perf.counts"
	counts "$TMP/$name.prism" >"$TMP/$name.prism.counts"
	check "$name: perf counted records" test -s "$TMP/$name.perf.counts"
	test_cmp "$TMP/$name.perf.counts" "$TMP/$name.prism.counts"
}

cd "$TMP" || exit 1
prism record -q -o fp.data -g -e cpu-clock -- "$W" 2000000
check_file fp fp.data
prism record -q -o tp.data -e sched:sched_switch,raw_syscalls:sys_enter -a -- "$W" 20000
check_file tp tp.data
prism record -q -o grp.data -e '{raw_syscalls:sys_enter,raw_syscalls:sys_exit}' -- "$W" 20000
check_file group grp.data
perf report --header-only -i grp.data 2>/dev/null | grep -q '^# group: {raw_syscalls:sys_enter,raw_syscalls:sys_exit}'
check "group: perf sees the group (GROUP_DESC)" test $? -eq 0
prism record -q -o z.data -z -g -- "$W" 2000000
check_file zstd z.data
check "zstd: COMPRESSED records written" grep -q 'COMPRESSED events' "$TMP/zstd.perf"
# the ratio record prints is the one the file's header gives (and perf's)
prism record -o z2.data -z -g -- "$W" 2000000 2>z2.err
said=$(sed -n 's/.*ratio is \([0-9.]*\) .*/\1/p' z2.err)
hdr=$(perf report --header-only -i z2.data 2>/dev/null | sed -n 's/^# compressed : .*ratio = \([0-9]*\)$/\1/p')
# (record prints it to 3 decimals: 7.4996 is "7.500" and the header's 7)
check "zstd: record's ratio $said rounds to the header's $hdr" \
	awk -v a="$said" -v b="$hdr" 'BEGIN { d = a - b; exit !(a != "" && b != "" && d >= -0.5 && d <= 0.5005) }'
prism record -q -o - -g -e cpu-clock -- "$W" 2000000 >pipe.data
check_file pipe pipe.data pipe
# a workload that writes to stdout in pipe mode: its text goes to stderr,
# as perf's, and the data stays readable
prism record -q -o - -e cpu-clock -- sh -c 'echo workload-says-hi; exec "$0" 1000000' "$W" \
	>pipe-out.data 2>pipe-out.err
check "pipe: the workload's stdout is on stderr" grep -q '^workload-says-hi$' pipe-out.err
perf script -i - <pipe-out.data >pipe-out.script 2>pipe-out.perr
check "pipe: perf reads the data (no workload text in it): $(head -c 200 pipe-out.perr)" \
	test -s pipe-out.script -a ! -s pipe-out.perr
# perf 6.1's report --stats fails on its own pipe files with tracepoints
# (fixture d2-pipe-tp too): check those with perf script only
prism record -q -o - -e cpu-clock,raw_syscalls:sys_exit -- "$W" 20000 >pipe-tp.data
perf script -i - <pipe-tp.data >pipe-tp.script 2>pipe-tp.err
check "pipe+tracepoints: perf script without warnings $(head -c 200 pipe-tp.err)" test ! -s pipe-tp.err
n=$(grep -c 'raw_syscalls:sys_exit: NR 110 = ' pipe-tp.script)
check "pipe+tracepoints: perf decodes the 20000 getppid exits (got $n)" test "$n" -eq 20000
prism record -q -o dwarf.data --call-graph dwarf,4096 -- "$W" 2000000
check_file dwarf dwarf.data
# unwound, not just the leaf: main below another frame (prism's DWARF files
# need the data mmaps, as perf's, for perf to unwind them)
n=$(awk '/^[^\t ]/ { depth = 0; next } /^\t/ { if (depth++ && / main\+0x/) n++ } END { print n + 0 }' \
	"$TMP/dwarf.script")
check "dwarf: perf unwinds to main in $n samples" test "$n" -gt 0
# -o keeps the old file
prism record -q -o fp.data -e cpu-clock -- "$W" 1000
check "-o keeps the previous file as .old" test -s fp.data.old
# prism never records itself: not its forked child before the exec (the
# events were opened enabled besides enable_on_exec), nor a PATH search
prism record -q -c 100000 -e task-clock -o self.data -- "$W" 2000000
n=$(perf script -i self.data -F comm 2>/dev/null | grep -c -w prism)
check "no sample of prism's own child ($n)" test "$n" -eq 0
# the command found in $PATH: the workload's one execve, not prism's search
PATH=$(dirname "$W"):$PATH prism util --csv -- "$(basename "$W")" 1000 >self.csv 2>/dev/null
n=$(awk -F, '$1 == "call" && $2 == "system" && $8 == "execve" { print $9 }' self.csv)
check "util -- CMD: one execve ($n)" test "$n" = 1
done_testing
