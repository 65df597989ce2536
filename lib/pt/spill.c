// SPDX-License-Identifier: MIT
/*
 * A decoder queue's trace bytes on disk: an unlinked temporary file that
 * the AUXTRACE records' bytes are appended to, so that a long trace is not
 * held in memory (lib/pt/decode.c maps it and releases what it decoded).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "spill.h"

/* an unlinked temporary file for a queue's trace bytes, or -1 */
int prism_spill__open(void)
{
	const char *dirs[] = { getenv("TMPDIR"), "/var/tmp", "/tmp" };
	size_t i;
	int fd;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (!dirs[i] || !*dirs[i])
			continue;
		fd = open(dirs[i], O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
		if (fd >= 0)
			return fd;
	}
	return -1;
}

int prism_spill__write(int fd, size_t at, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)at);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
		at += (size_t)w;
	}
	return 0;
}
