// SPDX-License-Identifier: MIT
/* feature probe: libipt */
#include <intel-pt.h>
int main(void)
{
	struct pt_version v = pt_library_version();
	return v.major < 2;
}
