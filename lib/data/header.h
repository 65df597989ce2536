/* SPDX-License-Identifier: MIT */
/*
 * The perf.data file header: perf_file_header (version 1 "PERFFILE" or
 * version 2 "PERFILE2", either byte order), the attrs with their ids and
 * the feature index; or the 16-byte pipe header.  Decoded into a struct the
 * session turns into events and features: this file knows no session.
 */
#ifndef PRISM_DATA_HEADER_H
#define PRISM_DATA_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include <prism/session.h>

#include "data/attr.h"

struct prism_input;

struct prism_header_attr {
	struct prism_attr_ext a;
	uint64_t *ids; /* in this machine's byte order */
	size_t nr_ids;
};

/* a feature section of the index; size 0 is a flag feature (BRANCH_STACK, STAT) */
struct prism_header_feat {
	unsigned int bit;
	uint64_t offset, size;
};

struct prism_file_header {
	struct prism_file_info info;
	struct prism_header_attr *attrs;
	size_t nr_attrs;
	struct prism_header_feat *feats; /* in bit order; those outside the file left out */
	size_t nr_feats;
	char errmsg[384]; /* why the header was refused */
};

/*
 * prism_file_header__read - decode the header of @in into @h
 *
 * A pipe header is consumed from the stream; a file header is read with
 * pread, the stream position left alone.  Feature sections that lie
 * outside the file are left out with a warning, as perf ignores them.
 * Release @h in every case.
 *
 * Return: 0, or a negative error with @h->errmsg saying what was wrong:
 * -PRISM_E_BAD_MAGIC, -PRISM_E_BAD_HEADER, -PRISM_E_TRUNCATED,
 * -PRISM_E_UNSUPPORTED, -ENOMEM, -errno.
 */
int prism_file_header__read(struct prism_file_header *h, struct prism_input *in);
void prism_file_header__release(struct prism_file_header *h);

#endif /* PRISM_DATA_HEADER_H */
