// SPDX-License-Identifier: MIT
/*
 * lib/pt: an overflow whose trace restarts at a PSB+ (OVF, then PSB, TSC,
 * CBR, MODE.Exec, FUP, PSBEND; no FUP right after the OVF).  As perf 6.1:
 * the branch before the OVF, the overflow error, an error at IP 0 (perf's
 * walk from no IP to the PSB's FUP) at the same time, then the trace on
 * from the FUP at the PSB's time.  t1036 compares such traces with perf.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <prism/core.h>
#include <prism/event.h>
#include <prism/pt.h>
#include <prism/symbol.h>
#include <prism/task.h>

#include "test.h"

#define A 0x400000ull /* the code: jz A+4; jnz A; ret */
#define B 0x500000ull /* where the ret goes */

static struct prism_pt_item items[16];
static size_t nr_items;

static int take(void *ctx, const struct prism_pt_item *it)
{
	(void)ctx;
	if (nr_items < 16)
		items[nr_items] = *it;
	nr_items++;
	return 0;
}

static size_t put_psb(uint8_t *t, uint64_t tsc, bool fup)
{
	size_t n = 0;
	int i;

	for (i = 0; i < 8; i++) {
		t[n++] = 0x02;
		t[n++] = 0x82;
	}
	t[n++] = 0x19; /* TSC */
	for (i = 0; i < 7; i++)
		t[n++] = (uint8_t)(tsc >> (8 * i));
	memcpy(t + n, "\x02\x03\x28\x00", 4); /* CBR 40 */
	n += 4;
	if (fup) {
		t[n++] = 0x99; /* MODE.Exec 64-bit */
		t[n++] = 0x01;
		t[n++] = 0x7d; /* FUP A, 6 bytes */
		for (i = 0; i < 6; i++)
			t[n++] = (uint8_t)(A >> (8 * i));
	}
	t[n++] = 0x02; /* PSBEND */
	t[n++] = 0x23;
	return n;
}

static size_t put_ip(uint8_t *t, uint8_t op, uint64_t ip)
{
	int i;

	t[0] = (uint8_t)(0x60 | op);
	for (i = 0; i < 6; i++)
		t[1 + i] = (uint8_t)(ip >> (8 * i));
	return 7;
}

/* /proc/self/exe into @fd; the page-aligned size after it, 0 on failure */
static uint64_t copy_self(int fd)
{
	char buf[65536];
	uint64_t len = 0;
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (in < 0)
		return 0;
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		if (write(fd, buf, (size_t)n) != n)
			break;
		len += (uint64_t)n;
	}
	close(in);
	return n ? 0 : (len + 4095) & ~4095ull;
}

static void test_ovf_psb(void)
{
	static const uint8_t code[] = { 0x74, 0x02, 0x75, 0xfc, 0xc3 };
	struct prism_pt_decoder_opts o;
	struct perf_event_header hdr = { .type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER };
	struct prism_event ev = { 0 };
	struct prism_auxtrace at = { 0 };
	struct prism_pt_decoder *d;
	char path[] = "/tmp/prism-test-pt-ovf-XXXXXX";
	uint8_t t[256];
	size_t n = 0, i;
	uint64_t pgoff;
	int fd;

	if (!prism_feature_enabled(PRISM_FEATURE_LIBIPT)) {
		TEST_SKIP("built without libipt");
		return;
	}
	/* the code at a page of its own after a copy of this ELF binary (a file symbols takes) */
	fd = mkstemp(path);
	TEST_TRUE(fd >= 0);
	pgoff = copy_self(fd);
	TEST_TRUE(pgoff > 0);
	TEST_EQ((int)pwrite(fd, code, sizeof(code), (off_t)pgoff), (int)sizeof(code));
	close(fd);

	n += put_psb(t + n, 1000, false);
	t[n++] = 0x99; /* MODE.Exec 64-bit */
	t[n++] = 0x01;
	n += put_ip(t + n, 0x11, A); /* TIP.PGE */
	t[n++] = 0x0a; /* TNT N T: jz, jnz to A */
	t[n++] = 0x02; /* OVF */
	t[n++] = 0xf3;
	n += put_psb(t + n, 2000, true);
	t[n++] = 0x06; /* TNT T: jz to the ret */
	n += put_ip(t + n, 0x01, B); /* TIP.PGD: the ret, tracing stops */

	memset(&o, 0, sizeof(o));
	o.info.type = PRISM_AUXTRACE_INTEL_PT;
	o.info.time_mult = 1;
	o.info.cap_user_time_zero = 1;
	o.info.tsc_bit = 1ull << 10;
	o.config = o.info.tsc_bit;
	TEST_EQ(prism_itrace__parse("be", &o.itrace, NULL), 0);
	o.sy = prism_symbols__new(NULL);
	o.tasks = prism_tasks__new();
	TEST_TRUE(o.sy && o.tasks);
	ev.raw = &hdr;
	ev.type = PERF_RECORD_MMAP2;
	ev.mmap.pid = ev.mmap.tid = 100;
	ev.mmap.start = A;
	ev.mmap.len = 0x1000;
	ev.mmap.pgoff = pgoff;
	ev.mmap.prot = 5; /* PROT_READ | PROT_EXEC */
	ev.mmap.filename = path;
	TEST_EQ(prism_symbols__event(o.sy, &ev), 0);
	d = prism_pt_decoder__new(&o);
	TEST_TRUE(d != NULL);
	at.size = n;
	at.tid = 100;
	at.data = t;
	TEST_EQ(prism_pt_decoder__add(d, &at), 0);
	nr_items = 0;
	TEST_EQ(prism_pt_decoder__run(d, take, NULL), 0);

	/* 0 -> A, A+2 -> A, the overflow, IP 0, 0 -> A, A -> A+4, A+4 -> B */
	TEST_EQ((int)nr_items, 7);
	for (i = 0; i < 2; i++)
		TEST_EQ((int)items[i].kind, (int)PRISM_PT_BRANCH);
	TEST_EQ_U64(items[0].addr, A);
	TEST_EQ_U64(items[1].ip, A + 2); /* the jnz before the OVF, its target the FUP's */
	TEST_EQ_U64(items[1].addr, A);
	TEST_EQ((int)items[2].kind, (int)PRISM_PT_ERROR);
	TEST_EQ(items[2].code, 7);
	TEST_EQ_U64(items[2].ip, A);
	TEST_EQ((int)items[3].kind, (int)PRISM_PT_ERROR);
	TEST_EQ(items[3].code, 5);
	TEST_EQ_U64(items[3].ip, 0);
	TEST_EQ_U64(items[3].time, items[2].time);
	TEST_EQ((int)items[4].kind, (int)PRISM_PT_BRANCH);
	TEST_EQ_U64(items[4].ip, 0);
	TEST_EQ_U64(items[4].addr, A);
	TEST_TRUE(items[4].time > items[3].time); /* the PSB's TSC */
	TEST_EQ_U64(items[5].ip, A);
	TEST_EQ_U64(items[5].addr, A + 4);
	TEST_EQ_U64(items[6].ip, A + 4);
	TEST_EQ_U64(items[6].addr, B);

	prism_pt_decoder__free(d);
	prism_symbols__free(o.sy);
	prism_tasks__free(o.tasks);
	unlink(path);
}

TEST_MAIN(TEST(ovf_psb));
