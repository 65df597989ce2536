#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# make fuzz-long: each fuzz target in turn (never in parallel: the CPU is
# shared) for FUZZ_SECONDS, on the corpus it kept from earlier runs plus
# fresh seeds, then one line per target:
#
#   target  executions  exec/s  cov  ft  corpus (inputs/size)  findings
#
# cov and ft are libFuzzer's covered edges and features at the end of the
# run; findings counts the crash/leak/timeout/oom inputs the run left in
# $FUZZ_DIR (crash-<target>-*: save each in tests/data/fuzz-regress/ and
# fix it).  Exit 1 when any target found something.
#
# Environment: MAKE, O and FUZZ_DIR (from the Makefile), FUZZ_SECONDS,
# FUZZ_TARGETS (names, default: every target given as an argument).
set -uo pipefail

: "${MAKE:=make}" "${O:=out}" "${FUZZ_DIR:=$O/fuzz}" "${FUZZ_SECONDS:=600}"
targets=${FUZZ_TARGETS:-$*}
[ -n "$targets" ] || {
	echo "fuzz-long.sh: no targets" >&2
	exit 2
}

found=0
summary=()
for t in $targets; do
	echo "== $t: $FUZZ_SECONDS s"
	before=$(ls "$FUZZ_DIR"/crash-"$t"-* 2>/dev/null | wc -l)
	$MAKE --no-print-directory O="$O" FUZZ_SECONDS="$FUZZ_SECONDS" "fuzz-run-$t"
	log=$FUZZ_DIR/$t.log
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -n 1)
	cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
	after=$(ls "$FUZZ_DIR"/crash-"$t"-* 2>/dev/null | wc -l)
	new=$((after - before))
	if grep -Eq 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log" && [ "$new" -eq 0 ]; then
		new=1 # a report without an artifact (e.g. a leak at exit)
	fi
	[ "$new" -eq 0 ] || found=1
	summary+=("$(printf '%-18s %12s %8s %7s %8s %16s %9s' "$t" "${runs:-?}" "${speed:-?}" \
		"${cov:-?}" "${ft:-?}" "${corp:-?}" "$new")")
done

echo
printf '%-18s %12s %8s %7s %8s %16s %9s\n' target executions exec/s cov ft corpus findings
printf '%s\n' "${summary[@]}"
exit $found
