// SPDX-License-Identifier: MIT
/* feature probe: libdw */
#include <elfutils/libdwfl.h>
int main(void)
{
	Dwfl *d = dwfl_begin(NULL);
	dwfl_end(d);
	return 0;
}
