# SPDX-License-Identifier: MIT
#
# Helpers for end-to-end tests.  Source it first:  . tests/e2e/lib.sh
#
# A test exits 0 (pass), 77 after "skip: <reason>" (prerequisite missing),
# anything else (fail).  check/test_cmp record a failure and go on, so one
# run shows every difference; finish with 'done_testing'.

set -uo pipefail

: "${PRISM_SRC:=$(pwd)}"
: "${PRISM_BUILD:=$PRISM_SRC/out/san}"
: "${PRISM_OUT:=$PRISM_SRC/out}"
PRISM_BIN=$PRISM_BUILD/prism
: "${FIXTURES:=$PRISM_SRC/../shared/fixtures}"
GOLDEN=$PRISM_SRC/tests/golden
export LC_ALL=C PERF_PAGER=cat PAGER=cat

TMP=$(mktemp -d "${TMPDIR:-/tmp}/prism-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
_failures=0
# the helpers report on fd 3, so tests can redirect a command's own output
exec 3>&1

prism() {
	"$PRISM_BIN" "$@"
}

skip() {
	echo "skip: $*"
	exit 77
}

fail() {
	echo "not ok: $*" >&3
	_failures=$((_failures + 1))
}

# check DESCRIPTION COMMAND...: run COMMAND, a failure if it exits non-zero
check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok: $what" >&3
	else
		fail "$what"
	fi
}

# expect_exit CODE COMMAND...: the command's exit status must be CODE
expect_exit() {
	local want=$1 rc
	shift
	"$@"
	rc=$?
	if [ "$rc" -eq "$want" ]; then
		echo "ok: exit $want from: $*" >&3
	else
		fail "expected exit $want, got $rc from: $*"
	fi
}

# test_cmp EXPECTED ACTUAL: files must be equal (shows a diff otherwise)
test_cmp() {
	if diff -u "$1" "$2" >"$TMP/diff.out"; then
		echo "ok: $2 matches $1" >&3
	else
		head -n 80 "$TMP/diff.out" >&3
		fail "$2 differs from $1"
	fi
}

# golden NAME ACTUAL: compare with tests/golden/NAME; UPDATE_GOLDEN=1 rewrites it
golden() {
	local want=$GOLDEN/$1
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		mkdir -p "$(dirname "$want")"
		cp "$2" "$want"
		echo "updated: $want"
		return
	fi
	if [ ! -f "$want" ]; then
		fail "missing golden file $want (run with UPDATE_GOLDEN=1)"
		return
	fi
	test_cmp "$want" "$2"
}

# grep_q PATTERN FILE: FILE must contain PATTERN (extended regex)
grep_q() {
	if grep -Eq -- "$1" "$2"; then
		echo "ok: '$1' in $2" >&3
	else
		echo "--- $2:" >&3
		head -n 20 "$2" >&3
		fail "'$1' not found in $2"
	fi
}

require_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
}

require_cmd() {
	command -v "$1" >/dev/null 2>&1 || skip "needs '$1' (${2:-install it})"
}

require_perf() {
	require_cmd perf "apt-get install linux-perf"
	perf version >/dev/null 2>&1 || skip "perf is installed but does not run for this kernel"
}

# require_event EVENT WANT CMD...: the oracle must count at least WANT
# occurrences of EVENT while CMD runs (perf stat), or the test skips with the
# reason.  Machines differ in what they deliver (no PMU, no hardware
# breakpoints, a hypervisor that drops them): probe, never assume.
require_event() {
	local ev=$1 want=$2 out n
	shift 2
	out=$(perf stat -x, -e "$ev" -- "$@" 2>&1 >/dev/null)
	n=$(awk -F, -v ev="$ev" '$3 == ev { print $1; exit }' <<<"$out")
	case "$n" in
	'' | '<not supported>' | '<not counted>')
		skip "this machine does not deliver $ev (perf stat: ${n:-$(tail -n 1 <<<"$out")})" ;;
	esac
	[ "$n" -ge "$want" ] 2>/dev/null ||
		skip "this machine delivers $n of $want expected $ev events (perf stat)"
}

# require_export FEATURE: prism export's database (sqlite, postgresql) and the fixtures
require_export() {
	require_fixtures
	require_cmd sqlite3 "apt-get install sqlite3"
	prism version --build-options | grep -q "$1: \[ on" || skip "built without $1"
}

require_fixtures() {
	[ -d "$FIXTURES/perf-6.1" ] || skip "needs ../shared/fixtures"
}

require_tracefs() {
	require_root
	if [ ! -d /sys/kernel/tracing/events ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
			skip "tracefs is not mounted and cannot be mounted"
	fi
}

# cpu_share PID CMD...: run CMD, then print the % of one CPU the kernel
# accounted to PID meanwhile (/proc/PID/schedstat's on-CPU ns over the wall
# clock): the oracle for a live share, which the VM decides, not the workload
cpu_share() {
	local pid=$1 a b t0 t1
	shift
	read -r a _ <"/proc/$pid/schedstat" || return 1
	t0=$(date +%s%N)
	"$@"
	read -r b _ <"/proc/$pid/schedstat" || return 1
	t1=$(date +%s%N)
	awk -v a="$a" -v b="$b" -v t="$((t1 - t0))" 'BEGIN { printf "%.1f\n", (b - a) * 100 / t }'
}

done_testing() {
	if [ "$_failures" -ne 0 ]; then
		echo "$_failures check(s) failed"
		exit 1
	fi
	exit 0
}

# prism offcpu's function table (OFF, default output) gives each FUNC 95..101%
# of the time the workload measured around its blocking calls (WL, its
# "time FUNC NS" lines)
check_offcpu_share() { # OFF WL FUNC...
	local off=$1 wl=$2 f ms ns
	shift 2
	for f in "$@"; do
		ms=$(awk -v f="$f" '/^# Off-CPU time by function/ { t = 1; next } /^#/ && t && !/total ms/ { t = 0 }
			t && $(NF-1) == f { print $1; exit }' "$off")
		ns=$(awk -v f="$f" '$1 == "time" && $2 == f { print $3 }' "$wl")
		echo "note: $f: prism ${ms:-none} ms, workload measured ${ns:-none} ns" >&3
		check "$f holds 95..101% of the measured time (${ms:-none} ms vs ${ns:-none} ns)" \
			awk -v m="${ms:-0}" -v n="${ns:-0}" 'BEGIN { r = m * 1e6 / (n ? n : 1); exit !(r >= 0.95 && r <= 1.01) }'
	done
}

# require_pt_files: what the Intel PT tests need (perf, python3, a prism built
# with libipt, the pt-loop workload); sets WL (the workload) and GEN (the generator)
# a perf report's lines without its random tip and the blank or empty comment lines
# the same, the rows of one percentage in one order (perf's order of ties is its own)
report_rows() { report_body "$1" | awk '/^#/ { print; next } { print | "sort" }'; }

require_pt_files() {
	command -v perf >/dev/null || skip "perf is not installed"
	command -v python3 >/dev/null || skip "python3 is not installed"
	prism version --build-options | grep -q 'intel-pt: \[ on' || skip "prism built without libipt"
	WL=$PRISM_OUT/tests/workloads/pt-loop
	[ -x "$WL" ] || skip "$WL is not built (make test-bins)"
	GEN="python3 $PRISM_SRC/tests/tools/perfdata-pt.py"
}

# script_vs_perf NAME FILE [ARG...]: prism script ARG... of FILE against perf
# script's, line for line (the first lines that differ to fd 3)
script_vs_perf() {
	local name=$1 f=$2
	shift 2
	perf script -i "$f" "$@" >"$TMP/perf.txt" 2>/dev/null
	prism script -i "$f" "$@" >"$TMP/prism.txt" 2>"$TMP/err"
	check "$name $*: prism exits 0" test $? -eq 0
	check "$name $*: the $(wc -l <"$TMP/perf.txt") lines equal perf's" \
		cmp -s "$TMP/perf.txt" "$TMP/prism.txt"
	diff "$TMP/perf.txt" "$TMP/prism.txt" | head -4 >&3
}

# report_body [FILE]: perf report --stdio's body, without its tip and blank comment lines
# (perf 6.1 prints its "[...]" of -g fractal's rest with " (inlined)" where its
# uninitialized symbol says so: left out)
report_body() {
	grep -v '^# *$\|Tip\|^$\|header info\|perf report -h' "$@" | sed 's/--\[\.\.\.\] (inlined)$/--[...]/'
}

# report_vs_perf NAME FILE [ARG...]: prism report --stdio's body equals perf
# report's on FILE (perf with SIGPIPE ignored: 6.1 dies of it on srcline
# without the binary)
report_vs_perf() {
	local name=$1 f=$2
	shift 2
	(
		trap '' PIPE
		perf report -i "$f" --stdio "$@" 2>/dev/null
	) | report_body >"$TMP/p"
	prism report -i "$f" --stdio "$@" 2>/dev/null | report_body >"$TMP/q"
	check "$name $*: the $(wc -l <"$TMP/p") lines equal perf's" cmp -s "$TMP/p" "$TMP/q"
	diff "$TMP/p" "$TMP/q" | head -4 >&3
}

# pt_vs_perf NAME FILE ITRACE [ARG...]: the same with --itrace=ITRACE
pt_vs_perf() {
	local name=$1 f=$2 it=$3
	shift 3
	script_vs_perf "$name" "$f" --itrace="$it" "$@"
}

# pt_cases "ITRACE..." "ARG..." "NAME:GENERATOR OPTIONS"...: each case's file
# ($TMP/NAME.data, by the generator), then pt_vs_perf with each ITRACE and the ARGs
pt_cases() {
	local its=$1 args=$2 c name it
	shift 2
	for c in "$@"; do
		name=${c%%:*}
		# shellcheck disable=SC2086
		$GEN ${c#*:} "$WL" "$TMP/$name.data" || fail "$name: the generator failed"
		for it in $its; do
			# shellcheck disable=SC2086
			pt_vs_perf "$name" "$TMP/$name.data" "$it" $args
		done
	done
}
