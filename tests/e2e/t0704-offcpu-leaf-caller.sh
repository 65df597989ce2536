#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live (root, kernel BTF, prism built with BPF): the function that blocked,
# through Debian's libc, which has no frame pointers.  A program built with
# frame pointers sleeps in sleeper() (100 x 10 ms nanosleep), then reads in
# reader() (100 x 1 byte from a pipe a child writes every 10 ms); a second
# mode reads through two callers of read(), reader_a() and reader_b(), from
# the same parent.  A frame-pointer walk from inside clock_nanosleep or read
# skips their caller: prism offcpu must put it back from the window of stack
# kept at sp (frame-pointer mode) and from the stack copy (--call-graph
# dwarf), attribute 95..101% of the wall-clock time the workload measured
# around sleeper() and reader() to stacks through them (folded and default
# output), keep reader_a and reader_b apart, and
# warn, naming libc, when the window is off.  perf 6.1 reads both files
# without a warning and unwinds the DWARF one.
. tests/e2e/lib.sh
require_root
require_cmd cc "apt-get install gcc"
[ -r /sys/kernel/btf/vmlinux ] || skip "the kernel has no BTF (/sys/kernel/btf/vmlinux)"
prism version --build-options | grep -q 'bpf: \[ on' || skip "prism was built without BPF support"

cat >"$TMP/blocker.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
__attribute__((noinline)) void sleeper(int n)
{
	struct timespec ts = { 0, 10000000 };
	for (int i = 0; i < n; i++)
		nanosleep(&ts, NULL);
}
__attribute__((noinline)) void reader(int fd, int n)
{
	char c;
	for (int i = 0; i < n; i++)
		if (read(fd, &c, 1) != 1)
			break;
}
__attribute__((noinline)) void reader_a(int fd, int n)
{
	char c;
	for (int i = 0; i < n; i++)
		if (read(fd, &c, 1) != 1)
			break;
}
__attribute__((noinline)) void reader_b(int fd, int n)
{
	char c;
	for (int i = 0; i < n; i++)
		if (read(fd, &c, 1) != 1)
			break;
}
static long long now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
/* the wall-clock time around a call: what off-CPU time can at most be */
#define TIMED(name, call)                                              \
	do {                                                           \
		long long t0_ = now();                                 \
		call;                                                  \
		printf("time %s %lld\n", name, now() - t0_);           \
		fflush(stdout);                                        \
	} while (0)
int main(int argc, char **argv)
{
	int two = argc > 1 && !strcmp(argv[1], "two"), p[2];
	pid_t pid;

	if (pipe(p))
		return 1;
	if (!two)
		TIMED("sleeper", sleeper(100));
	pid = fork();
	if (!pid) {
		struct timespec ts = { 0, 10000000 };
		close(p[0]);
		for (int i = 0; i < 100; i++) {
			nanosleep(&ts, NULL);
			if (write(p[1], "x", 1) != 1)
				break;
		}
		_exit(0);
	}
	close(p[1]);
	if (two) {
		TIMED("reader_a", reader_a(p[0], 50));
		TIMED("reader_b", reader_b(p[0], 50));
	} else {
		TIMED("reader", reader(p[0], 100));
	}
	waitpid(pid, NULL, 0);
	return 0;
}
C
cc -O1 -g -fno-omit-frame-pointer -o "$TMP/blocker" "$TMP/blocker.c" ||
	skip "cannot compile the test program"

# off-CPU ns of the folded stacks of the process $2 whose frames match $3
ns_of() { # FOLDED PID-ISH PATTERN
	awk -v re="$2" '$0 ~ re { s += $NF } END { print s + 0 }' "$1"
}
# the workload's own wall-clock ns around the call of $2
wall_of() { awk -v f="$2" '$1 == "time" && $2 == f { print $3 }' "$1"; }
# $1 (ns) is 95..101% of $2 (ns, the wall-clock time around the calls)
share_ok() { awk -v a="$1" -v w="$2" 'BEGIN { exit !(w > 0 && a >= 0.95 * w && a <= 1.01 * w + 2e6) }'; }
# the function table's total ms of $2
ms_of() { awk -v f="$2" '/^# Off-CPU time by function/ { t = 1; next } /^#/ && t && !/total ms/ { t = 0 }
	t && $(NF-1) == f { print $1; exit }' "$1"; }

check_mode() { # NAME RECORD-OPTIONS...
	local name=$1 ns ms wall
	shift
	prism record -q --off-cpu "$@" -o "$TMP/$name.data" -- "$TMP/blocker" \
		>"$TMP/$name.wl" 2>"$TMP/$name.rec"
	check "$name: record exits 0 ($(head -c 300 "$TMP/$name.rec"))" test $? -eq 0
	prism offcpu -i "$TMP/$name.data" --folded >"$TMP/$name.folded" 2>"$TMP/$name.err"
	check "$name: offcpu --folded exits 0" test $? -eq 0
	check "$name: no warning ($(head -c 300 "$TMP/$name.err"))" test ! -s "$TMP/$name.err"
	prism offcpu -i "$TMP/$name.data" >"$TMP/$name.txt" 2>/dev/null
	for f in sleeper reader; do
		wall=$(wall_of "$TMP/$name.wl" "$f")
		ns=$(ns_of "$TMP/$name.folded" ";$f;")
		ms=$(ms_of "$TMP/$name.txt" "$f")
		echo "note: $name: $f ${ns} ns in stacks through it, ${ms:-none} ms in the table, ${wall:-none} ns of wall-clock time" >&3
		check "$name: 95..101% of $f's time in stacks through it, --folded (${ns} of ${wall:-none} ns)" \
			share_ok "$ns" "${wall:-0}"
		check "$name: 95..101% of $f's time in the function table (${ms:-none} ms of ${wall:-none} ns)" \
			share_ok "$(awk -v m="${ms:-0}" 'BEGIN { printf "%.0f", m * 1e6 }')" "${wall:-0}"
	done
	grep_q '^blocker;.*main;sleeper;[^ ]*nanosleep[^ ]* [0-9]+$' "$TMP/$name.folded"
	grep_q '^blocker;.*main;reader;[^ ]*read[^ ]* [0-9]+$' "$TMP/$name.folded"
}

check_mode fp
check_mode dwarf --call-graph dwarf
check_mode dwarf4k --call-graph dwarf,4096

# the stack copies are stored as perf's: perf script unwinds them too
if command -v perf >/dev/null; then
	perf script -i "$TMP/dwarf.data" >"$TMP/dwarf.script" 2>"$TMP/dwarf.script.err"
	check "perf script reads the dwarf file" test $? -eq 0
	check "perf script: no warning ($(head -c 300 "$TMP/dwarf.script.err"))" \
		test ! -s "$TMP/dwarf.script.err"
	grep_q ' sleeper\+0x' "$TMP/dwarf.script"
	grep_q ' reader\+0x' "$TMP/dwarf.script"
	perf script -i "$TMP/fp.data" >/dev/null 2>"$TMP/fp.script.err"
	check "perf script: no warning on the fp file ($(head -c 300 "$TMP/fp.script.err"))" \
		test ! -s "$TMP/fp.script.err"
fi

# two callers of read() from the same parent stay apart
prism record -q --off-cpu -o "$TMP/two.data" -- "$TMP/blocker" two >"$TMP/two.wl" 2>/dev/null
check "two: record exits 0" test $? -eq 0
prism offcpu -i "$TMP/two.data" --folded >"$TMP/two.folded" 2>"$TMP/two.err"
for f in reader_a reader_b; do
	ns=$(ns_of "$TMP/two.folded" ";main;$f;[^;]*read[^;]* ")
	wall=$(wall_of "$TMP/two.wl" "$f")
	echo "note: two: $f ${ns} ns, ${wall:-none} ns of wall-clock time" >&3
	check "two: 95..101% of $f's time in stacks through it (${ns} of ${wall:-none} ns)" \
		share_ok "$ns" "${wall:-0}"
done

# without the window the callers are lost, and the warning says where
prism record -q --off-cpu --off-cpu-window 0 -o "$TMP/nowin.data" -- "$TMP/blocker" \
	>/dev/null 2>&1
check "nowin: record exits 0" test $? -eq 0
prism offcpu -i "$TMP/nowin.data" --folded >"$TMP/nowin.folded" 2>"$TMP/nowin.err"
grep_q '^warning: libc\.so\.6 has no frame pointers: [0-9]+ of [0-9]+ stacks lost their caller above .*(read|nanosleep).*; record with --call-graph dwarf' \
	"$TMP/nowin.err"
check "nowin: sleeper is lost" test "$(ns_of "$TMP/nowin.folded" ";sleeper;")" -eq 0
done_testing
