/* SPDX-License-Identifier: MIT */
/*
 * perf.data writer (file or pipe mode), the inverse of the reader in
 * lib/data/.  Internal to lib/: the recorder (lib/record/) drives it.
 *
 *	w = prism_writer__new(&opts);
 *	prism_writer__add_event(w, &attr, "cpu-clock", ids, nr_ids, leader, nr_members);
 *	prism_writer__start(w);              header + ids + attrs (file), or the
 *	                                     pipe header, HEADER_ATTRs, features
 *	prism_writer__write(w, rec, len);    synthesized records (never compressed)
 *	prism_writer__write_data(w, buf, n); ring-buffer bytes (compressed with -z)
 *	prism_writer__finished_round(w);
 *	prism_writer__finish(w);             features + final header (file mode)
 *	prism_writer__free(w);
 *
 * File layout: 104-byte header, id arrays, attrs (perf_event_attr of size
 * 128 = PERF_ATTR_SIZE_VER7, which perf 6.1 reads), data, feature table and
 * features.  While recording the header says data.size 0; the real header is
 * written last and only ever describes bytes that were written in full.
 * After a write error (ENOSPC, EIO, EPIPE) every further write fails with the
 * same error and the file is cut back to the last complete record, so that
 * prism_writer__finish() can still produce a readable file.
 */
#ifndef PRISM_DATA_WRITER_H
#define PRISM_DATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

/* perf_event_attr size written: VER7, the largest perf 6.1 accepts */
#define PRISM_WRITER_ATTR_SIZE 128

struct prism_writer;

struct prism_writer_opts {
	const char *path; /* output file; NULL with fd >= 0 */
	int fd; /* used when path is NULL (e.g. 1 for "-o -") */
	bool pipe; /* pipe mode (16-byte header, everything as records) */
	bool keep_old; /* rename an existing path to path.old first */
	int compress_level; /* 0: none; 1..22 zstd level (COMPRESSED records) */
	size_t comp_mmap_len; /* most bytes one COMPRESSED record expands to */
	int argc; /* CMDLINE feature */
	const char *const *argv;
	const char *version; /* VERSION feature; NULL = prism's version */
	int clockid; /* CLOCKID feature; -1 = perf's default (sched clock, 1 ns) */
};

struct prism_writer *prism_writer__new(const struct prism_writer_opts *opts); /* NULL + errno */
void prism_writer__free(struct prism_writer *w); /* accepts NULL; closes the fd it opened */

/*
 * Add one event (before start).  The attr is copied with size set to 128;
 * ids are copied.  leader is the index of the group leader (== own index for
 * leaders and single events); nr_members > 1 on leaders of real groups.
 */
int prism_writer__add_event(struct prism_writer *w, const struct perf_event_attr *attr,
			    const char *name, const uint64_t *ids, size_t nr_ids, int leader,
			    int nr_members);

/* the tracing-data blob (TRACING_DATA feature / HEADER_TRACING_DATA record); copied */
int prism_writer__set_tracing_data(struct prism_writer *w, const void *buf, size_t len);

int prism_writer__start(struct prism_writer *w);

/* a whole record written uncompressed (synthesized records, FINISHED_INIT) */
int prism_writer__write(struct prism_writer *w, const void *rec, size_t len);
/* complete records from a ring buffer, in one or two pieces (wrap-around) */
int prism_writer__write_data(struct prism_writer *w, const void *a, size_t alen, const void *b,
			     size_t blen);
/*
 * PERF_RECORD_AUXTRACE: the 48-byte record @rec, then its trace bytes in
 * one or two pieces and zeros up to a multiple of 8 (rec->size counts
 * them), written whole and never compressed; file mode keeps its offset
 * and header size for the AUXTRACE feature (the index perf writes)
 */
int prism_writer__write_auxtrace(struct prism_writer *w, const void *rec, size_t rlen,
				 const void *a, size_t alen, const void *b, size_t blen);
int prism_writer__finished_round(struct prism_writer *w);
/* buffered output to the file */
int prism_writer__flush(struct prism_writer *w);

/* PRISM_FEAT_UTIL_CHECK's payload (prism_util_check__save()); copied, 0 bytes: none */
int prism_writer__set_util_check(struct prism_writer *w, const void *buf, size_t len);
/* SAMPLE_TIME feature */
void prism_writer__set_sample_time(struct prism_writer *w, uint64_t first, uint64_t last);
/* one BUILD_ID feature entry (cpumode = PERF_RECORD_MISC_KERNEL/USER) */
int prism_writer__add_build_id(struct prism_writer *w, uint16_t cpumode, const uint8_t *id,
			       size_t id_size, const char *filename);

/*
 * Write the features and the final header (file mode), or flush (pipe mode).
 * After a write error, finishes what is complete and returns that error.
 */
int prism_writer__finish(struct prism_writer *w);

/* facts for the summary */
uint64_t prism_writer__bytes(const struct prism_writer *w); /* bytes in the output */
uint64_t prism_writer__data_raw_bytes(const struct prism_writer *w); /* before compression */
/* the payload of the COMPRESSED records: what raw_bytes became (their ratio is perf's) */
uint64_t prism_writer__data_comp_bytes(const struct prism_writer *w);
int prism_writer__error(const struct prism_writer *w); /* first write error, or 0 */
const char *prism_writer__path(const struct prism_writer *w);

/* feature payload builders (writer-features.c), exposed for the unit tests */
struct prism_strbuf;
int prism_writer__feature(struct prism_writer *w, unsigned int feat, struct prism_strbuf *sb);
bool prism_writer__has_feature(const struct prism_writer *w, unsigned int feat);

#endif /* PRISM_DATA_WRITER_H */
