#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kernel symbol caches, with the test's own HOME and XDG_CACHE_HOME:
#   - prism's index ($XDG_CACHE_HOME/prism/kallsyms/<build id>): the first
#     report writes it, the next ones read it (a name changed in the index
#     shows), one whose _text, build id or bytes do not fit is not trusted
#     (the names are /proc/kallsyms' again and the index is rewritten);
#   - perf's build-id cache (~/.debug/[kernel.kallsyms]/<id>/kallsyms) names
#     a file of another kernel as perf does;
#   - prism record fills that cache as perf record does.
. tests/e2e/lib.sh
require_perf
require_root
require_cmd python3
running=$(perf buildid-list -k 2>/dev/null)
[ -n "$running" ] || skip "the running kernel has no build id (/sys/kernel/notes)"
grep -q ' T _text$' /proc/kallsyms 2>/dev/null && [ "$(awk '$3 == "_text" { print $1; exit }' /proc/kallsyms)" != 0000000000000000 ] ||
	skip "kernel addresses are hidden (kptr_restrict)"
export HOME=$TMP/home XDG_CACHE_HOME=$TMP/xdg
mkdir -p "$HOME"
foreign=0123456789abcdef0123456789abcdef01234567
idx=$XDG_CACHE_HOME/prism/kallsyms/$running

perf record -q -N -e cpu-clock -F 4000 -g -o "$TMP/k.data" -- \
	sh -c 'dd if=/dev/zero of=/dev/null bs=4k count=200000' >/dev/null 2>"$TMP/rec.err" ||
	skip "perf record cannot sample cpu-clock here: $(head -1 "$TMP/rec.err")"
perf script -i "$TMP/k.data" >"$TMP/perf.script" 2>/dev/null
[ "$(grep -c '(\[kernel\.kallsyms\])$' "$TMP/perf.script")" -ge 20 ] || skip "too few kernel frames"

check "no index before the first run" test ! -e "$idx"
prism script -i "$TMP/k.data" >"$TMP/p1" 2>/dev/null
test_cmp "$TMP/perf.script" "$TMP/p1"
check "the first run wrote the index" test -s "$idx"

# a kernel name the output shows, changed in the index only
name=$(grep -o ' [a-z_][a-z0-9_]\{5,\}+0x[0-9a-f]* (\[kernel\.kallsyms\])$' "$TMP/p1" | head -1 | sed 's/^ //; s/+.*//')
check "a kernel symbol to mark ($name)" test -n "$name"
poison() { # FILE: rename $name to Q${name:1} in the index's strings
	python3 - "$1" "$name" <<'PY'
import sys
p, n = sys.argv[1], sys.argv[2].encode()
b = open(p, "rb").read()
old = b"\0" + n + b"\0"
assert old in b, "name not in the index"
open(p, "wb").write(b.replace(old, b"\0Q" + n[1:] + b"\0"))
PY
}
poison "$idx"
prism script -i "$TMP/k.data" >"$TMP/p2" 2>/dev/null
check "the second run read the index (Q${name:1} shows)" grep -q " Q${name:1}+0x" "$TMP/p2"

patch() { # OFFSET HEX: overwrite the index header at OFFSET
	python3 - "$idx" "$1" "$2" <<'PY'
import sys
p, off, val = sys.argv[1], int(sys.argv[2]), bytes.fromhex(sys.argv[3])
b = bytearray(open(p, "rb").read())
b[off:off + len(val)] = val
open(p, "wb").write(b)
PY
}
for case in "_text 40 00000000000000a0" "build-id 20 ff" "truncated"; do
	set -- $case
	poison "$idx" 2>/dev/null || true
	if [ "$1" = truncated ]; then
		head -c 5000 "$idx" >"$idx.t" && mv "$idx.t" "$idx"
	else
		patch "$2" "$3"
	fi
	prism script -i "$TMP/k.data" >"$TMP/p3" 2>"$TMP/err3"
	echo "-- index with another $1" >&3
	test_cmp "$TMP/perf.script" "$TMP/p3"
	check "$1: the index was rewritten" test -z "$(grep -a "Q${name:1}" "$idx")"
	prism script -i "$TMP/k.data" >"$TMP/p4" 2>/dev/null
	check "$1: the rewritten index is used and right" cmp -s "$TMP/perf.script" "$TMP/p4"
done

# another kernel's file, named from perf's build-id cache as perf names it
python3 tests/tools/perfdata-buildid.py "$TMP/k.data" "$TMP/f.data" "[kernel.kallsyms]=$foreign"
mkdir -p "$HOME/.debug/[kernel.kallsyms]/$foreign"
cat /proc/kallsyms >"$HOME/.debug/[kernel.kallsyms]/$foreign/kallsyms"
perf script -i "$TMP/f.data" >"$TMP/perf.f" 2>/dev/null
prism script -i "$TMP/f.data" >"$TMP/prism.f" 2>"$TMP/err.f"
echo "-- another kernel, from perf's build-id cache" >&3
test_cmp "$TMP/perf.f" "$TMP/prism.f"
check "named from the build-id cache" \
	test "$(grep '(\[kernel\.kallsyms\])$' "$TMP/prism.f" | grep -vc '\[unknown\]')" -gt 0
check "no note about missing symbols" test -z "$(grep 'no kernel symbols' "$TMP/err.f")"
# the copy of another boot (KASLR: every kernel address 2 MiB higher) is
# relocated by the _text the file's kernel map records, as perf does
python3 - "$HOME/.debug/[kernel.kallsyms]/$foreign/kallsyms" <<'PY'
import sys
p = sys.argv[1]
out = []
for line in open(p):
    a = int(line[:16], 16)
    if a and "\t[" not in line:
        line = "%016x%s" % (a + 0x200000, line[16:])
    out.append(line)
open(p, "w").write("".join(out))
PY
perf script -i "$TMP/f.data" >"$TMP/perf.f" 2>/dev/null
prism script -i "$TMP/f.data" >"$TMP/prism.f" 2>"$TMP/err.f"
echo "-- another kernel, a kallsyms of another boot" >&3
test_cmp "$TMP/perf.f" "$TMP/prism.f"
check "named from the relocated copy" \
	test "$(grep '(\[kernel\.kallsyms\])$' "$TMP/prism.f" | grep -vc '\[unknown\]')" -gt 0
rm -rf "$HOME/.debug"
prism script -i "$TMP/f.data" >"$TMP/prism.f" 2>"$TMP/err.f"
check "without it: nothing named" \
	test -z "$(grep '(\[kernel\.kallsyms\])$' "$TMP/prism.f" | grep -v '\[unknown\]')"
grep_q "no kernel symbols for build id $foreign" "$TMP/err.f"

# prism record fills perf's build-id cache
prism record -q -e cpu-clock -g -o "$TMP/r.data" -- sh -c 'dd if=/dev/zero of=/dev/null bs=4k count=100000' \
	>/dev/null 2>&1
check "prism record: kallsyms in the build-id cache" \
	test -s "$HOME/.debug/[kernel.kallsyms]/$running/kallsyms"
check "prism record: the .build-id link" \
	test "$(readlink "$HOME/.debug/.build-id/${running:0:2}/${running:2}")" = "../../[kernel.kallsyms]/$running"
for id in $(perf buildid-list -i "$TMP/r.data" 2>/dev/null | awk '$2 ~ /^\// { print $1 }'); do
	check "prism record: the binary of $id" test -f "$HOME/.debug/.build-id/${id:0:2}/${id:2}/elf"
done
HOME=$TMP/nohome prism record -q -N -e cpu-clock -o "$TMP/r2.data" -- true >/dev/null 2>&1
check "-N writes no cache" test ! -e "$TMP/nohome/.debug"
done_testing
