#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --show-*-events against perf script's on the same files:
# the task (COMM, FORK, EXIT) and mmap records of the perf 6.1 fixtures,
# and on recordings made here by perf (-a with --namespaces, --all-cgroups
# and --switch-events, while prism record --off-cpu loads BPF programs, so
# KSYMBOL and BPF_EVENT records come too): every line, with the samples'
# fields before "PERF_RECORD_NAME" as perf prints them (a child of the idle
# task named swapper until its COMM), --show-round-events in file order.
# -D prints the new records' fields as perf -D (NAMESPACES, CGROUP,
# KSYMBOL, BPF_EVENT, TEXT_POKE).  --show-round-events with --itrace is
# refused (the others with --itrace: t1035).
. tests/e2e/lib.sh
require_perf
exec 3>&2

if [ -d "$FIXTURES/perf-6.1" ]; then
	for f in a-fp b-dwarf; do
		script_vs_perf "$f:" "$FIXTURES/perf-6.1/$f.data" --show-task-events
		script_vs_perf "$f:" "$FIXTURES/perf-6.1/$f.data" --show-task-events --show-mmap-events
	done
fi

prism script --show-round-events --itrace=b -i /dev/null >"$TMP/out" 2>"$TMP/err"
check "--show-round-events with --itrace: a usage error" test $? -eq 129
check "... that says why" grep -q -- '--show-\*-events: with the text output of samples only' "$TMP/err"

[ "$(id -u)" = 0 ] || { done_testing; exit; }
cd "$TMP" || exit 1
# the workload loads BPF programs while perf records: KSYMBOL and BPF_EVENT records
perf record -q -o "$TMP/k.data" -e cpu-clock -a --namespaces --all-cgroups --switch-events \
	-- "$PRISM_BIN" record --off-cpu -o "$TMP/oc.data" -- sleep 0.2 >/dev/null 2>&1
for o in --show-task-events --show-mmap-events --show-namespace-events --show-cgroup-events \
	--show-switch-events --show-bpf-events --show-text-poke-events --show-lost-events \
	--show-round-events "--show-task-events --show-mmap-events --show-namespace-events"; do
	# shellcheck disable=SC2086
	script_vs_perf "perf -a:" "$TMP/k.data" $o
done
check "the recording has NAMESPACES and CGROUP records" \
	test "$(perf script -i "$TMP/k.data" --show-namespace-events --show-cgroup-events 2>/dev/null |
		grep -c 'PERF_RECORD_NAMESPACES\|PERF_RECORD_CGROUP')" -gt 1
perf script -i "$TMP/k.data" --show-bpf-events >"$TMP/bpf.txt" 2>/dev/null
if grep -q PERF_RECORD_KSYMBOL "$TMP/bpf.txt"; then
	re='PERF_RECORD_(KSYMBOL|BPF_EVENT|NAMESPACES|CGROUP)'
	perf report -D -i "$TMP/k.data" 2>/dev/null | grep -E "$re" | sort >"$TMP/d1"
	prism script -D -i "$TMP/k.data" 2>/dev/null | grep -E "$re" | sort >"$TMP/d2"
	check "-D: the KSYMBOL, BPF_EVENT, NAMESPACES and CGROUP lines equal perf -D's" cmp -s "$TMP/d1" "$TMP/d2"
else
	echo "# no BPF program was loaded while perf recorded (prism record --off-cpu failed): no KSYMBOL to compare" >&3
fi
done_testing
