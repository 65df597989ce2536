#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Inlined frames of --call-graph dwarf samples as perf names them: a
# function DWARF names by its linkage name is the frame itself
# (__GI___libc_write, not "__libc_write (inlined)"), a containing function
# whose DWARF name differs from its ELF symbol is marked inlined
# (__libc_start_main_impl), and inlined code whose containing function's
# DIE does not cover it still ends in the frame itself (ld.so's
# elf_dynamic_do_Rela in _dl_relocate_object).  perf records a write loop
# (user space only) and prism script must print perf script's lines.
. tests/e2e/lib.sh
command -v perf >/dev/null || skip "perf is not installed"
command -v gcc >/dev/null || skip "gcc is not installed"
cd "$TMP" || exit 1
cat >w.c <<'C'
#include <fcntl.h>
#include <unistd.h>
static void __attribute__((noinline)) writer(int fd)
{
	char b[64] = { 0 };

	for (int i = 0; i < 200000; i++)
		write(fd, b, 1);
}
int main(void)
{
	writer(open("/dev/null", O_WRONLY));
	return 0;
}
C
# -fno-plt: no PLT stubs (perf 6.1 names a .plt without .plt.sec otherwise; see issue 19)
gcc -O1 -g -fno-plt -o w w.c || skip "cannot build the workload"
perf record -q -e cpu-clock:u -F 2000 --call-graph dwarf -o w.data ./w >/dev/null 2>rec.err ||
	skip "perf cannot record --call-graph dwarf here: $(head -1 rec.err)"
perf script -i w.data >perf.all 2>/dev/null
prism script -i w.data >prism.all 2>prism.err
check "prism script exits 0" test $? -eq 0
check "perf printed samples" test -s perf.all
# perf's unwind of a sample in ld.so's own start-up sometimes ends in a
# bogus "ffffffffffffffff [unknown]" frame (issue 19): such samples are
# left out of both outputs (by their header line, the same in both)
python3 - <<'PY'
def blocks(path):
    with open(path) as f:
        return [b for b in f.read().split("\n\n") if b.strip()]
p, q = blocks("perf.all"), blocks("prism.all")
bad = {b.split("\n")[0] for b in p if "ffffffffffffffff [unknown]" in b}
for name, bl in (("perf.txt", p), ("prism.txt", q)):
    with open(name, "w") as f:
        f.write("\n\n".join(b for b in bl if b.split("\n")[0] not in bad) + "\n")
with open("left-out", "w") as f:
    f.write(f"{len(bad)}\n")
PY
echo "note: $(cat left-out) samples with perf's bogus end frame left out" >&3
test_cmp perf.txt prism.txt
n=$(grep -c '(inlined)' perf.txt)
echo "note: $(grep -c . perf.txt) lines, $n inlined frames in perf's output" >&3
check "the samples compared hold inlined frames ($n)" test "$n" -gt 0
done_testing
