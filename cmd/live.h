/* SPDX-License-Identifier: MIT */
/*
 * Live analysis without a file (prism trace, prism top): a recorder thread
 * writes a pipe-mode stream into a pipe that the command reads back with
 * the session API.
 */
#ifndef PRISM_CMD_LIVE_H
#define PRISM_CMD_LIVE_H

#include <pthread.h>
#include <stdbool.h>

#include <prism/record.h>

struct live_rec {
	struct prism_record_opts *o;
	int rfd; /* the stream's read end: prism_session_opts.fd */
	int wfd;
	pthread_t th;
	int err; /* the recording's error (-EPIPE: the reader closed the pipe) */
	char msg[2048];
	bool mounted; /* tracefs was mounted */
	struct prism_record_stats stats; /* at its end */
};

/*
 * live_start - record @o (its output set to the pipe) in a new thread
 *
 * SIGINT and SIGTERM then stop the recording (live_stop()); SIGPIPE is
 * ignored.  Prints its errors.  Return: 0, or -1.
 */
int live_start(struct live_rec *lr, struct prism_record_opts *o);
/* stop the recording: async-signal-safe; also before it started */
void live_stop(void);
/* whether live_stop() was called (a signal) */
bool live_stopped(void);
/*
 * live_finish - close the read end (a recorder still writing stops), wait
 * for the thread and print its error and "mounted tracefs" if any
 * Return: 0, or 1 when the recording failed.
 */
int live_finish(struct live_rec *lr);

#endif /* PRISM_CMD_LIVE_H */
