// SPDX-License-Identifier: MIT
/*
 * prism script --itrace: the CPU that recorded the trace, from the file's
 * CPUID feature, for the decoder's errata workarounds; with -v a line
 * naming it and the errata applied:
 *
 *   Intel PT CPU: GenuineIntel family 6 model 92 stepping 9 (CPUID), errata skd010 apl12 apl11
 */
#include <errno.h>
#include <stdio.h>

#include <prism/features.h>
#include <prism/pt.h>
#include <prism/session.h>
#include <prism/strbuf.h>

#include "cmd.h"
#include "script.h"

void script_pt_cpu(struct prism_session *s, struct prism_pt_cpu *cpu)
{
	const struct prism_features *f = prism_session__features(s);
	int err = prism_pt_cpu__from_features(f, cpu);
	struct prism_strbuf sb;

	if (!verbose)
		return;
	prism_strbuf_init(&sb);
	if (err == -ENOENT)
		prism_strbuf_addstr(&sb, "Intel PT CPU: none (no CPUID feature in the file)");
	else if (err)
		prism_strbuf_addf(
			&sb,
			"Intel PT CPU: unknown (the CPUID feature '%s' is not vendor,family,model)",
			prism_features__str(f, PRISM_FEAT_CPUID));
	else if (cpu->has_stepping)
		prism_strbuf_addf(&sb, "Intel PT CPU: %s family %u model %u stepping %u (CPUID)",
				  cpu->vendor, cpu->family, cpu->model, cpu->stepping);
	else
		prism_strbuf_addf(&sb, "Intel PT CPU: %s family %u model %u (CPUID)", cpu->vendor,
				  cpu->family, cpu->model);
	prism_strbuf_addstr(&sb, ", errata ");
	if (prism_pt_cpu__errata(cpu, &sb))
		prism_strbuf_addstr(&sb, "unknown (no libipt)");
	if (!sb.failed)
		fprintf(stderr, "%s\n", sb.buf);
	prism_strbuf_release(&sb);
}
