// SPDX-License-Identifier: MIT
/*
 * Call chains of a-fp.data, resolved by the symbol module and printed with
 * prism_frame__format_script(), equal perf script's (a-fp.script.txt) line
 * for line.  Kernel frames keep perf's address; their names are compared
 * only when the running kernel is the recording one.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "test.h"

struct ctx {
	struct prism_symbols *sy;
	struct prism_callchain cc;
	struct prism_strbuf out;
	size_t samples;
};

static int on_sample(void *arg, const struct prism_event *ev)
{
	struct ctx *c = arg;
	size_t i;

	if (prism_symbols__callchain(c->sy, ev, &c->cc, PRISM_CALLCHAIN_INLINE_UNWOUND))
		return -ENOMEM;
	for (i = 0; i < c->cc.nr; i++)
		prism_frame__format_script(&c->cc.frames[i],
					   PRISM_FRAME_FMT_SYMOFF | PRISM_FRAME_FMT_DSO, &c->out);
	prism_strbuf_addch(&c->out, '\n');
	c->samples++;
	return 0;
}

static int on_other(void *arg, const struct prism_event *ev)
{
	struct ctx *c = arg;

	return prism_symbols__event(c->sy, ev);
}

/* perf script's frame lines (tab-indented), blank line between samples */
static char *perf_frames(const char *path)
{
	struct prism_strbuf sb = STRBUF_INIT;
	char line[4096];
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\t' || line[0] == '\n')
			prism_strbuf_addstr(&sb, line);
	}
	fclose(f);
	return prism_strbuf_detach(&sb, NULL);
}

/* kernel lines: keep the address column only (names depend on the running kernel) */
static char *mask_kernel(char *s)
{
	struct prism_strbuf sb = STRBUF_INIT;
	char *line = s, *nl;

	for (; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		if (strstr(line, "([kernel.kallsyms])") &&
		    strstr(line, "([kernel.kallsyms])") < nl) {
			char *p = line + 1;

			while (*p == ' ')
				p++;
			p = strchr(p, ' '); /* the end of the address */
			prism_strbuf_add(&sb, line, (size_t)(p - line));
			prism_strbuf_addstr(&sb, " (kernel)\n");
		} else {
			prism_strbuf_add(&sb, line, (size_t)(nl - line + 1));
		}
	}
	free(s);
	return prism_strbuf_detach(&sb, NULL);
}

static void compare_chains(const char *name)
{
	char data[4200], script[4200], bin[4200], map[4300], *want, *got;
	const char *pm[2] = { map, NULL };
	struct prism_symbols_opts o = { .path_map = pm };
	struct prism_session_opts so = { 0 };
	struct prism_tool tool = {
		.sample = on_sample, .mmap = on_other, .comm = on_other, .fork = on_other
	};
	struct prism_session *s;
	struct ctx c = { 0 };
	const char *kbid, *running;

	snprintf(data, sizeof(data), "perf-6.1/%s.script.txt", name);
	if (!test_fixture_path(data))
		TEST_SKIP("needs ../shared/fixtures/perf-6.1");
	/* test_fixture_path() returns a static buffer: copy each path */
	snprintf(script, sizeof(script), "%s", test_fixture_path(data));
	snprintf(data, sizeof(data), "perf-6.1/%s.data", name);
	snprintf(data, sizeof(data), "%s", test_fixture_path(data));
	snprintf(bin, sizeof(bin), "%s", test_fixture_path("perf-6.1/perfdata-workload.bin"));
	snprintf(map, sizeof(map), "/tmp/perfdata-workload=%s", bin);
	want = perf_frames(script);
	TEST_TRUE(want != NULL);
	so.path = data;
	s = prism_session__open(&so);
	TEST_TRUE(s != NULL);
	c.sy = prism_symbols__new(&o);
	TEST_TRUE(c.sy != NULL);
	prism_strbuf_init(&c.out);
	TEST_EQ(prism_symbols__set_features(c.sy, prism_session__features(s)), 0);
	TEST_EQ(prism_session__process(s, &tool, &c), 0);
	TEST_TRUE(c.samples > 100);
	/* kernel names only when the file's kernel is the running one */
	running = prism_symbols__kernel_build_id(c.sy);
	kbid = "4a5a9b0affb66c437abcd455d2738af879985fa9"; /* the fixtures' kernel */
	got = prism_strbuf_detach(&c.out, NULL);
	if (!running || strcmp(running, kbid)) {
		want = mask_kernel(want);
		got = mask_kernel(got);
	}
	if (strcmp(want, got)) {
		size_t i = 0;

		while (want[i] && want[i] == got[i])
			i++;
		while (i && want[i - 1] != '\n')
			i--;
		TEST_FAIL("call chains differ from perf script at:\nperf:  %.200s\nprism: %.200s",
			  want + i, got + i);
	}
	free(want);
	free(got);
	prism_callchain__release(&c.cc);
	prism_symbols__free(c.sy);
	prism_session__free(s);
}

static void test_a_fp_callchains(void)
{
	compare_chains("a-fp");
}

/* --call-graph dwarf: user frames by unwinding the stack copies with libdw */
static void test_b_dwarf_callchains(void)
{
	if (!prism_feature_enabled(PRISM_FEATURE_LIBDW))
		TEST_SKIP("built without libdw");
	compare_chains("b-dwarf");
}

TEST_MAIN(TEST(a_fp_callchains), TEST(b_dwarf_callchains));
