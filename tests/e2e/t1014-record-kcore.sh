#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism record --kcore writes a directory as perf record --kcore does:
# DIR/data the perf.data and DIR/kcore_dir with kcore (the code segments of
# /proc/kcore), kallsyms and modules; perf report and perf script read it
# without warnings and resolve kernel symbols, and prism's readers take the
# directory and print what perf prints; a second recording keeps the first
# as DIR.old.  Where /proc/kcore is missing (a kernel without
# CONFIG_PROC_KCORE, as on this project's VMs) or unreadable: exit 1 with a
# message that names it, nothing written; the recording is then checked with
# a stand-in for /proc (PRISM_KCORE_PROC: this kernel's kallsyms and a kcore
# whose segment spans its text, zeros).  A pipe output is refused.
. tests/e2e/lib.sh
cd "$TMP" || exit 1

expect_exit 129 prism record --kcore -o - -- true
check "--kcore -o -: says a directory cannot go to a pipe" \
	grep -q 'cannot go to a pipe' <(prism record --kcore -o - -- true 2>&1)

if [ ! -r /proc/kcore ] || ! head -c 1 /proc/kcore >/dev/null 2>&1; then
	prism record --kcore -e cpu-clock -o "$TMP/d" -- true >"$TMP/out" 2>"$TMP/err"
	check "no readable /proc/kcore: exit 1" test $? -eq 1
	check "no readable /proc/kcore: the message names it" \
		grep -q -- '--kcore: /proc/kcore is not readable' "$TMP/err"
	check "no readable /proc/kcore: a hint" grep -q '^hint: ' "$TMP/err"
	check "no readable /proc/kcore: nothing written" test ! -e "$TMP/d"
	require_root
	stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
	etext=$(awk '$3 == "_etext" { print $1; exit }' /proc/kallsyms)
	[ -n "$stext" ] && [ "$stext" != 0000000000000000 ] && [ -n "$etext" ] ||
		skip "/proc/kallsyms has no _stext/_etext addresses"
	mkdir "$TMP/proc"
	cp /proc/kallsyms "$TMP/proc/kallsyms"
	cp /proc/modules "$TMP/proc/modules" 2>/dev/null || : >"$TMP/proc/modules"
	# an ELF core file with one executable segment over the text, its bytes zeros
	python3 - "$TMP/proc/kcore" "$stext" "$etext" <<'PY' || skip "python3 is not installed"
import struct, sys
start, end = int(sys.argv[2], 16) & ~0xFFF, (int(sys.argv[3], 16) + 0x2FFF) & ~0xFFF
with open(sys.argv[1], "wb") as f:
    f.write(b"\x7fELF\x02\x01\x01" + b"\0" * 9 + struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, 64,
            0, 0, 64, 56, 1, 64, 0, 0))
    f.write(struct.pack("<IIQQQQQQ", 1, 5, 0x1000, start, 0, end - start, end - start, 0x1000))
    f.truncate(0x1000 + end - start)
PY
	export PRISM_KCORE_PROC=$TMP/proc
fi

require_perf
prism record --kcore -a -e cpu-clock -o "$TMP/d" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=200000 >"$TMP/out" 2>"$TMP/err"
check "record --kcore: exit 0" test $? -eq 0
check "the summary names the directory" grep -q "MB $TMP/d " "$TMP/err"
for f in data kcore_dir/kcore kcore_dir/kallsyms kcore_dir/modules; do
	check "DIR/$f written" test -e "$TMP/d/$f"
done
check "kcore_dir/kallsyms is the kernel's" \
	test "$(grep ' _stext$' "$TMP/d/kcore_dir/kallsyms")" = "$(grep ' _stext$' /proc/kallsyms)"
check "kcore_dir/kcore is an ELF core file" grep -q 'CORE' <(readelf -h "$TMP/d/kcore_dir/kcore")
stext=$(awk '$3 == "_stext" { print $1; exit }' /proc/kallsyms)
check "kcore_dir/kcore holds the kernel's text from _stext" \
	grep -q "LOAD .* 0x$(printf %x $((0x$stext & ~0xfff)))" <(readelf -lW "$TMP/d/kcore_dir/kcore")

perf report -i "$TMP/d" --stdio >"$TMP/rep" 2>"$TMP/rep.err"
check "perf report reads the directory" test $? -eq 0
check "perf report: no warning" test "$(grep -ci 'warn\|fail\|error' "$TMP/rep.err")" -eq 0
check "perf report: kernel symbols resolved" grep -q '\[k\] [a-z_]' "$TMP/rep"
perf script -i "$TMP/d" >"$TMP/p1" 2>"$TMP/p1.err"
check "perf script: no warning" test "$(grep -ci 'warn\|fail\|error' "$TMP/p1.err")" -eq 0
check "perf script: kernel symbols resolved" \
	grep -q ' [a-z_][a-z_0-9.]*+0x[0-9a-f]* (\[kernel.kallsyms\])' "$TMP/p1"
prism script -i "$TMP/d" >"$TMP/p2" 2>/dev/null
check "prism script -i DIR: exit 0" test $? -eq 0
# unresolved addresses left out: perf leaves BPF programs' without a dso, prism names the kernel
check "prism script -i DIR prints perf's lines" \
	cmp -s <(grep -v '\[unknown\] (' "$TMP/p1") <(grep -v '\[unknown\] (' "$TMP/p2")
prism report -i "$TMP/d" --stdio >"$TMP/rep2" 2>/dev/null
check "prism report: the top kernel symbol is perf's" \
	test "$(grep -m1 '\[k\]' "$TMP/rep" | awk '{ print $NF }')" = \
	"$(grep -m1 '\[k\]' "$TMP/rep2" | awk '{ print $NF }')"

prism record --kcore -e cpu-clock -o "$TMP/d" -- true >/dev/null 2>&1
check "a second recording: exit 0" test $? -eq 0
check "a second recording keeps the first as DIR.old" test -e "$TMP/d.old/kcore_dir/kcore"
check "DIR is the new one" test "$(stat -c %s "$TMP/d/data")" -lt "$(stat -c %s "$TMP/d.old/data")"
done_testing
