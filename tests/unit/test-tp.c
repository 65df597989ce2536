// SPDX-License-Identifier: MIT
/*
 * Tracepoint decoding: blobs and payloads taken from the perf 6.1 fixtures
 * (tests/data/tp/, made by gen-vectors.py) must print exactly as perf
 * script printed them; fields are found by name; truncated or corrupt
 * blobs and payloads fail cleanly.  A blob built here covers what the
 * fixtures lack: big-endian data, saved_cmdlines, printk formats,
 * __print_hex(), x[i], division, and formats that crash libtraceevent's
 * parser (lib/tp/lint.c must skip them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <prism/core.h>
#include <prism/error.h>
#include <prism/strbuf.h>
#include <prism/tp.h>

#include "test.h"
#include "tp/blob.h"

/*
 * libtraceevent 1.7.1 leaks a token or two when tep_parse_event() fails on
 * a corrupt format (test_corrupt_blobs makes some); those are its leaks,
 * not prism's.  LeakSanitizer reads this hook from the test binary.
 */
__attribute__((visibility("default"))) const char *__lsan_default_suppressions(void);
__attribute__((visibility("default"))) const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\n";
}

#define NEED_TEP()                                                          \
	do {                                                                \
		if (!prism_feature_enabled(PRISM_FEATURE_LIBTRACEEVENT))    \
			TEST_SKIP("prism was built without libtraceevent"); \
	} while (0)

/* a file of tests/data, with a NUL after its @size bytes; NULL if unreadable */
static char *read_file(const char *name, size_t *size)
{
	FILE *f = fopen(test_data_path(name), "rb");
	char *buf = NULL;
	long n = -1;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n >= 0 && !fseek(f, 0, SEEK_SET))
		buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf) {
		buf[n] = '\0';
		*size = (size_t)n;
	}
	fclose(f);
	return buf;
}

static struct prism_tp *load(const char *blob_name)
{
	size_t size = 0;
	char *blob = read_file(blob_name, &size);
	struct prism_tp *tp = blob ? prism_tp__new(blob, size) : NULL;

	free(blob);
	return tp;
}

/* ---- test vectors: "<payload hex>\t<expected text>" lines ---- */

struct vec {
	unsigned char raw[512];
	size_t size;
	char text[512];
};

static int unhex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* the next vector from *@pos, or false at the end of the file */
static bool next_vec(const char **pos, struct vec *v)
{
	const char *p = *pos, *tab, *eol;
	size_t i;

	while (*p == '#' || *p == '\n') {
		eol = strchr(p, '\n');
		p = eol ? eol + 1 : p + strlen(p);
	}
	tab = strchr(p, '\t');
	eol = strchr(p, '\n');
	if (!*p || !tab || !eol || tab > eol || (size_t)(tab - p) / 2 > sizeof(v->raw) ||
	    (size_t)(eol - tab) > sizeof(v->text))
		return false;
	v->size = (size_t)(tab - p) / 2;
	for (i = 0; i < v->size; i++)
		v->raw[i] = (unsigned char)(unhex(p[2 * i]) << 4 | unhex(p[2 * i + 1]));
	memcpy(v->text, tab + 1, (size_t)(eol - tab - 1));
	v->text[eol - tab - 1] = '\0';
	*pos = eol + 1;
	return true;
}

/* the first vector of @vec_name whose text starts with @prefix */
static bool find_vec(const char *vec_name, const char *prefix, struct vec *v)
{
	size_t size;
	char *text = read_file(vec_name, &size);
	const char *pos = text;
	bool found = false;

	if (!text)
		return false;
	while (!found && next_vec(&pos, v))
		found = !strncmp(v->text, prefix, strlen(prefix));
	free(text);
	return found;
}

/* format every vector of @name; returns the number checked, -1 on a mismatch */
static int check_vectors(const char *name)
{
	char blob_name[64], vec_name[64];
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_tp *tp;
	const char *pos;
	struct vec v;
	size_t size;
	char *text;
	int n = 0, err;

	snprintf(blob_name, sizeof(blob_name), "tp/%s.blob", name);
	snprintf(vec_name, sizeof(vec_name), "tp/%s.vec", name);
	tp = load(blob_name);
	text = read_file(vec_name, &size);
	if (!tp || !text) {
		printf("    %s: cannot load %s or %s\n", name, blob_name, vec_name);
		n = -1;
		goto out;
	}
	pos = text;
	while (next_vec(&pos, &v)) {
		prism_strbuf_reset(&sb);
		err = prism_tp__format(tp, v.raw, v.size, &sb);
		if (err || strcmp(sb.buf, v.text)) {
			printf("    %s: err %d\n      got:  \"%s\"\n      want: \"%s\"\n", name,
			       err, sb.buf, v.text);
			n = -1;
			goto out;
		}
		n++;
	}
out:
	prism_strbuf_release(&sb);
	free(text);
	prism_tp__free(tp);
	return n;
}

/* ---- the blob walker (compiled in every build) ---- */

static void test_blob_walk(void)
{
	size_t size = 0;
	char *blob = read_file("tp/p-sched.blob", &size);
	struct tp_blob b;
	size_t i;

	TEST_TRUE(blob);
	TEST_EQ(tp_blob__parse(&b, blob, size), 0);
	TEST_STREQ(b.version, "0.6");
	TEST_EQ(b.big_endian, 0);
	TEST_EQ(b.long_size, 8);
	TEST_EQ(b.page_size, 4096);
	TEST_EQ(b.nr_ftrace, 0);
	TEST_EQ(b.nr_formats, 6);
	for (i = 0; i < b.nr_formats; i++)
		TEST_STREQ(b.formats[i].system, "sched");
	TEST_TRUE(b.header_page.size > 0 && b.printk.size > 0);
	TEST_EQ(b.kallsyms.size, 0);
	TEST_EQ(b.cmdlines.size, 0);
	tp_blob__release(&b);
	/* a 3-byte blob, a bad magic */
	TEST_EQ(tp_blob__parse(&b, blob, 3), -PRISM_E_TRUNCATED);
	blob[3] = 'T';
	TEST_EQ(tp_blob__parse(&b, blob, size), -PRISM_E_TRACEPOINT);
	free(blob);
}

static void test_no_feature(void)
{
	if (prism_feature_enabled(PRISM_FEATURE_LIBTRACEEVENT))
		TEST_SKIP("prism has libtraceevent");
	errno = 0;
	TEST_TRUE(load("tp/f-sched-tp.blob") == NULL);
	TEST_EQ(errno, PRISM_E_NOFEATURE);
}

/* ---- events and formatting, against perf script's text ---- */

static void test_events(void)
{
	struct prism_tp *tp;
	const struct prism_tp_event *ev;

	NEED_TEP();
	tp = load("tp/f-sched-tp.blob");
	TEST_TRUE(tp);
	TEST_EQ(prism_tp__nr_events(tp), 2);
	ev = prism_tp__event(tp, 0x174);
	TEST_TRUE(ev);
	TEST_STREQ(prism_tp_event__name(ev), "sched_switch");
	TEST_STREQ(prism_tp_event__system(ev), "sched");
	TEST_EQ(prism_tp_event__id(ev), 372);
	TEST_TRUE(prism_tp__event_at(tp, 0) == ev);
	ev = prism_tp__event_at(tp, 1);
	TEST_STREQ(prism_tp_event__name(ev), "sched_wakeup");
	TEST_TRUE(prism_tp__event(tp, 374) == ev);
	TEST_TRUE(prism_tp__event_at(tp, 2) == NULL);
	TEST_TRUE(prism_tp__event(tp, 373) == NULL);
	TEST_TRUE(prism_tp__event(tp, 0) == NULL);
	TEST_TRUE(prism_tp__event(tp, (1ULL << 32) + 372) == NULL);
	TEST_TRUE(prism_tp__comm(tp, 1) == NULL);
	prism_tp__free(tp);
	prism_tp__free(NULL);
}

static void test_format_sched(void)
{
	int n;

	NEED_TEP();
	n = check_vectors("f-sched-tp");
	TEST_TRUE(n >= 8);
	n = check_vectors("p-sched");
	TEST_TRUE(n >= 12);
}

static void test_format_syscalls(void)
{
	NEED_TEP();
	TEST_TRUE(check_vectors("q-trace") >= 8);
}

static void test_format_pipe_blob(void)
{
	NEED_TEP();
	/* 6912 bytes: the 6907-byte blob and the pipe record's padding */
	TEST_TRUE(check_vectors("d2-pipe-tp") >= 8);
}

static void test_format_errors(void)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_tp *tp;
	struct vec v;
	size_t n;

	NEED_TEP();
	TEST_TRUE(find_vec("tp/f-sched-tp.vec", "prev_comm=perf ", &v));
	tp = load("tp/f-sched-tp.blob");
	TEST_TRUE(tp);
	/* sched_switch's last field ends at 64: every shorter payload fails */
	for (n = 0; n < 64; n++) {
		int err = prism_tp__format(tp, v.raw, n, &sb);

		TEST_TRUE(err == -PRISM_E_TRUNCATED);
		TEST_EQ(sb.len, 0);
	}
	TEST_EQ(prism_tp__format(tp, v.raw, 64, &sb), 0);
	TEST_STREQ(sb.buf, v.text);
	/* an id no format has */
	v.raw[0] = 0x75;
	TEST_EQ(prism_tp__format(tp, v.raw, v.size, &sb), -PRISM_E_UNKNOWN_EVENT);
	errno = 0;
	TEST_TRUE(prism_tp__event_of(tp, v.raw, v.size) == NULL);
	TEST_EQ(errno, PRISM_E_UNKNOWN_EVENT);
	TEST_TRUE(prism_tp__event_of(tp, v.raw, 1) == NULL);
	TEST_EQ(errno, PRISM_E_TRUNCATED);
	prism_strbuf_release(&sb);
	prism_tp__free(tp);
}

/* ---- fields by name ---- */

static void test_fields_sched_switch(void)
{
	const struct prism_tp_event *ev;
	const struct prism_tp_field *f;
	struct prism_tp *tp;
	const char *s;
	uint64_t val;
	size_t len;
	struct vec v;

	NEED_TEP();
	TEST_TRUE(find_vec("tp/f-sched-tp.vec", "prev_comm=perf ", &v));
	tp = load("tp/f-sched-tp.blob");
	TEST_TRUE(tp);
	ev = prism_tp__event_of(tp, v.raw, v.size);
	TEST_TRUE(ev && ev == prism_tp__event(tp, 372));
	TEST_EQ(prism_tp_event__nr_fields(ev), 4 + 7);
	TEST_STREQ(prism_tp_field__name(prism_tp_event__field_at(ev, 0)), "common_type");

	f = prism_tp_event__field(ev, "prev_pid");
	TEST_TRUE(f);
	TEST_STREQ(prism_tp_field__type(f), "pid_t");
	TEST_EQ(prism_tp_field__offset(f), 24);
	TEST_EQ(prism_tp_field__size(f), 4);
	TEST_TRUE(prism_tp_field__is_signed(f));
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ(val, 14933);
	/* a payload too short for the field */
	TEST_EQ(prism_tp_field__u64(f, v.raw, 27, &val), -PRISM_E_TRUNCATED);
	TEST_EQ(prism_tp_field__u64(f, v.raw, 28, &val), 0);
	TEST_EQ(prism_tp_field__str(f, v.raw, v.size, &s, &len), -EINVAL);

	f = prism_tp_event__field(ev, "next_comm");
	TEST_TRUE(f && prism_tp_field__is_string(f) && !prism_tp_field__is_dynamic(f));
	TEST_EQ(prism_tp_field__size(f), 16);
	TEST_STREQ(prism_tp_field__type(f), "char[16]");
	TEST_EQ(prism_tp_field__str(f, v.raw, v.size, &s, &len), 0);
	TEST_EQ(len, strlen("migration/0"));
	TEST_TRUE(!memcmp(s, "migration/0", len));
	TEST_EQ(prism_tp_field__str(f, v.raw, 55, &s, &len), -PRISM_E_TRUNCATED);
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), -EINVAL);

	f = prism_tp_event__field(ev, "prev_state");
	TEST_TRUE(f && prism_tp_field__is_signed(f));
	TEST_EQ(prism_tp_field__size(f), 8);
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ(val, 2); /* D = TASK_UNINTERRUPTIBLE */
	f = prism_tp_event__field(ev, "common_pid");
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ(val, 14933);
	f = prism_tp_event__field(ev, "common_type");
	TEST_TRUE(f && !prism_tp_field__is_signed(f));
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ(val, 372);

	TEST_TRUE(prism_tp_event__field(ev, "prev_pidx") == NULL);
	TEST_TRUE(prism_tp_event__field(ev, "comm") == NULL);
	TEST_TRUE(prism_tp_event__field(ev, "") == NULL);
	TEST_TRUE(prism_tp_event__field_at(ev, 11) == NULL);
	prism_tp__free(tp);
}

static void test_fields_syscalls(void)
{
	const struct prism_tp_event *ev;
	const struct prism_tp_field *f;
	struct prism_tp *tp;
	uint64_t val;
	struct vec v;

	NEED_TEP();
	tp = load("tp/q-trace.blob");
	TEST_TRUE(tp);

	TEST_TRUE(find_vec("tp/q-trace.vec", "NR 21 (", &v));
	ev = prism_tp__event_of(tp, v.raw, v.size);
	TEST_TRUE(ev);
	TEST_STREQ(prism_tp_event__name(ev), "sys_enter");
	TEST_STREQ(prism_tp_event__system(ev), "raw_syscalls");
	f = prism_tp_event__field(ev, "id");
	TEST_TRUE(f && prism_tp_field__is_signed(f));
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ(val, 21);
	f = prism_tp_event__field(ev, "args");
	TEST_TRUE(f && !prism_tp_field__is_string(f));
	TEST_EQ(prism_tp_field__size(f), 48);
	TEST_EQ(prism_tp_field__nr_elems(f), 6);
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), -EINVAL);
	TEST_EQ(prism_tp_field__u64_at(f, v.raw, v.size, 0, &val), 0);
	TEST_EQ_U64(val, 0x7f3abca112a0);
	TEST_EQ(prism_tp_field__u64_at(f, v.raw, v.size, 5, &val), 0);
	TEST_EQ_U64(val, 0x1f8);
	TEST_EQ(prism_tp_field__u64_at(f, v.raw, v.size, 6, &val), -ERANGE);
	TEST_EQ(prism_tp_field__u64_at(f, v.raw, v.size - 9, 5, &val), -PRISM_E_TRUNCATED);

	TEST_TRUE(find_vec("tp/q-trace.vec", "NR 21 = -2", &v));
	ev = prism_tp__event_of(tp, v.raw, v.size);
	TEST_STREQ(prism_tp_event__name(ev), "sys_exit");
	f = prism_tp_event__field(ev, "ret");
	TEST_TRUE(f && prism_tp_field__is_signed(f));
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ((int64_t)val, -2);
	TEST_TRUE(prism_tp_event__field(ev, "args") == NULL);
	prism_tp__free(tp);
}

static void test_fields_data_loc(void)
{
	const struct prism_tp_event *ev;
	const struct prism_tp_field *f;
	struct prism_tp *tp;
	const char *s;
	uint64_t val;
	size_t len;
	struct vec v;

	NEED_TEP();
	tp = load("tp/p-sched.blob");
	TEST_TRUE(tp);
	TEST_EQ(prism_tp__nr_events(tp), 6);
	TEST_TRUE(find_vec("tp/p-sched.vec", "comm=perf pid=15450 prio=120 orig_cpu=0", &v));
	ev = prism_tp__event_of(tp, v.raw, v.size);
	TEST_STREQ(prism_tp_event__name(ev), "sched_migrate_task");
	f = prism_tp_event__field(ev, "comm");
	TEST_TRUE(f && prism_tp_field__is_dynamic(f) && prism_tp_field__is_string(f));
	TEST_STREQ(prism_tp_field__type(f), "__data_loc char[]");
	TEST_EQ(prism_tp_field__size(f), 4);
	TEST_EQ(prism_tp_field__str(f, v.raw, v.size, &s, &len), 0);
	TEST_EQ(len, 4);
	TEST_TRUE(!memcmp(s, "perf", 4));
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), -EINVAL);
	/* the string lies past a shortened payload */
	TEST_EQ(prism_tp_field__str(f, v.raw, 28, &s, &len), -PRISM_E_TRUNCATED);
	f = prism_tp_event__field(ev, "dest_cpu");
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ(val, 1);

	TEST_TRUE(find_vec("tp/p-sched.vec", "comm=perfdata-worklo pid=15452 runtime=", &v));
	ev = prism_tp__event_of(tp, v.raw, v.size);
	TEST_STREQ(prism_tp_event__name(ev), "sched_stat_runtime");
	f = prism_tp_event__field(ev, "comm");
	TEST_EQ(prism_tp_field__str(f, v.raw, v.size, &s, &len), 0);
	TEST_EQ(len, 15);
	TEST_TRUE(!memcmp(s, "perfdata-worklo", 15));
	f = prism_tp_event__field(ev, "runtime");
	TEST_TRUE(f && !prism_tp_field__is_signed(f));
	TEST_EQ(prism_tp_field__u64(f, v.raw, v.size, &val), 0);
	TEST_EQ(val, 1852399);
	TEST_TRUE(prism_tp__event(tp, 366) != NULL); /* sched_process_fork */
	TEST_TRUE(prism_tp_event__field(prism_tp__event(tp, 366), "child_comm") != NULL);
	prism_tp__free(tp);
}

static void test_data_loc_corrupt(void)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_tp *tp;
	struct vec v;
	uint32_t loc;

	NEED_TEP();
	tp = load("tp/p-sched.blob");
	TEST_TRUE(find_vec("tp/p-sched.vec", "comm=perf pid=15450 runtime=52897", &v));
	/* comm's __data_loc at offset 8: point the string past the payload */
	memcpy(&loc, v.raw + 8, 4);
	loc = (loc & 0xffff0000) | (uint32_t)v.size;
	memcpy(v.raw + 8, &loc, 4);
	TEST_EQ(prism_tp__format(tp, v.raw, v.size, &sb), -PRISM_E_TRUNCATED);
	/* and a length that runs past it */
	loc = (uint32_t)(200 << 16) | 24;
	memcpy(v.raw + 8, &loc, 4);
	TEST_EQ(prism_tp__format(tp, v.raw, v.size, &sb), -PRISM_E_TRUNCATED);
	TEST_EQ(sb.len, 0);
	prism_strbuf_release(&sb);
	prism_tp__free(tp);
}

/* ---- truncated and corrupt blobs ---- */

static void test_truncated_blobs(void)
{
	static const char *const names[] = { "tp/f-sched-tp.blob", "tp/p-sched.blob",
					     "tp/q-trace.blob" };
	size_t i, n, size;

	NEED_TEP();
	for (i = 0; i < PRISM_ARRAY_SIZE(names); i++) {
		char *blob = read_file(names[i], &size);

		TEST_TRUE(blob);
		for (n = 0; n < size; n += n < 200 ? 1 : 13) {
			/* a heap copy of exactly n bytes, so ASan sees any over-read */
			char *copy = malloc(n ? n : 1);
			struct prism_tp *tp;

			memcpy(copy, blob, n);
			errno = 0;
			tp = prism_tp__new(copy, n);
			free(copy);
			if (tp || (errno != PRISM_E_TRUNCATED && errno != PRISM_E_TRACEPOINT)) {
				prism_tp__free(tp);
				free(blob);
				TEST_FAIL("%s: prefix of %zu bytes: tp %p errno %d", names[i], n,
					  (void *)tp, errno);
			}
		}
		free(blob);
	}
}

static void test_pipe_blob_padding(void)
{
	size_t size = 0, n;
	struct prism_tp *tp;
	char *blob;

	NEED_TEP();
	blob = read_file("tp/d2-pipe-tp.blob", &size);
	TEST_TRUE(blob);
	TEST_EQ(size, 6912);
	/* the blob proper is 6907 bytes; the rest pads the pipe record */
	for (n = 6906; n <= size; n++) {
		tp = prism_tp__new(blob, n);
		TEST_TRUE(n < 6907 ? tp == NULL : tp != NULL);
		prism_tp__free(tp);
	}
	free(blob);
}

/*
 * Bit flips in the structure (counts, sizes, names, endianness, long size)
 * and in the format texts: a flip in a format may make libtraceevent fail
 * on that event, but nothing may crash.
 */
static void test_corrupt_blobs(void)
{
	size_t size = 0, i, ok = 0, failed = 0;
	unsigned int seed = 12345;
	char *blob;

	NEED_TEP();
	blob = read_file("tp/f-sched-tp.blob", &size);
	TEST_TRUE(blob);
	for (i = 0; i < 4000; i++) {
		char *copy = malloc(size);
		struct prism_tp *tp;
		size_t at;

		memcpy(copy, blob, size);
		seed = seed * 1103515245 + 12345;
		/*
		 * The first 300 bytes hold every count and size but the last
		 * three; the format texts follow up to byte 2583.
		 */
		if (i < 2000)
			at = (seed >> 8) % 300;
		else if (i < 2500)
			at = size - 1 - (seed >> 8) % 24;
		else
			at = (seed >> 8) % 2583;
		copy[at] ^= (char)(1u << ((seed >> 4) % 8));
		tp = prism_tp__new(copy, size);
		if (tp)
			ok++;
		else
			failed++;
		prism_tp__free(tp);
		free(copy);
	}
	TEST_EQ(ok + failed, 4000);
	TEST_TRUE(failed > 0);
	free(blob);
}

/* ---- a blob built here: big-endian, saved_cmdlines, printk, __print_hex, x[i] ---- */

static const char test_format[] =
	"name: test_ev\nID: 1000\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:s8 small;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield:short half;\toffset:10;\tsize:2;\tsigned:1;\n"
	"\tfield:int neg;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 big;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int len;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned char buf[8];\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"small=%d half=%d neg=%d big=%llu name=%s buf=%s sym=%s\", REC->small, "
	"REC->half, REC->neg, REC->big, __get_str(name), __print_hex(REC->buf, REC->len), "
	"__print_symbolic(REC->half, { 1, \"one\" }, { 0xfed4, \"minus300\" })\n";

static const char index_format[] =
	"name: index_ev\nID: 1001\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned int idx;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int vals[4];\toffset:12;\tsize:16;\tsigned:0;\n\n"
	"print fmt: \"v=%u\", REC->vals[REC->idx]\n";

#define COMMON_FIELDS                                                                  \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char div_format[] = "name: div_ev\nID: 1002\nformat:\n" COMMON_FIELDS
				 "\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n"
				 "\tfield:unsigned int b;\toffset:12;\tsize:4;\tsigned:0;\n\n"
				 "print fmt: \"q=%u r=%u\", REC->a / REC->b, REC->a % 7\n";

/* formats that crash libtraceevent 1.7.1's parser: each must be skipped */
static const char *const bad_formats[] = {
	/* __print_flags() on an undeclared field: NULL dereference */
	"name: bad1\nID: 1003\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%s\", __print_flags(REC->nope, \"|\", { 1, \"A\" })\n",
	/* constant folding divides by zero */
	"name: bad2\nID: 1004\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%d\", (3 + 4) / (2 - 2)\n",
	/* an assignment after a conditional: NULL dereference */
	"name: bad4\nID: 1006\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%d\", REC->a ? 1 : 2 = 3\n",
	/* a subscript right after a conditional's ':': NULL dereference */
	"name: bad5\nID: 1007\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int a;\toffset:8;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"%d\", REC->a ? 1 : (int)REC->a[1]\n",
	/* '[' with no ']': the field parser runs into the end of the text */
	"name: bad3\nID: 1005\nformat:\n" COMMON_FIELDS "\tfield:char a[",
};

/* the lint itself, compiled in every build */
static void test_format_lint(void)
{
	static const char *const good[] = {
		"name: x\nID: 1\nformat:\n" COMMON_FIELDS
		"\tfield:const char __attribute__((btf_type_tag(\"user\"))) * path;\toffset:8;"
		"\tsize:8;\tsigned:0;\n\tfield:__data_loc char[] name;\toffset:16;\tsize:4;"
		"\tsigned:0;\n\n"
		"print fmt: \"p=%p n=%s t=%llu c=%c\", REC->path, __get_str(name), "
		"(unsigned long long)REC->common_pid / 1000, REC->common_flags & 1 ? ')' : '('\n",
		"name: y\nID: 2\nformat:\n" COMMON_FIELDS "\n"
		"print fmt: \"%d %d %d\", REC->common_pid / (u32)REC->common_type, "
		"REC->common_pid % 010, REC->common_pid / __get_dynamic_array_len(x)\n",
		"name: z\nID: 3\nformat:\n" COMMON_FIELDS "\n"
		"print fmt: \"%d %d %d %d\", REC->common_pid == 1, REC->common_pid != 1, "
		"REC->common_pid <= 1, REC->common_pid >= 1\n",
		/* subscripts elsewhere in a conditional, and after a unary operator or call */
		"name: w\nID: 4\nformat:\n" COMMON_FIELDS "\n"
		"print fmt: \"%d %d %d %s %d %d\", REC->common_pid ? x[1] : 2, "
		"REC->common_pid ? 1 : ~x[1], REC->common_pid ? 1 : f(x)[1], "
		"REC->common_pid ? \"a:b\" : \"c\", REC->common_pid ? 1 : REC->common_type, "
		"REC->common_pid ? 1 : (u32)REC->common_type + 2\n",
	};
	static const char *const bad[] = {
		"print fmt: \"%d\", 1 / 08\n", /* octal: 0 */
		"print fmt: \"%d\", 1 / \"x\"\n", /* a string is 0 */
		"print fmt: \"%d\", 1 / FOO\n", /* so is a bare word */
		"print fmt: \"%d\", 1 $ 2\n", /* not C */
		"print fmt: \"%d\", REC->a.b\n", /* nor a field's member */
		"print fmt: \"%d\", (1\n", /* unbalanced */
		"print fmt: \"%d\", 0 ? 1 : 2 = 3\n", /* an assignment */
		"print fmt: \"%d\", 0 ? 1 : x[1]\n", /* a subscript after ':' */
		"print fmt: \"%d\", 0 ? 1 : (x)[1]\n",
		"print fmt: \"%d\", 0 ? 1 : (int) x [1]\n",
		"print fmt: \"%d\", 0 ? 1 : \"ab\"[1]\n",
		"print fmt: \"%d\", 0 ? 1 :5[1]\n",
		"print fmt: \"%d\", 0 ? 1 : 2 ? 3 : x.y[1]\n",
		"print fmt: \"%d\", 0 ? 1 : x . y\n", /* a member after ':' */
		"print fmt: \"%d\", 0 ? 1 : longREC->y, 2\n",
		"print fmt: \"%d\", 0 ? 1 : (x)->y\n",
		"print fmt: \"%d\", 0 ? 1 : char x[16]\n", /* words in a row */
		"print fmt: \"%d, 1\n", /* unclosed string: endless loop */
		"\tfield:char a[\x81];\toffset:8;\tsize:1;\n", /* no token for 0x81 */
		"\tfield:char a[\"6];\toffset:8;\tsize:1;\n",
		"\tfield:u.signed short x;\toffset:8;\tsize:2;\n", /* '.' leaks a token */
	};
	size_t i;

	for (i = 0; i < PRISM_ARRAY_SIZE(good); i++)
		TEST_EQ(tp_format__lint(good[i], strlen(good[i]), false), 0);
	for (i = 0; i < PRISM_ARRAY_SIZE(bad); i++)
		TEST_EQ(tp_format__lint(bad[i], strlen(bad[i]), false), -PRISM_E_TRACEPOINT);
	for (i = 0; i < PRISM_ARRAY_SIZE(bad_formats); i++)
		TEST_EQ(tp_format__lint(bad_formats[i], strlen(bad_formats[i]), false),
			-PRISM_E_TRACEPOINT);
	TEST_EQ(tp_format__lint(test_format, sizeof(test_format) - 1, false), 0);
	TEST_EQ(tp_format__lint(index_format, sizeof(index_format) - 1, false), 0);
	TEST_EQ(tp_format__lint("a\0b", 3, false), -PRISM_E_TRACEPOINT);
	/* ftrace's own formats have "field:struct ftrace_graph_ent.func" style names */
	{
		static const char dotted[] =
			"\tfield:unsigned long ent.func;\toffset:8;\tsize:8;\n";

		TEST_EQ(tp_format__lint(dotted, sizeof(dotted) - 1, true), 0);
		TEST_EQ(tp_format__lint(dotted, sizeof(dotted) - 1, false), -PRISM_E_TRACEPOINT);
	}
}

static void put(struct prism_strbuf *sb, uint64_t v, int n, bool be)
{
	int i;

	for (i = 0; i < n; i++)
		prism_strbuf_addch(sb, (char)(v >> (8 * (be ? n - 1 - i : i))));
}

static void build_blob(struct prism_strbuf *sb, bool be, const char *printk)
{
	static const char header_page[] =
		"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
	static const char cmdlines[] = "1 systemd\n4242 my worker\n";

	prism_strbuf_add(sb, "\x17\x08\x44tracing0.6", 14);
	put(sb, be, 1, be);
	put(sb, 8, 1, be);
	put(sb, 4096, 4, be);
	prism_strbuf_add(sb, "header_page", 12);
	put(sb, strlen(header_page), 8, be);
	prism_strbuf_addstr(sb, header_page);
	prism_strbuf_add(sb, "header_event", 13);
	put(sb, 0, 8, be);
	put(sb, 0, 4, be); /* ftrace formats */
	put(sb, 2, 4, be); /* systems */
	prism_strbuf_add(sb, "test", 5);
	put(sb, 3, 4, be);
	put(sb, strlen(test_format), 8, be);
	prism_strbuf_addstr(sb, test_format);
	put(sb, strlen(index_format), 8, be);
	prism_strbuf_addstr(sb, index_format);
	put(sb, strlen(div_format), 8, be);
	prism_strbuf_addstr(sb, div_format);
	prism_strbuf_add(sb, "bad", 4);
	put(sb, PRISM_ARRAY_SIZE(bad_formats), 4, be);
	for (size_t i = 0; i < PRISM_ARRAY_SIZE(bad_formats); i++) {
		put(sb, strlen(bad_formats[i]), 8, be);
		prism_strbuf_addstr(sb, bad_formats[i]);
	}
	put(sb, 0, 4, be); /* kallsyms */
	put(sb, strlen(printk), 4, be);
	prism_strbuf_addstr(sb, printk);
	put(sb, strlen(cmdlines), 8, be);
	prism_strbuf_addstr(sb, cmdlines);
}

/* test_ev payload: 40 bytes of fields, then "hello\0" for name, padded to 48 */
static void build_payload(unsigned char *p, bool be, uint32_t len)
{
	struct prism_strbuf sb = STRBUF_INIT;

	put(&sb, 1000, 2, be);
	put(&sb, 0, 2, be);
	put(&sb, 4242, 4, be);
	put(&sb, (uint8_t)-5, 1, be);
	put(&sb, 0, 1, be);
	put(&sb, (uint16_t)-300, 2, be);
	put(&sb, (uint32_t)-70000, 4, be);
	put(&sb, 0x123456789abcdef0ULL, 8, be);
	put(&sb, 6u << 16 | 40, 4, be);
	put(&sb, len, 4, be);
	prism_strbuf_add(&sb, "\x01\x02\x03\x04\xaa\xbb\xcc\xdd", 8);
	prism_strbuf_add(&sb, "hello\0\0", 8);
	memcpy(p, sb.buf, 48);
	prism_strbuf_release(&sb);
}

static void test_built_blob(void)
{
	static const char printk[] = "ffffffff81000000 : \"a\"\n"
				     "ffffffff81000010 : \"\"\n"
				     "ffffffff81000020 : \"long enough\\n\"\n"
				     "garbage line\n"
				     "ffffffff81000030 :";
	int be;

	NEED_TEP();
	for (be = 0; be <= 1; be++) {
		struct prism_strbuf blob = STRBUF_INIT, sb = STRBUF_INIT;
		const struct prism_tp_event *ev;
		const struct prism_tp_field *f;
		unsigned char raw[48];
		struct prism_tp *tp;
		const char *s;
		uint64_t val;
		size_t len;

		build_blob(&blob, be, printk);
		tp = prism_tp__new(blob.buf, blob.len);
		prism_strbuf_release(&blob);
		TEST_TRUE(tp);
		/* test_ev, index_ev, div_ev; the bad formats are skipped */
		TEST_EQ(prism_tp__nr_events(tp), 3);
		TEST_TRUE(prism_tp__event(tp, 1003) == NULL);
		TEST_STREQ(prism_tp__comm(tp, 4242), "my worker");
		TEST_STREQ(prism_tp__comm(tp, 1), "systemd");
		TEST_TRUE(prism_tp__comm(tp, 2) == NULL);

		build_payload(raw, be, 4);
		ev = prism_tp__event_of(tp, raw, sizeof(raw));
		TEST_TRUE(ev && prism_tp_event__id(ev) == 1000);
		TEST_STREQ(prism_tp_event__system(ev), "test");
		f = prism_tp_event__field(ev, "small");
		TEST_EQ(prism_tp_field__u64(f, raw, sizeof(raw), &val), 0);
		TEST_EQ((int64_t)val, -5);
		f = prism_tp_event__field(ev, "half");
		TEST_EQ(prism_tp_field__u64(f, raw, sizeof(raw), &val), 0);
		TEST_EQ((int64_t)val, -300);
		f = prism_tp_event__field(ev, "neg");
		TEST_EQ(prism_tp_field__u64(f, raw, sizeof(raw), &val), 0);
		TEST_EQ((int64_t)val, -70000);
		f = prism_tp_event__field(ev, "big");
		TEST_EQ(prism_tp_field__u64(f, raw, sizeof(raw), &val), 0);
		TEST_EQ_U64(val, 0x123456789abcdef0ULL);
		f = prism_tp_event__field(ev, "name");
		TEST_EQ(prism_tp_field__str(f, raw, sizeof(raw), &s, &len), 0);
		TEST_EQ(len, 5);
		TEST_TRUE(!memcmp(s, "hello", 5));
		f = prism_tp_event__field(ev, "buf");
		TEST_EQ(prism_tp_field__nr_elems(f), 8);
		TEST_EQ(prism_tp_field__u64_at(f, raw, sizeof(raw), 7, &val), 0);
		TEST_EQ(val, 0xdd);

		/*
		 * libtraceevent (so perf) reads fields unsigned and prints %d of
		 * an s8 or short as its zero-extended value; kernel formats cast.
		 */
		TEST_EQ(prism_tp__format(tp, raw, sizeof(raw), &sb), 0);
		TEST_STREQ(sb.buf, "small=251 half=65236 neg=-70000 big=1311768467463790320 "
				   "name=hello buf=01 02 03 04 sym=minus300");
		/* __print_hex over all 8 bytes is fine; 9 would read past buf into name */
		prism_strbuf_reset(&sb);
		build_payload(raw, be, 8);
		TEST_EQ(prism_tp__format(tp, raw, sizeof(raw), &sb), 0);
		build_payload(raw, be, 17);
		TEST_EQ(prism_tp__format(tp, raw, sizeof(raw), &sb), -PRISM_E_TRUNCATED);
		build_payload(raw, be, 0xffffffffu);
		TEST_EQ(prism_tp__format(tp, raw, sizeof(raw), &sb), -PRISM_E_TRUNCATED);

		/* index_ev: vals[idx] */
		memset(raw, 0, sizeof(raw));
		put(&blob, 1001, 2, be);
		put(&blob, 0, 6, be);
		put(&blob, 3, 4, be);
		put(&blob, 10, 4, be);
		put(&blob, 20, 4, be);
		put(&blob, 30, 4, be);
		put(&blob, 40, 4, be);
		memcpy(raw, blob.buf, 28);
		prism_strbuf_reset(&sb);
		TEST_EQ(prism_tp__format(tp, raw, 28, &sb), 0);
		TEST_STREQ(sb.buf, "v=40");
		raw[be ? 11 : 8] = 7; /* idx 7: past vals[] but inside a longer payload */
		TEST_EQ(prism_tp__format(tp, raw, 28, &sb), -PRISM_E_TRUNCATED);
		TEST_EQ(prism_tp__format(tp, raw, sizeof(raw), &sb), 0);
		raw[be ? 11 : 8] = 200;
		TEST_EQ(prism_tp__format(tp, raw, sizeof(raw), &sb), -PRISM_E_TRUNCATED);

		/* div_ev: a / b with b from the payload */
		prism_strbuf_reset(&blob);
		put(&blob, 1002, 2, be);
		put(&blob, 0, 6, be);
		put(&blob, 100, 4, be);
		put(&blob, 7, 4, be);
		memcpy(raw, blob.buf, 16);
		prism_strbuf_reset(&sb);
		TEST_EQ(prism_tp__format(tp, raw, 16, &sb), 0);
		TEST_STREQ(sb.buf, "q=14 r=2");
		memset(raw + 12, 0, 4);
		TEST_EQ(prism_tp__format(tp, raw, 16, &sb), -PRISM_E_TRACEPOINT);
		prism_strbuf_release(&blob);
		prism_strbuf_release(&sb);
		prism_tp__free(tp);
	}
}

/* perf's --raw-trace text: the event's own fields, " name=value" each */
static void test_format_fields(void)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct prism_tp *tp;
	struct vec v;

	NEED_TEP();
	TEST_TRUE(find_vec("tp/f-sched-tp.vec", "prev_comm=perf ", &v));
	tp = load("tp/f-sched-tp.blob");
	TEST_TRUE(tp);
	TEST_EQ(prism_tp__format_fields(tp, v.raw, v.size, &sb), 0);
	TEST_TRUE(!strncmp(sb.buf, " prev_comm=perf prev_pid=", 25));
	TEST_TRUE(strstr(sb.buf, " prev_state=") && strstr(sb.buf, " next_prio="));
	TEST_TRUE(!strstr(sb.buf, "common_"));
	prism_strbuf_reset(&sb);
	TEST_EQ(prism_tp__format_fields(tp, v.raw, 63, &sb), -PRISM_E_TRUNCATED);
	TEST_EQ(sb.len, 0);
	prism_tp__free(tp);
	/* an array of longs: its bytes */
	TEST_TRUE(find_vec("tp/q-trace.vec", "NR 12 (", &v));
	tp = load("tp/q-trace.blob");
	TEST_TRUE(tp);
	TEST_EQ(prism_tp__format_fields(tp, v.raw, v.size, &sb), 0);
	TEST_TRUE(!strncmp(sb.buf, " id=", 4) && strstr(sb.buf, " args=ARRAY["));
	prism_strbuf_release(&sb);
	prism_tp__free(tp);
}

TEST_MAIN(TEST(blob_walk), TEST(no_feature), TEST(events), TEST(format_sched),
	  TEST(format_syscalls), TEST(format_pipe_blob), TEST(format_errors),
	  TEST(fields_sched_switch), TEST(fields_syscalls), TEST(fields_data_loc),
	  TEST(data_loc_corrupt), TEST(truncated_blobs), TEST(pipe_blob_padding),
	  TEST(corrupt_blobs), TEST(format_lint), TEST(built_blob), TEST(format_fields));
