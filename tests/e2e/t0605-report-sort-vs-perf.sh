#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live: perf records (1) a workload profile - sh running tests/workloads/
# report-split as a PIE and as -no-pie builds, unstripped, stripped to
# .dynsym (-rdynamic) and stripped of all symbols - and (2) a system-wide
# -g profile of the same; prism report gives perf's rows for every --sort key
# perf accepts here and pairs of them (rows in perf's order, names, tid:comm
# labels, CPU numbers, unresolved addresses in perf's map-relative form;
# column padding aside), and prism script equals perf script line for line
# on the workload profile.  HOME is an empty directory for both tools (no
# build-id cache).  The system-wide profile is compared on the test's own
# tasks and keys without the symbol.
. tests/e2e/lib.sh
require_perf
WL=tests/workloads/report-split.c
command -v cc >/dev/null || skip "needs a C compiler"
cd "$TMP" || exit 1
mkdir home
export HOME=$TMP/home
# -fno-plt: libc is called through the GOT, so no sample lands in a PLT
# stub, which perf 6.1 names by whichever of the stub's symbol and the
# zero-size one before it (_init, stretched over the PLT) its symbol tree's
# shape finds first (small programs: _init+0x40), prism by the stub
# (clock_gettime@plt, as objdump and perf on bigger programs)
build() { # NAME CFLAGS... : a variant of the workload
	local n=$1
	shift
	cc -O1 -fno-omit-frame-pointer -fno-inline -fno-plt "$@" -o "$n" "$PRISM_SRC/$WL"
}
build pie -g && build nopie -g -no-pie && build nopie-dyn -no-pie -rdynamic &&
	build nopie-strip -O2 -no-pie || skip "cannot build the workload variants"
strip -s nopie-dyn nopie-strip
check "nopie is ET_EXEC" test "$(od -An -j16 -N2 -tu2 nopie | tr -d ' ')" = 2
cat >run.sh <<'SH'
for v in pie nopie nopie-dyn nopie-strip; do ./$v 150; done
SH
perf record -q -g -F 1999 -e cpu-clock -o wl.data -- sh run.sh >/dev/null 2>rec.err ||
	skip "perf record failed: $(head -1 rec.err)"
perf record -q -a -g -F 999 -e cpu-clock -o sw.data -- sh run.sh >/dev/null 2>rec.err ||
	skip "perf record -a failed: $(head -1 rec.err)"

# TOOL FILE KEYS [OPTION...]: the rows, padding squeezed; rows that print
# the same percentage are put in one order (their periods can still differ
# below the printed precision, and a rare sample pair of equal print then
# orders by a period difference neither output shows)
rows() {
	"$1" report -i "$2" --stdio --no-children --sort "$3" -g none "${@:4}" 2>/dev/null |
		grep -v '^#' | grep . | sed 's/ *$//' | tr -s ' ' | sort -s -k1,1gr -k2
}
nr=0
for keys in comm pid cpu dso sym comm,dso dso,sym comm,dso,sym pid,sym sym,pid cpu,comm \
	pid,dso dso,cpu; do
	rows perf wl.data "$keys" >want
	rows prism wl.data "$keys" >got
	echo "-- workload --sort $keys" >&3
	test_cmp want got
	nr=$((nr + $(wc -l <want)))
done
# the system-wide profile: the rows of the tasks this test ran (other
# processes' names and JIT maps are issue #19's), on keys with the comm in
# them (perf's --comms keeps or drops a whole row by the comm of its first
# sample, as prism does: t0610 compares the filters on the fixtures)
mine=pie,nopie,nopie-dyn,nopie-strip
for keys in comm comm,dso cpu,comm comm,pid pid,comm dso,comm comm,cpu; do
	rows perf sw.data "$keys" --comms "$mine" >want
	rows prism sw.data "$keys" --comms "$mine" >got
	echo "-- system-wide --sort $keys" >&3
	test_cmp want got
	nr=$((nr + $(wc -l <want)))
done
check "compared $nr rows" test "$nr" -gt 50
# every variant is there, by name or (stripped) by address
for v in pie nopie nopie-dyn; do
	grep_q "^ [0-9.]+% $v $v \[\.\] b$" <(rows prism wl.data comm,dso,sym)
done
grep_q "^ [0-9.]+% nopie-strip nopie-strip \[\.\] 0x0000000000001[0-9a-f]{3}$" \
	<(rows prism wl.data comm,dso,sym)

perf script -i wl.data >want 2>/dev/null
prism script -i wl.data >got 2>err
check "prism script exits 0" test $? -eq 0
test_cmp want got
done_testing
