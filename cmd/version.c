// SPDX-License-Identifier: MIT
/*
 * prism version [--build-options]
 */
#include <stdio.h>

#include <prism/core.h>

#include "cmd.h"
#include "options.h"

int cmd_version(int argc, const char **argv)
{
	static const char *const usage[] = { "prism version [--build-options]", NULL };
	bool build_options = false;
	const struct option_def opts[] = {
		OPT_BOOL(0, "build-options", &build_options,
			 "list the optional features and whether this build has them"),
		OPT_END(),
	};
	int i;

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	printf("prism version %s\n", prism_version());
	if (!build_options)
		return 0;
	for (i = 0; i < PRISM_FEATURE__MAX; i++) {
		bool on = prism_feature_enabled(i);

		printf("%15s: [ %s ]", prism_feature_name(i), on ? "on " : "OFF");
		if (!on)
			printf("  # %s", prism_feature_hint(i));
		putchar('\n');
	}
	return 0;
}
