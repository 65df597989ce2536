#!/bin/sh
# SPDX-License-Identifier: MIT
# Seeds for fuzz-pt: tests/tools/perfdata-pt.py files (file and pipe mode,
# per thread and per CPU, overflow, truncated, split, error record, every
# packet kind, MTC/CYC/CBR timing, TSX, power events, PTWRITE, CPUID with
# errata cases) over pt-loop,
# built here.
# usage: make-pt-seeds.sh CORPUS_DIR
set -e
out=$1
mkdir -p "$out"
wl=$out/../pt-loop-seed
${CC:-cc} -O1 -o "$wl" tests/workloads/pt-loop.c
n=0
for a in "" "--pipe" "--per-cpu" "--per-cpu --pipe --split 40" "--ovf 3 --loops 9 --tsc-every 2" \
	"--no-tsc --truncated --error" "--zoo" "--split 24 --loops 5" \
	"--mtc 3 --cyc 1 --cbr-at 3:20 --ovf 5 --loops 9 --tsc-every 4" \
	"--loops 12 --tsx 1 --ptw 6 --power 8 --hw-pwre --tsc-every 2" \
	"--per-cpu --no-tsc --loops 12 --tsx 1 --ptw 6 --power 8" "--calls 6 --loops 300 --mtc 2 --pip" \
	"--kernel --tsc-every 1 --loops 40" "--cpuid GenuineIntel,6,92,9 --ovf-fup 2 --loops 8" \
	"--pipe --cpuid GenuineIntel,6,142,10 --fup-nlip --ovf-pge 2 --loops 8" \
	"--ovf-pge 3 --ovf-at 1 --loops 9 --tsc-every 2" "--ovf-pge 2 --ovf-at 4 --loops 6 --no-tsc"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	python3 tests/tools/perfdata-pt.py $a "$wl" "$out/seed-$n.data"
done
# inputs that once crashed it
for f in tests/data/fuzz-regress/*.pt; do
	[ -e "$f" ] && cp "$f" "$out/"
done
