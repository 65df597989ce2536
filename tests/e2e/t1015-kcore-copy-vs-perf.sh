#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism_kcore__copy() (what prism record --kcore runs on /proc), tried on a
# stand-in for /proc from tests/tools/perfdata-pt.py --proc-dir: kallsyms
# with a module and the entry trampoline, modules, and a kcore with a data
# segment, the kernel text in a larger segment, the module's, and the
# trampoline mapping the text's entry page again.  The copy keeps perf's
# layout (the text from _stext to _etext, the module range, the trampoline
# sharing the text's bytes, no data) and perf 6.1 decodes the --kernel trace
# with it as a kcore_dir exactly as with the generator's own kcore_dir, and
# so does prism.
. tests/e2e/lib.sh
require_pt_files
copy=$PRISM_BUILD/tests/helper/kcore-copy
[ -x "$copy" ] || skip "tests/helper/kcore-copy is not built"
cd "$TMP" || exit 1

$GEN --kernel --loops 4 --proc-dir "$TMP/proc" --kcore-dir "$TMP/ref/kcore_dir" "$WL" "$TMP/k.data"
check "the copy succeeds" "$copy" "$TMP/proc" "$TMP/kc"
readelf -lW "$TMP/kc/kcore" >"$TMP/phdrs"
load() { grep -c "LOAD  *$1 $2 0x0* $3 $3 RWE 0x1000" "$TMP/phdrs"; }
check "3 segments, no section" test "$(grep -c 'LOAD' "$TMP/phdrs")" -eq 3
check "the kernel text: _stext to _etext, first after the headers" \
	test "$(load 0x001000 0xffffffff81000000 0x002000)" -eq 1
check "the module range: to a page past its last symbol" \
	test "$(load 0x003000 0xffffffffc0000000 0x003000)" -eq 1
check "the trampoline shares the text's entry page" \
	test "$(load 0x002000 0xfffffe0000006000 0x001000)" -eq 1
check "no data segment" test "$(grep -c 0xffffc90000000000 "$TMP/phdrs")" -eq 0
check "the file ends after the module's bytes" test "$(stat -c %s "$TMP/kc/kcore")" -eq 24576
check "the text's bytes are kcore's" \
	cmp -s <(tail -c +$((0x5000 + 1)) "$TMP/proc/kcore" | head -c 8192) \
	<(tail -c +$((0x1000 + 1)) "$TMP/kc/kcore" | head -c 8192)
check "kallsyms and modules copied as they are" \
	cmp -s "$TMP/proc/kallsyms" "$TMP/kc/kallsyms"
check "modules copied" cmp -s "$TMP/proc/modules" "$TMP/kc/modules"
check "the copies are read-only" test "$(stat -c %a "$TMP/kc/kcore")" = 400

check "copying onto an existing directory fails" test "$("$copy" "$TMP/proc" "$TMP/kc" 2>&1 |
	grep -c 'cannot create')" -eq 1

mkdir -p "$TMP/d" && cp "$TMP/k.data" "$TMP/d/data" && cp -r "$TMP/kc" "$TMP/d/kcore_dir"
cp "$TMP/k.data" "$TMP/ref/data"
for it in b "b -F +flags" c r i1i; do
	# shellcheck disable=SC2086
	perf script -i "$TMP/ref" --itrace=$it >"$TMP/p0" 2>/dev/null
	# shellcheck disable=SC2086
	perf script -i "$TMP/d" --itrace=$it >"$TMP/p1" 2>"$TMP/err"
	check "--itrace=$it: perf decodes the kernel code of prism's copy" \
		grep -q 'prism_k[a-z]*+0x[0-9a-f]* (\[kernel.kallsyms\])' "$TMP/p1"
	check "--itrace=$it: as with the generator's kcore_dir" cmp -s "$TMP/p0" "$TMP/p1"
	check "--itrace=$it: perf warns of nothing" test ! -s "$TMP/err"
	# shellcheck disable=SC2086
	prism script -i "$TMP/d" --itrace=$it >"$TMP/p2" 2>/dev/null
	check "--itrace=$it: prism prints perf's lines" cmp -s "$TMP/p1" "$TMP/p2"
done
done_testing
