#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every C file is formatted per .clang-format (kernel style, 100 columns).
. tests/e2e/lib.sh
require_cmd clang-format "apt-get install clang-format"

files=$(git ls-files '*.c' '*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find include lib cmd tests bench build -name '*.[ch]' 2>/dev/null)
# shellcheck disable=SC2086
check "clang-format --dry-run --Werror" clang-format --dry-run --Werror $files
done_testing
