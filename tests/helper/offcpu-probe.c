// SPDX-License-Identifier: MIT
/*
 * offcpu-probe: drive the BPF off-CPU engine by hand, for tests and
 * measurements (not part of the CLI).
 *
 *   offcpu-probe [-a] [-p PID] [-s S|D|SD|all|R] [-t THRESH_MS] [-d SECONDS]
 *                [-n TOP] [-U] [-K] [-- CMD ARGS...]
 *
 * -a all tasks (default when no -p and no CMD), -p one process, CMD: run it
 * held until the filter is armed, follow its children.  -U/-K: no user /
 * kernel stacks.  Prints the counters, blocks/s handled, and the TOP
 * entries with their raw stacks.  Exit 77 when the engine cannot run here.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <prism/error.h>
#include <prism/offcpu.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned int parse_states(const char *s)
{
	unsigned int m = 0;

	if (!strcmp(s, "all"))
		return PRISM_OFFCPU_STATE_ALL;
	for (; *s; s++) {
		if (*s == 'S')
			m |= PRISM_OFFCPU_STATE_S;
		else if (*s == 'D')
			m |= PRISM_OFFCPU_STATE_D;
		else if (*s == 'R')
			m |= PRISM_OFFCPU_STATE_RUNNABLE;
		else
			return 0;
	}
	return m;
}

static void print_stack(const char *what, const struct prism_offcpu_stack *st)
{
	uint32_t i;

	printf("    %s (%u frames%s%s):", what, st->nr, st->err ? ", " : "",
	       st->err ? strerror(-st->err) : "");
	for (i = 0; i < st->nr && i < 12; i++)
		printf(" %#llx", (unsigned long long)st->ips[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct prism_offcpu_opts o = { .thresh_ns = 500000000ull };
	struct prism_offcpu_stats st;
	struct prism_offcpu *off;
	double duration = 0, t0, t1;
	int pid = -1, release[2] = { -1, -1 }, top = 10, c, status;
	pid_t child = -1;
	char reason[256];
	size_t i, nr;

	while ((c = getopt(argc, argv, "ap:s:t:d:n:UK")) != -1) {
		switch (c) {
		case 'a':
			break;
		case 'p':
			pid = atoi(optarg);
			break;
		case 's':
			o.states = parse_states(optarg);
			if (!o.states) {
				fprintf(stderr, "offcpu-probe: bad state list '%s'\n", optarg);
				return 129;
			}
			break;
		case 't':
			o.thresh_ns = strtoull(optarg, NULL, 10) * 1000000ull;
			break;
		case 'd':
			duration = atof(optarg);
			break;
		case 'n':
			top = atoi(optarg);
			break;
		case 'U':
			o.no_user_stack = true;
			break;
		case 'K':
			o.no_kernel_stack = true;
			break;
		default:
			fprintf(stderr, "usage: offcpu-probe [-a] [-p PID] [-s S|D|SD|R|all] "
					"[-t MS] [-d S] [-n TOP] [-U] [-K] [-- CMD...]\n");
			return 129;
		}
	}
	if (prism_offcpu_check(reason, sizeof(reason))) {
		printf("skip: %s\n", reason);
		return 77;
	}
	if (pid > 0) {
		o.pids = &pid;
		o.nr_pids = 1;
	}
	if (optind < argc)
		o.follow_children = true;
	off = prism_offcpu__new(&o);
	if (!off || prism_offcpu__open(off)) {
		fprintf(stderr, "error: %s\n", off ? prism_offcpu__error(off) : strerror(errno));
		return 1;
	}
	if (optind < argc) {
		if (pipe(release))
			return 1;
		child = fork();
		if (child == 0) {
			char ch;

			close(release[1]);
			if (read(release[0], &ch, 1) != 1)
				_exit(126);
			execvp(argv[optind], argv + optind);
			fprintf(stderr, "offcpu-probe: cannot run %s: %s\n", argv[optind],
				strerror(errno));
			_exit(127);
		}
		close(release[0]);
		if (prism_offcpu__add_pid(off, child)) {
			fprintf(stderr, "error: %s\n", prism_offcpu__error(off));
			return 1;
		}
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (prism_offcpu__start(off)) {
		fprintf(stderr, "error: %s\n", prism_offcpu__error(off));
		return 1;
	}
	t0 = now_s();
	if (child > 0 && write(release[1], "g", 1) != 1)
		return 1;
	while (!stop) {
		if (prism_offcpu__poll(off, 50) < 0) {
			fprintf(stderr, "error: %s\n", prism_offcpu__error(off));
			break;
		}
		if (duration > 0 && now_s() - t0 >= duration)
			break;
		if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
			child = -1;
			break;
		}
		if (child < 0 && duration <= 0 && optind < argc)
			break;
	}
	t1 = now_s();
	if (prism_offcpu__stop(off))
		fprintf(stderr, "error: %s\n", prism_offcpu__error(off));
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	prism_offcpu__read_stats(off, &st);
	printf("time %.3f s, blocks started %llu (%.0f/s), ended %llu, in progress at stop %llu, "
	       "kept individually %llu\n",
	       t1 - t0, (unsigned long long)st.switch_out, st.switch_out / (t1 - t0),
	       (unsigned long long)st.switch_in, (unsigned long long)st.in_progress,
	       (unsigned long long)st.emitted);
	printf("lost: user stacks %llu (collision) %llu (unreadable) %llu (other); kernel stacks "
	       "%llu/%llu/%llu; map full %llu (%.3f ms); ring buffer full %llu (aggregated); "
	       "no storage %llu; switch-in never seen %llu; program skipped %llu; forks followed "
	       "%llu, not %llu\n",
	       (unsigned long long)st.ustack_collisions, (unsigned long long)st.ustack_faults,
	       (unsigned long long)st.ustack_errors, (unsigned long long)st.kstack_collisions,
	       (unsigned long long)st.kstack_faults, (unsigned long long)st.kstack_errors,
	       (unsigned long long)st.hash_full, st.hash_full_ns / 1e6,
	       (unsigned long long)st.ringbuf_drops, (unsigned long long)st.storage_fail,
	       (unsigned long long)st.unclosed, (unsigned long long)st.prog_misses,
	       (unsigned long long)st.forks, (unsigned long long)st.filter_full);
	nr = prism_offcpu__nr_entries(off);
	printf("%zu entries, %zu individual blocks\n", nr, prism_offcpu__nr_blocks(off));
	for (i = 0; i < nr && i < (size_t)top; i++) {
		const struct prism_offcpu_entry *e = prism_offcpu__entry(off, i);

		printf("  pid %d tid %d state %#x: %.3f ms in %llu blocks\n", e->pid, e->tid,
		       e->state, e->total_ns / 1e6, (unsigned long long)e->count);
		print_stack("kernel", &e->kernel);
		print_stack("user", &e->user);
	}
	for (i = 0; i < prism_offcpu__nr_blocks(off) && i < (size_t)top; i++) {
		const struct prism_offcpu_block *b = prism_offcpu__block(off, i);

		printf("  block pid %d tid %d state %#x cpu %d->%d at %llu: %.3f ms%s\n", b->pid,
		       b->tid, b->state, b->cpu_out, b->cpu_in, (unsigned long long)b->start_ns,
		       b->duration_ns / 1e6, b->in_progress ? " (in progress at stop)" : "");
	}
	prism_offcpu__free(off);
	return 0;
}
