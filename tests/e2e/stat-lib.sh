# SPDX-License-Identifier: MIT
# Helpers of the prism stat tests (t09*): perf stat's layout with the
# numbers that differ from run to run made equal.

# norm FILE: every number becomes "N" right-aligned in its own width (so
# columns stay where they were), a rate's K/M/G prefix is dropped the same
# way, the start time of -o files is blanked, and the mean elapsed time
# of -r has as many digits as its stddev asks for
stat_norm() {
	perl -pe '
		s/^# started on .*/# started on DATE/;
		s/^ +[\d.]+ \+- [\d.]+ seconds time elapsed/ T +- T seconds time elapsed/;
		s{([KMG]?/sec)( *)}{"R/sec" . (" " x (length($1) + length($2) - 5))}ge;
		s/( *)(\d[\d.,]*)/" " x (length($1) + length($2) - 1) . "N"/ge;
	' "$1"
}

# stat_norm_plain FILE: -x and -j output, where nothing is aligned: every
# number becomes N and every rate R/sec
stat_norm_plain() {
	perl -pe '
		s/^# started on .*/# started on DATE/;
		s{[KMG]?/sec}{R/sec}g;
		s/\d[\d.]*/N/g;
	' "$1"
}

# stat_cmp NAME PERF_OUT PRISM_OUT [FORMAT]: equal layouts; FORMAT is the
# -x or -j option of the runs, if any
stat_cmp() {
	local norm=stat_norm
	[ -n "${4:-}" ] && norm=stat_norm_plain
	$norm "$2" >"$TMP/$1.perf.norm"
	$norm "$3" >"$TMP/$1.prism.norm"
	test_cmp "$TMP/$1.perf.norm" "$TMP/$1.prism.norm"
}
