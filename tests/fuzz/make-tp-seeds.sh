#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Seeds for fuzz-tp from the tracepoint test data: for every NAME.blob in
# SRCDIR, OUTDIR/NAME.tp holds the blob followed by the payloads of
# NAME.vec, each preceded by the separator fuzz-tp.c splits on
# ("\xffPRISMRAW\xff"); OUTDIR/NAME.blob-only holds the bare blob.
#
# usage: make-tp-seeds.sh SRCDIR OUTDIR
set -euo pipefail

src=$1 out=$2
mkdir -p "$out"
for blob in "$src"/*.blob; do
	[ -f "$blob" ] || continue
	name=$(basename "$blob" .blob)
	cp "$blob" "$out/$name.blob-only"
	{
		cat "$blob"
		if [ -f "$src/$name.vec" ]; then
			grep -v '^#' "$src/$name.vec" | cut -f1 | while read -r hex; do
				[ -n "$hex" ] || continue
				printf '\377PRISMRAW\377'
				# shellcheck disable=SC2059
				printf "$(sed 's/../\\x&/g' <<<"$hex")"
			done
		fi
	} >"$out/$name.tp"
done
