// SPDX-License-Identifier: MIT
/* feature probe: libiberty */
#include <libiberty/demangle.h>
int main(void)
{
	char *s = cplus_demangle("_Z1fv", DMGL_PARAMS);
	return s == 0;
}
