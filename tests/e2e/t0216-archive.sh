#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism archive round trip.  A "recording machine" (HOME rec) runs a
# program that is then deleted and a kernel of another build (the file's
# kernel build id is rewritten, and rec's build-id cache holds a kallsyms
# for it): prism archive packs what the file needs; unpacked into another
# HOME's ~/.debug, prism script names the kernel and the deleted program as
# perf script does there.  perf archive's tar.bz2 serves prism too, and
# --symfs DIR on an unpacked archive names the kernel (perf, confined to a
# vmlinux under DIR, does not: a documented difference).
. tests/e2e/lib.sh
require_perf
require_root
require_cmd python3
require_cmd bzip2
prism version --build-options | grep -q 'bzip2: \[ on' || skip "built without libbz2"
running=$(perf buildid-list -k 2>/dev/null)
[ -n "$running" ] || skip "the running kernel has no build id (/sys/kernel/notes)"
foreign=0123456789abcdef0123456789abcdef01234567
rec=$TMP/rec
mkdir -p "$rec" "$TMP/bin" "$TMP/other/.debug" "$TMP/perfarch/.debug" "$TMP/symfs"
cp /bin/dd "$TMP/bin/mydd"

HOME=$rec perf record -q -e cpu-clock -F 4000 -g -o "$TMP/k.data" -- \
	"$TMP/bin/mydd" if=/dev/zero of=/dev/null bs=4k count=200000 >/dev/null 2>"$TMP/rec.err" ||
	skip "perf record cannot sample cpu-clock here: $(head -1 "$TMP/rec.err")"
rm -f "$TMP/bin/mydd"
python3 tests/tools/perfdata-buildid.py "$TMP/k.data" "$TMP/f.data" "[kernel.kallsyms]=$foreign"
mkdir -p "$rec/.debug/[kernel.kallsyms]/$foreign"
cat /proc/kallsyms >"$rec/.debug/[kernel.kallsyms]/$foreign/kallsyms"
mkdir -p "$rec/.debug/.build-id/${foreign:0:2}"
ln -s "../../[kernel.kallsyms]/$foreign" "$rec/.debug/.build-id/${foreign:0:2}/${foreign:2}"

HOME=$rec prism archive -i "$TMP/f.data" >"$TMP/arch.out" 2>"$TMP/arch.err"
check "prism archive exits 0" test $? -eq 0
check "it wrote f.data.tar.bz2" test -s "$TMP/f.data.tar.bz2"
mv "$TMP/f.data.tar.bz2" "$TMP/prism.tar.bz2"
tar tjf "$TMP/prism.tar.bz2" >"$TMP/list" 2>/dev/null
grep_q "^\[kernel\.kallsyms\]/$foreign/kallsyms\$" "$TMP/list"
grep_q "^\.build-id/${foreign:0:2}/${foreign:2}\$" "$TMP/list"
grep_q "/bin/mydd/[0-9a-f]{40}/elf\$" "$TMP/list"
grep_q 'tar xvf .* -C ~/.debug' "$TMP/arch.out"

tar xjf "$TMP/prism.tar.bz2" -C "$TMP/other/.debug"
HOME=$TMP/other perf script -i "$TMP/f.data" >"$TMP/perf.out" 2>/dev/null
HOME=$TMP/other prism script -i "$TMP/f.data" >"$TMP/prism.out" 2>"$TMP/prism.err"
echo "-- unpacked into another HOME's ~/.debug" >&3
test_cmp "$TMP/perf.out" "$TMP/prism.out"
check "kernel frames named from the archive" \
	test "$(grep '(\[kernel\.kallsyms\])$' "$TMP/prism.out" | grep -vc '\[unknown\]')" -gt 0
check "the deleted program was found in the archive" test -z "$(grep "mydd" "$TMP/prism.err")"

# perf archive's tar.bz2 is read the same way
if HOME=$rec perf archive "$TMP/f.data" >/dev/null 2>&1; then
	tar xjf "$TMP/f.data.tar.bz2" -C "$TMP/perfarch/.debug"
	HOME=$TMP/perfarch prism script -i "$TMP/f.data" >"$TMP/prism2.out" 2>/dev/null
	echo "-- perf archive's output" >&3
	test_cmp "$TMP/perf.out" "$TMP/prism2.out"
fi

# --symfs on an unpacked archive: the kernel's kallsyms is looked up there
tar xjf "$TMP/prism.tar.bz2" -C "$TMP/symfs"
mkdir -p "$TMP/empty"
HOME=$TMP/empty prism script --symfs "$TMP/symfs" -i "$TMP/f.data" >"$TMP/prism3.out" 2>/dev/null
check "--symfs DIR: kernel frames named from DIR" \
	test "$(grep '(\[kernel\.kallsyms\])$' "$TMP/prism3.out" | grep -vc '\[unknown\]')" -gt 0
# a file without build ids has nothing to archive
if [ -f "$FIXTURES/perf-6.1/c-zstd.data" ]; then
	expect_exit 1 prism archive -i "$FIXTURES/perf-6.1/c-zstd.data" -o "$TMP/none.tar.bz2"
	check "no archive is left" test ! -e "$TMP/none.tar.bz2"
fi
done_testing
