#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# prism script --json: one valid object per sample with the keys -F selects,
# call chains as resolved frames (no context markers), and the same samples,
# times and frame names as perf script prints for the same file and symbols.
. tests/e2e/lib.sh
require_fixtures
require_perf
require_cmd python3
F=$FIXTURES/perf-6.1
S=$TMP/symfs
mkdir -p "$S/tmp" "$TMP/home"
cp "$F/perfdata-workload.bin" "$S/tmp/perfdata-workload"
for p in /usr/lib/x86_64-linux-gnu/libc.so.6; do
	[ -f "$p" ] && mkdir -p "$S$(dirname "$p")" && ln -s "$p" "$S$p"
done
export HOME=$TMP/home

# frames are compared on a-fp (symbols from the workload and libc as they
# are); elsewhere DWARF inlines need libc's debuginfo and [vdso] perf's
# cache (see t0205), so there the samples, tasks and times
for name in a-fp b-dwarf f-sched-tp e-two-events; do
	frames=0
	[ $name = a-fp ] && frames=1
	perf script --symfs "$S" -i "$F/$name.data" -F comm,tid,time,ip,sym \
		>"$TMP/$name.perf" 2>/dev/null
	prism script --symfs "$S" -i "$F/$name.data" --json >"$TMP/$name.json" 2>/dev/null
	check "$name: prism script --json exits 0" test $? -eq 0
	echo "-- $name" >&3
	check "$name: the samples, times and frames equal perf script's" \
		python3 - "$TMP/$name.perf" "$TMP/$name.json" $frames <<'PY'
import json, re, sys
perf, got = [], []
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if not line.strip():
        continue
    if line.startswith("\t"):  # a frame: address, then the symbol
        perf[-1][3].append(line.split(None, 1)[1])
    else:  # "comm tid time:" (a comm may hold blanks and colons)
        m = re.match(r"\s*(.*?)\s+(\d+)\s+(\d+\.\d+):", line)
        perf.append([m.group(1), int(m.group(2)), m.group(3), []])
for line in open(sys.argv[2]):
    o = json.loads(line)
    assert "0xfffffffffffffe00" not in line, "a context marker"
    t = o["time"]
    frames = [(f["sym"] or "[unknown]") + (" (inlined)" if f.get("inlined") else "")
              for f in o.get("callchain", [])]
    got.append([o["comm"], o["tid"], "%d.%06d" % (t // 10**9, t % 10**9 // 1000), frames])
if len(perf) != len(got):
    sys.exit("perf printed %d samples, prism %d" % (len(perf), len(got)))
for i, (p, g) in enumerate(zip(perf, got)):
    if sys.argv[3] != "1":
        p[3] = g[3] = []
    if p[1:] != g[1:] or not g[0].startswith(p[0][:15]):
        sys.exit("sample %d: perf %r, prism %r" % (i, p, g))
print("ok: %d samples" % len(got))
PY
done

# -F picks the keys
prism script --symfs "$S" -i "$F/a-fp.data" --json -F tid,ip,sym >"$TMP/f.json" 2>/dev/null
check "-F tid,ip,sym: only those keys" python3 -c '
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    assert set(o) == {"pid", "tid", "ip", "callchain"}, sorted(o)
    for f in o["callchain"]:
        assert set(f) <= {"ip", "sym", "inlined"}, sorted(f)
' "$TMP/f.json"
done_testing
