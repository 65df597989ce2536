#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The man pages the build makes from the option tables: prism.1 and
# prism-<cmd>.1 for every command, clean under man --warnings, naming every
# option of the tables --help shows; make install puts them (and the completion) in place.
. tests/e2e/lib.sh
require_cmd man
D=$PRISM_BUILD/docs
[ -d "$D/man" ] || skip "no $D/man (make test-bins generates it)"
cd "$TMP" || exit 1

check "prism.1 exists" test -s "$D/man/prism.1"
man --warnings -l "$D/man/prism.1" >prism.txt 2>warn.txt
check "man --warnings: prism.1 is clean" test ! -s warn.txt
for c in $(prism --list-cmds); do
	f=$D/man/prism-$c.1
	check "prism-$c.1 exists" test -s "$f"
	MANWIDTH=200 man --warnings -l "$f" >"$c.txt" 2>"$c.warn"
	if [ -s "$c.warn" ]; then
		head -n 5 "$c.warn" >&3
		fail "man --warnings: prism-$c.1 has warnings"
	fi
	grep -q "prism-$c(1)" prism.txt || fail "prism.1 does not list prism-$c(1)"
	# every long option of --help is in the page
	missing=
	for o in $(prism "$c" --help | grep -E -- '^    (-[a-zA-Z0-9], )?--[a-z]' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -qF -- "$o" "$c.txt" || missing="$missing $o"
	done
	check "prism-$c.1 documents every option of --help${missing:+ (missing:$missing)}" \
		test -z "$missing"
done
# a page as a reader sees it: name, synopsis, an option with its argument
grep_q '^NAME' top.txt
grep_q 'prism-top - live CPU utilization' top.txt
grep_q '^ +-d, --delay secs' top.txt

make -s -C "$PRISM_SRC" -n install DESTDIR="$TMP/inst" >install.txt 2>&1
grep_q 'share/man/man1' install.txt
grep_q 'bash-completion/completions/prism' install.txt
done_testing
