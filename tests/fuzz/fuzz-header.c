// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the perf.data header and its feature sections, the
 * `prism header` path (decoders, then printers), and the build ids that
 * symbolization takes from the BUILD_ID feature.
 *
 * An input that starts with a perf.data magic is a whole file: the session
 * is opened from it (header, attrs, feature table and sections; a pipe
 * stream is read to collect its feature records, as prism header does).
 * Any other input is a list of feature sections, each
 *	u8 feature bit, u8 flags (bit 0: other byte order), u32 length (LE),
 *	then that many bytes (cut at the end of the input),
 * decoded in the order given into one feature set: mutations land in the
 * section bytes instead of a file's data.  tests/fuzz/make-header-seeds.py
 * cuts such lists out of real files.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <prism/features.h>
#include <prism/log.h>
#include <prism/session.h>
#include <prism/strbuf.h>
#include <prism/symbol.h>

#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static volatile uint64_t sink;

/* format every message like a real log callback would */
static void log_cb(enum prism_log_level level, const char *fmt, va_list ap, void *ctx)
{
	char buf[1024];

	sink += (uint64_t)vsnprintf(buf, sizeof(buf), fmt, ap);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	prism_log_set(log_cb, NULL, PRISM_LOG_DEBUG);
	return 0;
}

static int nothing(void *ctx, const struct prism_event *ev)
{
	return 0;
}

/* what prism header prints, and the build ids as symbolization takes them */
static void print(const struct prism_features *f)
{
	struct prism_symbols_opts so = { .no_kernel = true, .no_proc_root = true };
	struct prism_strbuf sb = STRBUF_INIT;
	const struct prism_feat_build_ids *b = prism_features__build_ids(f);
	struct prism_symbols *sy;
	unsigned int feat;
	size_t i, n;

	prism_features__print(f, &sb);
	prism_features__print_missing(f, &sb);
	sink += sb.len;
	prism_strbuf_release(&sb);
	for (feat = 0; feat < 256; feat++) {
		const uint8_t *raw = prism_features__raw(f, feat, &n);

		if (!prism_features__has(f, feat))
			continue;
		sink += strlen(prism_features__name(feat));
		for (i = 0; raw && i < n; i++)
			sink += raw[i];
		if (prism_features__str(f, feat))
			sink += strlen(prism_features__str(f, feat));
	}
	for (i = 0; b && i < b->nr; i++) {
		const struct prism_feat_build_id *e = &b->entries[i];

		sink += e->misc + (uint64_t)e->pid + e->size +
			e->build_id[e->size < 20 ? e->size : 19];
		if (e->filename)
			sink += strlen(e->filename);
	}
	sy = prism_symbols__new(&so);
	if (!sy)
		abort();
	prism_symbols__set_features(sy, f);
	prism_symbols__free(sy);
}

static void whole_file(const uint8_t *data, size_t size)
{
	struct prism_session_opts opts = { 0 };
	const struct prism_tool tool = { .user = nothing };
	struct prism_session *s;

	opts.fd = fuzz_memfd(data, size);
	s = prism_session__open(&opts);
	if (s) {
		if (prism_session__file_info(s)->pipe)
			prism_session__process(s, &tool, NULL);
		print(prism_session__features(s));
		prism_session__free(s);
	}
	close(opts.fd);
}

static void sections(const uint8_t *data, size_t size)
{
	struct prism_features *f = prism_features__new();
	size_t pos = 0;

	if (!f)
		abort();
	while (size - pos >= 6) {
		unsigned int feat = data[pos];
		bool swap = data[pos + 1] & 1;
		uint32_t len = fuzz_le32(data + pos + 2);

		pos += 6;
		if (len > size - pos)
			len = (uint32_t)(size - pos);
		prism_features__decode(f, feat, data + pos, len, swap);
		pos += len;
	}
	print(f);
	prism_features__free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 8 && (!memcmp(data, "PERFILE2", 8) || !memcmp(data, "2ELIFREP", 8) ||
			  !memcmp(data, "PERFFILE", 8)))
		whole_file(data, size);
	else
		sections(data, size);
	return 0;
}
