// SPDX-License-Identifier: MIT
/*
 * prism script --itrace=d: the decoder's log, in ./intel_pt.log as perf
 * names it: each AUXTRACE record of the trace (its queue: cpu, tid, offset)
 * with its packets in perf report -D's layout, and each decoding error
 * line as the samples print it, in the order they come.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <prism/pt.h>
#include <prism/strbuf.h>

#include "script.h"

#define LOG_NAME "intel_pt.log"

int script_pt_log_open(struct pt_log *l)
{
	memset(l, 0, sizeof(*l));
	l->f = fopen(LOG_NAME, "w");
	if (!l->f)
		return -errno;
	prism_strbuf_init(&l->sb);
	return 0;
}

const char *script_pt_log_name(void)
{
	return LOG_NAME;
}

static int flush(void *ctx, struct prism_strbuf *sb)
{
	struct pt_log *l = ctx;

	if (fwrite(sb->buf, 1, sb->len, l->f) != sb->len)
		l->failed = true;
	prism_strbuf_reset(sb);
	return 0;
}

void script_pt_log_trace(struct pt_log *l, const struct prism_auxtrace *at)
{
	if (!l->f)
		return;
	prism_strbuf_addf(&l->sb,
			  "AUXTRACE size %#" PRIx64 " offset %#" PRIx64 " ref %#" PRIx64
			  " idx %u tid %d cpu %d\n",
			  at->size, at->offset, at->reference, at->idx, (int)at->tid, (int)at->cpu);
	prism_pt__dump_packets(at->data, at->size, &l->sb, flush, l);
	flush(l, &l->sb);
}

void script_pt_log_line(struct pt_log *l, const char *line, size_t len)
{
	if (!l->f)
		return;
	prism_strbuf_add(&l->sb, line, len);
	flush(l, &l->sb);
}

int script_pt_log_close(struct pt_log *l)
{
	int err = 0;

	if (!l->f)
		return 0;
	if (fclose(l->f) || l->failed)
		err = -EIO;
	l->f = NULL;
	prism_strbuf_release(&l->sb);
	return err;
}
