#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism trace prints syscalls strace-like as perf trace does: for
# `-- ls /` the same syscalls, as many, with the same return values and the
# same decoded arguments as perf trace 6.1, line for line (timing, addresses
# that ASLR moves, fd paths and the string arguments prism adds apart); and
# its filters -e, --failure and --duration keep what perf's keep.  Where
# BPF loads, the string arguments perf prints as pointers are the strings
# strace shows for the same command.
. tests/e2e/lib.sh
require_root
require_tracefs
require_perf
cd "$TMP" || exit 1

# the line layout: time (duration): comm/tid name(args) = ret
re='^( +[0-9]+\.[0-9]{3}| +\?) \(( *[0-9]+\.[0-9]{3} ms|         )\): [^ ]+/[0-9]+ .*\) += '

run_both() { # <name> <args...>: prism and perf trace on the same command, lines kept
	local n=$1
	shift
	"$PRISM_BIN" trace "$@" -- ls / >"$n.prism.out" 2>"$n.prism.err"
	check "prism trace $* exits 0" test $? -eq 0
	perf trace "$@" -- ls / >"$n.perf.out" 2>"$n.perf.err"
	check "perf trace $* exits 0" test $? -eq 0
	grep -E "$re" "$n.prism.err" >"$n.prism"
	grep -E "$re" "$n.perf.err" >"$n.perf"
	check "prism's workload output is the same as perf's" cmp -s "$n.prism.out" "$n.perf.out"
}

# name(args) = ret with what differs between two runs masked: addresses
# (0x...), the pid, fd paths perf adds (<...>), strings prism adds ("...",
# where perf prints a pointer)
norm() {
	sed -E -e 's/^[^:]*: [^ ]+\/[0-9]+ //' \
		-e 's/<[^>]*>//g' -e 's/"([^"\\]|\\.)*"(\.\.\.)?/0x0/g' \
		-e 's/0x[0-9a-f]+/ADDR/g' -e 's/ +=/ =/' \
		-e 's/^(set_tid_address\(.*\) =) [0-9]+ \(ls\)$/\1 PID (ls)/' "$@"
}
calls() { # name = ret
	norm "$@" | sed -E 's/^([a-z0-9_]+)\(.*\) = /\1 = /; s/^ \.\.\. \[continued\]: ([a-z0-9_]+)\(\)\) = /\1 = /'
}

run_both all
n=$(wc -l <all.prism)
check "prism printed syscall lines ($n)" test "$n" -gt 20
nl=$(wc -l <all.prism.err)
check "every line of prism's stderr has the layout ($nl lines)" test "$n" -eq "$nl"
calls all.prism >all.prism.calls
calls all.perf >all.perf.calls
test_cmp all.perf.calls all.prism.calls
grep_q '^openat = [0-9]+$' all.prism.calls
grep_q '^access = -1 ENOENT \(No such file or directory\)$' all.prism.calls
grep_q '^exit_group = \?$' all.prism.calls
grep_q '^execve = 0$' all.prism.calls

# the arguments: equal but where perf 6.1 prints statx's flags and mask empty
norm all.perf | grep -v '^statx(' >all.perf.args
norm all.prism >all.prism.norm
# where perf printed a call as " ... [continued]: name()) = ret" (another
# event came between its enter and exit in perf's run), its arguments are
# not in perf's line: that line of prism's is taken as perf's (the name and
# the result are compared above)
grep -v '^statx(' all.prism.norm |
	awk 'NR == FNR { p[FNR] = $0; next } p[FNR] ~ /^ \.\.\. \[continued\]: / { print p[FNR]; next } { print }' \
		all.perf.args - >all.prism.args
test_cmp all.perf.args all.prism.args
grep_q '^statx\(dfd: CWD, filename: ADDR, flags: [A-Z_|]+, mask: [A-Z_|]+, buffer: ADDR' all.prism.norm
echo "# note: perf 6.1 prints statx(flags: , mask: ) empty; prism decodes them"

# the strings: those strace reads for the same command, in the same order
# (execve left out: perf and prism see only its exit)
if "$PRISM_BIN" trace -v -e exit_group -- true 2>&1 | grep -q 'no string arguments'; then
	echo "# note: no BPF string capture here ($("$PRISM_BIN" trace -v -e exit_group -- true 2>&1 |
		grep 'no string arguments')): pointers only"
	n=$(grep -c '"' all.prism)
	check "without BPF strings no quoted argument ($n)" test "$n" -eq 0
elif ! command -v strace >/dev/null; then
	echo "# note: strace is not installed: the strings are not compared"
else
	# the first string argument of each call that has one: name "string"
	sed -nE 's/^[^:]*: [^ ]+\/[0-9]+ ([a-z0-9_]+)\([^"]*("([^"\\]|\\.)*").*/\1 \2/p' \
		all.prism >str.prism
	cut -d' ' -f1 str.prism | sort -u >str.names
	n=$(wc -l <str.prism)
	check "prism printed string arguments ($n)" test "$n" -gt 10
	strace -qq -f -o strace.txt -e trace="$(paste -sd, str.names)" ls / >strace.out
	sed -nE 's/^[0-9]+ +([a-z0-9_]+)\([^"]*("([^"\\]|\\.)*").*/\1 \2/p' strace.txt |
		grep -v '^execve ' >str.strace
	test_cmp str.strace str.prism
	grep_q '^openat "/etc/ld.so.cache"$' str.prism
	n=$(grep -cE '(filename|pathname): 0x' all.prism)
	check "every path argument read ($n left as pointers)" test "$n" -eq 0
	# fd paths: the path of the open that returned the fd, up to its close
	# (perf reads /proc at print time, which races with the process)
	read -r good bad missing < <(awk '
	{
		if ($0 ~ / openat\(/ && match($0, /filename: "[^"]*"/)) {
			f = substr($0, RSTART + 11, RLENGTH - 12)
			r = $NF
			if (r ~ /^[0-9]+$/ && f ~ /^\//)
				open[r] = f
		}
		s = $0
		if ($0 !~ / mmap\(/) {
			while (match(s, /fd: [0-9]+(<[^>]*>)?/)) {
				m = substr(s, RSTART + 4, RLENGTH - 4)
				s = substr(s, RSTART + RLENGTH)
				n = split(m, a, "<")
				if (!(a[1] in open))
					continue
				if (n < 2)
					missing++
				else if (open[a[1]] ">" != a[2])
					bad++
				else
					good++
			}
		}
		if (match($0, / close\(fd: [0-9]+/))
			delete open[substr($0, RSTART + 11, RLENGTH - 11)]
	}
	END { print good + 0, bad + 0, missing + 0 }
' all.prism)
	check "fd arguments carry their open's path ($good; $bad wrong, $missing missing)" \
		test "$good" -gt 10 -a "$bad" -eq 0 -a "$missing" -eq 0
	"$PRISM_BIN" trace --no-strings -- ls / 2>ns.err >/dev/null
	n=$(grep -c '"' ns.err)
	check "--no-strings: pointers only ($n strings)" test "$n" -eq 0
	n=$(grep -cE 'filename: 0x[0-9a-f]{1,8}[,)]' ns.err)
	check "--no-strings: perf's 32-bit pointers ($n)" test "$n" -gt 10
fi

# the layout: "= " at column 70 of the call text, as perf's
a=$(awk '{ i = index($0, ") "); print length(substr($0, 1, index($0, "= ") - 1)) - i }' all.prism | sort -u | head -1)
p=$(awk '{ i = index($0, ") "); print length(substr($0, 1, index($0, "= ") - 1)) - i }' all.perf | sort -u | head -1)
check "the return values start where perf's do ($a, $p)" test "$a" = "$p"

# filters: -e names and globs, --failure; each as perf's
run_both e -e openat,close
calls e.prism >e.prism.calls
calls e.perf >e.perf.calls
test_cmp e.perf.calls e.prism.calls
n=$(grep -cvE '^(openat|close) ' e.prism.calls)
check "-e openat,close: only those ($n others)" test "$n" -eq 0

run_both g -e 'mmap*,mprotect'
calls g.prism >g.prism.calls
calls g.perf >g.perf.calls
test_cmp g.perf.calls g.prism.calls

run_both f --failure
calls f.prism >f.prism.calls
calls f.perf >f.perf.calls
test_cmp f.perf.calls f.prism.calls
n=$(grep -cv ' = -1 E' f.prism.calls)
check "--failure: only failed calls ($n others)" test "$n" -eq 0
n=$(wc -l <f.prism.calls)
check "--failure: the failed calls are there ($n)" test "$n" -gt 0

# --duration: every printed call took at least that long (the set differs
# between runs, so no comparison with perf)
"$PRISM_BIN" trace --duration 0.01 -- ls / >/dev/null 2>d.err
check "prism trace --duration exits 0" test $? -eq 0
n=$(grep -E "$re" d.err | sed -E 's/^[^(]*\( *([0-9.]+) ms\).*/\1/' |
	awk '$1 < 0.01' | wc -l)
check "--duration 0.01: no shorter call ($n)" test "$n" -eq 0

# -e !name: every syscall but those
"$PRISM_BIN" trace -e '!openat,close' -- ls / >/dev/null 2>n.err
n=$(grep -E "$re" n.err | calls | grep -cE '^(openat|close) ')
check "-e '!openat,close' leaves them out ($n)" test "$n" -eq 0
grep -E "$re" n.err | calls | grep -q '^mmap ' || fail "-e '!openat,close' lost mmap"

# other tracepoints beside syscalls: perf's "sys:name(field: value, ...)"
run_both ev -e sched:sched_process_exec,openat
calls ev.prism >ev.prism.calls
calls ev.perf >ev.perf.calls
test_cmp ev.perf.calls ev.prism.calls
for t in prism perf; do
	grep 'sched:sched_process_exec(' ev.$t.err | sed -E 's/[0-9]+/N/g' >ev.$t.tp
done
test_cmp ev.perf.tp ev.prism.tp
grep_q '^ +N\.N \(         \): ls/N sched:sched_process_exec\(filename: "/usr/bin/ls", pid: N \(ls\), old_pid: N \(ls\)\)$' ev.prism.tp

# -F all: page faults in perf's layout; which faults happen varies between
# runs (page cache, ASLR), but the first one in user space is the dynamic
# loader's entry point for both
"$PRISM_BIN" trace -F all -e exit_group -- ls / >/dev/null 2>pf.prism.err
check "prism trace -F all exits 0" test $? -eq 0
perf trace -F all -e exit_group -- ls / >/dev/null 2>pf.perf.err
pfre='^ +[0-9]+\.[0-9]{3} \( 0\.000 ms\): ls/[0-9]+ (maj|min)fault \[[^]]+\] => [^ ]+ \([d?][.k]\)$'
n=$(grep -cE "$pfre" pf.prism.err)
check "prism printed page faults ($n)" test "$n" -gt 20
n=$(grep -vE "$pfre" pf.prism.err | grep -vc 'exit_group()')
check "every other line has perf's page fault layout ($n do not)" test "$n" -eq 0
for t in prism perf; do
	grep -m1 'fault \[.*(d\.)$' pf.$t.err | sed -E 's/^[^:]*: [^ ]+\/[0-9]+ //' >pf.$t.first
done
test_cmp pf.perf.first pf.prism.first
"$PRISM_BIN" trace -F -e exit_group -- true >/dev/null 2>pf.maj.err
n=$(grep -c 'minfault' pf.maj.err)
check "-F alone: major faults only ($n minor)" test "$n" -eq 0

# -p of a single-threaded process: no comm/tid column, the call in progress
# at the start as "[continued]", as perf prints it (a 3 s sleep: the traced
# process must outlive the start of a sanitizer build on a loaded machine)
for t in prism perf; do
	sleep 3 &
	sp=$!
	sleep 0.3
	if [ $t = prism ]; then "$PRISM_BIN" trace -p $sp 2>p.$t.err; else perf trace -p $sp 2>p.$t.err; fi
	wait $sp
	grep -E '^( +[0-9]+\.[0-9]{3}| +\?) \(' p.$t.err |
		sed -E -e 's/^[^)]*\): //' -e 's/<[^>]*>//g' -e 's/ +=/ =/' >p.$t
done
test_cmp p.perf p.prism
grep_q '^ \.\.\. \[continued\]: clock_nanosleep\(\)\) = 0$' p.prism

# -o writes the lines to a file
"$PRISM_BIN" trace -o o.txt -e exit_group -- true 2>o.err
grep_q '^ +[0-9.]+ \(         \): true/[0-9]+ exit_group\(\) +=  ?\?$' o.txt
check "-o: nothing on stderr" test ! -s o.err
done_testing
