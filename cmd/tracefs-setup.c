// SPDX-License-Identifier: MIT
/*
 * Finding (and as root mounting) tracefs for the commands that need
 * tracepoints, with an error that says which of the three problems it is.
 */
#include <errno.h>
#include <stdbool.h>

#include <prism/tracefs.h>

#include "cmd.h"

int tracefs_setup(const char *needs)
{
	bool mounted = false;
	int err = prism_tracefs_init(&mounted);

	if (mounted)
		info("mounted tracefs on %s", prism_tracefs_path());
	return err ? tracefs_explain(err, needs) : 0;
}

int tracefs_explain(int err, const char *needs)
{
	if (err == -EACCES) {
		error("%s tracepoints, and tracefs is mounted but this user may not read it",
		      needs);
		hint("run as root (sudo), or give the user CAP_PERFMON and read access to tracefs "
		     "(mount option mode= or gid= for a tracing group)");
	} else if (err == -EPERM) {
		error("%s tracepoints, and tracefs is not mounted (mounting it needs root)", needs);
		hint("run as root: prism mounts it; or as root: mount -t tracefs nodev "
		     "/sys/kernel/tracing");
	} else {
		error("%s tracepoints, and tracefs cannot be mounted on this system", needs);
		hint("the kernel needs tracing support (CONFIG_FTRACE, tracefs)");
	}
	return -1;
}
