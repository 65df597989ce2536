// SPDX-License-Identifier: MIT
/*
 * The recorder thread of the live commands (prism trace, prism top).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "live.h"

static struct prism_record *live_rec_cur;
static volatile sig_atomic_t live_stop_flag;

void live_stop(void)
{
	live_stop_flag = 1;
	if (live_rec_cur)
		prism_record__stop(live_rec_cur);
}

bool live_stopped(void)
{
	return live_stop_flag;
}

static void on_signal(int sig)
{
	(void)sig;
	live_stop();
}

static void *record_thread(void *arg)
{
	struct live_rec *t = arg;
	struct prism_record *r = prism_record__new(t->o);

	if (!r) {
		snprintf(t->msg, sizeof(t->msg), "%s", prism_record_new_error());
		t->err = -EINVAL;
		close(t->wfd);
		return NULL;
	}
	live_rec_cur = r;
	if (live_stop_flag)
		prism_record__stop(r);
	t->err = prism_record__open(r);
	t->mounted = prism_record__mounted_tracefs(r);
	if (!t->err)
		t->err = prism_record__run(r);
	if (t->err)
		snprintf(t->msg, sizeof(t->msg), "%s", prism_record__error(r));
	t->stats = *prism_record__stats(r);
	live_rec_cur = NULL;
	prism_record__free(r);
	close(t->wfd); /* EOF for the reader */
	return NULL;
}

int live_start(struct live_rec *lr, struct prism_record_opts *o)
{
	struct sigaction sa = { .sa_handler = on_signal };
	int fds[2];

	memset(lr, 0, sizeof(*lr));
	lr->o = o;
	if (pipe2(fds, O_CLOEXEC))
		return error("pipe: %s", strerror(errno));
	o->output = "-";
	o->output_fd = fds[1];
	lr->rfd = fds[0];
	lr->wfd = fds[1];
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (pthread_create(&lr->th, NULL, record_thread, lr)) {
		close(fds[0]);
		close(fds[1]);
		return error("cannot start the recorder thread");
	}
	return 0;
}

int live_finish(struct live_rec *lr)
{
	close(lr->rfd); /* a recorder still writing gets EPIPE and stops */
	pthread_join(lr->th, NULL);
	if (lr->mounted)
		info("mounted tracefs on /sys/kernel/tracing");
	if (lr->err && lr->err != -EPIPE) {
		const char *nl = strchr(lr->msg, '\n');

		error("%.*s", nl ? (int)(nl - lr->msg) : (int)strlen(lr->msg), lr->msg);
		if (nl)
			fprintf(stderr, "%s\n", nl + 1);
		return 1;
	}
	return 0;
}
