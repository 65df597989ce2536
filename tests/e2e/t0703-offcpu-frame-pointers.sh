#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live (root): a program built with -O2 -fomit-frame-pointer sleeps in
# inner() <- outer() <- main().  With the BPF method (frame-pointer user
# stacks) its stacks stop in libc and prism offcpu must warn that they are
# cut short; with DWARF unwinding (the BPF method's --off-cpu --call-graph
# dwarf, and the fallback's --off-cpu=sched --call-graph dwarf) the whole
# chain is back and there is no warning.  The frame-pointer workload of t0700
# gets no warning but the one of its futex wait (checked there).
. tests/e2e/lib.sh
require_root
require_cmd cc "apt-get install gcc"

cat >"$TMP/nofp.c" <<'C'
#include <stdlib.h>
#include <time.h>
static volatile long sink;
__attribute__((noinline)) static long inner(int n)
{
	struct timespec ts = { 0, 5000000 };
	long x = 0;
	for (int i = 0; i < n; i++) {
		nanosleep(&ts, NULL);
		x += i * sink;
	}
	return x;
}
__attribute__((noinline)) static long outer(int n)
{
	long a = inner(n) * 3;
	sink += a;
	return a + n;
}
int main(int argc, char **argv)
{
	return (int)outer(argc > 1 ? atoi(argv[1]) : 20) & 1;
}
C
cc -g -O2 -fomit-frame-pointer -o "$TMP/nofp" "$TMP/nofp.c" || skip "cannot compile the test program"

# fallback + DWARF: full stacks, no warning
prism record -q --off-cpu=sched --call-graph dwarf -o "$TMP/dwarf.data" -- "$TMP/nofp" 20
check "record --off-cpu=sched --call-graph dwarf exits 0" test $? -eq 0
prism offcpu -i "$TMP/dwarf.data" --folded >"$TMP/dwarf.folded" 2>"$TMP/dwarf.err"
grep_q '^nofp;(.*;)?main;outer;inner;[^ ]*nanosleep' "$TMP/dwarf.folded"
check "no frame-pointer warning with DWARF stacks ($(head -c 200 "$TMP/dwarf.err"))" \
	test ! -s "$TMP/dwarf.err"

# BPF: frame-pointer stacks, cut short: the warning
[ -r /sys/kernel/btf/vmlinux ] || skip "the kernel has no BTF (BPF part)"
prism version --build-options | grep -q 'bpf: \[ on' || skip "prism was built without BPF support"
prism record -q --off-cpu -o "$TMP/fp.data" -- "$TMP/nofp" 20
check "record --off-cpu exits 0" test $? -eq 0
prism offcpu -i "$TMP/fp.data" >"$TMP/fp.txt" 2>"$TMP/fp.err"
# every block is cut short; the count of blocks is the 20 sleeps, or a few
# fewer when the BPF side sums some (CI saw 19 of 19 on a busy machine)
grep_q "^warning: ([0-9]+) of \\1 off-CPU blocks have user stacks that end early in libc" "$TMP/fp.err"
n=$(sed -n 's/^warning: \([0-9]*\) of .*/\1/p' "$TMP/fp.err")
check "most of the 20 sleeps are blocks (${n:-none})" test "${n:-0}" -ge 15 -a "${n:-0}" -le 20
grep_q "e.g. in 'nofp'" "$TMP/fp.err"
grep_q "^hint: .*-fno-omit-frame-pointer.*--off-cpu --call-graph dwarf" "$TMP/fp.err"

# BPF with a copy of the stack (--call-graph dwarf): the whole chain, no warning
prism record -q --off-cpu --call-graph dwarf -o "$TMP/bdwarf.data" -- "$TMP/nofp" 20
check "record --off-cpu --call-graph dwarf exits 0" test $? -eq 0
prism offcpu -i "$TMP/bdwarf.data" --folded >"$TMP/bdwarf.folded" 2>"$TMP/bdwarf.err"
grep_q '^nofp;(.*;)?main;outer;inner;[^ ]*nanosleep' "$TMP/bdwarf.folded"
check "no frame-pointer warning with BPF DWARF stacks ($(head -c 200 "$TMP/bdwarf.err"))" \
	test ! -s "$TMP/bdwarf.err"
done_testing
