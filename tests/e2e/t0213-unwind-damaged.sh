#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# DWARF unwinding (--call-graph dwarf) of hostile and damaged samples, from
# synthetic files (tests/tools/perfdata-dwarf.py) against the committed ELF
# files tests/data/elf/unw-nopie and unw-pie (issue 20):
#
# - registers that make libdw ask for the words at 2^64 - 8 (high, wrap) and
#   near 0 (low), registers 0, a copy cut short (truncated), a frame pointer
#   below the copy (sp-outside), dyn_size 0 or larger than the copy, a copy
#   without registers (abi-none), and two sound samples (good)
# - prism script, report (every output mode) and offcpu run each file under
#   ASan/UBSan: script and report exit 0 without a sanitizer report, offcpu
#   exits 1 with its "no off-CPU data" error (a cpu-clock file has none);
# - perf script (the oracle, when installed) prints the same lines, the
#   binary present or absent (--map-path names a missing file), except for
#   dyn-large: perf 6.1 refuses that sample ("user stack dump failure") and
#   stops reading (compared only with a perf that reads it); prism unwinds
#   the copy it has and counts the damage;
# - the end-of-run warning counts the unwinds that stopped early, per reason.
. tests/e2e/lib.sh
require_cmd python3

E=$PRISM_SRC/tests/data/elf
GEN=$PRISM_SRC/tests/tools/perfdata-dwarf.py
cases="good high wrap low zero truncated sp-outside dyn-large dyn-zero abi-none all"
have_perf=1
command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 || have_perf=0

# no_crash WHAT RC ERRFILE: exit status below 128 and no sanitizer report
no_crash() {
	if [ "$2" -ge 128 ] || grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' "$3"; then
		head -n 20 "$3" >&3
		fail "$1 crashed (exit $2)"
	else
		echo "ok: $1 did not crash" >&3
	fi
}

for bin in unw-nopie unw-pie; do
	for c in $cases; do
		f=$TMP/$bin-$c.data
		python3 "$GEN" "$E/$bin" "$c" "$f" || fail "perfdata-dwarf.py $bin $c"
		prism script -i "$f" >"$f.script" 2>"$f.err"
		rc=$?
		no_crash "prism script ($bin $c)" $rc "$f.err"
		[ $rc -eq 0 ] || fail "prism script ($bin $c) exited $rc"
		i=0
		for mode in --stdio --no-children --folded "-g caller" "-g callee" "-g none" \
			"--flamegraph $f.svg"; do
			# shellcheck disable=SC2086 # the mode is words
			prism report -i "$f" $mode >"$f.report$i" 2>"$f.rerr$i"
			rc=$?
			no_crash "prism report $mode ($bin $c)" $rc "$f.rerr$i"
			[ $rc -eq 0 ] || fail "prism report $mode ($bin $c) exited $rc"
			i=$((i + 1))
		done
		prism offcpu -i "$f" >"$f.offcpu" 2>"$f.oerr"
		rc=$?
		no_crash "prism offcpu ($bin $c)" $rc "$f.oerr"
		if [ $rc -ne 1 ] || ! grep -q 'has no off-CPU data' "$f.oerr"; then
			fail "prism offcpu ($bin $c): expected exit 1 and 'has no off-CPU data', got $rc"
		fi
		if [ $have_perf = 1 ] && [ "$c" != dyn-large ] && [ "$c" != all ]; then
			perf script -i "$f" >"$f.perf" 2>/dev/null
			test_cmp "$f.perf" "$f.script"
		fi
	done
done

N=$TMP/unw-nopie
# what the damaged samples print: the sampled IP only, or nothing
grep_q $'^\t +559 unw_mid\\+0x4 \\(.*/unw-nopie\\)$' "$N-high.data.script"
[ "$(grep -c $'^\t' "$N-high.data.script")" -eq 1 ] || fail "high: one frame expected"
[ "$(grep -c $'^\t' "$N-zero.data.script")" -eq 0 ] || fail "zero: no frame expected"
[ "$(grep -c $'^\t' "$N-dyn-zero.data.script")" -eq 0 ] || fail "dyn-zero: no frame expected"
[ "$(grep -c $'^\t' "$N-good.data.script")" -eq 8 ] || fail "good: 2 x 4 frames expected"
grep_q $'^\t +444 _start\\+0x4 ' "$N-dyn-large.data.script"

# the warning: once, with the count per reason
check "no warning for sound samples" test ! -s "$N-good.data.err"
grep_q '^warning: 1 of 1 DWARF unwinds stopped early.*1: unreadable memory' "$N-high.data.err"
grep_q '^warning: 1 of 1 DWARF unwinds stopped early.*1: the stack copy ended' \
	"$N-truncated.data.err"
grep_q '^hint: a larger stack copy goes further' "$N-truncated.data.err"
grep_q '1: IP or SP is 0' "$N-zero.data.err"
grep_q '1: dyn_size is larger than the stack copy' "$N-dyn-large.data.err"
grep_q 'nothing was copied' "$N-dyn-zero.data.err"
grep_q 'a stack copy but no user registers' "$N-abi-none.data.err"
grep_q '^warning: 9 of 11 DWARF unwinds stopped early' "$N-all.data.err"
[ "$(grep -c '^warning: .* DWARF unwinds' "$N-all.data.rerr0")" -eq 1 ] ||
	fail "report: one unwind warning expected"
# report: the sound stacks as call graphs, a damaged sample under its own address
grep_q 'unw_leaf' "$N-all.data.report0"
grep_q '^unw;_start;main;unw_mid;unw_leaf [0-9]+$' "$N-all.data.report2"

# the binary absent: the sampled IP alone, as perf prints it
f=$TMP/absent.data
python3 "$GEN" --map-path /nonexistent/unw-pie "$E/unw-pie" good "$f"
prism script -i "$f" >"$f.script" 2>"$f.err"
check "prism script (binary absent) exits 0" test $? -eq 0
grep_q 'a frame is in code whose binary or CFI was not found' "$f.err"
if [ $have_perf = 1 ]; then
	perf script -i "$f" >"$f.perf" 2>/dev/null
	test_cmp "$f.perf" "$f.script"
	# perf 6.1 gives up on dyn-large ("user stack dump failure"), prism goes
	# on; a perf that reads the sample must print what prism prints
	if perf script -i "$N-dyn-large.data" >"$N-dyn-large.data.perf" 2>/dev/null; then
		test_cmp "$N-dyn-large.data.perf" "$N-dyn-large.data.script"
	else
		echo "ok: perf script refuses dyn-large, prism unwinds the copy" >&3
	fi
fi
done_testing
