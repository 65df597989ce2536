#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Usage errors exit 129 with a message naming the problem and a suggestion.
. tests/e2e/lib.sh

expect_exit 129 prism bogus 2>"$TMP/err"
grep_q "^error: 'bogus' is not a prism command; see 'prism --help'$" "$TMP/err"

expect_exit 129 prism verison 2>"$TMP/err"
grep_q "^hint: did you mean 'version'\?$" "$TMP/err"

expect_exit 129 prism help verson 2>"$TMP/err"
grep_q "^error: no such command 'verson'$" "$TMP/err"
grep_q "^hint: did you mean 'version'\?$" "$TMP/err"

expect_exit 129 prism version --build-option 2>"$TMP/err"
grep_q "^error: unknown option '--build-option'$" "$TMP/err"
grep_q "^hint: did you mean '--build-options'\?$" "$TMP/err"
grep_q '^usage: prism version' "$TMP/err"

expect_exit 129 prism version -Z 2>"$TMP/err"
grep_q "^error: unknown switch 'Z'$" "$TMP/err"

expect_exit 129 prism --colour=always version 2>"$TMP/err"
grep_q "^hint: did you mean '--color'\?$" "$TMP/err"

expect_exit 129 prism --color=sometimes version 2>"$TMP/err"
grep_q "^error: invalid --color value 'sometimes'$" "$TMP/err"

expect_exit 129 prism version extra 2>"$TMP/err"
grep_q "^error: unexpected argument 'extra'$" "$TMP/err"

expect_exit 129 prism version --build-options=yes 2>"$TMP/err"
grep_q "^error: option '--build-options' takes no value$" "$TMP/err"

# a usage error shows the option it is about, not the whole table (as perf)
expect_exit 129 prism report --percent-limit abc 2>"$TMP/err"
grep_q "^error: option '--percent-limit' expects a number, not 'abc'$" "$TMP/err"
grep_q '^    --percent-limit <P> ' "$TMP/err"
grep_q "^see 'prism report --help' for every option$" "$TMP/err"
check "the rest of the table is left out" test -z "$(grep -e '--sort' "$TMP/err" | grep -v '^usage')"

# rates, counts and times must be above 0 (they used to be taken: -F 0
# recorded at the default rate, --duration 0 until Ctrl-C)
for args in "record -F 0" "record -c 0" "record --duration 0" "record --duration -1" \
	"trace --duration -2" "util --duration 0" "record --duration nan"; do
	# shellcheck disable=SC2086 # the words are the arguments
	expect_exit 129 prism $args -a -o "$TMP/never.data" 2>"$TMP/err"
	grep_q "^error: option '[-a-zA-Z]+' expects a number above 0, not '" "$TMP/err"
done
check "nothing was recorded" test ! -e "$TMP/never.data"

# no command is a usage error (the README's 129), with the help on stderr
expect_exit 129 prism >"$TMP/out" 2>"$TMP/err"
check "bare prism prints nothing on stdout" test ! -s "$TMP/out"
grep_q '^usage: prism ' "$TMP/err"
# a command's prefix is suggested before a closer edit ('rep' is not 'help')
expect_exit 129 prism rep 2>"$TMP/err"
grep_q "^hint: did you mean 'report'\?$" "$TMP/err"
# only features that exist are listed
prism version --build-options >"$TMP/out"
names=$(awk -F: 'NR > 1 { gsub(/ /, "", $1); print $1 }' "$TMP/out" | sort | tr '\n' ' ')
check "the features listed are the ones built in ($names)" \
	test "$names" = "bpf bzip2 capstone demangle intel-pt libdw libelf libtraceevent postgresql sqlite zlib zstd "

# write errors on stdout are reported, not lost
if [ -w /dev/full ]; then
	expect_exit 1 prism --help >/dev/full 2>"$TMP/err"
	grep_q '^error: write failure on standard output: No space left on device$' "$TMP/err"
fi
done_testing
