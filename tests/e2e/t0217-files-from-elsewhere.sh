#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Files "from other machines", made here: perf records tests/workloads/
# jit-map (a tiny JIT that describes its code in /tmp/perf-PID.map and
# calls clock_gettime through the vdso), and tests/tools rewrite the file
# into the kinds of difference met in files recorded elsewhere.  For each,
# prism script (default fields) equals perf script line for line and prism
# report --sort comm,dso,sym (and a few other keys) has perf's rows:
#   jit        the file as recorded: JIT frames are '(/tmp/perf-PID.map)' in
#              script and '[JIT] tid PID' in report; the vdso is named (perf
#              from its build-id cache, prism from the cache too)
#   vdso       the [vdso] build id changed: '[unknown] ([vdso])', and prism
#              says once on stderr that the vdso is another kernel's
#   dso        the workload's build id changed: its frames are '[unknown]'
#              (the binary at the path is another build)
#   nobid      the binary at the recorded path has no build id (the file
#              records one): perf does not take symbols from it, nor prism
#   late-comm  the thread's COMM records come after its 10th sample: script
#              prints ':TID' for those samples (as read), report names them
#              after the first COMM (perf replaces the initial name) and
#              cuts that name to the column's width
#   mem        the samples become those of a raw cpu/mem-loads/pp event with
#              ADDR, DATA_SRC (values covering every field of the encoding)
#              and WEIGHT: perf's default fields for raw events, data_src
#              decoded and padded as perf does; mem-struct the same with
#              WEIGHT_STRUCT (ins_lat) and PHYS_ADDR; both also with -F lists
#   dwarf      a --call-graph dwarf recording whose binaries are all absent
#              (file names rewritten, the vdso another build): perf sets no
#              process up for unwinding and prints no frame; report has the
#              sample addresses as rows of their own, without caller rows or
#              graphs, and widens the symbol and DSO columns for them
#   stat       perf stat record files (of a command; -a; -a -I; -a -A -I,
#              whose per-CPU reads perf script prints as differences from
#              the last interval; a pipe): script prints perf's counter
#              reads; report says it holds no samples and points at script
# HOME is a directory of the test's own, so the build-id cache is the one
# this perf record writes.  The recordings are of user mode only (cpu-clock:u):
# no kernel frame, so nothing depends on the kernel's symbols (t0208's
# matter); kernel addresses are masked all the same.
. tests/e2e/lib.sh
require_perf
command -v python3 >/dev/null || skip "needs python3"
WL=$PRISM_OUT/tests/workloads/jit-map
[ -x "$WL" ] || skip "needs $WL (make test-bins)"
[ "$(uname -m)" = x86_64 ] || skip "the JIT workload writes x86-64 code"
TOOLS=$PRISM_SRC/tests/tools
cd "$TMP" || exit 1
mkdir home
export HOME=$TMP/home

perf record -q -e cpu-clock:u -F 2999 -o jit.data -- "$WL" 300 >/dev/null 2>rec.err ||
	skip "perf record failed: $(head -1 rec.err)"
pid=$(perf script -i jit.data -F pid 2>/dev/null | head -1 | tr -d ' ')
trap 'rm -f "/tmp/perf-$pid.map"; rm -rf "$TMP"' EXIT
[ -f "/tmp/perf-$pid.map" ] || skip "the workload wrote no /tmp/perf-$pid.map"

mask() { # kernel symbols: "ffffffff... name+0x1 (" and "[k] name"
	sed -E 's/(ffff[0-9a-f]{12}) [^ ]+ \(\[kernel/\1 <kernel> ([kernel/; s/\[k\] .*/[k] <kernel>/'
}
rows() { # TOOL FILE KEYS: report rows, padding squeezed
	"$1" report -i "$2" --stdio --no-children --sort "$3" 2>/dev/null |
		grep -v '^#' | grep . | sed 's/ *$//' | tr -s ' ' | mask
}
compare() { # KIND FILE
	perf script -i "$2" 2>/dev/null | mask >"$1.perf"
	prism script -i "$2" 2>"$1.err" | mask >"$1.prism"
	check "$1: perf printed samples" test -s "$1.perf"
	echo "-- $1: script" >&3
	test_cmp "$1.perf" "$1.prism"
	for keys in comm,dso,sym dso comm pid,comm; do
		rows perf "$2" "$keys" >"$1.want"
		rows prism "$2" "$keys" >"$1.got"
		echo "-- $1: report --sort $keys" >&3
		test_cmp "$1.want" "$1.got"
	done
}

compare jit jit.data
grep_q "jit_count_loop\+0x[0-9a-f]+ \(/tmp/perf-$pid\.map\)$" jit.prism
grep_q "^ [0-9.]+% jit-map \[JIT\] tid $pid \[\.\] jit_count_loop$" <(rows prism jit.data comm,dso,sym)
grep_q "__vdso_clock_gettime\+0x[0-9a-f]+ \(\[vdso\]\)$" jit.prism

vdso=$("$TOOLS/perfdata-buildid.py" jit.data | awk '$2 == "[vdso]" { print $1 }')
if [ -n "$vdso" ]; then
	"$TOOLS/perfdata-buildid.py" jit.data vdso.data "[vdso]=0123456789abcdef0123456789abcdef01234567"
	compare vdso vdso.data
	grep_q '\[unknown\] \(\[vdso\]\)$' vdso.prism
	check "vdso: one note on stderr" \
		test "$(grep -c "\[vdso\] of build id 0123456789abcdef.* is not this kernel's" vdso.err)" -eq 1
else
	echo "note: vdso case skipped: the file has no build id for [vdso]" >&3
fi

"$TOOLS/perfdata-buildid.py" jit.data dso.data "$WL=00112233445566778899aabbccddeeff00112233"
compare dso dso.data
grep_q "\[unknown\] \($WL\)$" dso.prism
check "dso: one note on stderr" test "$(grep -c "build id mismatch for '$WL'" dso.err)" -eq 1

# nobid: a copy of the workload, recorded, then stripped of its build id
# (a home without the build-id cache, which holds the workload by that id)
if command -v objcopy >/dev/null; then
	cp "$WL" wl
	mkdir home3
	HOME=$TMP/home3 perf record -N -q -e cpu-clock:u -F 2999 -o nobid.data -- ./wl 200 \
		>/dev/null 2>&1 || fail "perf record of the copy"
	objcopy --remove-section=.note.gnu.build-id wl wl.tmp && mv wl.tmp wl
	HOME=$TMP/home3 perf script -i nobid.data 2>/dev/null | grep "($TMP/wl)$" >nobid.perf
	HOME=$TMP/home3 prism script -i nobid.data 2>/dev/null | grep "($TMP/wl)$" >nobid.prism
	check "nobid: perf printed samples in the copy" test -s nobid.perf
	echo "-- nobid: script" >&3
	test_cmp nobid.perf nobid.prism
	grep_q "\[unknown\] \($TMP/wl\)$" nobid.prism
	rm -f "/tmp/perf-$(perf script -i nobid.data -F pid 2>/dev/null | head -1 | tr -d ' ').map"
fi

"$TOOLS/perfdata-rewrite.py" late-comm jit.data late.data 10 2>/dev/null
compare late late.data
check "late: 10 samples named :TID in script" test "$(grep -cE "^ *:$pid +$pid " late.prism)" -eq 10
grep_q "^ [0-9.]+% perf-ex \[JIT\] tid $pid \[\.\] jit_count_loop$" <(rows prism late.data comm,dso,sym)

for kind in mem mem-struct; do
	variant=()
	[ "$kind" = mem-struct ] && variant=(struct)
	"$TOOLS/perfdata-rewrite.py" mem-loads jit.data "$kind.data" "${variant[@]}" 2>/dev/null
	compare "$kind" "$kind.data"
	for fields in addr,data_src,weight,ip,sym -data_src +phys_addr,-weight ip,phys_addr; do
		perf script -i "$kind.data" -F "$fields" >"$kind.f.perf" 2>/dev/null || continue
		prism script -i "$kind.data" -F "$fields" 2>/dev/null | mask >"$kind.f.prism"
		mask <"$kind.f.perf" >"$kind.f.want"
		echo "-- $kind: -F $fields" >&3
		test_cmp "$kind.f.want" "$kind.f.prism"
	done
done
grep_q ' 68100142 \|OP LOAD\|LVL L1 hit\|SNP None\|TLB L1 or L2 hit\|LCK No\|BLK  N/A +7 ' mem.prism
grep_q '\|LVL Remote core, same node L3 hit\|' mem-struct.prism

# dwarf: a home without the build-id cache (the vdso would be readable there)
mkdir home2
HOME=$TMP/home2 perf record -N -q -e cpu-clock:u -F 999 --call-graph dwarf -o dw.data -- "$WL" 100 \
	>/dev/null 2>&1 || fail "perf record --call-graph dwarf"
"$TOOLS/perfdata-rewrite.py" absent dw.data dwa.data 2>/dev/null
# and another machine's vdso (this one's prism would name, where perf without its cache does not)
bids=$("$TOOLS/perfdata-buildid.py" dwa.data)
if grep -q ' \[vdso\]$' <<<"$bids"; then
	"$TOOLS/perfdata-buildid.py" dwa.data dwa2.data "[vdso]=0123456789abcdef0123456789abcdef01234567"
	mv dwa2.data dwa.data
fi
HOME=$TMP/home2 perf script -i dwa.data 2>/dev/null | mask >dwa.perf
HOME=$TMP/home2 prism script -i dwa.data 2>/dev/null | mask >dwa.prism
echo "-- dwarf: script" >&3
test_cmp dwa.perf dwa.prism
check "dwarf: no frame" test "$(grep -c $'^\t' dwa.prism)" -eq "$(grep -c $'^\t *ffff' dwa.prism)"
for opts in "--sort comm,dso,sym" "--no-children -g none --sort dso,sym"; do
	# shellcheck disable=SC2086 # the options are words
	HOME=$TMP/home2 perf report -i dwa.data --stdio $opts 2>/dev/null | grep -v '^#' |
		sed 's/ *$//' | mask >dwa.want
	# shellcheck disable=SC2086
	HOME=$TMP/home2 prism report -i dwa.data --stdio $opts 2>/dev/null | grep -v '^#' |
		sed 's/ *$//' | mask >dwa.got
	echo "-- dwarf: report $opts" >&3
	test_cmp dwa.want dwa.got
done
rm -f "/tmp/perf-$(perf script -i dw.data -F pid 2>/dev/null | head -1 | tr -d ' ').map"

stat() { # NAME OPTIONS...: perf stat record, then script from both tools
	local name=$1
	shift
	perf stat record -e task-clock,page-faults "$@" -o "$name.data" -- sleep 0.25 \
		>/dev/null 2>&1 || { echo "note: perf stat record $* failed" >&3 && return; }
	perf script -i "$name.data" >"$name.perf" 2>/dev/null
	prism script -i "$name.data" >"$name.prism"
	check "$name: perf printed reads" grep -q '^CPU   THREAD' "$name.perf"
	echo "-- $name: script" >&3
	test_cmp "$name.perf" "$name.prism"
}
stat st
stat st-a -a
stat st-aI -a -I 100
stat st-aAI -a -A -I 100
check "st-aAI: interval reads, per CPU" test "$(wc -l <st-aAI.prism)" -gt 8
perf stat record -e task-clock -o - -- true 2>/dev/null >st-pipe.data
perf script -i - <st-pipe.data >st-pipe.perf 2>/dev/null
prism script -i - <st-pipe.data >st-pipe.prism
test_cmp st-pipe.perf st-pipe.prism
K=$FIXTURES/perf-6.1/k-stat.data
if [ -f "$K" ]; then
	perf script -i "$K" >k-stat.perf 2>/dev/null
	prism script -i "$K" >k-stat.prism
	echo "-- k-stat fixture: script" >&3
	test_cmp k-stat.perf k-stat.prism
fi
expect_exit 1 prism report -i st.data --stdio 2>st.err
grep_q "holds the counter reads of 'perf stat record', no samples" st.err

done_testing
