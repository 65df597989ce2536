// SPDX-License-Identifier: MIT
/* Intel PT decoding without libipt: not available */
#include <errno.h>

#include <prism/error.h>
#include <prism/pt.h>

struct prism_pt_decoder *prism_pt_decoder__new(const struct prism_pt_decoder_opts *o)
{
	(void)o;
	errno = PRISM_E_UNSUPPORTED;
	return NULL;
}

void prism_pt_decoder__free(struct prism_pt_decoder *d)
{
	(void)d;
}

int prism_pt_decoder__add(struct prism_pt_decoder *d, const struct prism_auxtrace *at)
{
	(void)d;
	(void)at;
	return -PRISM_E_UNSUPPORTED;
}

int prism_pt_decoder__side_band(struct prism_pt_decoder *d, const struct prism_event *ev)
{
	(void)d;
	(void)ev;
	return -PRISM_E_UNSUPPORTED;
}

int prism_pt_decoder__run(struct prism_pt_decoder *d,
			  int (*fn)(void *ctx, const struct prism_pt_item *it), void *ctx)
{
	(void)d;
	(void)fn;
	(void)ctx;
	return -PRISM_E_UNSUPPORTED;
}

void prism_pt_decoder__stats(const struct prism_pt_decoder *d, struct prism_pt_decoder_stats *st)
{
	(void)d;
	*st = (struct prism_pt_decoder_stats){ 0 };
}
