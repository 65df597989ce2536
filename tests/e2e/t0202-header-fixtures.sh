#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism header prints every header feature as perf report --header-only -I
# does (NAME.report-header.txt), for every perf 6.1 fixture in file mode.
# Left out: "captured on" (the file's mtime in the local zone) and "missing
# features" (depends on the reading perf's version).
. tests/e2e/lib.sh
require_fixtures

export TZ=UTC
for f in "$FIXTURES"/perf-6.1/*.data; do
	name=$(basename "$f" .data)
	case $name in *pipe*) continue ;; esac
	awk 'BEGIN { n = 0 } /^# ========/ { n++; print; if (n == 2) exit; next } n == 1 { print }' \
		"$FIXTURES/perf-6.1/$name.report-header.txt" |
		grep -v -e '^# captured on' -e '^# missing features' >"$TMP/want"
	prism header -i "$f" 2>"$TMP/err" | grep -v -e '^# captured on' -e '^# missing features' >"$TMP/got"
	test_cmp "$TMP/want" "$TMP/got"
	check "$name: no warnings" test ! -s "$TMP/err"
done
done_testing
