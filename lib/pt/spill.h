/* SPDX-License-Identifier: MIT */
#ifndef PRISM_PT_SPILL_H
#define PRISM_PT_SPILL_H

#include <stddef.h>
#include <stdint.h>

/* an unlinked temporary file in $TMPDIR, /var/tmp or /tmp; -1 when none can be made */
int prism_spill__open(void);
/* @n bytes at @p to @fd at offset @at: 0 or -errno */
int prism_spill__write(int fd, size_t at, const uint8_t *p, size_t n);

#endif
