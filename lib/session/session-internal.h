/* SPDX-License-Identifier: MIT */
/*
 * struct prism_session, shared by the session files inside lib/.
 */
#ifndef PRISM_SESSION_INTERNAL_H
#define PRISM_SESSION_INTERNAL_H

#include <prism/session.h>

#include "session/evsel-internal.h"

struct prism_input;
struct prism_ordered;
struct prism_decomp;

struct prism_session {
	struct prism_input *in;
	struct prism_file_info info;
	struct prism_evsel **evsels;
	size_t nr_evsels, cap_evsels;
	struct prism_idmap ids;
	int id_pos, is_pos; /* from the first attr (perf's evlist__event2id) */
	uint32_t id_end; /* a sample's id ends here (UINT32_MAX: samples have none) */
	/*
	 * When every event has the same sample_type and sample_id_all, where
	 * the time sits without finding the event: u64 index after the header
	 * in samples, u64 index from the end in other records, or -1.
	 */
	bool time_shared;
	int time_pos, time_is_pos; /* time_is_pos -1: no time in other records */
	size_t time_is_min; /* other records need this size to carry the trailer */
	struct prism_features *features;
	struct prism_tp *tp;
	/*
	 * the formats a later TRACING_DATA replaced (pipe mode): kept to the end,
	 * as consumers hold their events and fields
	 */
	struct prism_tp **old_tp;
	size_t nr_old_tp, alloc_old_tp;
	struct prism_session_stats stats;
	bool no_order;
	size_t order_mem_limit;
	void (*progress)(void *ctx, uint64_t done, uint64_t total, uint64_t records, bool end);
	void *progress_ctx;
	uint64_t progress_next; /* data bytes at which to call it next */
	/* processing */
	struct prism_ordered *ordered;
	struct prism_decomp *decomp;
	uint8_t *dbuf; /* decompressed bytes not yet processed */
	size_t dlen, dcap;
	uint8_t *scratch; /* 8-aligned copy of the current record */
	size_t scratch_cap;
	const struct prism_tool *tool;
	bool basic; /* the tool takes sample_basic, and records are in this machine's order */
	void *ctx;
	struct prism_event ev; /* the record being delivered */
	bool ev_cold; /* ev.sample's rare fields may be set (PRISM_SAMPLE_COLD) */
	bool names_resolved;
	/* directory format: perf.data/data plus raw record streams perf.data/data.N */
	char **dir_files;
	char *kcore_dir; /* PATH/kcore_dir (perf record --kcore), when it holds kallsyms */
	size_t nr_dir_files, cap_dir_files;
	const char *cur_file; /* the data.N being read, NULL for the main file */
	/*
	 * time sort by reference (seekable, native byte order): ord_in[f] is
	 * the input of file f as given to prism_ordered__queue_ref(), 0 the
	 * main file and 1 + N data.N, kept open until the end; cur_input is
	 * the file being read, UINT32_MAX when its records are copied
	 */
	struct prism_input **ord_in;
	size_t nr_ord_in;
	struct prism_views *views; /* of the ord_in files, for the time sort */
	uint32_t cur_input;
	char errmsg[512];
};

/* session-dir.c: find the data.N streams of a directory-format perf.data */
int prism_session__open_dir(struct prism_session *s, const char *dir);
void prism_session__free_dir(struct prism_session *s);

/* session.c */
int prism_session__add_evsel(struct prism_session *s, const struct prism_attr_ext *a,
			     const uint64_t *ids, size_t nr_ids, struct prism_evsel **out);
int prism_session__decode_feature(struct prism_session *s, unsigned int feat, const void *data,
				  size_t size);
void prism_session__update_id_pos(struct prism_session *s);
void prism_session__resolve_names(struct prism_session *s);
__attribute__((format(printf, 2, 3))) int prism_session__set_error(struct prism_session *s,
								   const char *fmt, ...);

#endif /* PRISM_SESSION_INTERNAL_H */
