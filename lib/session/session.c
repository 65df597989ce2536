// SPDX-License-Identifier: MIT
/*
 * Session object: open a perf.data input, hold its events, features and
 * tracepoint formats.  The record loop is in session-process.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <prism/features.h>
#include <prism/tp.h>

#include "internal.h"
#include "session/session-internal.h"
#include "data/views.h"
#include "data/decomp.h"
#include "data/header.h"
#include "data/input.h"
#include "session/ordered.h"

static __thread char open_error[512];

const char *prism_session_open_error(void)
{
	return open_error;
}

int prism_session__set_error(struct prism_session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
	va_end(ap);
	return -1;
}

const char *prism_session__error(const struct prism_session *s)
{
	return s->errmsg;
}

/* the payload of a feature section, decoded into the session's features */
static int read_feature(struct prism_session *s, const struct prism_header_feat *f)
{
	void *data;
	int err;

	if (!f->size) /* flag features (BRANCH_STACK, STAT) have no payload */
		return prism_session__decode_feature(s, f->bit, "", 0);
	data = malloc(f->size);
	if (!data)
		return -ENOMEM;
	err = prism_input__pread(s->in, data, f->size, f->offset);
	if (!err)
		err = prism_session__decode_feature(s, f->bit, data, f->size);
	free(data);
	return err;
}

/* the file header (data/header.c) becomes the session's file info, events and features */
static int read_header(struct prism_session *s)
{
	struct prism_file_header h;
	size_t i;
	int err;

	err = prism_file_header__read(&h, s->in);
	s->info = h.info;
	if (err)
		prism_session__set_error(s, "%s", h.errmsg);
	for (i = 0; !err && i < h.nr_attrs; i++)
		err = prism_session__add_evsel(s, &h.attrs[i].a, h.attrs[i].ids, h.attrs[i].nr_ids,
					       NULL);
	if (!err)
		prism_session__update_id_pos(s);
	/* a feature that cannot be read or decoded is left out; only memory stops here */
	for (i = 0; !err && i < h.nr_feats; i++)
		if (read_feature(s, &h.feats[i]) == -ENOMEM)
			err = -ENOMEM;
	prism_file_header__release(&h);
	return err;
}

struct prism_session *prism_session__open(const struct prism_session_opts *opts)
{
	struct prism_session *s = calloc(1, sizeof(*s));
	char *main_path = NULL;
	struct stat st;
	int err;

	open_error[0] = '\0';
	if (!s)
		return NULL;
	s->no_order = opts->no_order;
	s->order_mem_limit = opts->order_mem_limit;
	s->progress = opts->progress;
	s->progress_ctx = opts->progress_ctx;
	s->id_pos = s->is_pos = -1;
	s->id_end = UINT32_MAX;
	s->time_pos = s->time_is_pos = -1;
	s->ev_cold = true; /* branch_hw_idx is ~0 when clear */
	s->features = prism_features__new();
	if (!s->features) {
		err = errno ? errno : ENOMEM;
		goto fail;
	}
	if (opts->path && strcmp(opts->path, "-") && stat(opts->path, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		/* directory format: the header is in PATH/data */
		if (asprintf(&main_path, "%s/data", opts->path) < 0) {
			err = ENOMEM;
			goto fail;
		}
	}
	s->in = prism_input__open(main_path ? main_path : opts->path, opts->fd);
	if (!s->in) {
		err = errno;
		if (main_path)
			prism_session__set_error(s, "'%s': %s", main_path, strerror(err));
		goto fail;
	}
	err = read_header(s);
	if (!err && main_path)
		err = prism_session__open_dir(s, opts->path);
	if (err) {
		err = -err;
		goto fail;
	}
	free(main_path);
	if (!s->info.pipe)
		prism_session__resolve_names(s);
	return s;
fail:
	free(main_path);
	snprintf(open_error, sizeof(open_error), "%s", s->errmsg);
	prism_session__free(s);
	errno = err;
	return NULL;
}

void prism_session__free(struct prism_session *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_evsels; i++)
		prism_evsel__free(s->evsels[i]);
	free(s->evsels);
	prism_idmap__release(&s->ids);
	prism_features__free(s->features);
	prism_tp__free(s->tp);
	for (i = 0; i < s->nr_old_tp; i++)
		prism_tp__free(s->old_tp[i]);
	free(s->old_tp);
	prism_ordered__free(s->ordered);
	prism_views__free(s->views); /* after the queue: its runs give their views back */
	prism_decomp__free(s->decomp);
	free(s->dbuf);
	free(s->scratch);
	prism_input__free(s->in);
	prism_session__free_dir(s);
	free(s);
}

int prism_session__add_evsel(struct prism_session *s, const struct prism_attr_ext *a,
			     const uint64_t *ids, size_t nr_ids, struct prism_evsel **out)
{
	struct prism_evsel *evsel;
	size_t i;
	int err;

	err = prism_ensure_mem((void **)&s->evsels, &s->cap_evsels, sizeof(*s->evsels),
			       s->nr_evsels + 1);
	if (err)
		return err;
	evsel = prism_evsel__new(a, (int)s->nr_evsels);
	if (!evsel)
		return -ENOMEM;
	s->evsels[s->nr_evsels++] = evsel;
	for (i = 0; i < nr_ids; i++) {
		err = prism_evsel__add_id(evsel, ids[i]);
		if (!err)
			err = prism_idmap__add(&s->ids, ids[i], evsel);
		if (err)
			return err;
	}
	s->names_resolved = false;
	if (out)
		*out = evsel;
	return 0;
}

/* where an event puts the time (see session-internal.h), -1 when it has none */
static void time_pos_of(const struct prism_evsel *e, int *pos, int *is_pos)
{
	*pos = e->at_time ? (e->at_time - 8) / 8 : -1;
	*is_pos = e->trailer_time ? e->trailer_time / 8 : -1;
}

/* the time positions, when every event has the same (the tracking event may lack RAW) */
static void update_time_pos(struct prism_session *s)
{
	size_t i;
	int pos, is_pos;

	time_pos_of(s->evsels[0], &s->time_pos, &s->time_is_pos);
	for (i = 1; i < s->nr_evsels; i++) {
		time_pos_of(s->evsels[i], &pos, &is_pos);
		if (pos != s->time_pos || is_pos != s->time_is_pos ||
		    s->evsels[i]->id_hdr_size != s->evsels[0]->id_hdr_size) {
			s->time_pos = s->time_is_pos = -1;
			return;
		}
	}
	s->time_is_min = 8 + s->evsels[0]->id_hdr_size;
	s->time_shared = true;
}

/*
 * Where the id sits, from the first attr (perf's evlist__event2id): in
 * samples, u64 index after the header; in other records, u64 index from
 * the end.
 */
void prism_session__update_id_pos(struct prism_session *s)
{
	uint64_t st;

	s->id_pos = s->is_pos = -1;
	s->id_end = UINT32_MAX;
	s->time_shared = false;
	s->time_pos = s->time_is_pos = -1;
	if (!s->nr_evsels)
		return;
	update_time_pos(s);
	st = s->evsels[0]->a.attr.sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		s->id_pos = 0;
		s->is_pos = 1;
	} else if (st & PERF_SAMPLE_ID) {
		s->id_pos = !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
			    !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
		s->is_pos = 1 + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_STREAM_ID);
	}
	if (s->id_pos >= 0)
		s->id_end = 8 + 8 * (uint32_t)(s->id_pos + 1);
}

int prism_session__decode_feature(struct prism_session *s, unsigned int feat, const void *data,
				  size_t size)
{
	int err;

	if (feat == PRISM_FEAT_TRACING_DATA) {
		struct prism_tp *tp = prism_tp__new(data, size);

		if (!tp) {
			char buf[128];

			pr_warn("tracing data (%zu bytes) could not be read: %s; tracepoint fields will not be decoded",
				size, prism_strerror(errno, buf, sizeof(buf)));
			return 0;
		}
		if (s->tp) {
			if (prism_ensure_mem((void **)&s->old_tp, &s->alloc_old_tp,
					     sizeof(*s->old_tp), s->nr_old_tp + 1)) {
				prism_tp__free(tp);
				return -ENOMEM;
			}
			s->old_tp[s->nr_old_tp++] = s->tp;
		}
		s->tp = tp;
		s->names_resolved = false;
		return 0;
	}
	/* the decoder warns about a malformed feature and keeps it raw */
	err = prism_features__decode(s->features, feat, data, size, s->info.needs_swap);
	if (err && err != -ENOMEM)
		return 0;
	s->names_resolved = false;
	return err;
}

/* names: EVENT_DESC / EVENT_UPDATE, else tracepoint name, else derived */
void prism_session__resolve_names(struct prism_session *s)
{
	size_t i;

	for (i = 0; i < s->nr_evsels; i++) {
		struct prism_evsel *evsel = s->evsels[i];
		const struct prism_tp_event *tpe = NULL;
		const char *desc;
		char tpname[256];

		desc = prism_features__event_name(s->features, evsel->a.attr.type,
						  evsel->a.attr.config, evsel->ids, evsel->nr_ids,
						  (int)i);
		if (desc && !evsel->name)
			prism_evsel__set_name(evsel, desc);
		if (evsel->a.attr.type == PERF_TYPE_TRACEPOINT && s->tp)
			tpe = prism_tp__event(s->tp, evsel->a.attr.config);
		if (tpe)
			snprintf(tpname, sizeof(tpname), "%s:%s", prism_tp_event__system(tpe),
				 prism_tp_event__name(tpe));
		prism_evsel__derive_name(evsel, tpe ? tpname : NULL);
	}
	s->names_resolved = true;
}

const struct prism_file_info *prism_session__file_info(const struct prism_session *s)
{
	return &s->info;
}

size_t prism_session__nr_evsels(const struct prism_session *s)
{
	return s->nr_evsels;
}

struct prism_evsel *prism_session__evsel(const struct prism_session *s, size_t idx)
{
	return idx < s->nr_evsels ? s->evsels[idx] : NULL;
}

struct prism_evsel *prism_session__evsel_by_id(const struct prism_session *s, uint64_t id)
{
	return prism_idmap__find(&s->ids, id);
}

const struct prism_features *prism_session__features(const struct prism_session *s)
{
	return s->features;
}

struct prism_tp *prism_session__tp(const struct prism_session *s)
{
	return s->tp;
}

const struct prism_session_stats *prism_session__stats(const struct prism_session *s)
{
	return &s->stats;
}
