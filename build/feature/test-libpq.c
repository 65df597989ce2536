// SPDX-License-Identifier: MIT
/* feature probe: libpq */
#include <libpq-fe.h>
int main(void)
{
	return PQlibVersion() > 0 ? 0 : 1;
}
