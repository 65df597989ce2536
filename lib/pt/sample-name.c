// SPDX-License-Identifier: MIT
/*
 * The names of perf's synthesized Intel PT events: "branches" and
 * "instructions" with the intel_pt event's modifiers (perf's evsel naming:
 * ":u" for exclude_kernel and exclude_hv, "H" for exclude_guest).
 */
#include <stdio.h>

#include <linux/perf_event.h>

#include <prism/pt.h>

void prism_pt__sample_name(const struct perf_event_attr *a, bool branches, char *buf, size_t size)
{
	char mods[8], *m = mods;

	*m++ = ':';
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			*m++ = 'k';
		if (!a->exclude_user)
			*m++ = 'u';
		if (!a->exclude_hv)
			*m++ = 'h';
	}
	if (a->exclude_host || a->exclude_guest) {
		if (!a->exclude_host)
			*m++ = 'H';
		if (!a->exclude_guest)
			*m++ = 'G';
	}
	*m = 0;
	snprintf(buf, size, "%s%s", branches ? "branches" : "instructions",
		 m == mods + 1 ? "" : mods);
}
