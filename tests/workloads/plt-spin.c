// SPDX-License-Identifier: MIT
/*
 * A loop that calls strlen() through the PLT (built with -fno-builtin):
 * about a third of its cpu-clock samples land in the PLT stub, which
 * perf 6.1 names by the zero-size symbol before it (_init) in a program
 * with a symbol table.  Usage: plt-spin [MILLIONS] (default 30).
 */
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long n = (argc > 1 ? atol(argv[1]) : 30) * 1000000L;
	const char *s = argc > 5 ? argv[0] : "";
	volatile size_t sum = 0;

	for (long i = 0; i < n; i++)
		sum += strlen(s);
	return (int)(sum & 1);
}
