#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script's sample filters against perf script 6.1's on the same files,
# line for line: -C, --pid, --tid, -c, -S, --dsos and --time (windows with
# open ends, several windows, percents; -S names and sample addresses, with
# --addr-range) on a system-wide cpu-clock file of
# two CPUs and several tasks and on a tracepoint file; -C with
# --show-*-events (perf filters those records by CPU only); --json and --csv
# keep the samples the text keeps; on a per-CPU Intel PT file (the
# generator) with --itrace=b, be, i1i, --call-trace and --insn-trace (and
# perf's instruction count and CBR event at a --time window's start).  Bad
# values are errors that name the option and the value.
. tests/e2e/lib.sh
require_fixtures
require_perf
exec 3>&2

N=$FIXTURES/perf-6.1/n-ns-cgroup.data
S=$FIXTURES/perf-6.1/f-sched-tp.data
for o in "-C 1" "-C 0-1" "--pid 15362,15381" "--tid 15362" "-c apt-cache" \
	"-c apt-cache,perfdata-worklo" "--dsos libc.so.6" \
	"--dsos /usr/lib/x86_64-linux-gnu/libc.so.6" "-S _int_free" "-S 0x7f973aab4120" "-S 7f973aab4120,leaf_b" \
	"-S 0x7f973aab4100 --addr-range 64" "--time ,603.131100" \
	"--time 603.130156227," "--time 603.15,603.16" "--time 10%/2" "--time 0%-10%,90%-100%" \
	"--time 50%" "-C 1 --time 603.15,603.2 -c apt-cache"; do
	# shellcheck disable=SC2086
	script_vs_perf "cpu-clock:" "$N" $o
done
script_vs_perf "cpu-clock:" "$N" --time "603.130156227,603.131 603.132,603.1321"
check "... some samples and not all" test "$(wc -l <"$TMP/prism.txt")" -gt 0
for o in "-C 1" "-c sleep" "--tid 0" "--time 10%/3" "-C 0 --show-task-events" \
	"-C 1 --show-mmap-events --show-task-events"; do
	# shellcheck disable=SC2086
	script_vs_perf "sched:" "$S" $o
done

# --json and --csv: the samples the text keeps (csv: their record numbers kept)
prism script -i "$N" -C 1 -c apt-cache -F comm,tid,cpu,time >"$TMP/t.txt" 2>/dev/null
prism script -i "$N" -C 1 -c apt-cache --json >"$TMP/j.txt" 2>/dev/null
check "--json: one object per sample kept ($(wc -l <"$TMP/t.txt"))" \
	test "$(grep -c '"cpu":1,' "$TMP/j.txt")" -eq "$(wc -l <"$TMP/t.txt")"
check "--json: only apt-cache" test "$(grep -vc '"comm":"apt-cache"' "$TMP/j.txt")" -eq 0
prism script -i "$N" --csv >"$TMP/all.csv" 2>/dev/null
prism script -i "$N" --csv --tid 15362 >"$TMP/f.csv" 2>/dev/null
check "--csv: the other records stay" test "$(grep -vc ',SAMPLE,' "$TMP/f.csv")" -eq \
	"$(grep -vc ',SAMPLE,' "$TMP/all.csv")"
check "--csv: the samples of tid 15362" test "$(grep -c ',SAMPLE,' "$TMP/f.csv")" -eq \
	"$(grep ',SAMPLE,' "$TMP/all.csv" | grep -c ',15362,')"

# bad values: the option, the value, a hint
prism script -i "$N" --time 5,3 >/dev/null 2>"$TMP/err"
check "--time 5,3: a usage error" test $? -eq 129
grep_q "invalid --time '5,3': the end is before the start" "$TMP/err"
grep_q "hint: " "$TMP/err"
prism script -i "$N" -C x >/dev/null 2>"$TMP/err"
check "-C x: a usage error" test $? -eq 129
grep_q "invalid -C/--cpu 'x'" "$TMP/err"
prism script -i "$N" -C 5 >/dev/null 2>"$TMP/err"
check "-C 5 on a file of 2 CPUs: an error" test $? -eq 1
grep_q "CPU 5 is not in the file" "$TMP/err"
prism script -i "$FIXTURES/perf-6.1/a-fp.data" -C 0 >/dev/null 2>"$TMP/err"
check "-C on samples without their CPU: an error" test $? -eq 1
grep_q "do not carry their CPU" "$TMP/err"
prism script -i "$N" --pid 1-3 >/dev/null 2>"$TMP/err"
check "--pid 1-3: a usage error (perf takes no ranges)" test $? -eq 129
grep_q "'1-3' is not a number" "$TMP/err"
prism script -i "$N" --time 10%/0 >/dev/null 2>"$TMP/err"
check "--time 10%/0: a usage error" test $? -eq 129
grep_q "invalid --time '10%/0'" "$TMP/err"
prism script -i "$N" -D -C 0 >/dev/null 2>"$TMP/err"
check "-D with a filter: a usage error" test $? -eq 129
grep_q "^error: -D shows every record: the sample filters" "$TMP/err"
prism script --help >"$TMP/help.txt"
for o in --cpu --pid --tid --comms --symbols --dsos --time; do
	grep_q "^ +(-., )?$o " "$TMP/help.txt"
done

# Intel PT: the synthesized samples (and errors, by CPU and time only)
prism version --build-options | grep -q 'intel-pt: \[ on' || { done_testing; exit; }
command -v python3 >/dev/null || { done_testing; exit; }
WL=$PRISM_OUT/tests/workloads/pt-loop
[ -x "$WL" ] || { done_testing; exit; }
python3 "$PRISM_SRC/tests/tools/perfdata-pt.py" --per-cpu --nrcpus --loops 4 --tsc-every 1 \
	"$WL" "$TMP/pc.data" || fail "the generator failed"
for o in "-C 1" "-C 0" "--tid 4344" "--pid 4343" "-c pt-loop-2" "-S pt_leaf" "--dsos pt-loop" \
	"--time 1000.001001,1000.0011005" "--time ,1000.001100" "--time 1000.001101," \
	"-C 1 --time 1000.0012005,"; do
	for it in --itrace=b --itrace=be; do
		# shellcheck disable=SC2086
		script_vs_perf "pt:" "$TMP/pc.data" $it $o
	done
done
script_vs_perf "pt:" "$TMP/pc.data" --itrace=be --time "1000.0010005,1000.001001 1000.0012,1000.0012005"
# instruction samples: perf's count of the instructions before a --time window
for o in "-C 1" "--tid 4344" "--time 1000.001001,1000.0011005" "--time 1000.0011,"; do
	for it in --itrace=i1i --itrace=i3i --insn-trace; do
		# shellcheck disable=SC2086
		script_vs_perf "pt:" "$TMP/pc.data" $it $o
	done
done
for o in "-C 1" "--tid 4344" "-c pt-loop"; do
	# shellcheck disable=SC2086
	script_vs_perf "pt:" "$TMP/pc.data" --call-trace $o
done
# power events: perf's CBR event before the first sample of a window after a gap
python3 "$PRISM_SRC/tests/tools/perfdata-pt.py" --per-cpu --nrcpus --loops 4 --tsc-every 1 \
	--power 1 "$WL" "$TMP/pw.data" || fail "the generator failed (--power)"
for t in 1000.0010015, ,1000.0010015 1000.0012, 1000.0010012,1000.0011; do
	for it in --itrace=bp --itrace=i1ip --call-trace; do
		script_vs_perf "pt power:" "$TMP/pw.data" $it --time $t
	done
done
grep -q 'cbr: 24' "$TMP/prism.txt"
check "pt power: a CBR event at the window's start" test $? -eq 0
done_testing
