// SPDX-License-Identifier: MIT
/*
 * Whether an event list names Intel PT, and whether this machine has its
 * PMU (/sys/bus/event_source/devices/intel_pt).
 */
#include <string.h>
#include <unistd.h>

#include <prism/pt.h>

bool prism_pt__names_intel_pt(const char *events)
{
	const char *p = events;

	/* an element of the comma list (or of a {group}) that is intel_pt, intel_pt/.../ */
	while ((p = strstr(p, "intel_pt"))) {
		bool starts = p == events || p[-1] == ',' || p[-1] == '{';
		char next = p[8];

		if (starts &&
		    (next == 0 || next == '/' || next == ':' || next == ',' || next == '}'))
			return true;
		p += 8;
	}
	return false;
}

bool prism_pt__pmu_present(const char *sysfs)
{
	char path[512];
	size_t n = strlen(sysfs ? sysfs : "/sys");

	if (n + sizeof("/bus/event_source/devices/intel_pt/type") > sizeof(path))
		return false;
	memcpy(path, sysfs ? sysfs : "/sys", n);
	strcpy(path + n, "/bus/event_source/devices/intel_pt/type");
	return access(path, R_OK) == 0;
}
