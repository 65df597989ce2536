#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism report --sort comm,dso,sym on the perf 6.1 fixtures: every
# (comm, dso, symbol) row has perf's overhead (Children and Self) within
# 0.01 points and the same symbol name as perf's own report-sort.txt.  The
# workload binary the files name (/tmp/perfdata-workload) is read from the
# fixture directory through --map-path.
#
# Kernel rows: the reference was produced on the recording kernel.  When the
# running kernel has another build id, neither perf nor prism can name
# those kernel functions today (prism says so on stderr), so kernel rows are
# compared as the sum of their self overhead per command.  So are [vdso]
# rows when the file's vdso is not the running kernel's (prism says so; perf
# here, without the recording machine's build-id cache, names none).
. tests/e2e/lib.sh
require_fixtures
command -v python3 >/dev/null || skip "needs python3"

F=$FIXTURES/perf-6.1
MAP=(--map-path "/tmp/perfdata-workload=$F/perfdata-workload.bin")
CMP=$PRISM_SRC/tests/tools/report-compare.py

compare() { # NAME [prism args...]
	local name=$1 mode=()
	shift
	prism report -i "$F/$name.data" "${MAP[@]}" --sort comm,dso,sym "$@" \
		>"$TMP/$name.txt" 2>"$TMP/$name.err"
	check "$name: prism report exits 0" test $? -eq 0
	if grep -Eq 'no kernel symbols|no build id for the kernel' "$TMP/$name.err"; then
		mode=(--kernel-aggregate)
		echo "note: $name: no kernel symbols, kernel rows compared in aggregate" >&3
	fi
	if grep -q "\[vdso\] of build id .* is not this kernel's" "$TMP/$name.err"; then
		mode+=(--vdso-aggregate)
		echo "note: $name: another kernel's vdso, its rows compared in aggregate" >&3
	fi
	if python3 "$CMP" "$F/$name.report-sort.txt" "$TMP/$name.txt" "${mode[@]}" \
		${SELF_ONLY:+--self-only} >"$TMP/$name.cmp"; then
		echo "ok: $name: $(tail -1 "$TMP/$name.cmp")" >&3
	else
		cat "$TMP/$name.cmp" >&3
		fail "$name: rows differ from perf's report-sort.txt"
	fi
	check "$name: no other warnings" \
		test -z "$(grep -v -e 'recorded on another kernel' -e "is not this kernel's" -e '^$' \
			-e 'no kernel symbols' -e 'no build id for the kernel' "$TMP/$name.err")"
}

for name in a-fp a2-fp-shell c-zstd e-two-events i-fixed-period j-inject-b j2-pipe-inject \
	j3-buildid-all j4-buildid-mmap d-pipe c2-zstd-pipe; do
	compare "$name"
done

# b-dwarf: the user stacks are unwound from REGS_USER + STACK_USER with libdw
# (and the unwound frames expanded into inlined functions, as perf does);
# without libdw only the self overhead can match
if "$PRISM_BIN" version --build-options 2>/dev/null | grep -q 'libdw: \[ on'; then
	compare b-dwarf
	grep_q '^ +100\.00% +0\.00%  perfdata-worklo  libc\.so\.6 +\[\.\] __libc_start_main_impl \(inlined\)$' \
		"$TMP/b-dwarf.txt"
else
	SELF_ONLY=1 compare b-dwarf --no-children
fi

# the header lines perf prints
grep -q "^# Samples: 246  of event 'cpu-clock'$" "$TMP/a-fp.txt" &&
	grep -q '^# Event count (approx.): 246246246$' "$TMP/a-fp.txt"
check "a-fp: sample and event count header lines" test $? -eq 0
grep_q "^# Samples: 1K of event 'cpu-clock'$" "$TMP/i-fixed-period.txt"
grep_q "^# Children      Self  Command " "$TMP/a-fp.txt"
grep_q "^# Overhead  Command " "$TMP/e-two-events.txt"
check "e-two-events: one section per event" \
	test "$(grep -c '^# Samples: ' "$TMP/e-two-events.txt")" -eq 2

# pipe input: perf's whole output (no Children column, caller-order graphs),
# less the random tip perf prints at the end
for name in d-pipe c2-zstd-pipe; do
	prism report -i - "${MAP[@]}" <"$F/$name.data" >"$TMP/$name.got" 2>/dev/null
	# the tip is "#", "# (Tip: ...)", "#"
	awk '{ l[NR] = $0 } /^# \(Tip: / { t = NR }
	     END { for (i = 1; i <= NR; i++) if (!t || i < t - 1 || i > t + 1) print l[i] }' \
		"$F/$name.report-sort.txt" >"$TMP/$name.want"
	test_cmp "$TMP/$name.want" "$TMP/$name.got"
done

# the call graph under a-fp's main: perf's layout
sed -n '/\[\.\] main$/,/^$/p' "$TMP/a-fp.txt" >"$TMP/main-graph.txt"
sed -n '/\[\.\] main$/,/^$/p' "$F/a-fp.report-sort.txt" >"$TMP/main-graph-perf.txt"
test_cmp "$TMP/main-graph-perf.txt" "$TMP/main-graph.txt"
done_testing
