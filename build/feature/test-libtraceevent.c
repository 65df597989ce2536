// SPDX-License-Identifier: MIT
/* feature probe: libtraceevent */
#include <traceevent/event-parse.h>
int main(void)
{
	struct tep_handle *t = tep_alloc();
	tep_free(t);
	return 0;
}
