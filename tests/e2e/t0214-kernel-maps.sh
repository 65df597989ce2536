#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Kernel maps of files "from other machines", compared with perf 6.1 on the
# same file (script line for line, report rows as a set).  A profile with
# many kernel frames is recorded here, then rewritten
# (tests/tools/perfdata-buildid.py, perfdata-kmaps.py) so that:
#   - the build-id table holds the kernel under a vmlinux path, with a
#     foreign build id ("[unknown] (/lib/.../vmlinux)", "[kernel.vmlinux]
#     [k] 0xffff...") and with this kernel's (named from this kernel);
#   - the file has no kernel map ("[unknown] ([unknown])", whatever kernel runs);
#   - kernel-mode module maps, named by a .ko path and as "[name]", cover
#     part of the kernel's samples: "([virtio_net])" in script, the
#     module-relative "[k] 0x5b1e" in report.
# HOME and XDG_CACHE_HOME are the test's: no build-id cache, no index.
. tests/e2e/lib.sh
require_perf
require_root
require_cmd python3
running=$(perf buildid-list -k 2>/dev/null)
[ -n "$running" ] || skip "the running kernel has no build id (/sys/kernel/notes)"
export HOME=$TMP/home XDG_CACHE_HOME=$TMP/xdg
mkdir -p "$HOME"
foreign=0123456789abcdef0123456789abcdef01234567
T=tests/tools

perf record -q -e cpu-clock -F 4000 -g -o "$TMP/k.data" -- \
	sh -c 'dd if=/dev/zero of=/dev/null bs=4k count=300000' >/dev/null 2>"$TMP/rec.err" ||
	skip "perf record cannot sample cpu-clock here: $(head -1 "$TMP/rec.err")"
nk=$(perf script -i "$TMP/k.data" 2>/dev/null | grep -c '(\[kernel\.kallsyms\])$')
[ "$nk" -ge 50 ] || skip "only $nk kernel frames recorded"
# the kernel map's first 6 MiB stay the kernel's, the rest becomes a module
kmap=$(python3 $T/perfdata-kmaps.py "$TMP/k.data" | awk '/kernel.kallsyms/ { print $3; exit }')
kstart=${kmap%%+*}
klen=${kmap#*+}
mstart=$(printf '%x' $((0x$kstart + 0x600000)))
mlen=$(printf '%x' $((0x$klen - 0x600000)))

compare() { # NAME FILE: perf and prism on FILE
	local name=$1 f=$2
	perf script -i "$f" >"$TMP/perf.script" 2>/dev/null
	prism script -i "$f" >"$TMP/prism.script" 2>"$TMP/prism.err"
	echo "-- $name: script" >&3
	test_cmp "$TMP/perf.script" "$TMP/prism.script"
	perf report --stdio -i "$f" --no-children --sort comm,dso,sym -g none 2>/dev/null |
		grep -v '^#' | grep -v '^$' | sort >"$TMP/perf.report"
	prism report --stdio -i "$f" --no-children --sort comm,dso,sym -g none 2>/dev/null |
		grep -v '^#' | grep -v '^$' | sort >"$TMP/prism.report"
	echo "-- $name: report" >&3
	test_cmp "$TMP/perf.report" "$TMP/prism.report"
}

vml=/lib/modules/4.10.13-1-ARCH/build/vmlinux
python3 $T/perfdata-buildid.py "$TMP/k.data" "$TMP/vml.data" "rename:[kernel.kallsyms]=$vml"
python3 $T/perfdata-buildid.py "$TMP/vml.data" "$TMP/vmlf.data" "$vml=$foreign"
compare "vmlinux path, foreign build id" "$TMP/vmlf.data"
check "kernel frames under the vmlinux path" grep -qF " [unknown] ($vml)" "$TMP/prism.script"
grep_q '\[kernel\.vmlinux\] *\[k\] 0xffff' "$TMP/prism.report"
grep_q "no kernel symbols for build id $foreign" "$TMP/prism.err"
check "the missing build id is told once" test "$(grep -c "$foreign" "$TMP/prism.err")" -eq 1
compare "vmlinux path, this kernel's build id" "$TMP/vml.data"
check "kernel frames named under the vmlinux path" \
	test "$(grep -F "($vml)" "$TMP/prism.script" | grep -vc '\[unknown\]')" -gt 0

for bid in $foreign $running; do
	python3 $T/perfdata-buildid.py "$TMP/k.data" "$TMP/b.data" "[kernel.kallsyms]=$bid"
	python3 $T/perfdata-kmaps.py "$TMP/b.data" "$TMP/nokmap.data" no-kernel-map
	compare "no kernel map, build id $bid" "$TMP/nokmap.data"
	# (BPF programs have maps of their own, from KSYMBOL records)
	check "no kernel frame named without a kernel map" \
		test -z "$(grep 'ffffffff' "$TMP/prism.script" | grep -v ' (bpf_prog_' |
			grep -v '\[unknown\] (\[unknown\])$')"
	# modules over this kernel's own text only make sense for another kernel
	# (with this one's symbols perf's report hands the first samples past
	# the recorded kernel length to the module, later ones to the kernel)
	[ $bid = $foreign ] || continue
	for mod in /lib/modules/6.1.0/kernel/drivers/net/virtio_net.ko '[dxrt_driver]'; do
		python3 $T/perfdata-kmaps.py "$TMP/b.data" "$TMP/mod.data" kernel-len=600000 \
			"module=$mod@$mstart+$mlen"
		compare "module $mod, build id $bid" "$TMP/mod.data"
	done
done
# the foreign kernel's module frames: perf's name and module-relative address
python3 $T/perfdata-buildid.py "$TMP/k.data" "$TMP/b.data" "[kernel.kallsyms]=$foreign"
python3 $T/perfdata-kmaps.py "$TMP/b.data" "$TMP/mod.data" kernel-len=600000 \
	"module=/lib/modules/6.1.0/kernel/drivers/net/virtio_net.ko@$mstart+$mlen"
prism script -i "$TMP/mod.data" >"$TMP/prism.script" 2>/dev/null
prism report --stdio -i "$TMP/mod.data" --no-children --sort dso,sym -g none >"$TMP/prism.report" 2>/dev/null
grep_q '^[[:space:]]*ffffffff[0-9a-f]* \[unknown\] \(\[virtio_net\]\)$' "$TMP/prism.script"
grep_q '\[virtio_net\] *\[k\] 0x0000000000[0-9a-f]*$' "$TMP/prism.report"
done_testing
