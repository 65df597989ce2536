// SPDX-License-Identifier: MIT
/*
 * The CPU that recorded an Intel PT trace, from the CPUID feature perf's
 * x86 writes ("GenuineIntel,6,142,10": vendor, family, model, stepping in
 * decimal), and the errata workarounds libipt applies for it
 * (pt_cpu_errata), with skd010 (an OVF not followed by a FUP) and apl12
 * (a FUP after an OVF, then TIP.PGE) always on: perf's decoder takes such
 * an OVF so on every CPU.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <prism/error.h>
#include <prism/features.h>
#include <prism/pt.h>
#include <prism/strbuf.h>

#if HAVE_LIBIPT
#include "cpu.h"
#endif

/* a decimal number of at most @max at *@s, up to a ',' or the end; *@s moves past it */
static bool number(const char **s, unsigned long max, unsigned long *out)
{
	const char *p = *s;
	unsigned long v = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > max)
			return false;
	}
	if (*p && *p != ',')
		return false;
	*out = v;
	*s = p;
	return true;
}

int prism_pt_cpu__parse(const char *cpuid, struct prism_pt_cpu *out)
{
	const char *p = cpuid ? strchr(cpuid, ',') : NULL;
	unsigned long family, model, stepping = 0;
	size_t len = p ? (size_t)(p - cpuid) : 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!len || len >= sizeof(out->vendor))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (cpuid[i] <= ' ' || cpuid[i] > '~')
			return -EINVAL;
	p++;
	if (!number(&p, 0xffff, &family) || *p++ != ',' || !number(&p, 0xff, &model))
		return -EINVAL;
	if (*p == ',') {
		p++;
		/* perf's own check takes "GenuineIntel,6,92," with any stepping */
		if (*p && !number(&p, 0xff, &stepping))
			return -EINVAL;
		out->has_stepping = p[-1] != ',';
	}
	if (*p)
		return -EINVAL;
	memcpy(out->vendor, cpuid, len);
	out->known = true;
	out->intel = len == 12 && !memcmp(cpuid, "GenuineIntel", 12);
	out->family = (uint16_t)family;
	out->model = (uint8_t)model;
	out->stepping = (uint8_t)stepping;
	return 0;
}

int prism_pt_cpu__from_features(const struct prism_features *f, struct prism_pt_cpu *out)
{
	const char *s = f ? prism_features__str(f, PRISM_FEAT_CPUID) : NULL;

	if (!s) {
		memset(out, 0, sizeof(*out));
		return -ENOENT;
	}
	return prism_pt_cpu__parse(s, out);
}

#if HAVE_LIBIPT
void pt_cpu_config(struct pt_config *cfg, const struct prism_pt_cpu *cpu)
{
	if (cpu && cpu->known && cpu->intel) {
		cfg->cpu.vendor = pcv_intel;
		cfg->cpu.family = cpu->family;
		cfg->cpu.model = cpu->model;
		cfg->cpu.stepping = cpu->stepping;
		/* a CPU libipt does not know: no errata (it clears them) */
		pt_cpu_errata(&cfg->errata, &cfg->cpu);
	}
	/* an OVF whose trace restarts at a PSB+ with a FUP: on from there, as perf */
	cfg->errata.skd010 = 1;
	/*
	 * a FUP after an OVF where tracing is off (TIP.PGE next): perf's
	 * decoder walks no code from it on every CPU (decode-ovf.c)
	 */
	cfg->errata.apl12 = 1;
}

int prism_pt_cpu__errata(const struct prism_pt_cpu *cpu, struct prism_strbuf *sb)
{
	struct pt_config cfg;
	const struct pt_errata *e = &cfg.errata;
	const char *sep = "";

	pt_config_init(&cfg);
	pt_cpu_config(&cfg, cpu);
#define ERRATUM(name)                                           \
	do {                                                    \
		if (e->name) {                                  \
			prism_strbuf_addf(sb, "%s" #name, sep); \
			sep = " ";                              \
		}                                               \
	} while (0)
	ERRATUM(bdm70);
	ERRATUM(bdm64);
	ERRATUM(skd007);
	ERRATUM(skd022);
	ERRATUM(skd010);
	ERRATUM(skl014);
	ERRATUM(apl12);
	ERRATUM(apl11);
	ERRATUM(skl168);
	ERRATUM(skz84);
#undef ERRATUM
	return 0;
}
#else
int prism_pt_cpu__errata(const struct prism_pt_cpu *cpu, struct prism_strbuf *sb)
{
	(void)cpu;
	(void)sb;
	return -PRISM_E_UNSUPPORTED;
}
#endif
