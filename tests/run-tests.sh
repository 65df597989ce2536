#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Run every unit test binary and end-to-end script; print one line per test
# and finally "N passed, N failed, N skipped".  Exit 1 when anything failed.
#
# Environment: PRISM_BUILD (build dir holding prism and tests/unit/*),
# PRISM_OUT (release build dir, for workloads), PRISM_SRC (source tree),
# T=<glob> to run only matching tests (e.g. T='t01*').
set -uo pipefail

src=${PRISM_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
build=${PRISM_BUILD:-$src/out/san}
out=${PRISM_OUT:-$src/out}
# tests change directory: make the paths absolute
build=$(cd "$build" 2>/dev/null && pwd || echo "$build")
out=$(cd "$out" 2>/dev/null && pwd || echo "$out")
export PRISM_SRC=$src PRISM_BUILD=$build PRISM_OUT=$out
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LC_ALL=C PERF_PAGER=cat PAGER=cat
pattern=${T:-*}

passed=0 failed=0 skipped=0
failures=()

for bin in "$build"/tests/unit/test-*; do
	[ -x "$bin" ] || continue
	case "$bin" in *.o|*.d) continue ;; esac
	name=$(basename "$bin")
	# shellcheck disable=SC2053
	[[ $name == $pattern ]] || continue
	out=$("$bin" 2>&1)
	rc=$?
	n_ok=$(grep -c '^ok - ' <<<"$out")
	n_fail=$(grep -c '^FAIL - ' <<<"$out")
	n_skip=$(grep -c '^skip - ' <<<"$out")
	printf '%s\n' "$out"
	if [ $rc -ne 0 ] && [ "$n_fail" -eq 0 ]; then
		echo "FAIL - $name: exited with status $rc without reporting a failed case"
		n_fail=1
	fi
	passed=$((passed + n_ok))
	failed=$((failed + n_fail))
	skipped=$((skipped + n_skip))
	[ "$n_fail" -eq 0 ] || failures+=("$name")
done

logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
for t in "$src"/tests/e2e/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	# shellcheck disable=SC2053
	[[ $name == $pattern ]] || continue
	log=$logdir/$name.log
	start=$(date +%s)
	(cd "$src" && bash "$t") >"$log" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	if [ $rc -eq 0 ]; then
		echo "ok - e2e: $name (${secs}s)"
		passed=$((passed + 1))
	elif [ $rc -eq 77 ]; then
		reason=$(grep -m1 '^skip: ' "$log" | sed 's/^skip: //')
		echo "skip - e2e: $name: ${reason:-no reason given}"
		skipped=$((skipped + 1))
	else
		echo "FAIL - e2e: $name (exit $rc, ${secs}s)"
		# what failed first (a long log is cut when shown), then the
		# rest of the log without the passed checks
		grep '^not ok: ' "$log" | head -n 10 | sed 's/^/    /'
		grep -v '^ok: ' "$log" | grep -v '^not ok: ' | tail -n 40 | sed 's/^/    | /'
		failed=$((failed + 1))
		why=$(grep -m1 '^not ok: ' "$log" | sed 's/^not ok: //' | cut -c1-120)
		failures+=("$name${why:+ ($why)}")
	fi
done

if [ ${#failures[@]} -gt 0 ]; then
	printf 'failed: %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
