#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --itrace with --show-task/mmap/switch/lost/text-poke-events
# against perf 6.1, line for line: the side-band records between the
# synthesized samples in time order (per thread, per CPU with switch
# records, timing packets with --ns, an overflow, kernel code with a
# TEXT_POKE), and without timestamps, where perf decodes a thread's trace
# at its EXIT record (its samples come just before that line).
. tests/e2e/lib.sh
require_pt_files

SHOW="--show-task-events --show-mmap-events --show-switch-events --show-lost-events --show-text-poke-events"
for c in "plain:--loops 4 --tsc-every 1" "percpu:--per-cpu --loops 4" "thread2:--thread2 --loops 4" \
	"notsc:--no-tsc --loops 5" "notsc2:--thread2 --no-tsc --loops 3" \
	"ovf:--loops 14 --ovf 4 --tsc-every 2" "mtc:--mtc 0 --cyc 2 --loops 20" \
	"trunc:--truncated --loops 8 --error"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in b i1i e; do
		# shellcheck disable=SC2086
		pt_vs_perf "$name" "$TMP/$name.data" $it $SHOW
	done
	# shellcheck disable=SC2086
	pt_vs_perf "$name" "$TMP/$name.data" b --ns $SHOW
done
# shellcheck disable=SC2086
prism script -i "$TMP/percpu.data" --itrace=b $SHOW >"$TMP/out" 2>/dev/null
check "percpu: switch records among the samples" \
	test "$(sed -n '/SWITCH_CPU_WIDE OUT/,$p' "$TMP/out" | grep -c branches)" -gt 0

mkdir "$TMP/k"
$GEN --kernel --text-poke --tsc-every 1 --loops 6 --kcore-dir "$TMP/k/kcore_dir" "$WL" \
	"$TMP/k/data" || fail "the generator failed (--text-poke)"
# shellcheck disable=SC2086
pt_vs_perf "poke" "$TMP/k" be $SHOW
check "poke: the TEXT_POKE line with its symbol" grep -q 'PERF_RECORD_TEXT_POKE .* prism_kpoke+0x0' \
	"$TMP/prism.txt"

prism script --show-round-events --itrace=b -i "$TMP/plain.data" >/dev/null 2>"$TMP/err"
check "--show-round-events with --itrace: a usage error" test $? -eq 129

done_testing
