#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Damaged perf.data files never crash prism.  For fixtures of each kind
# (file, pipe, zstd file and pipe, COMPRESSED2, tracepoints, dwarf stacks),
# copies truncated at every 97th byte (at most 120 cuts per file: larger
# files get a step that is a multiple of 97) and 20 copies with 1-8 random
# byte flips (seeds 1..20) go through prism stats, script and header of the
# sanitizer build (pipe files also through 'stats -i -' from a real pipe):
# every run exits 0 or 1, without a signal, a sanitizer report or a hang,
# and a truncated copy that fails names where (offset / size).  Then the
# inputs in tests/data/fuzz-regress/ go through the same commands.
# tests/helper/corrupt-sweep.c does the runs; a failure prints the file and
# the cut offset or flip seed (replay: corrupt-sweep --only-cut/--only-seed).
. tests/e2e/lib.sh
require_fixtures

sweep=$PRISM_BUILD/tests/helper/corrupt-sweep
[ -x "$sweep" ] || skip "needs $sweep (make SAN=1 test-bins)"
# libtraceevent's own parse-error leaks (see the file) are not prism's
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PRISM_SRC/tests/fuzz/lsan.supp}

p=$FIXTURES/perf-6.1 c=$FIXTURES/compressed
files=(
	"$p/h2-switch-task.data" # file mode, switch records
	"$p/d-pipe.data"         # pipe mode
	"$p/c-zstd.data"         # COMPRESSED, file
	"$p/c2-zstd-pipe.data"   # COMPRESSED, pipe
	"$p/q-trace.data"        # tracepoints (raw_syscalls, sched), file
	"$p/b-dwarf.data"        # --call-graph dwarf: regs + user stacks, 520 kB
)
[ -f "$c/sleep.compressed2.data" ] && files+=("$c/sleep.compressed2.data") # COMPRESSED2
for f in "${files[@]}"; do
	[ -f "$f" ] || skip "fixture $f is missing"
done

start=$(date +%s)
check "corrupt sweep over ${#files[@]} fixtures" \
	"$sweep" -j 2 --stride 97 --max-cuts 120 --flips 20 --seed 1 --timeout 30 \
	--tmp "$TMP" "$PRISM_BIN" "${files[@]}"
echo "sweep took $(($(date +%s) - start)) s"

# regression inputs found by fuzzing or by hand (pipe-tracing-data-twice:
# a second TRACING_DATA after samples were delivered freed the formats the
# consumers held): as they are, also through util and sched timehist
for f in "$PRISM_SRC"/tests/data/fuzz-regress/*.data; do
	[ -f "$f" ] || continue
	for cmd in stats script header util "sched timehist"; do
		# shellcheck disable=SC2086
		prism $cmd -i "$f" >/dev/null 2>"$TMP/err"
		rc=$?
		if [ "$rc" -gt 1 ] || grep -Eq 'Sanitizer|runtime error:' "$TMP/err"; then
			head -n 30 "$TMP/err"
			fail "prism $cmd -i $(basename "$f"): exit $rc"
		else
			echo "ok: prism $cmd -i $(basename "$f") exits $rc" >&3
		fi
	done
done
done_testing
