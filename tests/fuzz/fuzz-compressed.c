// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: compressed perf.data streams (PERF_RECORD_COMPRESSED and
 * COMPRESSED2, lib/data/zstd.c and the reader's handling of the records
 * that come out of them, straddling payloads included).
 *
 * Mutating compressed bytes mostly yields zstd errors, so the input holds
 * the *decompressed* record stream: prism's writer compresses it the way
 * perf record -z does, in payloads of at most mmap_len bytes cut anywhere
 * in a record, and the session reads the result back.  The input:
 *	u8 flags, u8 sizes, u64 sample_type (LE), then the records
 * flags bit 0: pipe mode; bit 1: in pipe mode, COMPRESSED2 records instead
 * of COMPRESSED; bit 2: flip one byte of the written file (past the file
 * header; its position from the sizes byte and the input's length), which
 * reaches zstd's error paths and damaged record headers; bit 3: no_order;
 * bit 4: the records in two write_data pieces (a ring buffer's wrap);
 * bit 5: sample_id_all.  sizes bits 0-3: mmap_len = 64 << n (at most
 * 64 KiB), the bound of one payload's output.
 * tests/fuzz/make-compressed-seeds.py makes inputs from real files' data.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <prism/error.h>
#include <prism/event.h>
#include <prism/log.h>
#include <prism/session.h>

#include "data/writer.h"
#include "fuzz-input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define HDR_LEN 10

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

static int on_any(void *ctx, const struct prism_event *ev)
{
	const uint8_t *b = (const uint8_t *)ev->raw;
	size_t i;

	/* reading every byte makes ASan check the whole record */
	for (i = 0; i < ev->raw->size; i++)
		sink += b[i];
	if (ev->type == PERF_RECORD_SAMPLE) {
		const struct prism_sample *s = &ev->sample;

		for (i = 0; s->callchain && i < s->callchain_nr; i++)
			sink += s->callchain[i];
		for (i = 0; s->raw_data && i < s->raw_size; i++)
			sink += ((const uint8_t *)s->raw_data)[i];
	}
	return 0;
}

/* the whole memfd @fd into a malloc()ed buffer; aborts on failure */
static uint8_t *slurp(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	uint8_t *buf;

	if (end < 0)
		abort();
	buf = malloc((size_t)end + 1);
	if (!buf || pread(fd, buf, (size_t)end, 0) != end)
		abort();
	*len = (size_t)end;
	return buf;
}

/*
 * COMPRESSED (81: header, payload) records of a pipe stream rewritten as
 * COMPRESSED2 (83: header, u64 data_size, payload padded to 8 bytes); other
 * records are copied.  Return: the new stream (malloc()ed), its length in
 * *@out_len.
 */
static uint8_t *to_compressed2(const uint8_t *in, size_t len, size_t *out_len)
{
	uint8_t *out = malloc(2 * len + 64);
	size_t pos = 16, o = 16;

	if (!out || len < 16)
		abort();
	memcpy(out, in, 16);
	while (len - pos >= 8) {
		struct perf_event_header h;

		memcpy(&h, in + pos, sizeof(h));
		if (h.size < 8 || h.size > len - pos)
			break;
		if (h.type == PRISM_RECORD_COMPRESSED) {
			uint64_t n = h.size - 8u;
			struct perf_event_header h2 = { .type = PRISM_RECORD_COMPRESSED2,
							.size = (uint16_t)(16 +
									   ((n + 7) & ~7ull)) };

			memcpy(out + o, &h2, 8);
			memcpy(out + o + 8, &n, 8);
			memset(out + o + 16, 0, h2.size - 16u);
			memcpy(out + o + 16, in + pos + 8, n);
			o += h2.size;
		} else {
			memcpy(out + o, in + pos, h.size);
			o += h.size;
		}
		pos += h.size;
	}
	*out_len = o;
	return out;
}

/* the input's records compressed into a file (or pipe stream) in a memfd; -1 if refused */
static int write_stream(const uint8_t *data, size_t size, uint8_t flags, uint8_t sizes)
{
	const uint8_t *recs = data + HDR_LEN;
	size_t n = size - HDR_LEN, half = n / 2;
	struct prism_writer_opts o = {
		.fd = memfd_create("fuzz-out.data", MFD_CLOEXEC),
		.pipe = flags & 1,
		.compress_level = 1,
		.comp_mmap_len = (size_t)64 << ((sizes & 15) > 10 ? 10 : (sizes & 15)),
		.clockid = -1,
	};
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.size = sizeof(attr),
		.sample_period = 4000,
		.sample_type = (uint64_t)fuzz_le32(data + 2) | (uint64_t)fuzz_le32(data + 6) << 32,
		.sample_id_all = !!(flags & 32),
		.comm = 1,
		.task = 1,
		.mmap = 1,
	};
	static const uint64_t ids[] = { 1, 2 };
	struct prism_writer *w;
	int err;

	if (o.fd < 0)
		abort();
	attr.sample_type &= PERF_SAMPLE_MAX - 1;
	w = prism_writer__new(&o);
	if (!w) {
		if (errno == PRISM_E_NOFEATURE)
			exit(0); /* built without libzstd: nothing to fuzz */
		close(o.fd);
		return -1;
	}
	err = prism_writer__add_event(w, &attr, "cpu-clock", ids, 2, -1, 0);
	if (!err)
		err = prism_writer__start(w);
	if (!err && (flags & 16))
		err = prism_writer__write_data(w, recs, half, recs + half, n - half);
	else if (!err)
		err = prism_writer__write_data(w, recs, n, NULL, 0);
	if (!err)
		err = prism_writer__finished_round(w);
	if (!err)
		err = prism_writer__finish(w);
	prism_writer__free(w);
	if (err) {
		close(o.fd);
		return -1;
	}
	return o.fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prism_tool tool = {
		.sample = on_any,
		.mmap = on_any,
		.comm = on_any,
		.fork = on_any,
		.exit = on_any,
		.other = on_any,
		.user = on_any,
		.other_all = true,
	};
	struct prism_session_opts opts = { 0 };
	struct prism_session *s;
	uint8_t flags, *file, *c2;
	size_t len;
	int fd;

	if (size < HDR_LEN)
		return 0;
	flags = data[0];
	fd = write_stream(data, size, flags, data[1]);
	if (fd < 0)
		return 0;
	file = slurp(fd, &len);
	close(fd);
	if ((flags & 3) == 3) {
		c2 = to_compressed2(file, len, &len);
		free(file);
		file = c2;
	}
	if ((flags & 4) && len > 16) {
		/* past the pipe header, or anywhere in a file's attrs, data and features */
		size_t at = 16 + ((size_t)data[1] * 131 + size) % (len - 16);

		file[at] ^= 0xff;
	}
	opts.fd = fuzz_memfd(file, len);
	opts.no_order = flags & 8;
	free(file);
	s = prism_session__open(&opts);
	if (s) {
		prism_session__process(s, &tool, NULL);
		sink += prism_session__stats(s)->nr_records_total;
		prism_session__free(s);
	}
	close(opts.fd);
	return 0;
}
