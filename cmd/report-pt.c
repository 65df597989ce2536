// SPDX-License-Identifier: MIT
/*
 * prism report on an Intel PT trace: the sections of the events it
 * synthesizes, in perf's order (its events are made in this order when the
 * trace's AUXTRACE_INFO is read), and what --itrace may ask of prism report.
 */
#include <prism/pt.h>

#include "cmd.h"
#include "report.h"
#include "script.h"

size_t report_pt_section(const struct prism_pt_item *it)
{
	switch (it->kind) {
	case PRISM_PT_BRANCH:
		return 0;
	case PRISM_PT_INSN:
		return 1;
	case PRISM_PT_TRANSACTION:
		return 2;
	case PRISM_PT_PTWRITE:
		return 3;
	case PRISM_PT_CBR:
		return 4;
	case PRISM_PT_PSB:
		return 5;
	case PRISM_PT_MWAIT:
		return 6;
	case PRISM_PT_PWRE:
		return 7;
	case PRISM_PT_EXSTOP:
		return 8;
	case PRISM_PT_PWRX:
		return 9;
	default:
		return REPORT_PT_SECTIONS; /* errors: no section */
	}
}

const char *report_itrace_unsupported(const struct prism_itrace *it)
{
	return script_itrace_unsupported(it);
}

void report_pt_pipe_hint(struct prism_session *s)
{
	/* a pipe's events are known only once it is read, too late to decode it */
	if (!script_is_pt_file(s))
		return;
	warning("the input holds an Intel PT trace that prism report decodes from a pipe only "
		"with --itrace");
	hint("--itrace=" REPORT_PT_DEFAULT " makes perf report's default sections");
}
