// SPDX-License-Identifier: MIT
/*
 * evspec-dump: parse -e arguments with prism's event parser and print the
 * attributes it sets, one event per line, in perf evlist -v's syntax:
 *
 *   evspec-dump [--filter F] EVENTS...
 *
 *   cpu-clock:u: type: 1, exclude_kernel: 1, exclude_hv: 1, exclude_guest: 1
 *
 * Printed (when non-zero, as perf does): type (always), config,
 * { sample_period, sample_freq }, pinned, exclude_user, exclude_kernel,
 * exclude_hv, exclude_idle, freq, precise_ip, exclude_host, exclude_guest; then the prism-only fields after " # ": leader,
 * nr_members, sample_read, filter.  Exit 1 with the parser's message on
 * a parse error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <prism/evspec.h>
#include <prism/tracefs.h>

static void field(const char *key, uint64_t v, bool hex)
{
	if (!v)
		return;
	if (hex)
		printf(", %s: %#" PRIx64, key, v);
	else
		printf(", %s: %" PRIu64, key, v);
}

int main(int argc, char **argv)
{
	struct prism_evspecs *l = prism_evspecs__new();
	size_t i;
	int a;

	prism_tracefs_init(NULL);
	for (a = 1; a < argc; a++) {
		int err = strcmp(argv[a], "--filter") || a + 1 == argc ?
				  prism_evspecs__parse(l, argv[a]) :
				  prism_evspecs__set_filter(l, argv[++a]);

		if (err) {
			fprintf(stderr, "error: %s\n", prism_evspecs__error(l));
			prism_evspecs__free(l);
			return 1;
		}
	}
	for (i = 0; i < prism_evspecs__nr(l); i++) {
		const struct prism_evspec *s = prism_evspecs__get(l, i);
		const struct perf_event_attr *at = &s->attr;

		printf("%s: type: %u", s->name, at->type);
		field("config", at->config, true);
		field("{ sample_period, sample_freq }", at->sample_period, false);
		/* the order of the bits in perf_event_attr, as perf evlist -v prints them */
		field("pinned", at->pinned, false);
		field("exclusive", at->exclusive, false);
		field("exclude_user", at->exclude_user, false);
		field("exclude_kernel", at->exclude_kernel, false);
		field("exclude_hv", at->exclude_hv, false);
		field("exclude_idle", at->exclude_idle, false);
		field("freq", at->freq, false);
		field("precise_ip", at->precise_ip, false);
		field("exclude_host", at->exclude_host, false);
		field("exclude_guest", at->exclude_guest, false);
		field("bp_type", at->bp_type, false);
		field("{ bp_addr, config1 }", at->bp_addr, true);
		field("{ bp_len, config2 }", at->bp_len, true);
		printf(" # leader %d, members %d%s%s%s%s%s\n", s->leader, s->nr_members,
		       s->sample_read ? ", sample_read" : "", s->precise_max ? ", precise_max" : "",
		       s->weak_group ? ", weak" : "", s->filter ? ", filter " : "",
		       s->filter ? s->filter : "");
	}
	prism_evspecs__free(l);
	return 0;
}
