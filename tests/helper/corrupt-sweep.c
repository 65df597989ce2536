// SPDX-License-Identifier: MIT
/*
 * corrupt-sweep: run damaged copies of perf.data files through prism.
 *
 *   corrupt-sweep [options] PRISM FILE...
 *
 * For each FILE, copies truncated at every STRIDE'th byte (STRIDE, 2*STRIDE,
 * ... below the size) and copies with random byte flips are written to a
 * scratch directory and run through `PRISM stats -i`, `PRISM script -i` and
 * `PRISM header -i`; pipe-mode files also through `PRISM stats -i -` with
 * standard input a real pipe (the read() path instead of mmap).  Every run
 * must exit 0 or 1 without a signal, a sanitizer report or a hang, and a
 * truncated copy that makes prism exit 1 must get an "error:" line naming
 * where the damage is (an offset, a size or a byte count).
 *
 * Flip case N of a file uses the PRNG seed SEED + N and flips 1..8 bytes;
 * a failure prints the file, the case (cut offset or seed and flipped
 * offsets), the command and prism's stderr, so it can be replayed with
 * --only-cut / --only-seed and --keep.
 *
 * Options:
 *   -j N           parallel runs (default 2)
 *   --stride N     truncation step in bytes (default 97)
 *   --max-cuts N   per file at most N cuts: the step becomes a multiple of
 *                  STRIDE when a file is larger (default 0 = no limit)
 *   --flips N      flip cases per file (default 20)
 *   --seed S       base seed of the flip cases (default 1)
 *   --timeout S    seconds a run may take before it counts as a hang (default 20)
 *   --only-cut N   run just the truncation at N
 *   --only-seed S  run just the flip case with seed S
 *   --keep DIR     keep the failing copies in DIR
 *   --tmp DIR      scratch directory (default $TMPDIR or /tmp)
 *
 * Exit status: 0 when every run passed, 1 when one failed, 2 on usage or
 * I/O errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_JOBS 16
#define MAX_FLIPS 8

enum cmd { CMD_STATS, CMD_SCRIPT, CMD_HEADER, CMD_STATS_PIPE, NR_CMDS };
static const char *const cmd_names[NR_CMDS] = { "stats", "script", "header", "stats -i -" };

struct casedesc {
	const char *fixture;
	bool trunc;
	uint64_t cut; /* trunc: the copy's size */
	uint64_t seed; /* flip */
	int nflips;
	uint64_t flip_off[MAX_FLIPS];
	uint8_t flip_xor[MAX_FLIPS];
	char path[4096];
	int pending; /* runs still going */
	bool failed;
};

struct slot {
	pid_t pid, writer;
	struct casedesc *c;
	enum cmd cmd;
	char errpath[4096];
	struct timespec start;
};

static struct {
	const char *prism, *keep, *tmp;
	int jobs;
	uint64_t stride, max_cuts, flips, seed, timeout;
	int64_t only_cut, only_seed;
} opt = { .jobs = 2,
	  .stride = 97,
	  .flips = 20,
	  .seed = 1,
	  .timeout = 20,
	  .only_cut = -1,
	  .only_seed = -1 };

static struct slot slots[MAX_JOBS];
static uint64_t nr_runs, nr_cases, nr_failures;
static char workdir[2048];
static char sanitizer_env[2][1024];

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static int write_file(const char *path, const uint8_t *data, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, data + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return close(fd);
}

static uint8_t *read_file(const char *path, size_t *size)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t done = 0;

	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	while (buf && done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

		if (n <= 0) {
			free(buf);
			buf = NULL;
			break;
		}
		done += (size_t)n;
	}
	close(fd);
	*size = done;
	return buf;
}

static void describe(const struct casedesc *c, FILE *f)
{
	int i;

	if (c->trunc) {
		fprintf(f, "%s truncated at %" PRIu64 " (--only-cut %" PRIu64 ")", c->fixture,
			c->cut, c->cut);
		return;
	}
	fprintf(f, "%s flip seed %" PRIu64 " (--only-seed %" PRIu64 "), bytes", c->fixture, c->seed,
		c->seed);
	for (i = 0; i < c->nflips; i++)
		fprintf(f, " %" PRIu64 "^0x%02x", c->flip_off[i], c->flip_xor[i]);
}

/* the check of one finished run; the reason of a failure, or NULL */
static const char *judge(const struct slot *sl, int status, bool timed_out, const char *err)
{
	static char why[256];
	const char *line;

	if (timed_out)
		return "no exit within the timeout (hang?)";
	if (WIFSIGNALED(status)) {
		snprintf(why, sizeof(why), "killed by signal %d", WTERMSIG(status));
		return why;
	}
	if (strstr(err, "AddressSanitizer") || strstr(err, "LeakSanitizer") ||
	    strstr(err, "runtime error:") || strstr(err, "UndefinedBehaviorSanitizer"))
		return "sanitizer report";
	if (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 1) {
		snprintf(why, sizeof(why), "exit status %d", WEXITSTATUS(status));
		return why;
	}
	if (WEXITSTATUS(status) == 1 && !strstr(err, "error:"))
		return "exit 1 without an error message";
	if (WEXITSTATUS(status) == 1 && sl->c->trunc) {
		/* some "error:" line must say where: an offset, a size or a byte count */
		for (line = strstr(err, "error:"); line; line = strstr(line + 1, "error:")) {
			const char *eol = strchr(line, '\n');
			size_t len = eol ? (size_t)(eol - line) : strlen(line);
			char buf[1024];

			snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
			if (strstr(buf, "offset") || strstr(buf, "size") || strstr(buf, "bytes"))
				return NULL;
		}
		return "truncated file: the error does not name the offset";
	}
	return NULL;
}

static void finish(struct slot *sl, int status, bool timed_out)
{
	struct casedesc *c = sl->c;
	size_t len = 0;
	char *err = (char *)read_file(sl->errpath, &len);
	const char *why;

	if (err)
		err[len] = '\0';
	why = judge(sl, status, timed_out, err ? err : "");
	nr_runs++;
	if (why) {
		nr_failures++;
		c->failed = true;
		printf("FAIL: ");
		describe(c, stdout);
		printf(": prism %s: %s\n", cmd_names[sl->cmd], why);
		if (err) {
			char *p = err;
			int lines = 0;

			while (*p && lines < 30) {
				char *eol = strchr(p, '\n');

				printf("    %.*s\n", (int)(eol ? eol - p : (ptrdiff_t)strlen(p)),
				       p);
				lines++;
				p = eol ? eol + 1 : p + strlen(p);
			}
		}
		fflush(stdout);
	}
	free(err);
	unlink(sl->errpath);
	if (--c->pending == 0) {
		if (c->failed && opt.keep) {
			char dst[4096];
			size_t sz;
			uint8_t *d = read_file(c->path, &sz);

			snprintf(dst, sizeof(dst), "%s/%s", opt.keep, strrchr(c->path, '/') + 1);
			if (d)
				write_file(dst, d, sz);
			free(d);
		}
		unlink(c->path);
		free(c);
	}
	sl->pid = 0;
}

/* reap finished runs and kill hung ones; with @block, wait until a slot is free */
static void reap(bool block)
{
	for (;;) {
		int i, status, busy = 0;
		bool freed = false;

		for (i = 0; i < opt.jobs; i++) {
			struct slot *sl = &slots[i];
			bool hung = false;

			if (!sl->pid)
				continue;
			if (waitpid(sl->pid, &status, WNOHANG) != sl->pid) {
				if (since(&sl->start) <= (double)opt.timeout) {
					busy++;
					continue;
				}
				hung = true;
				kill(sl->pid, SIGKILL);
				waitpid(sl->pid, &status, 0);
				if (sl->writer)
					kill(sl->writer, SIGKILL);
			}
			if (sl->writer)
				waitpid(sl->writer, NULL, 0);
			sl->writer = 0;
			finish(sl, status, hung);
			freed = true;
		}
		if (!block || freed || busy < opt.jobs)
			return;
		usleep(500);
	}
}

static void start(struct casedesc *c, enum cmd cmd)
{
	struct slot *sl = NULL;
	int i, pfd[2] = { -1, -1 };

	while (!sl) {
		for (i = 0; i < opt.jobs && !sl; i++)
			if (!slots[i].pid)
				sl = &slots[i];
		if (!sl)
			reap(true);
	}
	snprintf(sl->errpath, sizeof(sl->errpath), "%s/err.%d", workdir, (int)(sl - slots));
	sl->c = c;
	sl->cmd = cmd;
	sl->writer = 0;
	if (cmd == CMD_STATS_PIPE) {
		if (pipe(pfd)) {
			perror("pipe");
			exit(2);
		}
		sl->writer = fork();
		if (sl->writer == 0) {
			size_t sz;
			uint8_t *d;

			close(pfd[0]);
			signal(SIGPIPE, SIG_IGN);
			d = read_file(c->path, &sz);
			if (d) {
				size_t done = 0;

				while (done < sz) {
					ssize_t n = write(pfd[1], d + done, sz - done);

					if (n <= 0)
						break;
					done += (size_t)n;
				}
			}
			_exit(0);
		}
		close(pfd[1]);
	}
	clock_gettime(CLOCK_MONOTONIC, &sl->start);
	sl->pid = fork();
	if (sl->pid == 0) {
		const char *argv[8];
		int fd = open(sl->errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_RDWR);
		int n = 0;

		if (fd < 0 || nul < 0)
			_exit(3);
		dup2(cmd == CMD_STATS_PIPE ? pfd[0] : nul, 0);
		dup2(nul, 1);
		dup2(fd, 2);
		putenv(sanitizer_env[0]);
		putenv(sanitizer_env[1]);
		argv[n++] = opt.prism;
		argv[n++] = cmd == CMD_SCRIPT ? "script" : cmd == CMD_HEADER ? "header" : "stats";
		argv[n++] = "-i";
		argv[n++] = cmd == CMD_STATS_PIPE ? "-" : c->path;
		argv[n] = NULL;
		execv(opt.prism, (char **)argv);
		_exit(127);
	}
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (sl->pid < 0) {
		perror("fork");
		exit(2);
	}
}

static bool is_pipe_file(const uint8_t *d, size_t size)
{
	static const uint8_t sixteen_le[8] = { 16 }, sixteen_be[8] = { 0, 0, 0, 0, 0, 0, 0, 16 };

	return size >= 16 && (!memcmp(d + 8, sixteen_le, 8) || !memcmp(d + 8, sixteen_be, 8));
}

static void run_case(struct casedesc *c, const uint8_t *data, size_t size, bool pipe_mode)
{
	int i;

	if (write_file(c->path, data, size)) {
		fprintf(stderr, "corrupt-sweep: cannot write %s: %s\n", c->path, strerror(errno));
		exit(2);
	}
	nr_cases++;
	c->pending = pipe_mode ? NR_CMDS : NR_CMDS - 1;
	for (i = 0; i < NR_CMDS; i++)
		if (i != CMD_STATS_PIPE || pipe_mode)
			start(c, i);
}

static void sweep(const char *fixture)
{
	size_t size;
	uint8_t *data = read_file(fixture, &size), *copy;
	const char *base = strrchr(fixture, '/') ? strrchr(fixture, '/') + 1 : fixture;
	bool pipe_mode;
	uint64_t step = opt.stride, cut, n;
	static unsigned long serial;

	if (!data) {
		fprintf(stderr, "corrupt-sweep: cannot read %s: %s\n", fixture, strerror(errno));
		exit(2);
	}
	pipe_mode = is_pipe_file(data, size);
	if (opt.max_cuts && size / opt.stride > opt.max_cuts)
		step = opt.stride * ((size / opt.stride + opt.max_cuts - 1) / opt.max_cuts);
	copy = malloc(size ? size : 1);
	if (!copy)
		exit(2);
	for (cut = step; cut < size; cut += step) {
		struct casedesc *c;

		if (opt.only_seed >= 0 || (opt.only_cut >= 0 && cut != (uint64_t)opt.only_cut))
			continue;
		c = calloc(1, sizeof(*c));
		c->fixture = fixture;
		c->trunc = true;
		c->cut = cut;
		snprintf(c->path, sizeof(c->path), "%s/%.200s.cut%" PRIu64 ".%lu", workdir, base,
			 cut, serial++);
		run_case(c, data, cut, pipe_mode);
	}
	for (n = 0; n < (opt.only_seed >= 0 ? 1 : opt.flips) && size; n++) {
		uint64_t seed = opt.only_seed >= 0 ? (uint64_t)opt.only_seed : opt.seed + n;
		uint64_t rng = seed;
		struct casedesc *c;
		int k;

		if (opt.only_cut >= 0)
			continue;
		c = calloc(1, sizeof(*c));
		c->fixture = fixture;
		c->seed = seed;
		c->nflips = 1 + (int)(splitmix64(&rng) % MAX_FLIPS);
		memcpy(copy, data, size);
		for (k = 0; k < c->nflips; k++) {
			c->flip_off[k] = splitmix64(&rng) % size;
			c->flip_xor[k] = (uint8_t)(1 + splitmix64(&rng) % 255);
			copy[c->flip_off[k]] ^= c->flip_xor[k];
		}
		snprintf(c->path, sizeof(c->path), "%s/%.200s.seed%" PRIu64 ".%lu", workdir, base,
			 seed, serial++);
		run_case(c, copy, size, pipe_mode);
	}
	free(copy);
	free(data);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: corrupt-sweep [-j N] [--stride N] [--max-cuts N] [--flips N] [--seed S]\n"
		"                     [--timeout S] [--only-cut N] [--only-seed S] [--keep DIR]\n"
		"                     [--tmp DIR] PRISM FILE...\n");
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || !*s)
		usage();
	return v;
}

int main(int argc, char **argv)
{
	struct timespec t0;
	const char *env;
	int i, nfiles = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (i + 1 >= argc)
			usage();
		if (!strcmp(a, "-j"))
			opt.jobs = (int)num(argv[++i]);
		else if (!strcmp(a, "--stride"))
			opt.stride = num(argv[++i]);
		else if (!strcmp(a, "--max-cuts"))
			opt.max_cuts = num(argv[++i]);
		else if (!strcmp(a, "--flips"))
			opt.flips = num(argv[++i]);
		else if (!strcmp(a, "--seed"))
			opt.seed = num(argv[++i]);
		else if (!strcmp(a, "--timeout"))
			opt.timeout = num(argv[++i]);
		else if (!strcmp(a, "--only-cut"))
			opt.only_cut = (int64_t)num(argv[++i]);
		else if (!strcmp(a, "--only-seed"))
			opt.only_seed = (int64_t)num(argv[++i]);
		else if (!strcmp(a, "--keep"))
			opt.keep = argv[++i];
		else if (!strcmp(a, "--tmp"))
			opt.tmp = argv[++i];
		else
			usage();
	}
	if (argc - i < 2 || opt.jobs < 1 || opt.jobs > MAX_JOBS || !opt.stride)
		usage();
	opt.prism = argv[i++];
	if (access(opt.prism, X_OK)) {
		fprintf(stderr, "corrupt-sweep: %s is not executable\n", opt.prism);
		return 2;
	}
	if (!opt.tmp)
		opt.tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(workdir, sizeof(workdir), "%s/corrupt-sweep.XXXXXX", opt.tmp);
	if (!mkdtemp(workdir)) {
		fprintf(stderr, "corrupt-sweep: mkdtemp %s: %s\n", workdir, strerror(errno));
		return 2;
	}
	/* a sanitizer's own exit code must not look like prism's "1" */
	env = getenv("ASAN_OPTIONS");
	snprintf(sanitizer_env[0], sizeof(sanitizer_env[0]), "ASAN_OPTIONS=%s%sexitcode=86",
		 env ? env : "", env && *env ? ":" : "");
	env = getenv("UBSAN_OPTIONS");
	snprintf(sanitizer_env[1], sizeof(sanitizer_env[1]),
		 "UBSAN_OPTIONS=%s%shalt_on_error=1:exitcode=87", env ? env : "",
		 env && *env ? ":" : "");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (; i < argc; i++, nfiles++)
		sweep(argv[i]);
	for (i = 0; i < opt.jobs; i++) {
		while (slots[i].pid) {
			reap(false);
			usleep(500);
		}
	}
	rmdir(workdir);
	printf("corrupt-sweep: %d files, %" PRIu64 " damaged copies, %" PRIu64
	       " prism runs, %" PRIu64 " failures, %.1f s\n",
	       nfiles, nr_cases, nr_runs, nr_failures, since(&t0));
	return nr_failures ? 1 : 0;
}
