// SPDX-License-Identifier: MIT
/*
 * prism sched record: prism record with perf sched's event set, so that
 * perf sched (and prism sched) read the file: system wide, every event
 * (-c 1), 1024-page buffers, the scheduler tracepoints this kernel has.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/tracefs.h>

#include "cmd.h"
#include "sched.h"

/* perf sched record's events, in its order; those the kernel lacks are left out */
static const char *const events[] = {
	"sched_switch",	      "sched_stat_wait",    "sched_stat_sleep", "sched_stat_iowait",
	"sched_stat_runtime", "sched_process_fork", "sched_wakeup_new", "sched_migrate_task",
};

int sched_record(int argc, const char **argv)
{
	static const char *const fixed[] = { "record", "-a", "-m", "1024", "-c", "1" };
	const char **rec;
	char **names;
	size_t i, n = 0, nn = 0;
	uint64_t id;
	int ret;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("\n usage: prism sched record [<prism record options>] [-- <command>]\n\n"
		       "    records system wide, as perf sched record: -a -c 1 -m 1024 and the\n"
		       "    events sched:sched_switch, sched_stat_{wait,sleep,iowait,runtime},\n"
		       "    sched_process_fork, sched_wakeup_new, sched_migrate_task and\n"
		       "    sched_waking (sched_wakeup on kernels without it) that this kernel has;\n"
		       "    the other arguments go to prism record (-o FILE, -N, a command)\n\n");
		return 0;
	}
	if (tracefs_setup("prism sched record"))
		return 1;
	rec = xcalloc(PRISM_ARRAY_SIZE(fixed) + 2 * (PRISM_ARRAY_SIZE(events) + 1) + (size_t)argc +
			      1,
		      sizeof(*rec));
	names = xcalloc(PRISM_ARRAY_SIZE(events) + 1, sizeof(*names));
	for (i = 0; i < PRISM_ARRAY_SIZE(fixed); i++)
		rec[n++] = fixed[i];
	for (i = 0; i < PRISM_ARRAY_SIZE(events); i++) {
		if (prism_tracefs_tp_id("sched", events[i], &id))
			continue; /* sched_stat_* need schedstats in the kernel */
		names[nn] = xmalloc(strlen(events[i]) + 7);
		snprintf(names[nn], strlen(events[i]) + 7, "sched:%s", events[i]);
		rec[n++] = "-e";
		rec[n++] = names[nn++];
	}
	rec[n++] = "-e";
	rec[n++] = prism_tracefs_tp_id("sched", "sched_waking", &id) ? "sched:sched_wakeup" :
								       "sched:sched_waking";
	for (i = 1; i < (size_t)argc; i++)
		rec[n++] = argv[i];
	rec[n] = NULL;
	ret = cmd_record((int)n, rec);
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(names);
	free(rec);
	return ret;
}
