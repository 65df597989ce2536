#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzz smoke: build the libFuzzer targets (tests/fuzz/) and run each for
# FUZZ_RUNS inputs (default 15000; a third of that for fuzz-profile, whose
# inputs each build a whole report, and fuzz-compressed, which compresses
# each input first: about 60 s of fuzzing in all here; at most
# FUZZ_SECONDS, default 120, each) from the seed corpus, libFuzzer seed
# FUZZ_SEED (default 1): a fixed number of runs explores the same inputs
# for the same build (a time limit ran further on a fast machine and found
# new libtraceevent traps at random).  Not across builds: a clone in
# another directory has other addresses in its targets, which steers the
# coverage feedback (a fresh clone found a wrap this tree's runs did not).  Any crash, leak, sanitizer report or hang fails.  Builds into
# $PRISM_OUT/fuzz-smoke (never out/ itself); skips without clang/libFuzzer.
. tests/e2e/lib.sh

: "${FUZZ_SECONDS:=120}"
: "${FUZZ_RUNS:=15000}"
require_cmd clang "apt-get install clang"
printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
	'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }' >"$TMP/probe.c"
clang -fsanitize=fuzzer,address,undefined -o "$TMP/probe" "$TMP/probe.c" >"$TMP/probe.log" 2>&1 ||
	skip "clang cannot link -fsanitize=fuzzer (libFuzzer runtime missing: install the clang package's compiler-rt)"

out=$PRISM_OUT/fuzz-smoke
# fresh corpora: the smoke starts from the seeds every time
rm -rf "$out"/fuzz/corpus-* "$out"/fuzz/crash-*
if ! make -C "$PRISM_SRC" --no-print-directory O="$out" -j2 fuzz-bins >"$TMP/build.log" 2>&1; then
	tail -n 40 "$TMP/build.log"
	fail "building the fuzz targets (make O=$out fuzz-bins)"
	done_testing
fi
echo "ok: fuzz targets built in $out/fuzz" >&3

rc=0
for src in "$PRISM_SRC"/tests/fuzz/fuzz-*.c; do
	t=$(basename "$src" .c)
	case $t in
	fuzz-profile | fuzz-compressed) runs=$((FUZZ_RUNS / 3)) ;;
	*) runs=$FUZZ_RUNS ;;
	esac
	make -C "$PRISM_SRC" --no-print-directory O="$out" FUZZ_SECONDS="$FUZZ_SECONDS" \
		FUZZ_ARGS="-seed=${FUZZ_SEED:-1} -runs=$runs" "fuzz-run-$t" >>"$TMP/fuzz.log" 2>&1 ||
		rc=$?
done
cat "$TMP/fuzz.log"
for log in "$out"/fuzz/fuzz-*.log; do
	[ -f "$log" ] || continue
	t=$(basename "$log" .log)
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -n 1)
	echo "$t: ${runs:-?} runs, ${speed:-?} exec/s, ${cov:-no coverage line}"
	if grep -Eq 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$log"; then
		grep -E -A30 'ERROR:|runtime error:' "$log" | head -n 60
		crash=("$out"/fuzz/crash-"$t"-*)
		fail "$t found a crash (input: ${crash[0]})"
	fi
	if [ -z "$runs" ] || [ "$runs" -eq 0 ]; then
		fail "$t ran no input"
	fi
done
[ "$rc" -eq 0 ] || fail "make fuzz exited with $rc"
done_testing
