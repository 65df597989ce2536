// SPDX-License-Identifier: MIT
/*
 * The recorder's workload (lib/workload.c): forked before the events are
 * opened, released once everything is enabled; the events start at its
 * exec (enable_on_exec).  Its exit is watched with a pidfd so the recorder
 * stops at once.  With pipe output (-o -) its standard output goes to
 * standard error, as perf does, to keep the data clean.
 */
#include <unistd.h>

#include "record/record-internal.h"
#include "workload.h"

int rec_workload_prepare(struct prism_record *r)
{
	/* only a stream on stdout collides with the workload's output */
	bool to_stderr = !strcmp(r->output, "-") &&
			 (r->o.output_fd <= 0 || r->o.output_fd == STDOUT_FILENO);
	struct prism_workload w = PRISM_WORKLOAD_INIT;
	int err;

	if (!r->o.argv || !r->o.argv[0])
		return 0;
	err = prism_workload_fork(&w, r->o.argv, to_stderr);
	if (err)
		return rec_error(r, "cannot start '%s': %s", r->o.argv[0], strerror(-err)), err;
	r->child = w.pid;
	r->go_fd = w.go_fd;
	r->exec_err_fd = w.exec_err_fd;
	r->child_pidfd = w.pidfd;
	return 0;
}

int rec_workload_start(struct prism_record *r)
{
	struct prism_workload w = { r->child, r->go_fd, r->exec_err_fd, -1 };
	int err, exec_err;

	if (r->go_fd < 0)
		return 0;
	err = prism_workload_release(&w, &exec_err);
	r->go_fd = w.go_fd;
	r->exec_err_fd = w.exec_err_fd;
	if (err && !exec_err)
		return rec_error(r, "cannot release the workload: %s", strerror(-err)), err;
	if (err) {
		rec_error(r, "cannot run '%s': %s", r->o.argv[0], strerror(exec_err));
		if (exec_err == ENOENT)
			rec_hint(r, "check the command's name and $PATH");
	}
	return err;
}

void rec_workload_kill(struct prism_record *r)
{
	struct prism_workload w = { r->child, r->go_fd, r->exec_err_fd, r->child_pidfd };
	int status;

	/* never released, or we stop early: do not leave it behind */
	status = prism_workload_end(&w, !r->w || r->stop, r->child <= 0 || r->st.workload_exited);
	if (r->child > 0 && !r->st.workload_exited) {
		r->st.workload_exited = true;
		r->st.workload_status = status;
	}
	r->go_fd = r->exec_err_fd = r->child_pidfd = -1;
}
