#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism record --kcore writes a directory as perf record --kcore does:
# DIR/data the perf.data and DIR/kcore_dir with kcore (the code segments of
# /proc/kcore), kallsyms and modules; perf report and perf script read it
# without warnings and resolve kernel symbols, and prism's readers take the
# directory and print what perf prints.  Where /proc/kcore is missing (a
# kernel without CONFIG_PROC_KCORE, as on this project's VMs) or unreadable:
# exit 1 with a message that names /proc/kcore and nothing written.  A
# pipe output is refused either way.
. tests/e2e/lib.sh
cd "$TMP" || exit 1

expect_exit 129 prism record --kcore -o - -- true
check "--kcore -o -: says a directory cannot go to a pipe" \
	grep -q 'cannot go to a pipe' <(prism record --kcore -o - -- true 2>&1)

if [ ! -r /proc/kcore ] || [ "$(id -u)" -ne 0 ] || ! head -c 1 /proc/kcore >/dev/null 2>&1; then
	prism record --kcore -e cpu-clock -o "$TMP/d" -- true >"$TMP/out" 2>"$TMP/err"
	check "no readable /proc/kcore: exit 1" test $? -eq 1
	check "no readable /proc/kcore: the message names it" \
		grep -q -- '--kcore: /proc/kcore is not readable' "$TMP/err"
	check "no readable /proc/kcore: a hint" grep -q '^hint: ' "$TMP/err"
	check "no readable /proc/kcore: nothing written" test ! -e "$TMP/d"
	done_testing
fi

require_perf
prism record --kcore -a -e cpu-clock -o "$TMP/d" -- \
	dd if=/dev/zero of=/dev/null bs=1 count=200000 >"$TMP/out" 2>"$TMP/err"
check "record --kcore: exit 0" test $? -eq 0
check "the summary names the directory" grep -q "MB $TMP/d " "$TMP/err"
for f in data kcore_dir/kcore kcore_dir/kallsyms kcore_dir/modules; do
	check "DIR/$f written" test -s "$TMP/d/$f"
done
check "kcore_dir/kcore is an ELF core file" grep -q 'CORE' <(readelf -h "$TMP/d/kcore_dir/kcore")
check "kcore_dir/kcore holds the kernel's text" \
	grep -q "LOAD .* 0x$(awk '$3 == "_stext" { print $1; exit }' "$TMP/d/kcore_dir/kallsyms" |
		sed 's/^0*//' | cut -c1-10)" <(readelf -lW "$TMP/d/kcore_dir/kcore")

perf report -i "$TMP/d" --stdio >"$TMP/rep" 2>"$TMP/rep.err"
check "perf report reads the directory" test $? -eq 0
check "perf report: no warning" test "$(grep -ci 'warn\|fail' "$TMP/rep.err")" -eq 0
check "perf report: kernel symbols resolved" grep -q '\[k\] [a-z_]' "$TMP/rep"
perf script -i "$TMP/d" >"$TMP/p1" 2>"$TMP/p1.err"
check "perf script: no warning" test "$(grep -ci 'warn\|fail' "$TMP/p1.err")" -eq 0
check "perf script: kernel symbols resolved" \
	grep -q ' [a-z_][a-z_0-9.]*+0x[0-9a-f]* (\[kernel.kallsyms\])' "$TMP/p1"
prism script -i "$TMP/d" >"$TMP/p2" 2>/dev/null
check "prism script -i DIR: exit 0" test $? -eq 0
# perf leaves BPF programs' addresses without a dso; prism names the kernel there
check "prism script -i DIR prints perf's lines" \
	cmp -s <(grep -v '(\[unknown\])' "$TMP/p1") <(grep -v '\[unknown\] (\[kernel' "$TMP/p2")
prism report -i "$TMP/d" --stdio >"$TMP/rep2" 2>/dev/null
check "prism report: the top kernel symbol is perf's" \
	test "$(grep -m1 '\[k\]' "$TMP/rep" | awk '{ print $NF }')" = \
	"$(grep -m1 '\[k\]' "$TMP/rep2" | awk '{ print $NF }')"

prism record --kcore -e cpu-clock -o "$TMP/d" -- true >/dev/null 2>&1
check "a second recording keeps the first as DIR.old" test -s "$TMP/d.old/kcore_dir/kcore"
done_testing
