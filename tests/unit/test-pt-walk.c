// SPDX-License-Identifier: MIT
/*
 * lib/pt/walk.c: which traces prism walks itself (pt_walk_fits: the packets
 * it knows, each of its size), the others left to libipt's
 * block decoder.  t1024 compares the walk's samples with libipt's blocks,
 * the instruction decoder and perf.
 */
#include <stdlib.h>
#include <string.h>

#include "pt/decode.h"
#include "test.h"

static const uint8_t psb[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82,
			       0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82 };

static bool fits(const uint8_t *tail, size_t n)
{
	static const uint8_t head[] = {
		0x19, 1,    2,	  3, 4, 5, 6, 7, /* TSC */
		0x02, 0x73, 0,	  0, 0, 0, 0, /* TMA */
		0x02, 0x03, 0x28, 0, /* CBR */
		0x02, 0x23, /* PSBEND */
		0x99, 0x01, /* MODE.Exec 64-bit */
		0x71, 1,    2,	  3, 4, 5, 6, /* TIP.PGE, 6 bytes of IP */
	};
	struct prism_pt_decoder d;
	uint8_t buf[256];
	size_t len = 0;
	bool r;

	memset(&d, 0, sizeof(d));
	memcpy(buf, psb, sizeof(psb));
	len += sizeof(psb);
	memcpy(buf + len, head, sizeof(head));
	len += sizeof(head);
	memcpy(buf + len, tail, n);
	len += n;
	r = pt_walk_fits(&d, buf, len, false, true);
	return r;
}

static const uint8_t pip[] = { 0x02, 0x43, 0, 0, 0, 0, 0, 0 }; /* PIP: a MOV CR3 */
static const uint8_t psb_pip[] = { 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02,
				   0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x82, 0x02, 0x43,
				   0,	 0x10, 0,    0,	   0,	 0,    0x02, 0x23 };

static void test_plain(void)
{
	static const uint8_t t[] = {
		0x1e, 0x00, 0x06, /* short TNTs, a PAD */
		0x02, 0xa3, 1,	  2, 3, 4, 5, 6, /* long TNT */
		0x59, 0x12, /* MTC */
		0x03, /* CYC, one byte */
		0x07, 0x03, 0x02, /* CYC with two more bytes */
		0x2d, 0x34, 0x12, /* TIP, 2 bytes of IP */
		0xcd, 1,    2,	  3, 4, 5, 6, 7, 8, /* TIP, 8 bytes */
		0x0d, /* TIP with the IP suppressed */
		0x5d, 1,    2,	  3, 4, /* FUP, 4 bytes */
		0x01, /* TIP.PGD, no IP */
		0x99, 0x02, /* MODE.Exec 32-bit */
		0x31, 1,    2, /* TIP.PGE */
		0x02, 0xf3, 0x3d, 1, 2, /* OVF, FUP (2 bytes of IP) */
	};

	TEST_TRUE(fits(t, sizeof(t)));
	TEST_TRUE(fits(psb, sizeof(psb))); /* another PSB */
	/* a PIP in PSB+: the CR3 at the PSB; outside, one bound to a MOV CR3 */
	TEST_TRUE(fits(psb_pip, sizeof(psb_pip)));
	TEST_TRUE(fits(pip, sizeof(pip)));
}

static void test_events(void)
{
	static const uint8_t tsx[] = { 0x99, 0x21 }; /* MODE.TSX */
	static const uint8_t ptw[] = { 0x02, 0x12, 1, 2, 3, 4 }; /* PTWRITE, 4 bytes */
	static const uint8_t ptw8[] = { 0x02, 0xb2, 1, 2, 3, 4, 5, 6, 7, 8 }; /* 8 bytes, IP */
	static const uint8_t pwre[] = { 0x02, 0x22, 0, 0 }; /* PWRE */
	static const uint8_t pwrx[] = { 0x02, 0xa2, 0, 0, 0, 0, 0 }; /* PWRX */
	static const uint8_t mwait[] = { 0x02, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0 }; /* MWAIT */
	static const uint8_t exstop[] = { 0x02, 0xe2 }; /* EXSTOP, IP */
	static const uint8_t mnt[] = { 0x02, 0xc3, 0x88, 0, 0, 0, 0, 0, 0, 0, 0 }; /* MNT */
	static const uint8_t vmcs[] = { 0x02, 0xc8, 0, 0, 0, 0, 0 }; /* VMCS */
	static const uint8_t stop[] = { 0x02, 0x83 }; /* TraceStop */
	struct prism_pt_decoder d;

	TEST_TRUE(fits(tsx, sizeof(tsx)));
	TEST_TRUE(fits(ptw, sizeof(ptw)));
	TEST_TRUE(fits(ptw8, sizeof(ptw8)));
	TEST_TRUE(fits(pwre, sizeof(pwre)));
	TEST_TRUE(fits(pwrx, sizeof(pwrx)));
	TEST_TRUE(fits(mwait, sizeof(mwait)));
	TEST_TRUE(fits(exstop, sizeof(exstop)));
	TEST_TRUE(fits(mnt, sizeof(mnt)));
	TEST_TRUE(fits(vmcs, sizeof(vmcs)));
	TEST_TRUE(fits(stop, sizeof(stop)));
	/* TSX where libipt has an erratum for it (BDM64): libipt's block decoder */
	memset(&d, 0, sizeof(d));
	TEST_TRUE(!pt_walk_fits(&d, tsx, sizeof(tsx), false, false));
	TEST_TRUE(pt_walk_fits(&d, tsx, sizeof(tsx), false, true));
}

static void test_other(void)
{
	static const uint8_t mnt_bad[] = { 0x02, 0xc3, 0x89, 0, 0, 0, 0, 0, 0, 0, 0 }; /* not 88 */
	static const uint8_t ptw16[] = { 0x02, 0x52, 1, 2 }; /* PTWRITE, a reserved size */
	static const uint8_t bad_ip[] = { 0xad, 1, 2 }; /* TIP with IPBytes 101 */
	static const uint8_t unknown[] = { 0x02, 0x55 };

	TEST_TRUE(!fits(mnt_bad, sizeof(mnt_bad)));
	TEST_TRUE(!fits(ptw16, sizeof(ptw16)));
	TEST_TRUE(!fits(bad_ip, sizeof(bad_ip)));
	TEST_TRUE(!fits(unknown, sizeof(unknown)));
}

static void test_off(void)
{
	static const uint8_t t[] = { 0x1e };
	struct prism_pt_decoder d;

	/* kernel code changed while tracing: the walk's runs there are read anew each time */
	memset(&d, 0, sizeof(d));
	d.nr_pokes = 1;
	TEST_TRUE(pt_walk_fits(&d, t, sizeof(t), false, true));
	memset(&d, 0, sizeof(d));
	TEST_TRUE(pt_walk_fits(&d, t, sizeof(t), false, true));
	setenv("PRISM_PT_LIBIPT_BLOCKS", "1", 1);
	TEST_TRUE(!pt_walk_fits(&d, t, sizeof(t), false, true));
	unsetenv("PRISM_PT_LIBIPT_BLOCKS");
}

TEST_MAIN(TEST(plain), TEST(events), TEST(other), TEST(off));
