// SPDX-License-Identifier: MIT
/*
 * bp-write N: writes a global variable exactly N times (default 1000), for a
 * breakpoint on it (mem:ADDR:w).  bp-write --addr prints the variable's
 * address: run both under 'setarch -R' (no address randomization) and the
 * address is the same in both.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile long counter;

int main(int argc, char **argv)
{
	long n, i;

	if (argc > 1 && !strcmp(argv[1], "--addr")) {
		printf("%p\n", (void *)&counter);
		return 0;
	}
	n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	for (i = 0; i < n; i++)
		counter = i;
	return 0;
}
