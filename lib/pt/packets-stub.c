// SPDX-License-Identifier: MIT
/* prism_pt__dump_packets without libipt: the size line only */
#include <prism/error.h>
#include <prism/pt.h>
#include <prism/strbuf.h>

int prism_pt__dump_packets(const uint8_t *data, size_t len, struct prism_strbuf *sb,
			   int (*flush)(void *ctx, struct prism_strbuf *sb), void *ctx)
{
	(void)data;
	(void)flush;
	(void)ctx;
	prism_strbuf_addf(sb, ". ... Intel Processor Trace data: size %zu bytes\n", len);
	return -PRISM_E_UNSUPPORTED;
}
