// SPDX-License-Identifier: MIT
/*
 * intel_pt's default terms, applied before the terms of the event string
 * as perf 6.1 applies the PMU's default config: tsc; mtc with the
 * mtc_period of caps/mtc_periods closest to 3 from below (when the PMU has
 * MTC); psb_period likewise (when it has psb_cyc); pt and branch (when
 * their format files exist).  "intel_pt/cyc,mtc_period=3/" adds to these.
 * Then, as perf, cyc_thresh, mtc_period and psb_period are checked against
 * the values caps/ lists.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "record/evspec-internal.h"
#include "record/pmu-internal.h"

/* perf's pick: the highest set bit at or below @target, else the lowest set bit */
static int pick_bit(unsigned long bits, int target)
{
	int pos, pick = -1;

	for (pos = 0; bits; bits >>= 1, pos++) {
		if (!(bits & 1))
			continue;
		if (pos <= target || pick < 0)
			pick = pos;
		if (pos >= target)
			break;
	}
	return pick;
}

/* a caps file as a number in @base; @dflt when it is missing or not a number */
static unsigned long cap_num(const char *pmu, const char *cap, int base, unsigned long dflt)
{
	char buf[64], *end;
	unsigned long v;

	if (pmu_read_file(pmu, "caps", cap, buf, sizeof(buf)))
		return dflt;
	v = strtoul(buf, &end, base);
	return end == buf ? dflt : v;
}

static bool has_term(const char *pmu, const char *term)
{
	struct pmu_format f;

	return pmu_read_format(pmu, term, &f) == 0;
}

int evparse__pt_defaults(struct evparse *p, struct evspec_node *n, const char *pmu, int col)
{
	char buf[128];
	size_t len = 0;
	unsigned long mtc_periods = 0;

	buf[0] = 0;
#define ADD(...) len += (size_t)snprintf(buf + len, sizeof(buf) - len, __VA_ARGS__)
	if (has_term(pmu, "tsc"))
		ADD("tsc");
	if (cap_num(pmu, "mtc", 10, 1) && has_term(pmu, "mtc")) {
		mtc_periods = cap_num(pmu, "mtc_periods", 16, 0);
		if (mtc_periods && has_term(pmu, "mtc_period"))
			ADD("%smtc,mtc_period=%d", len ? "," : "", pick_bit(mtc_periods, 3));
	}
	if (cap_num(pmu, "psb_cyc", 10, 1) && mtc_periods && has_term(pmu, "psb_period")) {
		unsigned long psb_periods = cap_num(pmu, "psb_periods", 16, 0);

		if (psb_periods)
			ADD("%spsb_period=%d", len ? "," : "", pick_bit(psb_periods, 3));
	}
	if (has_term(pmu, "pt") && has_term(pmu, "branch"))
		ADD("%spt,branch", len ? "," : "");
#undef ADD
	pr_debug("evspec: %s default config: %s", pmu, buf);
	return len ? evparse__terms(p, n, pmu, buf, len, col) : 0;
}

/* "0,3,6,9" or "0-3,8" */
static void valid_str(unsigned long long valid, char *buf, size_t size)
{
	size_t len = 0;
	int b, e;

	buf[0] = 0;
	for (b = 0; b < 64 && len < size; b++) {
		if (!(valid >> b & 1))
			continue;
		for (e = b; e + 1 < 64 && (valid >> (e + 1) & 1); e++)
			;
		if (e > b + 1)
			len += (size_t)snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", b,
						e);
		else
			len += (size_t)snprintf(buf + len, size - len, "%s%d", len ? "," : "", b);
		if (e == b + 1)
			len += (size_t)snprintf(buf + len, size - len, ",%d", e);
		b = e;
	}
}

/* the value of term @name in @config must be one caps/@caps lists (0 always is) */
static int check_term(struct evparse *p, const char *pmu, const char *caps, const char *name,
		      const char *supported, uint64_t config, int col)
{
	struct perf_event_attr a;
	struct pmu_format f;
	unsigned long long valid = cap_num(pmu, caps, 16, 0);
	uint64_t v = 0;
	unsigned int vbit = 0;
	int i;
	char list[256];

	if (pmu_read_format(pmu, name, &f) || f.field != 0)
		return 0;
	if (!cap_num(pmu, supported, 10, 1))
		valid = 0;
	valid |= 1;
	memset(&a, 0, sizeof(a));
	a.config = config;
	for (i = 0; i < f.nr_ranges; i++) {
		unsigned int bit;

		for (bit = f.ranges[i].lo; bit <= f.ranges[i].hi; bit++, vbit++)
			v |= (config >> bit & 1) << vbit;
	}
	if (v < 64 && (valid >> v & 1))
		return 0;
	valid_str(valid, list, sizeof(list));
	return evparse__error(p, -EINVAL, col,
			      "invalid %s=%llu for %s (caps/%s): valid values are %s", name,
			      (unsigned long long)v, pmu, caps, list);
}

int evparse__pt_check(struct evparse *p, struct evspec_node *n, const char *pmu, int col)
{
	uint64_t c = n->pub.attr.config;
	int err;

	err = check_term(p, pmu, "cycle_thresholds", "cyc_thresh", "psb_cyc", c, col);
	if (!err)
		err = check_term(p, pmu, "mtc_periods", "mtc_period", "mtc", c, col);
	if (!err)
		err = check_term(p, pmu, "psb_periods", "psb_period", "psb_cyc", c, col);
	return err;
}
