#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The recording CPU from the file's CPUID feature (tests/tools/perfdata-pt.py
# --cpuid): prism script -v names it and the errata libipt applies for it
# (skd010 always), per file and pipe; with any CPUID, an odd or a bad one, or
# none, the plain trace decodes as perf 6.1 decodes it.  An OVF that
# resolves with tracing off followed by a stray FUP (Apollo Lake's erratum
# APL12, --ovf-fup) decodes as perf's with any CPUID or none (libipt's
# workaround on for every CPU, as skd010), through prism's walk, libipt's
# block decoder and its instruction decoder; a TSX trace with Broadwell's
# CPUID (BDM64) goes to libipt's block decoder.  perf's own
# Apollo Lake flag (FUP_WITH_NLIP, --fup-nlip: a FUP with the IP after an
# indirect call, then its TIP, taken as an interrupt at the call) has no
# libipt erratum: prism's walk follows it, equal to perf line for line (per
# thread and per CPU, with timing packets), libipt's block decoder does not;
# with another CPU it is an error at the call, as perf.  The event's
# branch=0 (--no-branch): the FUPs give the events' IPs, no code is walked
# to them, as perf.
. tests/e2e/lib.sh
require_pt_files

APL="GenuineIntel,6,92,9" SKL="GenuineIntel,6,142,10"
declare -A want=(
	[apl]="GenuineIntel family 6 model 92 stepping 9 (CPUID), errata skd010 apl12 apl11"
	[skl]="GenuineIntel family 6 model 142 stepping 10 (CPUID), errata bdm70 skd007 skd022 skd010 skl014 apl12 skl168"
	[nostep]="GenuineIntel family 6 model 92 (CPUID), errata skd010 apl12 apl11"
	[amd]="AuthenticAMD family 25 model 33 stepping 0 (CPUID), errata skd010 apl12"
	[unknown]="GenuineIntel family 6 model 1 stepping 0 (CPUID), errata skd010 apl12"
	[bad]="unknown (the CPUID feature 'garbage' is not vendor,family,model), errata skd010 apl12"
	[empty]="unknown (the CPUID feature '' is not vendor,family,model), errata skd010 apl12"
	[none]="none (no CPUID feature in the file), errata skd010 apl12"
)
declare -A cpuid=([apl]=$APL [skl]=$SKL [nostep]="GenuineIntel,6,92" [amd]="AuthenticAMD,25,33,0"
	[unknown]="GenuineIntel,6,1,0" [bad]="garbage" [empty]="")

$GEN --loops 5 "$WL" "$TMP/none.data" || fail "the generator failed"
prism script -i "$TMP/none.data" --itrace=be >"$TMP/none.txt" 2>/dev/null
for k in "${!want[@]}"; do
	f=$TMP/$k.data
	if [ "$k" != none ]; then
		$GEN --loops 5 --cpuid "${cpuid[$k]}" "$WL" "$f" || fail "$k: the generator failed"
	fi
	prism script -v -i "$f" --itrace=be >"$TMP/out" 2>"$TMP/err"
	check "$k: -v names the CPU and the errata" grep -qxF "Intel PT CPU: ${want[$k]}" "$TMP/err"
	check "$k: decodes as the file without CPUID" cmp -s "$TMP/none.txt" "$TMP/out"
	pt_vs_perf "$k" "$f" be
done
perf report --header-only -i "$TMP/apl.data" >"$TMP/hdr" 2>&1
check "perf reads the CPUID feature" grep -q "cpuid : $APL" "$TMP/hdr"
$GEN --pipe --loops 5 --cpuid "$APL" "$WL" "$TMP/pipe.data" || fail "the generator failed (--pipe)"
prism script -v -i "$TMP/pipe.data" --itrace=be >"$TMP/out" 2>"$TMP/err"
check "pipe: -v names the CPU and the errata" grep -qxF "Intel PT CPU: ${want[apl]}" "$TMP/err"
check "pipe: decodes as the file without CPUID" cmp -s "$TMP/none.txt" "$TMP/out"

# APL12: OVF, a stray FUP to pt_leaf, TIP.PGE at the loop's top: perf has no
# workaround, it starts the trace at the FUP, then again at the TIP.PGE,
# walking no code between (its overflow error where the last branch went);
# prism applies libipt's workaround on every CPU, so that all three decoders
# give perf's lines, also without a CPUID (perf's walk is the same)
for cpu in apl skl none; do
	f=$TMP/apl12-$cpu.data
	if [ $cpu = none ]; then
		$GEN --loops 10 --ovf-fup 2 "$WL" "$f" || fail "the generator failed (--ovf-fup)"
	else
		$GEN --loops 10 --ovf-fup 2 --cpuid "${cpuid[$cpu]}" "$WL" "$f" ||
			fail "the generator failed (--ovf-fup)"
	fi
	perf script -i "$f" --itrace=be -F +flags >"$TMP/perf-$cpu" 2>/dev/null
done
check "apl12: perf has no workaround (the same with either CPUID)" cmp -s "$TMP/perf-apl" "$TMP/perf-skl"
check "apl12: perf starts at the stray FUP" \
	grep -q 'tr strt .*=> *555555555139 pt_leaf+0x0' "$TMP/perf-apl"
after_ovf() { sed -n '/code 7: Overflow packet/,$p' "$1" | tail -n +2; }
after_ovf "$TMP/perf-apl" >"$TMP/perf-after"
check "apl12: perf decodes 6 iterations after the overflow" \
	test "$(grep -c 'call .*pt_loop+0x5 ' "$TMP/perf-after")" -eq 6
for dec in "" PRISM_PT_LIBIPT_BLOCKS PRISM_PT_INSN_DECODER; do
	for cpu in apl skl none; do
		for it in be i1ie i3tbgxe; do
			(if [ -n "$dec" ]; then export "$dec=1"; fi
				pt_vs_perf "apl12-$cpu ${dec:-walk}" "$TMP/apl12-$cpu.data" $it -F +flags)
		done
	done
done
# power events and TSCs after the TIP.PGE (perf's trace start before them),
# also where the code is missing (perf's walk to an IP takes the stray FUP)
pt_cases "be i1ie i3tbgxe bpwxe" "-F +flags --ns" \
	"apl12-events:--loops 10 --ovf-fup 2 --tsc-every 1 --power 1" \
	"apl12-events-skl:--loops 10 --ovf-fup 2 --tsc-every 1 --power 1 --cpuid $SKL" \
	"apl12-miss:--loops 10 --ovf-fup 2 --tsc-every 1 --power 1 --map-path /nonexistent/pt-loop" \
	"apl12-pge-events:--loops 10 --tsc-every 1 --power 1 --ovf-pge 2"

# TSX with Broadwell's CPUID: libipt's BDM64 applies, so its block decoder
# takes the queue, not prism's walk (lib/pt/walk.c); equal to perf either way
for c in "bdw:GenuineIntel,6,61,4" "skl:$SKL"; do
	name=${c%%:*}
	$GEN --loops 12 --tsx 1 --ptw 6 --power 8 --tsc-every 2 --cpuid "${c#*:}" "$WL" \
		"$TMP/tsx-$name.data" || fail "the generator failed (--tsx)"
	for it in bex i1ix bepwx; do
		pt_vs_perf "tsx-$name" "$TMP/tsx-$name.data" $it -F +flags
	done
	prism script -v -i "$TMP/tsx-$name.data" --itrace=bex >/dev/null 2>"$TMP/err-$name"
done
check "tsx-bdw: -v names Broadwell's errata" \
	grep -qxF "Intel PT CPU: GenuineIntel family 6 model 61 stepping 4 (CPUID), errata bdm70 bdm64 skd010 apl12" "$TMP/err-bdw"
check "tsx-bdw: no queue walked by prism's walk (BDM64)" grep -q "(0 queues by prism's walk)" "$TMP/err-bdw"
check "tsx-skl: the queue walked by prism's walk" grep -q "(1 queues by prism's walk)" "$TMP/err-skl"

# perf's FUP_WITH_NLIP (Apollo Lake only): FUP with the next IP of an indirect call, TIP
for cpu in apl skl; do
	$GEN --loops 2 --fup-nlip --cpuid "${cpuid[$cpu]}" "$WL" "$TMP/nlip-$cpu.data" ||
		fail "the generator failed (--fup-nlip)"
	perf script -i "$TMP/nlip-$cpu.data" --itrace=be -F +flags >"$TMP/perf-$cpu" 2>&1
done
check "fup-nlip: perf with Apollo Lake's CPUID: an interrupt at the indirect call" \
	grep -q 'hw int .*pt_loop+0x1d .*=> *555555555139 pt_leaf+0x0' "$TMP/perf-apl"
check "fup-nlip: perf with Skylake's: an error at the indirect call" \
	grep -q "ip 0x55555555515a code 6: Trace doesn't match instruction" "$TMP/perf-skl"
for c in "apl:--loops 20 --tsc-every 3" "apl-mtc:--loops 300 --mtc 2" \
	"apl-percpu:--loops 20 --tsc-every 3 --per-cpu" "skl:--loops 20 --tsc-every 3"; do
	name=${c%%:*}
	cpu=${name%%-*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} --fup-nlip --cpuid "${cpuid[$cpu]}" "$WL" "$TMP/$name.data" ||
		fail "$name: the generator failed"
	for it in be i1ie cre i3tbe i1iecrg bpwxe; do
		pt_vs_perf "nlip-$name" "$TMP/$name.data" $it --ns
	done
done

# the event without branch (BranchEn off): perf's decoder takes the FUPs as
# the events' IPs and walks no branches between them; prism's walk too
$GEN --no-branch --loops 6 --ptw 2 --power 4 "$WL" "$TMP/nobr.data" ||
	fail "the generator failed (--no-branch)"
perf script -i "$TMP/nobr.data" --itrace=bepw -F +flags >"$TMP/perf.txt" 2>/dev/null
check "no-branch: perf shows both ptwrites and the power events" \
	test "$(grep -c 'ptwrite:\|pwrx:' "$TMP/perf.txt")" -eq 4
check "no-branch: perf shows no conditional branch and no error" \
	test "$(grep -c 'jcc\|trace error' "$TMP/perf.txt")" -eq 0
for c in "nobr:--loops 6 --ptw 2 --power 4" "nobr-tsc:--loops 20 --ptw 5 --tsc-every 3" \
	"nobr-mtc:--loops 20 --power 5 --mtc 2" "nobr-percpu:--loops 6 --ptw 2 --power 4 --per-cpu"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN --no-branch ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for it in bpwxe be i1ie cre bpwx i100ipwe; do
		pt_vs_perf "$name" "$TMP/$name.data" $it --ns
	done
done
done_testing
