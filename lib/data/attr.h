/* SPDX-License-Identifier: MIT */
/*
 * perf_event_attr as stored in perf.data (attrs section, HEADER_ATTR,
 * EVENT_DESC).
 */
#ifndef PRISM_DATA_ATTR_H
#define PRISM_DATA_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* the largest attr we interpret: up to config3 (VER8) and config4 (VER9) */
#define PRISM_ATTR_SIZE_MAX 144

struct prism_attr_ext {
	struct perf_event_attr attr; /* first 128 bytes (VER7) */
	uint32_t file_size; /* attr.size as written (0 means 64) */
	uint64_t config3, config4;
};

/*
 * prism_attr__read - decode an attr stored at @buf
 * @out: result; fields beyond the written size are zero
 * @buf: the stored attr
 * @avail: bytes available at @buf
 * @swap: the file is of the other byte order
 *
 * Return: 0, or -PRISM_E_BAD_HEADER when attr.size is smaller than 64 or
 * larger than @avail.
 */
int prism_attr__read(struct prism_attr_ext *out, const void *buf, size_t avail, bool swap);

#endif /* PRISM_DATA_ATTR_H */
