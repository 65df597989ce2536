// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a perf tracing-data blob and PERF_SAMPLE_RAW payloads.
 *
 * Input layout: BLOB [SEP PAYLOAD]... with SEP = "\xffPRISMRAW\xff" (see
 * tp.dict).  The blob goes to prism_tp__new(); each payload is formatted
 * with prism_tp__format() and every field of its event is read by name.
 * Each payload is tried twice: as it is, and with its common_type rewritten
 * to the id of an event chosen by the payload's last byte, so that every
 * format of the blob meets arbitrary payloads.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <prism/log.h>
#include <prism/strbuf.h>
#include <prism/tp.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static const char SEP[] = "\xffPRISMRAW\xff";
#define SEP_LEN (sizeof(SEP) - 1)

static uint64_t sink;

static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

static void touch(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		sink += b[i];
}

static void fields(const struct prism_tp_event *ev, const uint8_t *raw, size_t size)
{
	size_t i, j, n = prism_tp_event__nr_fields(ev);

	for (i = 0; i < n; i++) {
		const struct prism_tp_field *f = prism_tp_event__field_at(ev, i);
		const char *str;
		size_t len;
		uint64_t v;

		if (!f)
			abort(); /* in range by construction */
		if (prism_tp_event__field(ev, prism_tp_field__name(f)) == NULL)
			abort();
		touch(prism_tp_field__type(f), strlen(prism_tp_field__type(f)));
		sink += prism_tp_field__offset(f) + prism_tp_field__size(f) +
			prism_tp_field__is_signed(f) + prism_tp_field__is_dynamic(f);
		if (!prism_tp_field__u64(f, raw, size, &v))
			sink += v;
		for (j = 0; j < prism_tp_field__nr_elems(f) && j < 64; j++)
			if (!prism_tp_field__u64_at(f, raw, size, j, &v))
				sink += v;
		if (prism_tp_field__is_string(f) && !prism_tp_field__str(f, raw, size, &str, &len))
			touch(str, len);
	}
}

static void one_payload(struct prism_tp *tp, const uint8_t *raw, size_t size,
			struct prism_strbuf *sb)
{
	const struct prism_tp_event *ev;

	prism_strbuf_reset(sb);
	if (!prism_tp__format(tp, raw, size, sb))
		touch(sb->buf, sb->len);
	ev = prism_tp__event_of(tp, raw, size);
	if (ev)
		fields(ev, raw, size);
}

/* the payload again, claiming to belong to the event its last byte picks */
static void retarget(struct prism_tp *tp, const uint8_t *raw, size_t size, struct prism_strbuf *sb)
{
	size_t n = prism_tp__nr_events(tp);
	const struct prism_tp_event *ev;
	const struct prism_tp_field *ct;
	uint8_t *copy;
	uint64_t id;

	if (!n || size < 2)
		return;
	ev = prism_tp__event_at(tp, raw[size - 1] % n);
	if (!ev)
		abort();
	ct = prism_tp_event__field(ev, "common_type");
	if (!ct || prism_tp_field__size(ct) != 2 || prism_tp_field__offset(ct) + 2 > size)
		return;
	copy = malloc(size); /* exact size: ASan sees any read past the end */
	if (!copy)
		return;
	memcpy(copy, raw, size);
	id = prism_tp_event__id(ev);
	/* host order; in a blob of the other byte order the id just mismatches */
	copy[prism_tp_field__offset(ct)] = (uint8_t)id;
	copy[prism_tp_field__offset(ct) + 1] = (uint8_t)(id >> 8);
	if (*(const uint16_t *)"\1\0" != 1) {
		copy[prism_tp_field__offset(ct)] = (uint8_t)(id >> 8);
		copy[prism_tp_field__offset(ct) + 1] = (uint8_t)id;
	}
	one_payload(tp, copy, size, sb);
	free(copy);
}

static const uint8_t *find_sep(const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q = p;

	while (end - q >= (ptrdiff_t)SEP_LEN) {
		q = memchr(q, 0xff, (size_t)(end - q) - SEP_LEN + 1);
		if (!q)
			return NULL;
		if (!memcmp(q, SEP, SEP_LEN))
			return q;
		q++;
	}
	return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *end = data + size, *sep = find_sep(data, end), *p;
	struct prism_strbuf sb = STRBUF_INIT;
	size_t blob_size = sep ? (size_t)(sep - data) : size;
	struct prism_tp *tp;
	uint8_t *blob;
	size_t i, n;

	/* a private, exactly sized copy: reads past the blob are reported */
	blob = malloc(blob_size ? blob_size : 1);
	if (!blob)
		return 0;
	memcpy(blob, data, blob_size);
	tp = prism_tp__new(blob, blob_size);
	free(blob); /* the tp must not keep pointers into it */
	if (!tp)
		return 0;
	n = prism_tp__nr_events(tp);
	for (i = 0; i < n; i++) {
		const struct prism_tp_event *ev = prism_tp__event_at(tp, i);

		if (!ev || prism_tp__event(tp, prism_tp_event__id(ev)) == NULL)
			abort();
		touch(prism_tp_event__name(ev), strlen(prism_tp_event__name(ev)));
		touch(prism_tp_event__system(ev), strlen(prism_tp_event__system(ev)));
	}
	if (prism_tp__event_at(tp, n))
		abort();
	for (p = sep; p; p = sep) {
		const uint8_t *start = p + SEP_LEN;
		uint8_t *raw;
		size_t len;

		sep = find_sep(start, end);
		len = (size_t)((sep ? sep : end) - start);
		raw = malloc(len ? len : 1);
		if (!raw)
			break;
		memcpy(raw, start, len);
		one_payload(tp, raw, len, &sb);
		retarget(tp, raw, len, &sb);
		if (len >= 8) {
			const char *comm = prism_tp__comm(tp, (int)(raw[4] | raw[5] << 8));

			if (comm)
				touch(comm, strlen(comm));
		}
		free(raw);
	}
	prism_strbuf_release(&sb);
	prism_tp__free(tp);
	return 0;
}
