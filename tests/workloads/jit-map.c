// SPDX-License-Identifier: MIT
/*
 * jit-map [MS]: a tiny "JIT" for the symbol tests.  It copies a counting
 * loop (x86-64 machine code) into anonymous executable memory, describes it
 * in /tmp/perf-PID.map as JITs do ("START SIZE name"), then for MS
 * milliseconds (default 300) calls it and clock_gettime() (the vdso) in
 * turn.  The map file is left for the profiler; the caller removes it.  On
 * another architecture it only calls clock_gettime() and writes no map.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* called through a pointer: no PLT entry (perf 6.1 names .plt.sec ones _init+off) */
static int (*volatile gettime)(clockid_t, struct timespec *) = clock_gettime;

static long long now_ns(void)
{
	struct timespec ts;

	gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	/* mov $300, %ecx; 1: dec %ecx; jnz 1b; ret */
	static const unsigned char code[] = { 0xb9, 0x2c, 0x01, 0x00, 0x00,
					      0xff, 0xc9, 0x75, 0xfc, 0xc3 };
	long ms = argc > 1 ? strtol(argv[1], NULL, 10) : 300;
	void (*fn)(void) = NULL;
	long long end;

#if defined(__x86_64__)
	{
		char path[64];
		unsigned char *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
					  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		FILE *f;

		if (mem == MAP_FAILED)
			return 1;
		memcpy(mem, code, sizeof(code));
		fn = (void (*)(void))(void *)mem;
		snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
		f = fopen(path, "w");
		if (!f)
			return 1;
		fprintf(f, "%lx %zx jit_count_loop\n", (unsigned long)mem, sizeof(code));
		fclose(f);
	}
#endif
	end = now_ns() + ms * 1000000LL;
	while (now_ns() < end)
		if (fn)
			fn();
	return 0;
}
