#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --itrace against perf 6.1's perf script --itrace, line for
# line, on synthesized Intel PT files (tests/tools/perfdata-pt.py): branches
# (b, and with -F +flags), every instruction (i1i), calls (c), returns (r),
# branches with errors (be); per thread (the main thread and another) with and
# without TSC, with timing packets and an overflow, per CPU with switch
# side-band, a trace split over AUXTRACE records, a truncated AUX area, a
# file's AUXTRACE_ERROR record; periods in instructions, ticks and time.
# Pipe mode (which perf 6.1 cannot decode) against perf on the same trace in
# a file; a trace split in pieces perf mis-decodes against prism's own
# output of the whole; code that is missing gives error lines, not a crash.
. tests/e2e/lib.sh
require_pt_files

for c in "plain:--loops 6" "ovf:--loops 14 --ovf 4 --tsc-every 2" "notsc:--no-tsc --loops 5" \
	"percpu:--per-cpu --loops 4" "percpu-notsc:--per-cpu --loops 3 --tsc-every 1" \
	"split:--split 40 --loops 9" "trunc:--truncated --loops 10 --tsc-every 3" \
	"error:--error --loops 2" "thread2:--thread2 --loops 4"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in b i1i c r be; do
		pt_vs_perf "$name" "$TMP/$name.data" $it
	done
	perf script -i "$TMP/$name.data" --itrace=i1ibe -F +flags >"$TMP/perf.txt" 2>/dev/null
	prism script -i "$TMP/$name.data" --itrace=i1ibe -F +flags >"$TMP/prism.txt" 2>/dev/null
	check "$name --itrace=i1ibe -F +flags: the lines equal perf's" \
		cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
done
# the cases are not empty: branches, calls of pt_leaf, the overflow, both threads per CPU
check "plain: 6 calls from the loop" test "$(prism script -i "$TMP/plain.data" --itrace=c |
	grep -c 'pt_loop+0x5 .* => .* pt_leaf+0x0')" -eq 6
check "ovf: the overflow error" grep -q 'code 7: Overflow packet' <(prism script -i "$TMP/ovf.data" --itrace=e)
check "percpu: thread 4344 on CPU 1" grep -q ' 4344 \[001\] ' <(prism script -i "$TMP/percpu.data" --itrace=b)

# pipe mode: perf 6.1 stops at the first AUXTRACE of a pipe; its decoding of the file is the oracle
$GEN --loops 7 --tsc-every 2 "$WL" "$TMP/f.data"
$GEN --loops 7 --tsc-every 2 --pipe --split 64 "$WL" "$TMP/p.data"
for it in b i1i be; do
	perf script -i "$TMP/f.data" --itrace=$it -F +flags >"$TMP/perf.txt" 2>/dev/null
	prism script -i - --itrace=$it -F +flags <"$TMP/p.data" >"$TMP/prism.txt" 2>/dev/null
	check "pipe --itrace=$it: the $(wc -l <"$TMP/perf.txt") lines equal perf's on the file" \
		cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
done

# 24-byte pieces: perf reports bad packets where the trace is whole; prism decodes it as one
$GEN --loops 7 "$WL" "$TMP/whole.data"
$GEN --loops 7 --split 24 "$WL" "$TMP/pieces.data"
prism script -i "$TMP/whole.data" --itrace=bi1i >"$TMP/w.txt"
prism script -i "$TMP/pieces.data" --itrace=bi1i >"$TMP/p.txt"
check "pieces: the same samples as the whole trace ($(wc -l <"$TMP/w.txt"))" cmp -s "$TMP/w.txt" "$TMP/p.txt"

# code that is not there: an error line, not a crash
$GEN --loops 3 --map-path /nonexistent/pt-loop "$WL" "$TMP/miss.data"
prism script -i "$TMP/miss.data" --itrace=be >"$TMP/out" 2>"$TMP/err"
check "missing code: prism exits 0" test $? -eq 0
check "missing code: an error line" grep -q 'code 5: Failed to get instruction' "$TMP/out"
check "missing code: the trace start into the missing file" \
	grep -q '=> *55555555513d \[unknown\] (/nonexistent/pt-loop)' "$TMP/out"

# periods in instructions
$GEN --loops 9 --tsc-every 2 "$WL" "$TMP/per.data"
for it in i3i i5ib i20i; do
	perf script -i "$TMP/per.data" --itrace=$it >"$TMP/perf.txt" 2>/dev/null
	prism script -i "$TMP/per.data" --itrace=$it >"$TMP/prism.txt" 2>/dev/null
	check "--itrace=$it: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
		cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
done
# periods in ticks and time (perf's default i100us among them): the TSC of
# the last timing packet plus the instructions since, per run to a branch
for c in "tsc:--loops 20000 --tsc-every 1" "ovf:--loops 20 --ovf 7 --tsc-every 1" \
	"pcpu:--per-cpu --loops 8 --tsc-every 2" "thr:--thread2 --loops 40 --tsc-every 3" \
	"notsc:--no-tsc --loops 30"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/t-$name.data" || fail "t-$name: the generator failed"
	for it in i i1us i10us i64t i8t i5t i2t i3tbe i7tc i2ti4i; do
		perf script -i "$TMP/t-$name.data" --itrace=$it >"$TMP/perf.txt" 2>/dev/null
		prism script -i "$TMP/t-$name.data" --itrace=$it >"$TMP/prism.txt" 2>/dev/null
		check "t-$name --itrace=$it: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
		diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
	done
done
# not empty: i (100 us) samples the 20000 loops, i2t about every other instruction
check "t-tsc: --itrace=i gives samples" test "$(prism script -i "$TMP/t-tsc.data" --itrace=i | wc -l)" -gt 100
check "t-notsc: --itrace=i2t without timing packets: every 2 instructions" \
	test "$(prism script -i "$TMP/t-notsc.data" --itrace=i2t | grep -c ' 2 instructions')" -gt 100

# what prism does not do is refused, not approximated
for it in i2000b il0 ik; do
	expect_exit 129 prism script -i "$TMP/per.data" --itrace=$it
done

# the binary elsewhere: found through --map-path and --symfs as for symbols
prism script -i "$TMP/miss.data" --itrace=c --map-path "/nonexistent=$(dirname "$WL")" >"$TMP/out"
check "--map-path: the calls decoded" test "$(grep -c 'pt_loop+0x5 .* => .* pt_leaf+0x0' "$TMP/out")" -eq 3
mkdir -p "$TMP/symfs/nonexistent" && cp "$WL" "$TMP/symfs/nonexistent/"
prism script -i "$TMP/miss.data" --itrace=c --symfs "$TMP/symfs" >"$TMP/out"
check "--symfs: the calls decoded" test "$(grep -c 'pt_loop+0x5 .* => .* pt_leaf+0x0' "$TMP/out")" -eq 3

# bad options and files without a trace
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=bq
check "a bad --itrace letter is named" grep -q "'q'" <(prism script -i "$TMP/plain.data" --itrace=bq 2>&1)
expect_exit 129 prism script -i "$TMP/plain.data" --itrace=b -F ip,bogus
prism script -i "$FIXTURES/perf-6.1/$(ls "$FIXTURES/perf-6.1" 2>/dev/null | grep -m1 '\.data$')" \
	--itrace=b >/dev/null 2>"$TMP/err"
check "a file without a trace: exit 1" test $? -eq 1
check "a file without a trace: says so" grep -q 'no Intel PT trace' "$TMP/err"
done_testing
