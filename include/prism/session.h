/* SPDX-License-Identifier: MIT */
/*
 * Reading a perf.data file (or a pipe-mode stream) and delivering its
 * records to callbacks.
 *
 *	struct prism_session_opts opts = { .path = "perf.data" };
 *	struct prism_session *s = prism_session__open(&opts);
 *	struct prism_tool tool = { .sample = on_sample };
 *	err = prism_session__process(s, &tool, ctx);
 *	prism_session__free(s);
 *
 * Records are delivered in timestamp order (FINISHED_ROUND semantics, memory
 * bounded by what one round holds), unless opts.no_order asks for file order.
 * Records synthesized with time 0 are delivered when read.  perf's own
 * records (type >= 64) are acted on when read and handed to tool->user.
 */
#ifndef PRISM_SESSION_H
#define PRISM_SESSION_H

#include <prism/core.h>
#include <prism/event.h>
#include <prism/evsel.h>

struct prism_session;
struct prism_features;
struct prism_tp;

struct prism_session_opts {
	const char *path; /* file path; "-" reads standard input */
	int fd; /* used when path is NULL */
	bool no_order; /* deliver records in file order */
	size_t order_mem_limit; /* bytes the time sort may hold; 0 = default (32 MiB) */
	/*
	 * Called by prism_session__process() as the data is read, every 64 KiB
	 * or so: @done bytes of records read of @total (the data section, and
	 * a directory's streams; 0 for a pipe), @records so far; once more
	 * with @end set when the read ends (a display can go).  NULL: none.
	 */
	void (*progress)(void *ctx, uint64_t done, uint64_t total, uint64_t records, bool end);
	void *progress_ctx;
};

/*
 * Callbacks.  Each returns 0 to go on, a negative error to stop with that
 * error, or a positive value to stop early without error.  A NULL callback
 * ignores its records.  'other' receives every kernel record kind that has
 * no callback of its own here (or whose own callback is NULL when
 * 'other_all' is set).
 */
struct prism_tool {
	int (*sample)(void *ctx, const struct prism_event *ev);
	int (*mmap)(void *ctx, const struct prism_event *ev); /* MMAP and MMAP2 */
	int (*comm)(void *ctx, const struct prism_event *ev);
	int (*fork)(void *ctx, const struct prism_event *ev);
	int (*exit)(void *ctx, const struct prism_event *ev);
	int (*lost)(void *ctx, const struct prism_event *ev); /* LOST and LOST_SAMPLES */
	int (*switch_)(void *ctx, const struct prism_event *ev); /* SWITCH, SWITCH_CPU_WIDE */
	int (*other)(void *ctx, const struct prism_event *ev);
	int (*user)(void *ctx, const struct prism_event *ev); /* types >= 64 */
	/*
	 * a record skipped because its body is malformed (counted in the
	 * stats' nr_malformed): only raw, type, file_offset and compressed
	 */
	int (*malformed)(void *ctx, const struct prism_event *ev);
	bool other_all; /* send every kernel record without a set callback to 'other' */
	/*
	 * hand 'user' the trace bytes that follow each AUXTRACE record
	 * (ev->payload, ev->payload_size); without it they are stepped over
	 * unread
	 */
	bool auxtrace_data;
	/*
	 * Instead of 'sample', for a tool that needs only the basic fields of
	 * samples: they come decoded straight from the record into a small
	 * struct, without the struct prism_event being filled (prism util on
	 * a 3.4 M-sample trace: 3% fewer instructions, 5% less time).  When
	 * both are set, only this one is called.
	 */
	int (*sample_basic)(void *ctx, const struct prism_sample_basic *b);
};

/**
 * prism_session__open - open a perf.data file and read its header
 * @opts: what to open
 *
 * Regular files are read through mmap windows, pipes with read().  A file
 * whose header cannot be read fails here; a damaged data section fails
 * later, in prism_session__process().
 *
 * Return: the session, or NULL with errno set (a positive errno or PRISM_E_*);
 * prism_session_open_error() then describes what was wrong.
 */
PRISM_API struct prism_session *prism_session__open(const struct prism_session_opts *opts);
/* the detailed message of the last failed prism_session__open() */
PRISM_API const char *prism_session_open_error(void);

/* frees the session; accepts NULL */
PRISM_API void prism_session__free(struct prism_session *s);

/**
 * prism_session__process - read the data section and deliver every record
 *
 * A record whose body is malformed but whose size keeps the stream in step
 * is counted in the stats (nr_malformed) and skipped; the rest is read.
 * Only a size that breaks the stream (or a failing read) ends it early.
 *
 * Return: 0 at the end of the data, the positive value a callback stopped
 * with, or a negative error.  On error, records before the damage have been
 * delivered and prism_session__error() says what was wrong and where.
 */
PRISM_API int prism_session__process(struct prism_session *s, const struct prism_tool *tool,
				     void *ctx);

/* the last processing error as text ("record at offset 0x1a8: size 4 is smaller ...") */
PRISM_API const char *prism_session__error(const struct prism_session *s);

/* file facts */
struct prism_file_info {
	/* perf's header version: 0 for "PERFFILE" (perf 3.0-3.2), 1 for "PERFILE2" */
	uint32_t version;
	bool pipe; /* pipe-mode stream */
	bool needs_swap; /* written on a machine of the other byte order */
	uint64_t file_size; /* 0 for a pipe */
	uint64_t header_size, attr_size;
	uint64_t attrs_offset, attrs_size;
	uint64_t data_offset, data_size;
	uint64_t feat_offset;
	/* directory format (perf record --threads): raw streams data.0 … data.N-1 */
	bool dir;
	uint32_t nr_data_files;
	uint64_t dir_data_size; /* bytes in those streams */
	uint64_t features[4]; /* bitmap, bit N = feature N */
};
PRISM_API const struct prism_file_info *prism_session__file_info(const struct prism_session *s);

/* events */
PRISM_API size_t prism_session__nr_evsels(const struct prism_session *s);
PRISM_API struct prism_evsel *prism_session__evsel(const struct prism_session *s, size_t idx);
/* the event of a sample/record id; NULL when unknown */
PRISM_API struct prism_evsel *prism_session__evsel_by_id(const struct prism_session *s,
							 uint64_t id);

/* the decoded header features (file header or pipe HEADER_FEATURE records) */
PRISM_API const struct prism_features *prism_session__features(const struct prism_session *s);
/*
 * a directory input's kernel code copy (perf record --kcore): PATH/kcore_dir
 * when it holds kallsyms; NULL otherwise
 */
PRISM_API const char *prism_session__kcore_dir(const struct prism_session *s);
/*
 * prism_session__header_text - append the header block perf prints (perf
 * report --header-only -I): "# ========", for a file at @path its capture
 * time, header version, offsets and sizes, every feature, and with
 * @missing the features the file lacks.  Pipe input has its features once
 * the stream was processed.
 */
struct prism_strbuf;
PRISM_API void prism_session__header_text(const struct prism_session *s, const char *path,
					  bool missing, struct prism_strbuf *sb);
/* tracepoint formats (NULL when the file has no tracing data) */
PRISM_API struct prism_tp *prism_session__tp(const struct prism_session *s);

/* counts gathered while processing */
struct prism_session_stats {
	uint64_t nr_records[PRISM_RECORD_TYPE_MAX]; /* by type; unknown types in nr_unknown */
	uint64_t nr_unknown;
	uint64_t nr_records_total;
	uint64_t total_lost; /* sum of LOST.lost */
	uint64_t total_lost_samples; /* sum of LOST_SAMPLES.lost */
	uint64_t nr_out_of_order; /* records older than what was already delivered */
	uint64_t nr_unknown_id; /* samples whose id matches no event */
	uint64_t first_time, last_time; /* of timestamped kernel records */
	uint64_t data_bytes; /* bytes of the data section read */
	uint64_t compressed_bytes; /* payload bytes of COMPRESSED records */
	uint64_t decompressed_bytes; /* bytes they expanded to */
	uint64_t nr_early_flushes; /* time-sort flushes forced by the memory limit */
	/*
	 * Records skipped because their body does not fit their type (or a
	 * sample its event's sample_type) while their size keeps the stream
	 * in step, by type, with the file offset of the first of each type
	 * (of the COMPRESSED record that holds it, for compressed data).
	 */
	uint64_t nr_malformed[PRISM_RECORD_TYPE_MAX];
	uint64_t malformed_offset[PRISM_RECORD_TYPE_MAX];
};
PRISM_API const struct prism_session_stats *prism_session__stats(const struct prism_session *s);

/*
 * perf's leader sampling (perf record -e '{a,b}:S'): a sample whose
 * PERF_SAMPLE_READ holds its group's counts (read_format GROUP and ID)
 * stands for one sample of each event of the group whose count grew since
 * the last read, with the growth as its period.  One object per reading.
 */
struct prism_group_reads;
/* NULL with errno set */
PRISM_API struct prism_group_reads *prism_group_reads__new(void);
PRISM_API void prism_group_reads__free(struct prism_group_reads *g); /* accepts NULL */
/**
 * prism_group_reads__split - deliver a sample as perf does
 * @s: the session (its events by sample id)
 * @ev: a sample; one that is no group read goes to @fn as it is
 * @fn: called with a copy of @ev per event whose count grew (evsel, and
 *      period with PERF_SAMPLE_PERIOD, set)
 *
 * Return: 0, @fn's first non-zero value, -ENOMEM.
 */
PRISM_API int prism_group_reads__split(struct prism_group_reads *g, struct prism_session *s,
				       const struct prism_event *ev,
				       int (*fn)(void *ctx, const struct prism_event *ev),
				       void *ctx);

#endif /* PRISM_SESSION_H */
