#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT decoding a block at a time (lib/pt/decode-block.c: libipt's block
# decoder where samples are sparse: branches only, periods of 64 or more)
# gives what the instruction decoder gives and what perf 6.1 prints, line for
# line: periods in instructions and ticks/time, with branches and errors,
# -F +flags,+insn (the sampled instruction decoded on its own), per thread
# and per CPU, an overflow, no TSC, split and truncated traces, missing code;
# -v shows the blocks were walked (and none with PRISM_PT_INSN_DECODER=1).
# The blocks of prism's walk (lib/pt/walk.c, traces of plain execution)
# equal libipt's block decoder's (PRISM_PT_LIBIPT_BLOCKS=1).
# Against perf where the instruction decoder's output is perf's: not per CPU
# over long runs (perf 6.1 gives the branches at a switch's time to swapper),
# 100-byte pieces (perf mis-decodes them) and missing code (t1053: the walk
# goes on from the next IP packet as perf, libipt's decoders from the next PSB).
. tests/e2e/lib.sh
require_pt_files

for c in "long:--loops 3000 --tsc-every 2" "ovf:--loops 400 --ovf 150 --tsc-every 1" \
	"notsc:--no-tsc --loops 500" "percpu:--per-cpu --loops 300 --tsc-every 3" \
	"thread2:--thread2 --loops 200 --tsc-every 1" "split:--split 100 --loops 300" \
	"trunc:--truncated --loops 600 --tsc-every 3" "error:--error --loops 100" \
	"miss:--loops 100 --map-path /nonexistent/pt-loop" "pip:--pip --ovf 150 --loops 400 --tsc-every 2"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for a in "--itrace=i64i" "--itrace=i100ie" "--itrace=i1000i" "--itrace=b" "--itrace=cre" \
		"--itrace=i" "--itrace=i64t" "--itrace=i128tbe" "--itrace=i1us" \
		"--itrace=i77ib -F +flags,+insn" "--itrace=i64te -F +flags,+insn" "--itrace=i64ig" \
		"--itrace=i100ibg3" "--itrace=i64tge"; do
		# shellcheck disable=SC2086
		perf script -i "$TMP/$name.data" $a >"$TMP/perf.txt" 2>/dev/null
		# shellcheck disable=SC2086
		prism script -i "$TMP/$name.data" $a >"$TMP/blk.txt" 2>"$TMP/err"
		check "$name $a: prism exits 0" test $? -eq 0
		# (missing code: the walk goes on from the next IP, libipt's decoders from the next PSB)
		[ $name = miss ] && continue
		# shellcheck disable=SC2086
		PRISM_PT_INSN_DECODER=1 prism script -i "$TMP/$name.data" $a >"$TMP/insn.txt" 2>/dev/null
		check "$name $a: blocks give the instruction decoder's $(wc -l <"$TMP/insn.txt") lines" \
			cmp -s "$TMP/insn.txt" "$TMP/blk.txt"
		# shellcheck disable=SC2086
		PRISM_PT_LIBIPT_BLOCKS=1 prism script -i "$TMP/$name.data" $a >"$TMP/lib.txt" 2>/dev/null
		check "$name $a: prism's walk gives libipt's blocks" cmp -s "$TMP/lib.txt" "$TMP/blk.txt"
		case $name in percpu | split | miss) continue ;; esac
		check "$name $a: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/blk.txt"
		diff "$TMP/perf.txt" "$TMP/blk.txt" | head -4 >&3
	done
done
# t1010's timing packets (MTC, CYC, CBR changes, an overflow, per CPU, a
# long run): the same times in ns, the same periods in ticks and time
for c in "mtc3:--mtc 3 --loops 300" "cyc3:--mtc 2 --cyc 3 --loops 90 --tsc-every 25" \
	"cbr:--mtc 1 --cyc 1 --cbr-at 12:20 --tsc-every 12 --loops 40" \
	"cyc-cbr:--cyc 1 --cbr-at 6:30 --loops 30" "ovf-t:--mtc 0 --cyc 2 --ovf 9 --loops 30" \
	"percpu-t:--mtc 0 --cyc 1 --per-cpu --loops 10" \
	"long-t:--mtc 3 --cyc 2 --cbr-at 3000:16 --tsc-every 1500 --loops 6000 --iter-cycles 1400"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for a in b be i64i i64t i128tbe i1us i4096t; do
		prism script -i "$TMP/$name.data" --itrace=$a --ns >"$TMP/blk.txt" 2>/dev/null
		PRISM_PT_INSN_DECODER=1 prism script -i "$TMP/$name.data" --itrace=$a --ns \
			>"$TMP/insn.txt" 2>/dev/null
		check "$name --itrace=$a --ns: blocks give the instruction decoder's $(wc -l <"$TMP/insn.txt") lines" \
			cmp -s "$TMP/insn.txt" "$TMP/blk.txt"
		PRISM_PT_LIBIPT_BLOCKS=1 prism script -i "$TMP/$name.data" --itrace=$a --ns \
			>"$TMP/lib.txt" 2>/dev/null
		check "$name --itrace=$a --ns: prism's walk gives libipt's blocks" \
			cmp -s "$TMP/lib.txt" "$TMP/blk.txt"
		diff "$TMP/insn.txt" "$TMP/blk.txt" | head -4 >&3
	done
done
# events (decode-events.c: psb, cbr and the power events, PTWRITE,
# transactions) at the first instruction of a block, at a FUP's address
# inside one, after a branch with its flags: the same as one instruction at
# a time and as perf (t1025's files; perf report's default i100usgxwp)
for c in "power:--loops 10 --power 2 --tsc-every 2" "tsx:--loops 9 --tsx 2 --tsc-every 3" \
	"ptw:--loops 7 --ptw 2" "all:--loops 12 --tsx 1 --ptw 6 --power 8 --tsc-every 2" \
	"notsc-e:--no-tsc --loops 12 --tsx 1 --ptw 6 --power 8" \
	"percpu-e:--per-cpu --loops 12 --tsx 1 --ptw 6 --power 8" \
	"cbr-e:--mtc 1 --cyc 1 --cbr-at 12:20 --tsc-every 12 --loops 40" \
	"calls-e:--calls 6 --loops 300 --mtc 2 --power 40 --ptw 70 --tsc-every 9"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for a in "--itrace=i64tpwx" "--itrace=i64ipwx" "--itrace=i100ibgpwx -F +flags" \
		"--itrace=i64tgxwp" "--itrace=bpwx -F +flags" "--call-ret-trace" "--itrace=pwx -F +insn" \
		"--itrace=i64tgxwp -F +insn,+insnlen"; do
		# shellcheck disable=SC2086
		prism script -i "$TMP/$name.data" $a --ns >"$TMP/blk.txt" 2>/dev/null
		# shellcheck disable=SC2086
		PRISM_PT_INSN_DECODER=1 prism script -i "$TMP/$name.data" $a --ns >"$TMP/insn.txt" 2>/dev/null
		check "$name $a: blocks give the instruction decoder's $(wc -l <"$TMP/insn.txt") lines" \
			cmp -s "$TMP/insn.txt" "$TMP/blk.txt"
		diff "$TMP/insn.txt" "$TMP/blk.txt" | head -4 >&3
		# shellcheck disable=SC2086
		PRISM_PT_LIBIPT_BLOCKS=1 prism script -i "$TMP/$name.data" $a --ns >"$TMP/lib.txt" 2>/dev/null
		check "$name $a: prism's walk gives libipt's blocks" cmp -s "$TMP/lib.txt" "$TMP/blk.txt"
		# shellcheck disable=SC2086
		perf script -i "$TMP/$name.data" $a --ns >"$TMP/perf.txt" 2>/dev/null
		check "$name $a: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/blk.txt"
		diff "$TMP/perf.txt" "$TMP/blk.txt" | head -4 >&3
	done
done
prism script -v -i "$TMP/all.data" --itrace=i64tpwx 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "events: blocks walked" grep -qE ', [1-9][0-9]* blocks walked' "$TMP/v"
prism script -v -i "$TMP/cbr-e.data" --itrace=i64tpwx 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "psb and cbr events: walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"
check "calls-e: psb, cbr, ptwrite and instruction samples" test "$(prism script -i "$TMP/calls-e.data" \
	--itrace=i64tpwx | grep -oE ' (psb|cbr|ptwrite|instructions:?[a-zA-Z]*): ' | sort -u | wc -l)" -eq 4
# PIPs outside PSB+ (a MOV CR3 of a kernel context switch): prism's walk
# binds them as libipt does (a MOV CR3 in a run, at a jump's target, a far
# branch); a sync disable without IP binds to a MOV CR3 (with or without
# its PIP); against perf where perf 6.1 decodes the same: not a far branch's
# PIP (it times the return to user space later), not a disable at a MOV CR3
# (perf walks on to the next branch)
for c in "cr3:" "cr3far:--far-pip" "cr3stop1:--cr3-stop 1" "cr3stop2:--cr3-stop 2"; do
	name=${c%%:*}
	mkdir -p "$TMP/$name"
	# shellcheck disable=SC2086
	$GEN --kernel --cr3 ${c#*:} --loops 6 --tsc-every 1 --kcore-dir "$TMP/$name/kcore_dir" \
		"$WL" "$TMP/$name/data" || fail "$name: the generator failed"
	for a in b i1i i64t i64tg cre i64tpwx; do
		prism script -i "$TMP/$name" --itrace=$a --ns >"$TMP/blk.txt" 2>/dev/null
		PRISM_PT_INSN_DECODER=1 prism script -i "$TMP/$name" --itrace=$a --ns >"$TMP/insn.txt" 2>/dev/null
		check "$name --itrace=$a: blocks give the instruction decoder's $(wc -l <"$TMP/insn.txt") lines" \
			cmp -s "$TMP/insn.txt" "$TMP/blk.txt"
		diff "$TMP/insn.txt" "$TMP/blk.txt" | head -4 >&3
		PRISM_PT_LIBIPT_BLOCKS=1 prism script -i "$TMP/$name" --itrace=$a --ns >"$TMP/lib.txt" 2>/dev/null
		check "$name --itrace=$a: prism's walk gives libipt's blocks" cmp -s "$TMP/lib.txt" "$TMP/blk.txt"
		[ "$name" = cr3 ] || continue
		perf script -i "$TMP/$name" --itrace=$a --ns >"$TMP/perf.txt" 2>/dev/null
		check "$name --itrace=$a: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
			cmp -s "$TMP/perf.txt" "$TMP/blk.txt"
		diff "$TMP/perf.txt" "$TMP/blk.txt" | head -4 >&3
	done
	prism script -v -i "$TMP/$name" --itrace=b 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
	check "$name: walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"
done
# libipt's SKD022 (a Skylake CPUID, t1051): an async disable at a VMLAUNCH taken
# for a sync one, by prism's walk as by libipt's decoders; without the erratum
# it stays async (the VMLAUNCH not done: one instruction less)
for c in "kvm:" "kvmskl:--cpuid GenuineIntel,6,142,10"; do
	name=${c%%:*}
	mkdir -p "$TMP/$name"
	# shellcheck disable=SC2086
	$GEN --kernel --kvm ${c#*:} --loops 6 --tsc-every 1 --kcore-dir "$TMP/$name/kcore_dir" \
		"$WL" "$TMP/$name/data" || fail "$name: the generator failed"
	for a in b cre i64t; do
		prism script -i "$TMP/$name" --itrace=$a -F +flags >"$TMP/blk.txt" 2>/dev/null
		PRISM_PT_INSN_DECODER=1 prism script -i "$TMP/$name" --itrace=$a -F +flags >"$TMP/insn.txt" 2>/dev/null
		check "$name --itrace=$a: blocks give the instruction decoder's $(wc -l <"$TMP/insn.txt") lines" \
			cmp -s "$TMP/insn.txt" "$TMP/blk.txt"
		PRISM_PT_LIBIPT_BLOCKS=1 prism script -i "$TMP/$name" --itrace=$a -F +flags >"$TMP/lib.txt" 2>/dev/null
		check "$name --itrace=$a: prism's walk gives libipt's blocks" cmp -s "$TMP/lib.txt" "$TMP/blk.txt"
	done
	perf script -i "$TMP/$name" --itrace=b >"$TMP/perf.txt" 2>/dev/null
	check "$name --itrace=b: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
		cmp -s "$TMP/perf.txt" <(prism script -i "$TMP/$name" --itrace=b 2>/dev/null)
done
check "kvmskl: the VMLAUNCH done (SKD022)" test "$(prism script -i "$TMP/kvmskl" --itrace=i1i | wc -l)" \
	-eq $(($(prism script -i "$TMP/kvm" --itrace=i1i | wc -l) + 1))
check "kvmskl: a sync trace end at the VMLAUNCH (SKD022)" grep -q 'tr end  sysret .*prism_kvm+0x0 ' \
	<(prism script -i "$TMP/kvmskl" --itrace=b -F +flags)
check "kvmskl: walked by prism" grep -q "(1 queues by prism's walk)" \
	<(prism script -v -i "$TMP/kvmskl" --itrace=b 2>&1 >/dev/null)
check "cr3: the branches in prism_kswitch" test "$(prism script -i "$TMP/cr3" --itrace=b |
	grep -c 'prism_kswitch+0x8 .*=> .*prism_kleaf+0x0')" -eq 2
# call chains and call traces (the threads' stacks from the blocks' calls
# and returns): recursion, a return past its caller, a call at a trace end,
# a thread on two CPUs (its queues decoded in time order)
for c in "c3:--calls 3" "c40:--calls 40 --tsc-every 1" "cpc:--calls 4 --per-cpu" \
	"loop-cpu:--per-cpu --loops 300 --tsc-every 3"; do
	name=${c%%:*}
	# shellcheck disable=SC2086
	$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
	for a in --itrace=i64ig --itrace=i64tg4 --itrace=bg --itrace=i100ibeg --call-trace \
		--call-ret-trace; do
		prism script -i "$TMP/$name.data" $a >"$TMP/blk.txt" 2>/dev/null
		PRISM_PT_INSN_DECODER=1 prism script -i "$TMP/$name.data" $a >"$TMP/insn.txt" 2>/dev/null
		check "$name $a: blocks give the instruction decoder's $(wc -l <"$TMP/insn.txt") lines" \
			cmp -s "$TMP/insn.txt" "$TMP/blk.txt"
		diff "$TMP/insn.txt" "$TMP/blk.txt" | head -4 >&3
		PRISM_PT_LIBIPT_BLOCKS=1 prism script -i "$TMP/$name.data" $a >"$TMP/lib.txt" 2>/dev/null
		check "$name $a: prism's walk gives libipt's blocks" cmp -s "$TMP/lib.txt" "$TMP/blk.txt"
	done
done
prism script -v -i "$TMP/cpc.data" --itrace=i64ig 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "cpc g: blocks walked" grep -qE ', [1-9][0-9]* blocks walked' "$TMP/v"
# not empty, and the blocks were walked
check "long --itrace=i1000i: samples" test "$(prism script -i "$TMP/long.data" --itrace=i1000i |
	grep -c ' 1000 instructions')" -gt 20
check "miss: the error line" grep -q 'code 5: Failed to get instruction' \
	<(prism script -i "$TMP/miss.data" --itrace=i64ie)
prism script -v -i "$TMP/long.data" --itrace=i1000i 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "-v: blocks walked" grep -qE ', [1-9][0-9]* blocks walked' "$TMP/v"
check "-v: the plain trace walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"
prism script -v -i "$TMP/ovf.data" --itrace=i1000i 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "-v: one with an overflow walked by prism" grep -q "(1 queues by prism's walk)" "$TMP/v"
PRISM_PT_LIBIPT_BLOCKS=1 prism script -v -i "$TMP/long.data" --itrace=i1000i 2>&1 >/dev/null |
	grep '^Intel PT: ' >"$TMP/v"
check "PRISM_PT_LIBIPT_BLOCKS=1: libipt's blocks" grep -q "(0 queues by prism's walk)" "$TMP/v"
PRISM_PT_INSN_DECODER=1 prism script -v -i "$TMP/long.data" --itrace=i1000i 2>&1 >/dev/null |
	grep '^Intel PT: ' >"$TMP/v"
check "PRISM_PT_INSN_DECODER=1: no block" grep -q ', 0 blocks walked' "$TMP/v"
prism script -v -i "$TMP/long.data" --itrace=i1i 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "short periods: blocks walked too" grep -qE ', [1-9][0-9]* blocks walked' "$TMP/v"
prism script -v -i "$TMP/long.data" --itrace=i10il 2>&1 >/dev/null | grep '^Intel PT: ' >"$TMP/v"
check "the last branches (l): blocks walked too" grep -qE ', [1-9][0-9]* blocks walked' "$TMP/v"
check "the last branches (l): by prism's walk" grep -q "(1 queues by prism's walk)" "$TMP/v"
done_testing
