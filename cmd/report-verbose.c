// SPDX-License-Identifier: MIT
/*
 * prism report -v: what perf report -v adds to its text, the address of a
 * row's first sample and the letter of where its DSO's symbols came from
 * before the symbol (the DSO column's long names are report-columns.c's).
 */
#include <inttypes.h>
#include <stdio.h>

#include <prism/profile.h>
#include <prism/symbol.h>

#include "cmd.h"
#include "report.h"

size_t report_verbose_sym(const struct report *r, const struct prism_hist_entry *e, char *buf,
			  size_t len)
{
	char origin = prism_symbols__origin(r->sy, e->dso_ref);
	int n;

	/* perf: "%-#*llx %c ", 18 wide (printf's %#x has no 0x for zero) */
	n = snprintf(buf, len, "%-#18" PRIx64 " %c ", e->addr, origin);
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}
