#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism export pprof on perf 6.1's fixtures (frame pointers, a shell without
# them, DWARF, zstd, pipe, zstd pipe, fixed period, two events), read back
# by go tool pprof: the totals (samples and ns) equal the file's (prism
# script's sample count per event, prism report's event count) and every
# named function's flat% and cum% equal prism report's Self and Children
# (--sort sym).  Labels, build ids, file/line, a multi-event file's --event,
# and the error paths (no partial output file, exit codes).
. tests/e2e/lib.sh
require_fixtures
require_cmd python3
command -v go >/dev/null 2>&1 || skip "go (Debian golang-go) is not installed: go tool pprof reads the output"
prism version --build-options | grep -q 'zlib: \[ on' || skip "built without zlib"
F=$FIXTURES/perf-6.1
S=$TMP/symfs
mkdir -p "$S/tmp"
cp "$F/perfdata-workload.bin" "$S/tmp/perfdata-workload"
export HOME=$TMP GOCACHE=$TMP/gocache GOFLAGS=-mod=mod
pp() { go tool pprof -symbolize=none "$@" 2>/dev/null; }

# export FIXTURE INPUT-ARG... ; compares with prism report
compare() {
	local name=$1 ev=$2
	shift 2
	prism export pprof "$@" $SYMFS -e "$ev" -o "$TMP/$name.pb.gz" \
		>"$TMP/$name.out" 2>"$TMP/$name.err"
	rc=$?
	check "$name: export exits 0 ($(head -c 300 "$TMP/$name.err"))" test $rc -eq 0
	grep_q "^wrote '$TMP/$name.pb.gz': [0-9]+ samples of '$ev'" "$TMP/$name.err"
	check "$name: gzip" sh -c "gzip -t '$TMP/$name.pb.gz'"
	prism report "$@" $SYMFS -e "$ev" --sort sym -g none >"$TMP/$name.rep" 2>/dev/null
	pp -top -nodecount=100000 -nodefraction=0 -edgefraction=0 "$TMP/$name.pb.gz" \
		>"$TMP/$name.top"
	check "$name: go tool pprof reads it" grep -q '^Showing nodes' "$TMP/$name.top"
	python3 tests/tools/pprof-vs-report.py "$TMP/$name.rep" "$TMP/$name.top" ${EMPTY:-} \
		>"$TMP/$name.cmp" 2>&1
	rc=$?
	check "$name: pprof -top = prism report: $(tr '\n' ';' <"$TMP/$name.cmp" | head -c 600)" \
		test $rc -eq 0
	# totals: samples (prism script's count) and the event count
	want_n=$(prism script "$@" -F event 2>/dev/null | grep -c "^ *$ev: *\$")
	got_n=$(pp -top -sample_index=samples -nodecount=1 "$TMP/$name.pb.gz" |
		sed -n 's/^Showing nodes accounting for .* of \([0-9]*\) total$/\1/p')
	check "$name: $got_n samples in pprof, $want_n in the file" test "$got_n" = "$want_n"
	want_p=$(sed -n 's/^# Event count (approx.): \([0-9]*\)$/\1/p' "$TMP/$name.rep" | head -1)
	got_p=$(pp -top -unit=ns -nodecount=1 "$TMP/$name.pb.gz" |
		sed -n 's/^Showing nodes accounting for .* of \([0-9]*\)ns total$/\1/p')
	check "$name: total $got_p ns in pprof, event count $want_p" test "$got_p" = "$want_p"
}

SYMFS="--symfs $S"
compare a-fp cpu-clock -i "$F/a-fp.data"
# sh and libc: this machine's if their build ids are the recorded ones (else
# every row is an address, and none can be compared)
SYMFS= EMPTY=--may-be-empty compare a2-fp-shell cpu-clock -i "$F/a2-fp-shell.data"
compare b-dwarf cpu-clock -i "$F/b-dwarf.data"
compare c-zstd cpu-clock -i "$F/c-zstd.data"
compare i-fixed-period cpu-clock -i "$F/i-fixed-period.data"
compare e-two-cpu cpu-clock -i "$F/e-two-events.data"
compare e-two-task task-clock -i "$F/e-two-events.data"
# pipes: read from standard input
compare d-pipe cpu-clock -i - <"$F/d-pipe.data"
compare c2-zstd-pipe cpu-clock -i - <"$F/c2-zstd-pipe.data"

# content of the profile: types, mapping with build id, source lines
pp -raw "$TMP/a-fp.pb.gz" >"$TMP/raw"
grep_q '^samples/count cpu/nanoseconds\[dflt\]$' "$TMP/raw"
grep_q '^PeriodType: cpu nanoseconds$' "$TMP/raw"
grep_q '^Period: 1001001$' "$TMP/raw"
bid=$(readelf -n "$F/perfdata-workload.bin" | sed -n 's/^ *Build ID: \([0-9a-f]*\)$/\1/p')
check "the workload's build id ($bid)" test -n "$bid"
grep_q "/tmp/perfdata-workload $bid " "$TMP/raw"
grep_q ' leaf_a [^ ]*workload\.c:1[0-9] ' "$TMP/raw"
pp -top -nodecount=1 "$TMP/a-fp.pb.gz" >"$TMP/dur"
grep_q '^Duration: 299\.52ms' "$TMP/dur"

# time_nanos from CLOCK_DATA: the first sample's time of day, as perf script -F tod
prism export pprof -q -i "$F/o-clockid.data" -o "$TMP/o.pb.gz"
got=$(pp -raw "$TMP/o.pb.gz" | sed -n 's/^Time: \([0-9-]* [0-9:]*\.[0-9]\{6\}\).*/\1/p')
if command -v perf >/dev/null; then
	want=$(perf script -i "$F/o-clockid.data" -F tod 2>/dev/null | head -1 | tr -d ' ')
	check "time_nanos: '$got' = perf's first tod '$want'" test "${got/ /}" = "$want" -a -n "$want"
fi

# --labels: pid/tid/comm/cpu tags
prism export pprof -i "$F/h-switch-cpu-wide.data" --labels -o "$TMP/l.pb.gz" 2>/dev/null
rc=$?
check "--labels export exits 0" test $rc -eq 0
pp -tags "$TMP/l.pb.gz" >"$TMP/tags"
grep_q '^ *comm: Total' "$TMP/tags"
grep_q '^ *cpu: Total' "$TMP/tags"
grep_q '^ *pid: Total' "$TMP/tags"
grep_q '^ *tid: Total' "$TMP/tags"
# the samples of each CPU, as prism script counts them
for cpu in 0 1; do
	want=$(prism script -i "$F/h-switch-cpu-wide.data" -F cpu,event 2>/dev/null |
		grep -c "^\[00$cpu\] *cpu-clock:")
	got=$(pp -top -sample_index=samples "-tagfocus=cpu=^$cpu\$" -nodecount=100000 -nodefraction=0 "$TMP/l.pb.gz" |
		sed -n 's/^Showing nodes accounting for \([0-9]*\), .*/\1/p')
	check "cpu $cpu: $got samples with the label, $want in the file" test "$got" = "${want}"
done

# inlined functions (--inline): one location, the inlined function's line
# first and the function it was inlined into last; shares as prism report's
if command -v gcc >/dev/null && command -v perf >/dev/null; then
	cat >"$TMP/inl.c" <<'C'
static inline __attribute__((always_inline)) unsigned long hot(unsigned long x)
{
	for (int i = 0; i < 2000; i++)
		x = x * 31 + i;
	return x;
}
static unsigned long __attribute__((noinline)) outer(unsigned long x)
{
	return hot(x) ^ 7;
}
int main(void)
{
	unsigned long s = 0;

	for (long i = 0; i < 100000; i++)
		s += outer(i);
	return s == 42;
}
C
	if gcc -O2 -g -fno-omit-frame-pointer -o "$TMP/inl" "$TMP/inl.c" &&
		perf record -q -e cpu-clock -F 2000 -g -o "$TMP/inl.data" "$TMP/inl" 2>/dev/null; then
		SYMFS=--inline
		compare inline cpu-clock -i "$TMP/inl.data"
		pp -raw "$TMP/inline.pb.gz" >"$TMP/inl.raw"
		grep -A1 -E '^ +[0-9]+: 0x[0-9a-f]+ M=[0-9]+ hot [^ ]*inl\.c:[0-9]+ ' "$TMP/inl.raw" |
			grep -q -E '^ +outer '
		rc=$?
		check "a location holds hot (inlined) then outer" test $rc -eq 0
		grep_q 'M=[0-9]+ hot .* \[FN\]\[FL\]\[LN\]\[IN\]$|\[FN\]\[FL\]\[LN\]\[IN\]' "$TMP/inl.raw"
	else
		echo "# inline part skipped: cannot build or record the workload" >&3
	fi
fi

# live: an off-CPU file of prism record --off-cpu (BPF)
WL=$PRISM_OUT/tests/workloads/offcpu-sleep
if [ "$(id -u)" -eq 0 ] && [ -x "$WL" ] && [ -r /sys/kernel/btf/vmlinux ] &&
	prism version --build-options | grep -q 'bpf: \[ on'; then
	prism record --off-cpu -o "$TMP/off.data" -- "$WL" 20 10 >/dev/null 2>"$TMP/off.rec"
	rc=$?
	check "record --off-cpu exits 0 ($(head -c 200 "$TMP/off.rec"))" test $rc -eq 0
	SYMFS=
	compare offcpu offcpu-time -i "$TMP/off.data"
	pp -top -nodecount=1 "$TMP/offcpu.pb.gz" >"$TMP/off.top"
	grep_q '^Type: off_cpu$' "$TMP/off.top"
	pp -raw "$TMP/offcpu.pb.gz" | grep -q '^samples/count off_cpu/nanoseconds\[dflt\]$'
	rc=$?
	check "off-CPU sample types" test $rc -eq 0
else
	echo "# off-CPU part skipped: needs root, BTF, prism with BPF and the workloads" >&3
fi

# errors: no output file left behind, exit codes
expect_exit 1 prism export pprof -i "$TMP/nonexistent.data" -o "$TMP/x.pb.gz"
check "no output after a missing input" test ! -e "$TMP/x.pb.gz"
expect_exit 1 prism export pprof -i "$F/a-fp.data" -e nosuch -o "$TMP/x.pb.gz"
check "no output after an unknown event" test ! -e "$TMP/x.pb.gz"
check "no temporary files left" sh -c "! ls -a '$TMP' | grep -q prism-export"
prism export pprof -i "$F/a-fp.data" -e nosuch -o "$TMP/x.pb.gz" 2>"$TMP/ev.err"
grep_q "^hint: the file has event 'cpu-clock'" "$TMP/ev.err"
expect_exit 1 prism export pprof -i "$F/a-fp.data" -o "$TMP/no/such/dir/x.pb.gz"
expect_exit 129 prism export pprof -i "$F/a-fp.data"
expect_exit 129 prism export pprf -i "$F/a-fp.data" -o "$TMP/x"
prism export pprf 2>"$TMP/dym.err"
grep_q "did you mean 'pprof'" "$TMP/dym.err"
prism export --help >"$TMP/help"
grep_q '^   pprof ' "$TMP/help"
# an existing file is replaced only by a complete profile
echo keep >"$TMP/keep.pb.gz"
prism export pprof -i "$F/a-fp.data" -e nosuch -o "$TMP/keep.pb.gz" 2>/dev/null
check "a failed export keeps the old file" grep -q '^keep$' "$TMP/keep.pb.gz"
# standard output
prism export pprof -i "$F/a-fp.data" -o - 2>/dev/null | gzip -t
rc=$?
check "-o - writes the gzip stream to standard output" test $rc -eq 0
done_testing
