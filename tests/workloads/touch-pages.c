// SPDX-License-Identifier: MIT
/*
 * touch-pages N: maps N anonymous pages and writes one byte to each, so it
 * takes N page faults (plus its startup's) for prism stat's page-fault test.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10000;
	long page = sysconf(_SC_PAGESIZE), i;
	volatile char *p;

	if (n <= 0 || page <= 0)
		return 2;
	p = mmap(NULL, (size_t)(n * page), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		 0);
	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < n; i++)
		p[i * page] = 1;
	return 0;
}
