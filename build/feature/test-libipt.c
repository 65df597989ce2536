// SPDX-License-Identifier: MIT
/* feature probe: libipt (Intel Processor Trace decoder) */
#include <intel-pt.h>
int main(void)
{
	struct pt_config c;

	pt_config_init(&c);
	pt_pkt_free_decoder(pt_pkt_alloc_decoder(&c));
	return 0;
}
