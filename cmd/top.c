// SPDX-License-Identifier: MIT
/*
 * prism top: the util analysis live.  A recorder thread drains the ring
 * buffers of the util preset into a pipe (cmd/live.c); a reader thread
 * feeds the stream to the util engine, which hands over an interval every
 * -d seconds (prism_util__interval()); this thread shows them, on the
 * terminal with keys, or as text with -b.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <prism/evspec.h>
#include <prism/record.h>
#include <prism/session.h>
#include <prism/util.h>

#include "cmd.h"
#include "live.h"
#include "options.h"
#include "top.h"
#include "util-record.h"

struct top {
	double delay;
	bool batch;
	int iterations;
	struct top_view v;
	int freq; /* cpu-clock samples/s of the hot view */
	bool callchains; /* -g */

	struct prism_util *u;
	struct prism_session *s;
	struct top_hot_src *hot;
	char hot_filter[64]; /* the filter for the hot view's next interval (under lock) */
	int notify[2]; /* the reader (and signals) wake the display */
	pthread_mutex_t lock;
	struct top_snap *latest; /* handed over, not shown yet */
	unsigned int seq;
	uint64_t lost_total;
	volatile bool quit;
	int read_err;
	char read_msg[256];
};

static struct top *top_cur;

/* rows of the hot view kept per interval (a screen shows fewer) */
#define MAX_HOT_ROWS 200

/* ---- the terminal ---- */

static struct termios saved_tio;
static volatile sig_atomic_t tty_raw;

#define ALT_SCREEN_ON "\033[?1049h\033[?25l"
#define ALT_SCREEN_OFF "\033[?25h\033[?1049l"

/* async-signal-safe: tcsetattr() and write() only */
static void tty_restore(void)
{
	ssize_t n;

	if (!tty_raw)
		return;
	tty_raw = 0;
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
	n = write(STDOUT_FILENO, ALT_SCREEN_OFF, sizeof(ALT_SCREEN_OFF) - 1);
	(void)n;
}

static int tty_setup(void)
{
	struct termios t;

	if (tcgetattr(STDIN_FILENO, &saved_tio))
		return error("cannot read the terminal's settings: %s", strerror(errno));
	t = saved_tio;
	/* keys one by one, no echo; ^C and ^Z arrive as keys (q and ^C quit) */
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &t))
		return error("cannot set the terminal's mode: %s", strerror(errno));
	tty_raw = 1;
	fputs(ALT_SCREEN_ON, stdout);
	fflush(stdout);
	atexit(tty_restore);
	return 0;
}

static void on_signal(int sig)
{
	ssize_t n;

	(void)sig;
	live_stop();
	if (top_cur) {
		top_cur->quit = true;
		n = write(top_cur->notify[1], "s", 1);
		(void)n;
	}
}

/* ---- the reader thread ---- */

static struct top_snap *snap_copy(const struct prism_util_interval *iv)
{
	struct top_snap *s = xcalloc(1, sizeof(*s));

	s->iv = *iv;
	s->cpus = xmalloc((iv->nr_cpus ? iv->nr_cpus : 1) * sizeof(*s->cpus));
	memcpy(s->cpus, iv->cpus, iv->nr_cpus * sizeof(*s->cpus));
	s->tasks = xmalloc((iv->nr_tasks ? iv->nr_tasks : 1) * sizeof(*s->tasks));
	memcpy(s->tasks, iv->tasks, iv->nr_tasks * sizeof(*s->tasks));
	s->syscalls = xmalloc((iv->nr_syscalls ? iv->nr_syscalls : 1) * sizeof(*s->syscalls));
	memcpy(s->syscalls, iv->syscalls, iv->nr_syscalls * sizeof(*s->syscalls));
	s->iv.cpus = s->cpus;
	s->iv.tasks = s->tasks;
	s->iv.syscalls = s->syscalls;
	return s;
}

static int on_interval(void *ctx, struct prism_util *u, uint64_t now)
{
	struct top *t = ctx;
	const struct prism_util_interval *iv;
	struct top_snap *s;
	char filter[sizeof(t->hot_filter)];
	ssize_t n;
	int err;

	if (t->quit)
		return 1;
	err = prism_util__interval(u, now, &iv);
	if (err)
		return err;
	s = snap_copy(iv);
	pthread_mutex_lock(&t->lock);
	snprintf(filter, sizeof(filter), "%s", t->hot_filter);
	pthread_mutex_unlock(&t->lock);
	s->hot = top_hot_take(t->hot, MAX_HOT_ROWS, filter);
	if (!s->hot) {
		top_snap_free(s);
		return -ENOMEM;
	}
	t->lost_total += iv->lost_events;
	s->lost_total = t->lost_total;
	pthread_mutex_lock(&t->lock);
	s->seq = ++t->seq;
	top_snap_free(t->latest); /* the display did not keep up: show the newest */
	t->latest = s;
	pthread_mutex_unlock(&t->lock);
	n = write(t->notify[1], "i", 1);
	(void)n;
	return 0;
}

static void *reader_thread(void *arg)
{
	struct top *t = arg;
	int err = prism_util__process(t->u, t->s);

	if (err < 0 && !t->quit) {
		t->read_err = err;
		snprintf(t->read_msg, sizeof(t->read_msg), "%s", prism_session__error(t->s));
	}
	t->quit = true;
	if (write(t->notify[1], "e", 1) < 0)
		t->read_err = t->read_err ? t->read_err : -errno;
	return NULL;
}

/* ---- the display ---- */

static void show(struct top *t, const struct top_snap *s)
{
	struct prism_strbuf sb = STRBUF_INIT;
	struct winsize ws = { 0 };
	int fixed;

	if (!s)
		return;
	if (t->batch) {
		top_render(&sb, s, &t->v);
		printf("%s\n", sb.buf);
		fflush(stdout);
		prism_strbuf_release(&sb);
		return;
	}
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_row)
		ws.ws_row = 24, ws.ws_col = 80;
	/* header, CPUs, sum, lost, blank, titles; syscalls; status */
	fixed = 5 + (int)s->iv.nr_cpus + 1 + 10 + 1;
	/* hot view: header, samples, blank, titles; blank, status */
	if (t->v.hot)
		fixed = 6;
	t->v.rows = ws.ws_row > fixed + 3 ? ws.ws_row - fixed : 3;
	t->v.cols = ws.ws_col;
	prism_strbuf_addstr(&sb, "\033[H");
	top_render(&sb, s, &t->v);
	if (t->v.prompt)
		prism_strbuf_addf(&sb, "\nfilter (pid, tid or part of a name; empty: all): %s",
				  t->v.prompt);
	else
		prism_strbuf_addf(
			&sb,
			"\n\033[7m q quit  h %s view  u/s/U/l sort util/sys/user/latency  t tasks/processes  f filter  space %s \033[0m",
			t->v.hot ? "util" : "hot", t->v.paused ? "resume" : "pause");
	/* clear the rest of each line and of the screen */
	{
		struct prism_strbuf fr = STRBUF_INIT;
		size_t i;

		for (i = 0; i < sb.len; i++) {
			if (sb.buf[i] == '\n')
				prism_strbuf_addstr(&fr, "\033[K");
			prism_strbuf_addch(&fr, sb.buf[i]);
		}
		prism_strbuf_addstr(&fr, "\033[K\033[J");
		fwrite(fr.buf, 1, fr.len, stdout);
		prism_strbuf_release(&fr);
	}
	fflush(stdout);
	prism_strbuf_release(&sb);
}

/* a key typed while the filter is asked for */
static void prompt_key(struct top *t, char c, char *line, size_t *len)
{
	if (c == '\r' || c == '\n') {
		memcpy(t->v.filter, line, *len);
		t->v.filter[*len] = '\0';
		t->v.prompt = NULL;
		pthread_mutex_lock(&t->lock);
		memcpy(t->hot_filter, t->v.filter, sizeof(t->hot_filter));
		pthread_mutex_unlock(&t->lock);
	} else if (c == 27) {
		t->v.prompt = NULL;
	} else if ((c == 127 || c == 8) && *len) {
		line[--*len] = '\0';
	} else if (c >= ' ' && c < 127 && *len + 1 < sizeof(t->v.filter)) {
		line[(*len)++] = c;
		line[*len] = '\0';
	}
}

/* a key of the main view; false to quit */
static bool key(struct top *t, char c)
{
	switch (c) {
	case 'q':
	case 'Q':
	case 3: /* ^C */
		return false;
	case 'u':
		t->v.sort = TOP_SORT_UTIL;
		break;
	case 's':
		t->v.sort = TOP_SORT_SYS;
		break;
	case 'U':
		t->v.sort = TOP_SORT_USER;
		break;
	case 'l':
		t->v.sort = TOP_SORT_LAT;
		break;
	case 'h':
	case '\t':
		t->v.hot = !t->v.hot;
		break;
	case 't':
	case 'P':
		t->v.procs = !t->v.procs;
		break;
	case ' ':
	case 'p':
		t->v.paused = !t->v.paused;
		break;
	default:
		break;
	}
	return true;
}

static void display(struct top *t)
{
	struct top_snap *shown = NULL;
	char line[sizeof(t->v.filter)] = "";
	size_t len = 0;
	int shown_nr = 0;

	while (!t->quit) {
		struct pollfd pfd[2] = { { .fd = t->notify[0], .events = POLLIN },
					 { .fd = STDIN_FILENO, .events = POLLIN } };
		bool redraw = false;
		char buf[64];
		ssize_t n;

		if (poll(pfd, t->batch ? 1 : 2, -1) < 0 && errno != EINTR)
			break;
		if (pfd[0].revents & POLLIN) {
			struct top_snap *s;

			n = read(t->notify[0], buf, sizeof(buf));
			(void)n;
			pthread_mutex_lock(&t->lock);
			s = t->latest;
			if (s && !t->v.paused)
				t->latest = NULL;
			else
				s = NULL;
			pthread_mutex_unlock(&t->lock);
			if (s) {
				top_snap_free(shown);
				shown = s;
				redraw = true;
				shown_nr++;
			}
		}
		if (!t->batch && (pfd[1].revents & (POLLIN | POLLHUP))) {
			ssize_t i;

			n = read(STDIN_FILENO, buf, sizeof(buf));
			if (n <= 0)
				break;
			for (i = 0; i < n; i++) {
				if (t->v.prompt) {
					prompt_key(t, buf[i], line, &len);
				} else if (buf[i] == 'f' || buf[i] == '/') {
					len = 0;
					line[0] = '\0';
					t->v.prompt = line;
				} else if (!key(t, buf[i])) {
					t->quit = true;
				}
			}
			redraw = true;
		}
		if (redraw && !t->quit)
			show(t, shown);
		if (t->batch && t->iterations && shown_nr >= t->iterations)
			break;
	}
	t->quit = true;
	top_snap_free(shown);
}

static int start_reader(struct top *t, struct live_rec *lr, pthread_t *th)
{
	struct prism_util_opts uo = {
		.interval_ns = (uint64_t)(t->delay * 1e9),
		.on_interval = on_interval,
		.interval_ctx = t,
	};
	struct prism_session_opts so = { .fd = lr->rfd };

	t->u = prism_util__new(&uo);
	if (t->u)
		t->hot = top_hot_src_new(t->u, (unsigned int)t->freq, t->callchains, t->hot_filter);
	if (!t->u || !t->hot)
		return error("out of memory");
	/* blocks until the recorder wrote the stream's header */
	t->s = prism_session__open(&so);
	if (!t->s)
		return -1; /* the recorder says why */
	if (pthread_create(th, NULL, reader_thread, t))
		return error("cannot start the reader thread");
	return 0;
}

int cmd_top(int argc, const char **argv)
{
	static const char *const usage[] = {
		"prism top [-d <secs>] [-b [-n <count>]] [--sort <key>] [--processes] [--filter <pid|name>]",
		"prism top --hot [-F <freq>] [-g] [-d <secs>] [-b [-n <count>]] [--filter <pid|name>]",
		NULL,
	};
	struct top t = { .delay = 1, .freq = 999, .lock = PTHREAD_MUTEX_INITIALIZER };
	struct prism_record_opts o = { .system_wide = true };
	struct prism_evspecs *specs = NULL;
	const char *sort = NULL, *filter = NULL;
	struct sigaction sa = { .sa_handler = on_signal };
	struct live_rec lr;
	pthread_t reader;
	bool reading = false;
	int ret = 0, s;
	const struct option_def opts[] = {
		OPT_DOUBLE_POSITIVE('d', "delay", &t.delay, "secs",
				    "refresh every this many seconds (default 1)"),
		OPT_BOOL('b', "batch", &t.batch,
			 "print each interval as text to standard output, no keys (for scripts)"),
		OPT_INT('n', "iterations", &t.iterations, "count",
			"stop after this many intervals (default: until q, Ctrl-C or SIGTERM)"),
		OPT_STRING(0, "sort", &sort, "key",
			   "sort tasks by util (default), sys, user or latency (wakeup to run)"),
		OPT_BOOL(0, "processes", &t.v.procs,
			 "one row per process (its tasks summed), not per task"),
		OPT_STRING(0, "filter", &filter, "pid|name",
			   "only tasks of this pid or tid, or whose name contains this"),
		OPT_INT(0, "rows", &t.v.rows, "n",
			"batch mode: at most this many task rows (hot view: rows and caller lines)"),
		OPT_BOOL(
			0, "hot", &t.v.hot,
			"start in the hot view: the functions cpu-clock samples land in, per interval, as perf top (key h switches)"),
		OPT_INT('F', "freq", &t.freq, "hz",
			"hot view: cpu-clock samples per second and CPU (default 999)"),
		OPT_BOOL(
			'g', "call-graph", &t.callchains,
			"hot view: show the callers of the top functions (frame-pointer call chains)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, usage, 0);
	if (argc)
		usage_error(usage, opts, "unexpected argument '%s'", argv[0]);
	if (t.iterations < 0)
		usage_error(usage, opts, "-n expects a count of 0 or more, not %d", t.iterations);
	if (sort) {
		s = top_sort_parse(sort);
		if (s < 0)
			usage_error(usage, opts, "unknown sort key '%s' (util, sys, user, latency)",
				    sort);
		t.v.sort = (enum top_sort)s;
	}
	if (t.freq < 1 || t.freq > 100000)
		usage_error(usage, opts, "-F expects samples per second in 1..100000, not %d",
			    t.freq);
	if (filter) {
		snprintf(t.v.filter, sizeof(t.v.filter), "%s", filter);
		snprintf(t.hot_filter, sizeof(t.hot_filter), "%s", filter);
	}
	if (!t.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		error("prism top needs a terminal for its screen and keys");
		hint("use -b (batch mode) to print the intervals as text");
		return 1;
	}
	if (t.delay < 0.05)
		usage_error(usage, opts, "-d %g is too short: 0.05 seconds at least", t.delay);
	ret = util_preset_events(&specs);
	if (ret)
		return ret;
	if (top_hot_events(specs, (unsigned int)t.freq)) {
		prism_evspecs__free(specs);
		return 1;
	}
	o.events = specs;
	util_preset_opts(&o);
	/* top is long-running: smaller buffers than a one-shot recording */
	o.mmap_bytes = 16u << 20;
	if (pipe2(t.notify, O_CLOEXEC)) {
		prism_evspecs__free(specs);
		return error("pipe: %s", strerror(errno));
	}
	top_cur = &t;
	if (live_start(&lr, &o)) {
		ret = 1;
		goto out;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	if (start_reader(&t, &lr, &reader)) {
		live_stop();
		ret = 1;
	} else {
		reading = true;
		bool was_quiet = quiet;

		if (!t.batch && tty_setup())
			t.quit = true;
		/* the library's warnings (a binary without symbols) would tear the screen */
		if (!t.batch) {
			quiet = 1;
			setup_library_log();
		}
		display(&t);
		tty_restore();
		quiet = was_quiet;
		setup_library_log();
		live_stop();
	}
	if (reading)
		pthread_join(reader, NULL);
	if (live_finish(&lr))
		ret = 1;
	if (t.read_err && !ret) {
		error("reading the event stream: %s", t.read_msg);
		ret = 1;
	}
	if (!quiet && lr.stats.lost)
		warning("lost %" PRIu64 " events (ring buffer full)", lr.stats.lost);
out:
	top_cur = NULL;
	close(t.notify[0]);
	close(t.notify[1]);
	prism_session__free(t.s);
	prism_util__free(t.u);
	top_hot_src_free(t.hot);
	top_snap_free(t.latest);
	prism_evspecs__free(specs);
	return ret;
}
