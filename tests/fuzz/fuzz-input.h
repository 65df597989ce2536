/* SPDX-License-Identifier: MIT */
/*
 * What the perf.data fuzz targets (fuzz-session, fuzz-util) share: how an
 * input picks its mode, and writing it where prism reads it from.
 */
#ifndef PRISM_FUZZ_INPUT_H
#define PRISM_FUZZ_INPUT_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * a hash of the first 64 bytes (the file header): mutations deep in the
 * data keep the mode of their seed
 */
static inline uint32_t fuzz_header_hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < size && i < 64; i++)
		h = (h ^ data[i]) * 16777619u;
	return h ^ (h >> 16);
}

/* a little-endian u32 at @p, as the inputs' own framing stores it */
static inline uint32_t fuzz_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline int fuzz_write_all(int fd, const uint8_t *data, size_t size)
{
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		data += n;
		size -= (size_t)n;
	}
	return 0;
}

/* the input in a memfd, at offset 0 (mapped like a regular file); aborts on failure */
static inline int fuzz_memfd(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz.data", MFD_CLOEXEC);

	if (fd < 0 || fuzz_write_all(fd, data, size) || lseek(fd, 0, SEEK_SET))
		abort();
	return fd;
}

#endif /* PRISM_FUZZ_INPUT_H */
