/* SPDX-License-Identifier: MIT */
/*
 * Opening perf.data inputs for the reading commands.
 */
#ifndef PRISM_CMD_INPUT_H
#define PRISM_CMD_INPUT_H

#include <stdbool.h>

#include <prism/session.h>

/* open @path (NULL = "perf.data", "-" = stdin); prints the error and returns NULL on failure */
struct prism_session *open_input(const char *path, bool force, bool no_order);
/* the same with every session option (o->path NULL = "perf.data") */
struct prism_session *open_session(struct prism_session_opts *o, bool force);
/* print a processing error of prism_session__process() (err < 0); returns 1 */
int report_process_error(struct prism_session *s, const char *path, int err);

#define OPT_INPUT(v)                          \
	OPT_STRING('i', "input", (v), "file", \
		   "input file (default: perf.data; '-' reads standard input)")
#define OPT_FORCE(v) OPT_BOOL('f', "force", (v), "read a file not owned by the current user")

#endif /* PRISM_CMD_INPUT_H */
