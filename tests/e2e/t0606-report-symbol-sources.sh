#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Live: where a stripped binary's symbols come from.  prism records a
# stripped build of tests/workloads/symsrc-names.c; builds of the same code
# that differ only in their function names (<tag>_alpha, <tag>_beta) and
# share its build id are then put where perf 6.1 looks for symbols: its
# build-id cache (~/.debug/.build-id/xx/rest/elf and .../debug, HOME is the
# test's), the .gnu_debuglink file (next to the binary, in its .debug/, in
# the current directory), and under --symfs (perf's cache <symfs>/.debug,
# <debug dir><path>.debug, <debug dir>/.build-id/xx/rest.debug, <dir>/.debug/
# <base>); a -no-pie build (ET_EXEC) with its cache copy and debug file.
# For each placement prism report names the samples as perf
# report does on the same file, after the build perf's order picks.
. tests/e2e/lib.sh
require_perf
require_cmd cc
require_cmd objcopy "apt-get install binutils"
WL=$PRISM_SRC/tests/workloads/symsrc-names.c
cd "$TMP" || exit 1
mkdir -p home bin
export HOME=$TMP/home
BID=5eed5eed0123456789abcdef0123456789abcdef
OTHER=0bad0bad0123456789abcdef0123456789abcdef
# -fno-plt: no sample lands in a PLT stub, which perf 6.1 names after its
# symbol tree's shape (see t0605)
build() { # TAG [CFLAGS...]: the workload with <TAG>_alpha and <TAG>_beta, build id $BID
	cc -O1 -g -fno-inline -fno-plt -DSRC="$1" -Wl,--build-id=0x"$BID" "${@:2}" -o "$1" "$WL"
}
for t in plain cache cdebug link fedora bid oe; do
	build $t || skip "cannot build the workload"
done
BID=$OTHER build other || skip "cannot build the workload"
# the builds load the same bytes: only their symbol names differ
objcopy -O binary --only-section=.text plain plain.text
for t in cache cdebug link fedora bid oe; do
	objcopy -O binary --only-section=.text $t $t.text
	check "$t has plain's code" cmp -s plain.text $t.text
done
for t in cdebug link fedora bid oe; do
	objcopy --only-keep-debug $t $t.debug
done
# the binary that runs: no symbols but .dynsym, a debuglink to prog.debug
cp link.debug prog.debug
objcopy --strip-all --add-gnu-debuglink=prog.debug plain bin/prog
rm prog.debug
check "bin/prog has no .symtab" sh -c '! readelf -S bin/prog | grep -q "\.symtab"'
prism record -q -e cpu-clock -F 1999 -o p.data -- bin/prog 400 >/dev/null 2>rec.err ||
	skip "prism record cannot sample cpu-clock here: $(head -1 rec.err)"
DATA=p.data
cache=$HOME/.debug/.build-id/${BID:0:2}/${BID:2}
check "prism record put bin/prog in the build-id cache" test -f "$cache/elf"
[ -f "$cache/elf" ] || done_testing
cp "$cache/elf" stripped.elf

# TOOL [OPTION...]: the rows of bin/prog's samples (padding squeezed, equal
# percentages in one order)
rows() {
	"$1" report -i "$DATA" --stdio --no-children --sort dso,sym -g none "${@:2}" 2>/dev/null |
		grep -v '^#' | grep -E ' prog(-nopie)? ' | sed 's/ *$//' | tr -s ' ' | sort -s -k1,1gr -k2
}
# TOOL [OPTION...]: the source-line rows of the workload's code
srclines() {
	"$1" report -i "$DATA" --stdio --no-children --sort srcline -g none "${@:2}" 2>/dev/null |
		grep -v '^#' | grep 'symsrc-names\.c:' | tr -s ' ' | sort -s -k1,1gr -k2
}
# NAME TAG [OPTION...]: perf's rows and prism's are the same, and name
# TAG's functions ("-": no names, addresses); so are their source lines
# (from the DWARF of the file the symbols came from)
scenario() {
	local name=$1 tag=$2
	shift 2
	rows perf "$@" >"want.$name"
	rows prism "$@" >"got.$name"
	echo "-- $name" >&3
	test_cmp "want.$name" "got.$name"
	if [ "$tag" = - ]; then
		check "$name: no names" sh -c "! grep -q '_alpha\|_beta' got.$name"
		return
	fi
	check "$name: ${tag}_alpha and ${tag}_beta" \
		sh -c "grep -q ' ${tag}_alpha\$' got.$name && grep -q ' ${tag}_beta\$' got.$name"
	srclines perf "$@" >"want-src.$name"
	srclines prism "$@" >"got-src.$name"
	check "$name: perf has source lines" test -s "want-src.$name"
	test_cmp "want-src.$name" "got-src.$name"
}
scenario stripped -
cp cache "$cache/elf"
scenario cache-elf cache
cp cdebug.debug "$cache/debug"
scenario cache-elf-before-cache-debug cache
cp stripped.elf "$cache/elf"
scenario cache-debug cdebug
cp link.debug bin/prog.debug
scenario debuglink-before-cache-debug link
cp cache "$cache/elf"
scenario debuglink-before-cache-elf link
rm bin/prog.debug "$cache/debug"
mkdir bin/.debug
cp link.debug bin/.debug/prog.debug
scenario debuglink-dot-debug link
rm -r bin/.debug
cp link.debug prog.debug
scenario debuglink-current-dir link
rm prog.debug
cp other "$cache/elf"
scenario cache-elf-other-build-id -

# --symfs S: perf's cache is S/.debug then, ~/.debug is not read
cp cache "$cache/elf"
S=$TMP/symfs
mkdir -p "$S$TMP/bin/.debug" "$S/usr/lib/debug$TMP/bin" "$S/usr/lib/debug/.build-id/${BID:0:2}"
cp bin/prog "$S$TMP/bin/prog"
scenario symfs-stripped - --symfs "$S"
cp oe.debug "$S$TMP/bin/.debug/prog"
scenario symfs-openembedded oe --symfs "$S"
cp bid.debug "$S/usr/lib/debug/.build-id/${BID:0:2}/${BID:2}.debug"
scenario symfs-debug-build-id bid --symfs "$S"
cp fedora.debug "$S/usr/lib/debug$TMP/bin/prog.debug"
scenario symfs-debug-path fedora --symfs "$S"
mkdir -p "$S/.debug/.build-id/${BID:0:2}"
cp cdebug "$S/.debug/.build-id/${BID:0:2}/${BID:2}"
scenario symfs-cache-old-layout cdebug --symfs "$S"

# ET_EXEC: symbols of a debug file or the cache's copy at their absolute addresses
BID=5eed5eed0123456789abcdef0123456789abcd00
mkdir nopie
cd nopie || exit 1
for t in plain cache cdebug; do
	build $t -no-pie || skip "cannot build the workload with -no-pie"
done
objcopy --only-keep-debug cdebug cdebug.debug
objcopy --strip-all plain ../bin/prog-nopie
cd .. || exit 1
prism record -q -e cpu-clock -F 1999 -o np.data -- bin/prog-nopie 300 >/dev/null 2>rec.err ||
	fail "prism record of the -no-pie build: $(head -1 rec.err)"
DATA=np.data
cache=$HOME/.debug/.build-id/${BID:0:2}/${BID:2}
cp nopie/cdebug.debug "$cache/debug"
scenario nopie-cache-debug cdebug
cp nopie/cache "$cache/elf"
scenario nopie-cache-elf cache
done_testing
