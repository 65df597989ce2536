#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records whose body is malformed but whose size keeps the stream in step
# (made by tests/tools/perfdata-legacy.py malformed from a-fp, in both byte
# orders: a COMM and an MMAP2 without their string's NUL, two samples with a
# call chain longer than the record) are skipped: every other sample is
# printed as perf prints the original file, a warning per kind names its
# count and first file offset, and the commands exit 0.  perf 6.1 itself
# stops at the first such sample ("Can't parse sample").  A record size that
# breaks the stream still ends the read with exit 1.
. tests/e2e/lib.sh
require_fixtures
require_perf
require_cmd python3 "apt-get install python3"

F=$FIXTURES/perf-6.1
FLDS=comm,tid,pid,time,event,period
perf script -i "$F/a-fp.data" -F $FLDS >"$TMP/orig.txt" 2>/dev/null
check "perf printed the original's samples" test -s "$TMP/orig.txt"

for be in "" 1; do
	src=$F/a-fp.data
	label="a-fp${be:+ (big endian)}"
	if [ -n "$be" ]; then
		src=$TMP/a-fp.be.data
		python3 tests/tools/perfdata-swap.py "$F/a-fp.data" "$src" >/dev/null ||
			fail "perfdata-swap.py failed"
	fi
	bad=$TMP/bad${be:+.be}.data
	python3 tests/tools/perfdata-legacy.py malformed "$src" "$bad" >"$TMP/damaged" ||
		fail "$label: perfdata-legacy.py malformed failed"
	comm=$(awk '$1 == "COMM" { print $2 }' "$TMP/damaged")
	mmap2=$(awk '$1 == "MMAP2" { print $2 }' "$TMP/damaged")
	sample=$(awk '$1 == "SAMPLE" { print $2; exit }' "$TMP/damaged")
	check "$label: the generator damaged 2 samples" \
		test "$(grep -c '^SAMPLE' "$TMP/damaged")" -eq 2

	expect_exit 0 prism script -i "$bad" -F $FLDS >"$TMP/prism.txt" 2>"$TMP/err"
	# every sample but the two damaged ones, as perf prints them from the original
	diff "$TMP/orig.txt" "$TMP/prism.txt" >"$TMP/diff"
	check "$label: two samples left out" test "$(grep -c '^<' "$TMP/diff")" -eq 2
	check "$label: nothing else differs" test "$(grep -c '^>' "$TMP/diff")" -eq 0
	check "$label: $(wc -l <"$TMP/prism.txt") samples printed" \
		test "$(wc -l <"$TMP/prism.txt")" -eq $(($(wc -l <"$TMP/orig.txt") - 2))
	grep_q "^warning: skipped 1 COMM record whose body is malformed, at file offset $comm$" \
		"$TMP/err"
	grep_q "^warning: skipped 1 MMAP2 record whose body is malformed, at file offset $mmap2$" \
		"$TMP/err"
	grep_q "^warning: skipped 2 SAMPLE records whose size does not match the sample_type of the event, the first at file offset $sample$" \
		"$TMP/err"
	check "$label: one warning per kind" test "$(grep -c '^warning: skipped' "$TMP/err")" -eq 3
	grep_q "^hint: the rest of '.*' was read" "$TMP/err"

	# -v names each one
	prism -v script -i "$bad" -F $FLDS 2>&1 >/dev/null |
		grep -c '; skipped$' >"$TMP/n"
	check "$label: -v tells the 4 records" test "$(cat "$TMP/n")" -eq 4

	expect_exit 0 prism report -i "$bad" --stdio >"$TMP/rep.txt" 2>"$TMP/err"
	grep_q "^# Samples: $(($(wc -l <"$TMP/orig.txt") - 2))  of event 'cpu-clock'$" "$TMP/rep.txt"
	check "$label: report warns" test "$(grep -c '^warning: skipped' "$TMP/err")" -eq 3

	expect_exit 0 prism util -i "$bad" >/dev/null 2>"$TMP/err"
	check "$label: util warns" test "$(grep -c '^warning: skipped' "$TMP/err")" -eq 3

	# stats decodes no sample: it counts the COMM and the MMAP2
	expect_exit 0 prism stats -i "$bad" >"$TMP/stats.txt" 2>/dev/null
	grep_q '^  malformed records : 2 \(skipped\)$' "$TMP/stats.txt"

	# the raw dump shows them
	prism script -D -i "$bad" >"$TMP/dump.txt" 2>/dev/null
	grep_q "^$sample \[0x50\]: PERF_RECORD_SAMPLE: malformed, skipped$" "$TMP/dump.txt"
	grep_q "^$comm \[0x30\]: PERF_RECORD_COMM: malformed, skipped$" "$TMP/dump.txt"
done

# a size that breaks the stream (4 < a header) still ends the read: exit 1
cp "$F/a-fp.data" "$TMP/cut.data"
printf '\004\000' | dd of="$TMP/cut.data" bs=1 seek=$((comm + 6)) conv=notrunc status=none
expect_exit 1 prism script -i "$TMP/cut.data" -F $FLDS >/dev/null 2>"$TMP/err"
grep_q "record at file offset $comm: size 4 is smaller than a record header" "$TMP/err"
grep_q '^hint: records before the damage were processed' "$TMP/err"
done_testing
