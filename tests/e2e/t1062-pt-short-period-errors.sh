#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT errors with short periods (down to i1i, i1t): the walk goes on
# from the next packet with an IP as perf's decoder does (walk-resync.c),
# the failing branch of a mismatch counted into the next sample's period,
# the sample before an error keeping its time; prism's output equals perf
# 6.1's line for line (the instruction decoder, which `l` still uses, would
# go on from the next PSB: t1053 for long periods).
. tests/e2e/lib.sh
require_pt_files

for c in "kernel:--kernel --loops 6" "kernel-tsc:--kernel --loops 6 --tsc-every 1" \
	"kernel-mtc:--kernel --loops 6 --mtc 1 --cyc 1" "kernel-calls:--kernel --calls 5 --loops 4" \
	"kernel-percpu:--kernel --per-cpu --loops 5 --tsc-every 1" \
	"miss:--loops 100 --map-path /nonexistent/pt-loop" \
	"miss-t2:--thread2 --loops 8 --map-path /nonexistent/pt-loop" \
	"miss-ptw:--loops 8 --ptw 2 --map-path /nonexistent/pt-loop" \
	"nlip:--loops 300 --fup-nlip --tsc-every 3"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in i1ie i3ie i5ie i1tbe i10tge i1iecr; do
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
done
check "kernel: the missing kernel code reported, then the walk goes on" \
	test "$(prism script -i "$TMP/kernel.data" --itrace=i1ie | sed -n '/code 5/,$p' | grep -c pt_loop)" -gt 20
done_testing
