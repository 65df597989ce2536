/* SPDX-License-Identifier: MIT */
/*
 * The perf.data writer's state, shared by writer.c (output, header, pipe
 * mode), writer-features.c (feature payloads) and writer-zstd.c.
 */
#ifndef PRISM_DATA_WRITER_INTERNAL_H
#define PRISM_DATA_WRITER_INTERNAL_H

#include <prism/event.h>

#include "data/writer.h"

struct wr_event {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
	int leader;
	int nr_members;
};

struct wr_build_id {
	uint16_t cpumode;
	uint8_t id[20];
	uint8_t size;
	char *name;
};

struct wr_zstd;

struct prism_writer {
	char *path;
	int fd;
	bool own_fd;
	bool pipe;
	bool seekable;
	bool started, finished;
	int compress_level;
	size_t comp_mmap_len;
	int argc;
	char **argv;
	char *version;
	int clockid;

	struct wr_event *ev;
	size_t nr_ev, cap_ev;
	void *tdata;
	size_t tdata_len;
	struct wr_build_id *bids;
	size_t nr_bids, cap_bids;
	uint64_t first_time, last_time;
	void *util_check; /* PRISM_FEAT_UTIL_CHECK payload */
	size_t util_check_len;
	uint64_t *aux_index; /* AUXTRACE feature: file offset, size pairs */
	size_t nr_aux_index, cap_aux_index; /* pairs */

	uint64_t off; /* bytes fully written to the output */
	uint64_t data_offset; /* file mode: where the data section starts */
	uint64_t attrs_offset;
	uint64_t raw_bytes; /* data bytes before compression */
	uint64_t comp_bytes; /* payload bytes of COMPRESSED records */
	int err; /* first write error */

	uint8_t *buf; /* output buffer: whole records only */
	size_t buf_len, buf_cap;
	struct wr_zstd *z;
};

/* feature payloads, writer-features.c */
int wr_feature(struct prism_writer *w, unsigned int feat, struct prism_strbuf *sb);
/* whether the writer produces feat for this recording (file: all, pipe: the pipe-able ones) */
bool wr_feature_wanted(const struct prism_writer *w, unsigned int feat, bool pipe);

/* zstd streaming compression, writer-zstd.c */
struct wr_zstd *wr_zstd__new(int level); /* NULL + errno (PRISM_E_NOFEATURE without libzstd) */
void wr_zstd__free(struct wr_zstd *z);
/*
 * Compress len bytes into one or more COMPRESSED records (each payload at
 * most max_payload bytes), handing each whole record to emit().
 */
int wr_zstd__compress(struct wr_zstd *z, const void *src, size_t len, size_t max_payload,
		      int (*emit)(void *ctx, const void *rec, size_t len), void *ctx);

#endif /* PRISM_DATA_WRITER_INTERNAL_H */
