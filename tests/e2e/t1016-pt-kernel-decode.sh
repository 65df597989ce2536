#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel PT through kernel code: tests/tools/perfdata-pt.py --kernel writes a
# trace that an interrupt takes into synthetic kernel code (prism_kentry's
# loop of calls of prism_kleaf, iretq back), with a kcore_dir that holds
# that code (--kcore-dir).  prism script --itrace prints perf 6.1's lines,
# kernel symbols included, with the code from: the directory input's
# kcore_dir; --kcore DIR on a plain file; -k/--vmlinux FILE (a vmlinux that
# KASLR moved, relocated by the file's _text; a kcore file).  Without the
# kernel's code: the error sample perf prints at the kernel address, and the
# branches before it.  Bad --kcore / --vmlinux paths: a message and exit 1.
. tests/e2e/lib.sh
require_pt_files
cd "$TMP" || exit 1

for c in "3:" "2:--no-tsc" "7:"; do
	n=${c%%:*}
	rm -rf "$TMP/d" && mkdir "$TMP/d"
	# shellcheck disable=SC2086
	$GEN --kernel --loops $n ${c#*:} --kcore-dir "$TMP/d/kcore_dir" "$WL" "$TMP/d/data"
	for it in b "b -F +flags" c r cr i1i "i1i -F +flags"; do
		# shellcheck disable=SC2086
		perf script -i "$TMP/d" --itrace=$it >"$TMP/p1" 2>"$TMP/err"
		# shellcheck disable=SC2086
		prism script -i "$TMP/d" --itrace=$it >"$TMP/p2" 2>/dev/null
		check "loops $n ${c#*:} --itrace=$it: perf decodes the kernel code" \
			grep -q 'prism_k[a-z]*+0x[0-9a-f]* (\[kernel.kallsyms\])' "$TMP/p1"
		check "loops $n ${c#*:} --itrace=$it: perf warns of nothing" test ! -s "$TMP/err"
		check "loops $n ${c#*:} --itrace=$it: prism prints perf's lines" cmp -s "$TMP/p1" "$TMP/p2"
	done
done
perf script -i "$TMP/d" --itrace=b -F +flags >"$TMP/ref" 2>/dev/null
check "the interrupt is a 'hw int' into prism_kentry" \
	grep -q 'hw int .*pt_loop+0x3 .*=> ffffffff81000100 prism_kentry+0x0 (\[kernel.kallsyms\])' "$TMP/ref"
check "it returns with an iret" grep -q 'iret .*prism_kentry+0xe .*=> .*pt_loop+0x3 ' "$TMP/ref"
check "two calls of prism_kleaf in the kernel" test "$(grep -c 'call .*=> ffffffff81000200 prism_kleaf+0x0' "$TMP/ref")" -eq 2

# a plain file: --kcore DIR, -k with a vmlinux (KASLR) or a kcore file
$GEN --kernel --loops 7 --vmlinux "$TMP/vmlinux" "$WL" "$TMP/k.data"
ks="--kallsyms $TMP/d/kcore_dir/kallsyms"
for src in "--kcore $TMP/d/kcore_dir" "-k $TMP/vmlinux $ks" "--vmlinux $TMP/d/kcore_dir/kcore $ks"; do
	# shellcheck disable=SC2086
	prism script -i "$TMP/k.data" --itrace=b -F +flags $src >"$TMP/p2" 2>"$TMP/err"
	check "${src%% *}: prism prints perf's lines of the directory" cmp -s "$TMP/ref" "$TMP/p2"
done
check "the vmlinux is linked elsewhere than the kernel ran" \
	test "$(readelf -lW "$TMP/vmlinux" | grep -c 'LOAD .* 0xffffffff7e000000 ')" -eq 1

# no kernel code: perf's error sample at the interrupt's target, the branches before it
perf script -i "$TMP/k.data" --itrace=be -F +flags >"$TMP/p1" 2>/dev/null
prism script -i "$TMP/k.data" --itrace=be -F +flags >"$TMP/p2" 2>/dev/null
err_line() { grep 'instruction trace error' "$1" | sed 's/ time [0-9.]* / /'; }
check "no kernel code: prism's error is perf's" \
	test "$(err_line "$TMP/p2")" = "$(err_line "$TMP/p1")"
check "no kernel code: error code 5 at prism_kentry" \
	grep -q 'ip 0xffffffff81000100 code 5: Failed to get instruction' <(err_line "$TMP/p2")
nb=$(grep -n 'instruction trace error' "$TMP/p2" | cut -d: -f1)
check "no kernel code: the branches before the error are perf's" \
	cmp -s <(head -n $((nb - 1)) "$TMP/p2" | grep -v '=> ffffffff') \
	<(grep -B100 -m1 'instruction trace error' "$TMP/p1" | grep -v 'instruction trace error' |
		grep -v '=> ffffffff')

prism script -i "$TMP/k.data" --itrace=b --kcore "$TMP/nowhere" >/dev/null 2>"$TMP/err"
check "--kcore DIR without kcore: exit 1" test $? -eq 1
check "--kcore DIR without kcore: names the file" grep -q "nowhere/kcore" "$TMP/err"
prism script -i "$TMP/k.data" --itrace=b -k "$TMP/d/kcore_dir/kallsyms" >/dev/null 2>"$TMP/err"
check "--vmlinux not an ELF file: exit 1" test $? -eq 1
check "--vmlinux not an ELF file: says what it must be" grep -q 'hint: it must be an ELF' "$TMP/err"
done_testing
