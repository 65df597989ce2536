// SPDX-License-Identifier: MIT
/*
 * prism record -e intel_pt//...: a clear refusal.  Without the PMU, what
 * provides it; with it, that prism does not record the AUX area (perf
 * record does, and prism script --itrace decodes its files).
 */
#include <prism/pt.h>

#include "cmd.h"
#include "record-opts.h"

int record_pt_refusal(const char *events)
{
	if (!prism_pt__pmu_present(NULL)) {
		error("-e %s: this machine has no intel_pt PMU (no "
		      "/sys/bus/event_source/devices/intel_pt)",
		      events);
		hint("Intel Processor Trace needs an Intel CPU of the Broadwell generation or later, "
		     "on bare metal or in a virtual machine with PT passthrough (e.g. KVM "
		     "with the intel_pt CPU feature); prism script --itrace decodes traces "
		     "recorded elsewhere");
		return 1;
	}
	error("-e %s: prism record does not record Intel PT's AUX area", events);
	hint("record with perf record -e %s, then decode with prism script --itrace", events);
	return 1;
}
