#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism --help, help CMD, CMD --help, --version, unknown commands and options.
. tests/e2e/lib.sh

expect_exit 0 prism --help >"$TMP/help" 2>&1
grep_q '^usage: prism ' "$TMP/help"
grep_q '^   version +print the version' "$TMP/help"
grep_q "^See 'prism help <command>'" "$TMP/help"

expect_exit 129 prism >"$TMP/bare" 2>&1
grep_q '^usage: prism ' "$TMP/bare"

expect_exit 0 prism --version >"$TMP/version"
grep_q '^prism version [0-9]+\.[0-9]+\.[0-9]+$' "$TMP/version"

expect_exit 0 prism version --build-options >"$TMP/build"
grep_q '^ +zstd: \[ (on |OFF) \]' "$TMP/build"
grep_q '^ +libtraceevent: \[ on  \]' "$TMP/build"

expect_exit 0 prism help version >"$TMP/help-version"
grep_q '^usage: prism version \[--build-options\]' "$TMP/help-version"
grep_q '^    --build-options +list the optional features' "$TMP/help-version"
grep_q '^    -v, --verbose +be more verbose' "$TMP/help-version"
expect_exit 0 prism version --help >"$TMP/version-help"
test_cmp "$TMP/help-version" "$TMP/version-help"
expect_exit 0 prism version -h >"$TMP/version-h"
test_cmp "$TMP/help-version" "$TMP/version-h"

done_testing
