// SPDX-License-Identifier: MIT
/*
 * prism record -e intel_pt//... on a machine without the PMU: a clear
 * refusal that says what provides it.  With the PMU, prism record records
 * it (lib/record/record-aux.c).
 */
#include <prism/pt.h>

#include "cmd.h"
#include "record-opts.h"

int record_pt_refusal(const char *events)
{
	error("-e %s: this machine has no intel_pt PMU (no "
	      "/sys/bus/event_source/devices/intel_pt)",
	      events);
	hint("Intel Processor Trace needs an Intel CPU of the Broadwell generation or later, "
	     "on bare metal or in a virtual machine with PT passthrough (e.g. KVM "
	     "with the intel_pt CPU feature); prism script --itrace decodes traces "
	     "recorded elsewhere");
	return 1;
}
