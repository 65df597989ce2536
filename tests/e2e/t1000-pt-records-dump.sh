#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT files (tests/tools/perfdata-pt.py over tests/workloads/pt-loop):
# prism script -D shows the AUX-area records (AUXTRACE_INFO with Intel PT's
# fields, TIME_CONV, ITRACE_START, AUX with its flags, AUXTRACE,
# AUXTRACE_ERROR) and every trace packet as perf report -D does, in file
# and pipe mode, a trace split over AUXTRACE records, one of every packet
# kind and bytes that are no packet; and every reader steps over the trace
# bytes that follow AUXTRACE records outside their size (stats counts the
# records as perf does; script, report, util and header read to the end).
. tests/e2e/lib.sh
require_pt_files

# the AUX-area records' lines and what follows them up to a blank line
aux_lines() {
	grep -E 'PERF_RECORD_(AUXTRACE_INFO|AUXTRACE|AUX|ITRACE_START|TIME_CONV|AUXTRACE_ERROR)\b' "$1" | sort
}
packet_blocks() {
	awk '/PERF_RECORD_(AUXTRACE_INFO|AUXTRACE|TIME_CONV) / || /PERF_RECORD_(TIME_CONV|AUXTRACE_ERROR)/ {p=1} /^$/ {p=0} p' "$1"
}

for c in "plain:" "ovf:--loops 12 --ovf 3 --tsc-every 2" "notsc:--no-tsc --loops 5" \
	"trunc:--truncated --loops 8 --error" "split:--split 24 --loops 9" "zoo:--zoo" \
	"percpu:--per-cpu --loops 4 --split 40"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	perf report -D -i "$TMP/$name.data" >"$TMP/perf.txt" 2>/dev/null
	prism script -D -i "$TMP/$name.data" >"$TMP/prism.txt" 2>"$TMP/err"
	check "$name: prism script -D exits 0" test $? -eq 0
	aux_lines "$TMP/perf.txt" >"$TMP/a1"
	aux_lines "$TMP/prism.txt" >"$TMP/a2"
	check "$name: the AUX-area records' lines equal perf's ($(wc -l <"$TMP/a1"))" \
		cmp -s "$TMP/a1" "$TMP/a2"
	packet_blocks "$TMP/perf.txt" >"$TMP/b1"
	packet_blocks "$TMP/prism.txt" >"$TMP/b2"
	check "$name: the packets and record fields equal perf's ($(grep -c '^\.  0' "$TMP/b1") packets)" \
		cmp -s "$TMP/b1" "$TMP/b2"
	diff "$TMP/b1" "$TMP/b2" | head -5 >&3
	grep '@.* event: ' "$TMP/perf.txt" | sort >"$TMP/h1"
	grep '@.* event: ' "$TMP/prism.txt" | sort >"$TMP/h2"
	check "$name: the records' dump headers equal perf's" cmp -s "$TMP/h1" "$TMP/h2"
	# perf's own stats lines, as prism stats prints them
	grep -E '^ +(AUX|ITRACE_START|AUXTRACE|AUXTRACE_INFO|AUXTRACE_ERROR|TIME_CONV) events:' \
		"$TMP/perf.txt" | sed 's/(.*//' >"$TMP/s1"
	prism stats -i "$TMP/$name.data" >"$TMP/stats.txt"
	check "$name: prism stats exits 0" test $? -eq 0
	grep -E '^ +(AUX|ITRACE_START|AUXTRACE|AUXTRACE_INFO|AUXTRACE_ERROR|TIME_CONV) events:' \
		"$TMP/stats.txt" | sed 's/(.*//' >"$TMP/s2"
	check "$name: prism stats counts the AUX-area records as perf does" cmp -s "$TMP/s1" "$TMP/s2"
	for cmd in "script" "report --stdio" "util" "header"; do
		# shellcheck disable=SC2086
		prism $cmd -i "$TMP/$name.data" >/dev/null 2>"$TMP/err"
		check "$name: prism $cmd reads past the trace bytes to the end" test $? -eq 0
	done
	[ "$name" = zoo ] || continue
	# by hand, not only perf's copy: TIP.PGE to pt_loop after PSB, TSC, CBR, PSBEND, MODE
	check "zoo: TIP.PGE to pt_loop at offset 0x20" \
		grep -q '^\.  00000020:  71 3d .*TIP.PGE 0x5555555551' "$TMP/prism.txt"
	check "zoo: PTWRITE with IP" grep -q 'PTWRITE 0x1122334455667788 IP:1' "$TMP/prism.txt"
done


# pipe mode: perf 6.1 stops at the first AUXTRACE of a pipe, so the file's dump is the oracle
$GEN --split 24 --loops 9 "$WL" "$TMP/f.data"
$GEN --split 24 --loops 9 --pipe "$WL" "$TMP/p.data"
prism script -D -i "$TMP/f.data" >"$TMP/f.txt"
prism script -D -i - <"$TMP/p.data" >"$TMP/p.txt"
check "pipe: prism script -D exits 0" test $? -eq 0
grep -c 'Intel Processor Trace data' "$TMP/p.txt" >"$TMP/n"
check "pipe: the trace's 3 AUXTRACE records are dumped" test "$(cat "$TMP/n")" -eq 3
grep '^\.  [0-9a-f]\{8\}:  ' "$TMP/f.txt" >"$TMP/f.p"
grep '^\.  [0-9a-f]\{8\}:  ' "$TMP/p.txt" >"$TMP/p.p"
check "pipe: the packets equal the file's ($(wc -l <"$TMP/f.p"))" cmp -s "$TMP/f.p" "$TMP/p.p"
for cmd in "stats" "script" "report --stdio"; do
	# shellcheck disable=SC2086
	prism $cmd -i - <"$TMP/p.data" >/dev/null 2>"$TMP/err"
	check "pipe: prism $cmd reads past the trace bytes to the end" test $? -eq 0
done

# a trace cut inside its bytes (the stream's last 8 are a FINISHED_ROUND): a clear error
head -c -20 "$TMP/p.data" >"$TMP/cut.data"
prism script -D -i - <"$TMP/cut.data" >/dev/null 2>"$TMP/err"
check "cut: prism script -D fails" test $? -ne 0
check "cut: the error says where" grep -q 'runs past the end' "$TMP/err"
done_testing
