// SPDX-License-Identifier: MIT
/*
 * Address spaces: overlapping maps, fork copies, exec empties, threads
 * share; ELF symbols of the fixture workload and of this test binary; JIT
 * maps; vdso.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include <prism/strbuf.h>

#include "symbol/symbol-internal.h"
#include "test.h"

static struct perf_event_header hdr;

static struct prism_event mmap_ev(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
				  const char *file)
{
	struct prism_event ev = { 0 };

	hdr.type = PERF_RECORD_MMAP2;
	hdr.misc = PERF_RECORD_MISC_USER;
	ev.raw = &hdr;
	ev.type = PERF_RECORD_MMAP2;
	ev.mmap.pid = ev.mmap.tid = pid;
	ev.mmap.start = start;
	ev.mmap.len = len;
	ev.mmap.pgoff = pgoff;
	ev.mmap.prot = PROT_READ | PROT_EXEC;
	ev.mmap.filename = file;
	return ev;
}

static void test_maps_overlap(void)
{
	struct maps *m = maps__new();
	struct prism_dso a = { 0 }, b = { 0 };

	TEST_TRUE(m != NULL);
	TEST_EQ(maps__insert(m, 0x1000, 0x3000, 0, &a), 0);
	/* punch into the middle: a splits in two, the tail's pgoff moves */
	TEST_EQ(maps__insert(m, 0x2000, 0x1000, 0x500, &b), 0);
	TEST_EQ(m->nr, 3);
	TEST_TRUE(maps__find(m, 0x1fff)->dso == &a);
	TEST_TRUE(maps__find(m, 0x2000)->dso == &b);
	TEST_TRUE(maps__find(m, 0x3000)->dso == &a);
	TEST_EQ_U64(maps__find(m, 0x3000)->pgoff, 0x2000);
	TEST_TRUE(maps__find(m, 0x4000) == NULL);
	/* cover everything */
	TEST_EQ(maps__insert(m, 0x0, 0x10000, 0, &b), 0);
	TEST_EQ(m->nr, 1);
	maps__put(m);
}

static void test_fork_exec_threads(void)
{
	struct prism_symbols *sy = prism_symbols__new(NULL);
	struct prism_event ev;
	struct prism_frame f;

	TEST_TRUE(sy != NULL);
	ev = mmap_ev(100, 0x400000, 0x1000, 0, "/nonexistent/parent-bin");
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	prism_symbols__resolve(sy, 100, PERF_RECORD_MISC_USER, 0x400010, &f);
	TEST_STREQ(f.dso_name, "parent-bin");

	/* fork of a new process copies the space */
	memset(&ev, 0, sizeof(ev));
	hdr.type = PERF_RECORD_FORK;
	ev.raw = &hdr;
	ev.type = PERF_RECORD_FORK;
	ev.fork.pid = ev.fork.tid = 101;
	ev.fork.ppid = ev.fork.ptid = 100;
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	prism_symbols__resolve(sy, 101, PERF_RECORD_MISC_USER, 0x400010, &f);
	TEST_STREQ(f.dso_name, "parent-bin");

	/* exec in the child starts a new space, not the parent's */
	memset(&ev, 0, sizeof(ev));
	hdr.type = PERF_RECORD_COMM;
	ev.raw = &hdr;
	ev.type = PERF_RECORD_COMM;
	ev.comm.pid = ev.comm.tid = 101;
	ev.comm.comm = "child";
	ev.comm.exec = true;
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	/* until the new image maps something there, the old image answers (execve's own stack) */
	prism_symbols__resolve(sy, 101, PERF_RECORD_MISC_USER, 0x400010, &f);
	TEST_STREQ(f.dso_name, "parent-bin");
	ev = mmap_ev(101, 0x400000, 0x2000, 0, "/nonexistent/child-bin");
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	prism_symbols__resolve(sy, 101, PERF_RECORD_MISC_USER, 0x400010, &f);
	TEST_STREQ(f.dso_name, "child-bin");
	prism_symbols__resolve(sy, 100, PERF_RECORD_MISC_USER, 0x400010, &f);
	TEST_STREQ(f.dso_name, "parent-bin");
	/* a second exec drops the space two execs back */
	memset(&ev, 0, sizeof(ev));
	hdr.type = PERF_RECORD_COMM;
	ev.raw = &hdr;
	ev.type = PERF_RECORD_COMM;
	ev.comm.pid = ev.comm.tid = 101;
	ev.comm.comm = "grandchild";
	ev.comm.exec = true;
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	TEST_EQ(prism_symbols__resolve(sy, 101, PERF_RECORD_MISC_USER, 0x401010, &f), 1);
	TEST_STREQ(f.dso_name, "[unknown]");
	prism_symbols__free(sy);
}

/* the fixture binary, recorded as /tmp/perfdata-workload, found through --map-path */
static void test_fixture_workload(void)
{
	const char *bin = test_fixture_path("perf-6.1/perfdata-workload.bin");
	struct prism_symbols_opts o = { 0 };
	const char *pm[2];
	char map[4200];
	struct prism_symbols *sy;
	struct prism_event ev;
	struct prism_frame f;

	if (!bin)
		TEST_SKIP("needs ../shared/fixtures/perf-6.1/perfdata-workload.bin");
	snprintf(map, sizeof(map), "/tmp/perfdata-workload=%s", bin);
	pm[0] = map;
	pm[1] = NULL;
	o.path_map = pm;
	sy = prism_symbols__new(&o);
	TEST_TRUE(sy != NULL);
	/* a-fp: [0x560c479af000(0x1000) @ 0x1000] r-xp /tmp/perfdata-workload */
	ev = mmap_ev(14567, 0x560c479af000, 0x1000, 0x1000, "/tmp/perfdata-workload");
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	/* perf script: 119c leaf_a+0x23, 12d7 main+0x67 */
	TEST_EQ(prism_symbols__resolve(sy, 14567, PERF_RECORD_MISC_USER, 0x560c479af19c, &f), 0);
	TEST_STREQ(f.sym, "leaf_a");
	TEST_EQ_U64(f.symoff, 0x23);
	TEST_EQ_U64(f.dso_addr, 0x119c);
	TEST_EQ_U64(f.map_addr, 0x119c); /* PIE, p_vaddr == p_offset: perf's map_ip is the same */
	TEST_STREQ(f.dso_name, "perfdata-workload");
	TEST_EQ(prism_symbols__resolve(sy, 14567, PERF_RECORD_MISC_USER, 0x560c479af2d7, &f), 0);
	TEST_STREQ(f.sym, "main");
	TEST_EQ_U64(f.symoff, 0x67);
	if (prism_feature_enabled(PRISM_FEATURE_LIBDW)) {
		const char *file;
		unsigned int line;

		TEST_EQ(prism_symbols__srcline(sy, &f, &file, &line), 0);
		TEST_TRUE(strstr(file, "workload.c") != NULL);
		TEST_TRUE(line > 0);
	}
	prism_symbols__free(sy);
}

/* a wrong build id is refused with a warning */
static void test_build_id_mismatch(void)
{
	const char *bin = test_fixture_path("perf-6.1/perfdata-workload.bin");
	struct prism_symbols_opts o = { 0 };
	const char *pm[2];
	char map[4200];
	struct prism_symbols *sy;
	struct prism_event ev;
	struct prism_frame f;
	uint8_t wrong[20] = { 1, 2, 3 };

	if (!bin)
		TEST_SKIP("needs the fixture binary");
	snprintf(map, sizeof(map), "/tmp/perfdata-workload=%s", bin);
	pm[0] = map;
	pm[1] = NULL;
	o.path_map = pm;
	o.buildid_dir = "/nonexistent";
	sy = prism_symbols__new(&o);
	TEST_TRUE(sy != NULL);
	ev = mmap_ev(1, 0x560c479af000, 0x1000, 0x1000, "/tmp/perfdata-workload");
	hdr.misc |= PRISM_MISC_MMAP_BUILD_ID;
	ev.mmap.build_id = wrong;
	ev.mmap.build_id_size = 20;
	ev.mmap.prot = 0;
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	TEST_EQ(prism_symbols__resolve(sy, 1, PERF_RECORD_MISC_USER, 0x560c479af19c, &f), 1);
	TEST_TRUE(f.sym == NULL);
	TEST_STREQ(f.dso_name, "perfdata-workload");
	prism_symbols__free(sy);
}

/* this test binary: its own functions and PLT entries, through /proc/self/maps */
static int own_function(int x)
{
	return x * 3 + 1;
}

static void test_self(void)
{
	struct prism_symbols *sy = prism_symbols__new(NULL);
	char line[4096], path[4096];
	unsigned long start, end, off;
	char perms[8];
	bool found = false;
	struct prism_frame f;
	FILE *maps = fopen("/proc/self/maps", "r");
	uint64_t fn = (uint64_t)(uintptr_t)own_function;

	TEST_TRUE(sy && maps);
	while (fgets(line, sizeof(line), maps)) {
		struct prism_event ev;

		path[0] = '\0';
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end, perms, &off,
			   path) < 4 ||
		    perms[2] != 'x' || !path[0])
			continue;
		ev = mmap_ev((uint32_t)getpid(), start, end - start, off, path);
		TEST_EQ(prism_symbols__event(sy, &ev), 0);
		found = true;
	}
	fclose(maps);
	TEST_TRUE(found);
	TEST_EQ(prism_symbols__resolve(sy, (uint32_t)getpid(), PERF_RECORD_MISC_USER, fn + 2, &f),
		0);
	TEST_STREQ(f.sym, "own_function");
	TEST_EQ_U64(f.symoff, 2);
	TEST_EQ(own_function(1), 4);
	prism_symbols__free(sy);
}

static void test_plt(void)
{
	struct symtab t = { 0 };
	bool has_symtab;
	size_t i, plt = 0;

	TEST_EQ(elf__load_syms("/proc/self/exe", &t, false, true, &has_symtab), 0);
	for (i = 0; i < t.nr; i++)
		if (strstr(t.syms[i].name, "@plt"))
			plt++;
	symtab__release(&t);
	if (!plt)
		TEST_SKIP("this binary has no PLT (static or -fno-plt build)");
	TEST_TRUE(plt > 3);
}

static void test_jit_map(void)
{
	char dir[] = "/tmp/prism-jit-XXXXXX", file[64];
	struct prism_symbols_opts o = { 0 };
	struct prism_symbols *sy;
	struct prism_event ev;
	struct prism_frame f;
	FILE *fp;

	TEST_TRUE(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/perf-4242.map", dir);
	fp = fopen(file, "w");
	TEST_TRUE(fp != NULL);
	fprintf(fp, "0x7f0000001000 0x100 LazyCompile:~foo bar.js:1\n7f0000001100 80 jit_two\n");
	fclose(fp);
	o.jit_dir = dir;
	sy = prism_symbols__new(&o);
	ev = mmap_ev(4242, 0x7f0000000000, 0x10000, 0, "//anon");
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	TEST_EQ(prism_symbols__resolve(sy, 4242, PERF_RECORD_MISC_USER, 0x7f0000001010, &f), 0);
	TEST_STREQ(f.sym, "LazyCompile:~foo bar.js:1");
	TEST_EQ(f.kind, PRISM_FRAME_JIT);
	/* perf 6.1's names: the long one in script, the short one in report */
	TEST_STREQ(f.dso_name, "[JIT] tid 4242");
	TEST_STREQ(f.dso_path, "/tmp/perf-4242.map");
	TEST_EQ(f.map_addr, 0x7f0000001010);
	TEST_EQ(prism_symbols__resolve(sy, 4242, PERF_RECORD_MISC_USER, 0x7f0000001140, &f), 0);
	TEST_STREQ(f.sym, "jit_two");
	TEST_EQ(prism_symbols__resolve(sy, 4242, PERF_RECORD_MISC_USER, 0x7f0000002000, &f), 1);
	/* executable [heap] is a JIT map too; a memfd is a file, as in perf 6.1 */
	ev = mmap_ev(4242, 0x7f1000000000, 0x1000, 0, "[heap]");
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	prism_symbols__resolve(sy, 4242, PERF_RECORD_MISC_USER, 0x7f1000000010, &f);
	TEST_STREQ(f.dso_path, "/tmp/perf-4242.map");
	ev = mmap_ev(4242, 0x7f2000000000, 0x1000, 0, "/memfd:x (deleted)");
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	prism_symbols__resolve(sy, 4242, PERF_RECORD_MISC_USER, 0x7f2000000010, &f);
	TEST_STREQ(f.dso_path, "/memfd:x (deleted)");
	TEST_EQ(f.map_addr, 0x10);
	prism_symbols__free(sy);
	unlink(file);
	rmdir(dir);
}

static void test_vdso(void)
{
	static const uint8_t other[20] = { 0xde, 0xad, 0xbe, 0xef };
	struct prism_symbols *sy = prism_symbols__new(NULL);
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	struct prism_event ev;
	struct prism_frame f;
	struct prism_dso *d;
	size_t i;
	bool named = false;

	if (!img)
		TEST_SKIP("no vdso in this process");
	ev = mmap_ev(7, 0x7fff0000, 0x2000, 0, "[vdso]");
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	prism_symbols__resolve(sy, 7, PERF_RECORD_MISC_USER, 0x7fff0000, &f);
	d = f.dso;
	TEST_TRUE(d != NULL);
	TEST_TRUE(prism_dso__nr_symbols(d) > 0);
	for (i = 0; i < d->syms.nr; i++)
		if (strstr(d->syms.syms[i].name, "clock_gettime"))
			named = true;
	TEST_TRUE(named);
	prism_symbols__free(sy);

	/* a vdso of another build id: not named from this one (perf prints [unknown]) */
	sy = prism_symbols__new(&(struct prism_symbols_opts){ .buildid_dir = "/nonexistent" });
	ev = mmap_ev(7, 0x7fff0000, 0x2000, 0, "[vdso]");
	ev.mmap.build_id = other;
	ev.mmap.build_id_size = sizeof(other);
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	for (i = 0; i < 0x2000; i += 0x10)
		TEST_EQ(prism_symbols__resolve(sy, 7, PERF_RECORD_MISC_USER, 0x7fff0000 + i, &f),
			1);
	TEST_STREQ(f.dso_path, "[vdso]");
	prism_symbols__free(sy);
}

/* BPF programs from KSYMBOL records, then unregistered */
static void test_ksymbol_bpf(void)
{
	struct prism_symbols_opts o = { .no_kernel = true };
	struct prism_symbols *sy = prism_symbols__new(&o);
	struct prism_event ev = { 0 };
	struct prism_frame f;

	TEST_TRUE(sy != NULL);
	hdr.type = PERF_RECORD_KSYMBOL;
	hdr.misc = PERF_RECORD_MISC_KERNEL;
	ev.raw = &hdr;
	ev.type = PERF_RECORD_KSYMBOL;
	ev.ksymbol.addr = 0xffffffffc0001000;
	ev.ksymbol.len = 0x200;
	ev.ksymbol.ksym_type = 1; /* PERF_RECORD_KSYMBOL_TYPE_BPF */
	ev.ksymbol.name = "bpf_prog_6deef7357e7b4530_on_switch";
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	TEST_EQ(prism_symbols__resolve(sy, 1, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001010, &f), 0);
	TEST_STREQ(f.sym, "bpf_prog_6deef7357e7b4530_on_switch");
	TEST_STREQ(f.dso_name, "bpf_prog_6deef7357e7b4530_on_switch");
	/* perf script prints the program's name, not prism's key "[bpf]name" */
	TEST_STREQ(f.dso_path, "bpf_prog_6deef7357e7b4530_on_switch");
	TEST_EQ(f.kind, PRISM_FRAME_BPF);
	TEST_TRUE(f.kernel);
	ev.ksymbol.flags = 1; /* PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER */
	TEST_EQ(prism_symbols__event(sy, &ev), 0);
	TEST_EQ(prism_symbols__resolve(sy, 1, PERF_RECORD_MISC_KERNEL, 0xffffffffc0001010, &f), 1);
	prism_symbols__free(sy);
}

static void test_script_format(void)
{
	struct prism_frame f = { 0 };
	struct prism_strbuf sb = STRBUF_INIT;

	f.ip = 0x560c479af19c;
	f.dso = (struct prism_dso *)&f; /* any non-NULL: the address shown is map_addr */
	f.dso_addr = 0x119c;
	f.map_addr = 0x119c;
	f.sym = "leaf_a";
	f.symoff = 0x23;
	f.dso_path = "/tmp/perfdata-workload";
	prism_frame__format_script(&f, PRISM_FRAME_FMT_SYMOFF | PRISM_FRAME_FMT_DSO, &sb);
	TEST_STREQ(sb.buf, "\t            119c leaf_a+0x23 (/tmp/perfdata-workload)\n");
	prism_strbuf_reset(&sb);
	f.sym = NULL;
	f.dso = NULL;
	f.ip = 0x17;
	f.dso_path = "[unknown]";
	prism_frame__format_script(&f, PRISM_FRAME_FMT_SYMOFF | PRISM_FRAME_FMT_DSO, &sb);
	TEST_STREQ(sb.buf, "\t              17 [unknown] ([unknown])\n");
	prism_strbuf_release(&sb);
}

TEST_MAIN(TEST(maps_overlap), TEST(fork_exec_threads), TEST(fixture_workload),
	  TEST(build_id_mismatch), TEST(self), TEST(plt), TEST(jit_map), TEST(vdso),
	  TEST(ksymbol_bpf), TEST(script_format));
