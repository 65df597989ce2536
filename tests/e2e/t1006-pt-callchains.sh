#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --itrace=...g (call chains from the threads' call stacks,
# perf's thread-stack rules) and s (skipped samples) against perf 6.1's perf
# script, line for line, on synthesized Intel PT files: pt_loop's calls per
# thread, per CPU (one thread on two CPUs), with an overflow, without TSC;
# pt_calls (perfdata-pt.py --calls): recursion 3 and 40 deep (chains cut at
# g's N), a return past its caller, a call where the trace ends and the trace
# starting again at its return address, a return with no call seen.
. tests/e2e/lib.sh
require_pt_files

# the --calls files as perf decodes them (the generator's proof)
$GEN --calls 3 "$WL" "$TMP/c3.data" || fail "the generator failed (--calls)"
perf script -i "$TMP/c3.data" --itrace=b -F +flags >"$TMP/out" 2>"$TMP/err"
check "--calls 3: perf sees 4 calls of pt_rec" test "$(grep -c 'call .*=> .* pt_rec+0x0 ' "$TMP/out")" -eq 4
check "--calls 3: pt_jump returns past pt_mid" grep -q 'return .*pt_jump+0x1 .*=> .* pt_calls+0xb ' "$TMP/out"
check "--calls 3: the trace ends at the call of pt_leaf" grep -q 'tr end  call .*pt_calls+0x12 .*pt_leaf+0x0 ' "$TMP/out"
check "--calls 3: and starts at its return address" grep -q 'tr strt .*=> .* pt_calls+0x14 ' "$TMP/out"
check "--calls 3: no decoding error" test ! -s "$TMP/err"

for c in "plain:--loops 6" "ovf:--loops 14 --ovf 4 --tsc-every 2" "notsc:--no-tsc --loops 5" \
	"percpu:--per-cpu --loops 4" "thread2:--thread2 --loops 4" "c3:--calls 3" \
	"c40:--calls 40 --tsc-every 1" "c0:--calls 0" "cpc:--calls 4 --per-cpu"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in i1ig i1ibeg bg i3ig4 i1ig1 i2ig40 i5tg i1is7g bs3 i2is3bg; do
		pt_vs_perf "$name" "$TMP/$name.data" $it
	done
	pt_vs_perf "$name" "$TMP/$name.data" i1ibg -F +flags
done

# across an interrupt into kernel code (--kernel, a kcore_dir perf reads): a
# user/kernel switch in a chain takes a slot, as perf's context marker
mkdir -p "$TMP/k"
$GEN --kernel --loops 6 --kcore-dir "$TMP/k/kcore_dir" "$WL" "$TMP/k/data" || fail "the generator failed (--kernel)"
for it in i1ig i1ibg i1ig3 i1ig2; do
	pt_vs_perf kernel "$TMP/k" $it
done
check "kernel: a chain from prism_kleaf to the user loop" \
	grep -A3 -q 'prism_kleaf+0x0 ' <(prism script -i "$TMP/k" --itrace=i1ig | grep -A3 $'^\t.* prism_kleaf+0x0 ' | grep -m1 -B3 'pt_loop')

# the chains are not trivial: pt_rec 40 deep, cut at 16 entries (g's default), 40 with g40
prism script -i "$TMP/c40.data" --itrace=i1ig >"$TMP/out"
check "c40: the deepest chain has 16 entries" \
	test "$(awk '/^\t/ { n++; next } { if (n > m) m = n; n = 0 } END { print m }' "$TMP/out")" -eq 16
prism script -i "$TMP/c40.data" --itrace=i1ig64 >"$TMP/out"
check "c40 g64: the deepest chain has 42 entries (pt_rec 41 times, pt_calls)" \
	test "$(awk '/^\t/ { n++; next } { if (n > m) m = n; n = 0 } END { print m }' "$TMP/out")" -eq 42
# in pt_jump: pt_jump, pt_mid, pt_calls; after its return past pt_mid: pt_calls alone
prism script -i "$TMP/c40.data" --itrace=i1ig |
	awk '/ pt_jump\+0x1 / { getline a; getline b; getline c; print a "|" b "|" c; j = 1 }
	     j && /^\t.* pt_calls\+0xb / { getline a; print "after|" a; exit }' >"$TMP/out"
check "c40: pt_jump's chain: pt_jump, pt_mid, pt_calls" \
	grep -q '^.* pt_mid+0x5 .*|.* pt_calls+0xb .*|$' "$TMP/out"
check "c40: after the return past pt_mid: pt_calls alone" grep -qx 'after|' "$TMP/out"
# s: the skipped samples' instructions count in the next one, as perf
check "plain i3is2: the first sample stands for 9 instructions" \
	grep -q '^ *pt-loop  4343 .* 9 instructions' <(prism script -i "$TMP/plain.data" --itrace=i3is2 | head -1)

for it in i1igk i1ig0 i1ig1025; do
	expect_exit 129 prism script -i "$TMP/plain.data" --itrace=$it
done
done_testing
