// SPDX-License-Identifier: MIT
/*
 * kcore-copy: prism_kcore__copy() from a directory that stands for /proc
 * (kallsyms, modules, kcore), as prism record --kcore copies /proc:
 *
 *   kcore-copy FROM TO
 *
 * Exit 1 with the library's message when the copy fails.
 */
#include <stdio.h>
#include <string.h>

#include <prism/record.h>

int main(int argc, char **argv)
{
	char msg[1024];
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: kcore-copy FROM TO\n");
		return 2;
	}
	err = prism_kcore__copy(argv[1], argv[2], msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "kcore-copy: %s (%s)\n", msg, strerror(-err));
		return 1;
	}
	return 0;
}
