#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The installed headers (include/prism/*.h) are self-contained and can be
# included together, in any order, by a C11 program with -Wall -Werror (a
# library user includes what it needs; <prism/profile.h> and
# <prism/record.h> used to clash on 'prism_callgraph').
. tests/e2e/lib.sh
command -v cc >/dev/null || skip "needs a C compiler"
INC=$PRISM_SRC/include
compile() { # FILE.c: syntax check as a user of the installed headers would
	cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$INC" "$1" 2>"$TMP/cc.err"
}
nr=0
for h in "$INC"/prism/*.h; do
	name=prism/$(basename "$h")
	printf '#include <%s>\nint main(void) { return 0; }\n' "$name" >"$TMP/one.c"
	check "$name compiles on its own" compile "$TMP/one.c"
	[ -s "$TMP/cc.err" ] && head -5 "$TMP/cc.err" >&3
	nr=$((nr + 1))
done
check "checked 10+ headers ($nr)" test "$nr" -ge 10
# all of them in one unit, forwards and backwards
for order in "sort" "sort -r"; do
	(cd "$INC" && ls prism/*.h | $order | sed 's/.*/#include <&>/'; echo 'int main(void) { return 0; }') \
		>"$TMP/all.c"
	check "all headers together ($order)" compile "$TMP/all.c"
	[ -s "$TMP/cc.err" ] && head -5 "$TMP/cc.err" >&3
done
# pkg-config finds what 'make install' installs
d=$TMP/inst
if make -s -C "$PRISM_SRC" install PREFIX=/usr DESTDIR="$d" O="$PRISM_OUT" >"$TMP/inst.log" 2>&1; then
	pc=$d/usr/lib/pkgconfig/prism.pc
	check "make install writes prism.pc" test -f "$pc"
	grep_q '^Libs: .*-lprism' "$pc"
	grep_q '^Cflags: -I\$\{includedir\}' "$pc"
	if command -v pkg-config >/dev/null; then
		v=$(PKG_CONFIG_PATH=$d/usr/lib/pkgconfig pkg-config --modversion prism)
		check "pkg-config --modversion prism ($v)" test -n "$v"
	fi
else
	head -5 "$TMP/inst.log" >&3
	fail "make install failed"
fi
done_testing
